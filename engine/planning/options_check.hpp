#pragma once
// Refusal of options no plan can honour, before anything is planned or
// touched: enum values outside their enumerations (a cast integer), which
// would otherwise fall through the engine's switches silently.
#include "oocfft/options.hpp"

namespace oocfft::engine {

// Throws Error(invalid_argument) naming the field and the value.
void check_options(const Options& options);
void check_direction(Direction direction);

}  // namespace oocfft::engine
