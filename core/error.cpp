#include "oocfft/error.hpp"

namespace oocfft {

const char* to_string(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::invalid_argument: return "invalid_argument";
    case ErrorKind::out_of_memory: return "out_of_memory";
    case ErrorKind::io: return "io";
    case ErrorKind::cuda: return "cuda";
    case ErrorKind::unsupported: return "unsupported";
    case ErrorKind::cancelled: return "cancelled";
  }
  return "unknown";
}

Error::Error(ErrorKind kind, const std::string& message)
    : std::runtime_error(std::string("oocfft: ") + to_string(kind) + ": " + message), kind_(kind) {}

}  // namespace oocfft
