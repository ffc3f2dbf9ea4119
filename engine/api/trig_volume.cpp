#include "engine/api/trig_volume.hpp"

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

double trig_scale(TrigTransform transform, Norm norm, const Shape& shape, Direction direction) {
  if (norm == Norm::ortho) return 1.0;
  const bool inverse = direction == Direction::inverse;
  const kernels::TrigKind run_kind = inverse ? kernels::inverse_kind(kind_of(transform)) : kind_of(transform);
  double s = 1.0;
  for (const std::size_t n : {shape.nz, shape.ny, shape.nx}) {
    if (n == 1 && type_two(run_kind)) s *= 2.0;
    const bool divides = (norm == Norm::backward) == inverse;
    if (divides) s /= 2.0 * double(n);
  }
  return s;
}

}  // namespace oocfft::engine
