#pragma once
// Which backend runs a plan: the caller's choice, or for Backend::automatic
// the CUDA backend when this build has it and a device answers.
#include "oocfft/options.hpp"

namespace oocfft::engine {

// Never returns Backend::automatic. Throws Error(unsupported) when the CUDA
// backend is asked for and is not usable, naming why.
Backend resolve_backend(Backend requested);

}  // namespace oocfft::engine
