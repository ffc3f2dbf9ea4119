#include "oocfft/error.hpp"

#include <algorithm>
#include <cstring>

namespace oocfft {

Error::Error(ErrorKind kind, const std::string& message)
    : std::runtime_error(std::string("oocfft: ") + to_string(kind) + ": " + message), kind_(kind) {}

std::string Error::message() const {
  const std::string full = what();
  const std::size_t prefix = std::strlen("oocfft: ") + std::strlen(to_string(kind_)) + std::strlen(": ");
  return full.substr(std::min(prefix, full.size()));
}

}  // namespace oocfft
