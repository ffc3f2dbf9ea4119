#pragma once
// AxisPlans<T>: the host executor's 1D line plans of the three axes of a
// volume, shared when two axes have the same length.
#include <memory>
#include <string>
#include <vector>

#include "kernels/line_plan.hpp"
#include "kernels/real_lines.hpp"
#include "kernels/trig_lines.hpp"
#include "kernels/volume_transform.hpp"
#include "oocfft/shape.hpp"

namespace oocfft::engine {

template <class T>
struct AxisPlans {
  std::shared_ptr<const kernels::LinePlan<T>> z, y, x;
  // A real transform's x stage (kernels/volume_transform.hpp): real rows
  // of this length to the half spectrum, whose length `x` then has.
  // Null for the complex transform.
  std::shared_ptr<const kernels::RealLinePlan<T>> real_x;
  // The trigonometric transforms: every axis a real-to-real line, the
  // forward kind (scipy's dctn/dstn type) and its inverse, z, y, x. Empty
  // otherwise.
  std::vector<std::shared_ptr<const kernels::TrigLinePlan<T>>> trig_forward, trig_inverse;

  // The trigonometric plan of the volume axis (z 0, y 1, x 2) for a run's direction.
  const kernels::TrigLinePlan<T>& trig(int axis, bool inverse) const {
    return inverse ? *trig_inverse[axis] : *trig_forward[axis];
  }

  // `shape`: the volume the passes see (a real transform's half spectrum).
  explicit AxisPlans(const Shape& shape, const kernels::VolumeTransform& transform = {});
  // One line per axis: length, algorithm, radices and the cost model's reason.
  std::string describe() const;
};

extern template struct AxisPlans<float>;
extern template struct AxisPlans<double>;

}  // namespace oocfft::engine
