#include "oocfft/error.hpp"

namespace oocfft {

Error::Error(ErrorKind kind, const std::string& message)
    : std::runtime_error(std::string("oocfft: ") + to_string(kind) + ": " + message), kind_(kind) {}

}  // namespace oocfft
