#include "engine/planning/normalization.hpp"

#include <cmath>

namespace oocfft::engine {

double norm_scale(Norm norm, Direction direction, std::size_t points) {
  const double n = static_cast<double>(points);
  switch (norm) {
    case Norm::backward: return direction == Direction::inverse ? 1.0 / n : 1.0;
    case Norm::forward: return direction == Direction::forward ? 1.0 / n : 1.0;
    case Norm::ortho: return 1.0 / std::sqrt(n);
  }
  return 1.0;
}

}  // namespace oocfft::engine
