#include "engine/api/trig_volume.hpp"

#include <algorithm>
#include <cstddef>

namespace oocfft::engine {

namespace {

kernels::TrigKind kind_of(TrigTransform t) {
  switch (t) {
    case TrigTransform::dct2: return kernels::TrigKind::dct2;
    case TrigTransform::dct3: return kernels::TrigKind::dct3;
    case TrigTransform::dst2: return kernels::TrigKind::dst2;
    case TrigTransform::dst3: return kernels::TrigKind::dst3;
  }
  return kernels::TrigKind::dct2;
}

bool type_two(kernels::TrigKind k) { return k == kernels::TrigKind::dct2 || k == kernels::TrigKind::dst2; }

}  // namespace

kernels::VolumeTransform trig_volume_transform(TrigTransform transform, Norm norm) {
  return kernels::VolumeTransform{kernels::TransformKind::trig, 0, kind_of(transform),
                                  norm == Norm::ortho ? kernels::TrigNorm::ortho : kernels::TrigNorm::none};
}

double trig_scale(TrigTransform transform, Norm norm, const Shape& shape, Direction direction, unsigned rank) {
  if (norm == Norm::ortho) return 1.0;
  const bool inverse = direction == Direction::inverse;
  const kernels::TrigKind run_kind = inverse ? kernels::inverse_kind(kind_of(transform)) : kind_of(transform);
  const std::size_t axes[] = {shape.nz, shape.ny, shape.nx};
  double s = 1.0;
  for (unsigned a = 3 - std::min(rank, 3u); a < 3; ++a) {
    const std::size_t n = axes[a];
    if (n == 1 && type_two(run_kind)) s *= 2.0;
    const bool divides = (norm == Norm::backward) == inverse;
    if (divides) s /= 2.0 * double(n);
  }
  return s;
}

}  // namespace oocfft::engine
