#include "oocfft/error.hpp"

#include "oocfft/options.hpp"

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

const char* to_string(Direction d) noexcept { return d == Direction::forward ? "forward" : "inverse"; }

const char* to_string(Norm n) noexcept {
  switch (n) {
    case Norm::backward: return "backward";
    case Norm::ortho: return "ortho";
    case Norm::forward: return "forward";
  }
  return "?";
}

const char* to_string(Backend b) noexcept {
  switch (b) {
    case Backend::automatic: return "automatic";
    case Backend::host: return "host";
    case Backend::cuda: return "cuda";
  }
  return "?";
}

const char* to_string(Precision p) noexcept { return p == Precision::single ? "single" : "double"; }

}  // namespace oocfft
