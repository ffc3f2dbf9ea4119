#pragma once
// AxisPlans<T>: the host executor's 1D line plans of the three axes of a
// volume, shared when two axes have the same length.
#include <memory>
#include <string>

#include "kernels/line_plan.hpp"
#include "oocfft/shape.hpp"

namespace oocfft::engine {

template <class T>
struct AxisPlans {
  std::shared_ptr<const kernels::LinePlan<T>> z, y, x;

  explicit AxisPlans(const Shape& shape);
  // One line per axis: length, algorithm, radices and the cost model's reason.
  std::string describe() const;
};

extern template struct AxisPlans<float>;
extern template struct AxisPlans<double>;

}  // namespace oocfft::engine
