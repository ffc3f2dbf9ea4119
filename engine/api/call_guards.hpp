#pragma once
// What every call of the public plan objects (Plan, RealPlan, TrigPlan)
// goes through before it reaches its implementation.
#include <cstdint>
#include <memory>
#include <new>
#include <string>

#include "oocfft/error.hpp"

namespace oocfft::engine {

// The implementation of a plan object, or Error(invalid_argument) for an
// object that was moved from: a moved-from Plan is empty, and calling it
// must not dereference null (it used to end the process).
template <class Impl>
Impl& live_impl(const std::unique_ptr<Impl>& impl, const char* type) {
  if (!impl)
    throw Error(ErrorKind::invalid_argument,
                std::string("this ") + type + " was moved from and holds no plan; make a new one");
  return *impl;
}

// Out of place means two arrays: overlapping ones would be read after
// being written. Throws Error(invalid_argument) with `message` when
// [a, a + a_bytes) and [b, b + b_bytes) overlap.
inline void check_apart(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes,
                        const std::string& message) {
  const auto a0 = reinterpret_cast<std::uintptr_t>(a), b0 = reinterpret_cast<std::uintptr_t>(b);
  if (a0 < b0 + b_bytes && b0 < a0 + a_bytes) throw Error(ErrorKind::invalid_argument, message);
}

// Every allocation failure inside the library reaches the caller as
// Error(out_of_memory), naming what was being done.
template <class F>
auto out_of_memory_as_error(const std::string& what, F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::out_of_memory, what + ": the host memory could not be had (std::bad_alloc)");
  }
}

}  // namespace oocfft::engine
