#pragma once
// The implementation of a public plan object, or Error(invalid_argument)
// for an object that was moved from: a moved-from Plan is empty, and
// calling it must not dereference null (it used to end the process).
#include <memory>
#include <string>

#include "oocfft/error.hpp"

namespace oocfft::engine {

template <class Impl>
Impl& live_impl(const std::unique_ptr<Impl>& impl, const char* type) {
  if (!impl)
    throw Error(ErrorKind::invalid_argument,
                std::string("this ") + type + " was moved from and holds no plan; make a new one");
  return *impl;
}

}  // namespace oocfft::engine
