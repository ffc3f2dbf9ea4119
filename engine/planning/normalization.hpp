#pragma once
// The factor numpy's `norm=` applies after a transform of `points` points.
#include <cstddef>

#include "oocfft/options.hpp"

namespace oocfft::engine {

double norm_scale(Norm norm, Direction direction, std::size_t points);

}  // namespace oocfft::engine
