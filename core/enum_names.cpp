// The names of the public enums, as the CLI and describe() spell them.
#include "oocfft/asm.hpp"
#include "oocfft/options.hpp"

namespace oocfft {

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

const char* to_string(Strategy s) noexcept {
  switch (s) {
    case Strategy::automatic: return "automatic";
    case Strategy::in_core: return "in_core";
    case Strategy::two_pass: return "two_pass";
    case Strategy::three_pass: return "three_pass";
    case Strategy::line_transpose: return "line_transpose";
  }
  return "?";
}

const char* to_string(HostRegistration r) noexcept {
  switch (r) {
    case HostRegistration::automatic: return "automatic";
    case HostRegistration::on: return "on";
    case HostRegistration::off: return "off";
  }
  return "?";
}

const char* to_string(AsmMode m) noexcept {
  switch (m) {
    case AsmMode::propagate: return "propagate";
    case AsmMode::refocus: return "refocus";
    case AsmMode::layer_sum: return "layer_sum";
  }
  return "?";
}

}  // namespace oocfft
