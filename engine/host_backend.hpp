#pragma once
// The host backend's in-core volume transform: x lines, then y, then z, each
// a batched line transform by the host executor, the norm factor applied in
// the last pass over the data.
#include "engine/axis_plans.hpp"
#include "kernels/complex.hpp"
#include "oocfft/shape.hpp"

namespace oocfft::engine {

template <class T>
void transform_volume_host(const AxisPlans<T>& plans, kernels::Complex<T>* data, const Shape& shape, bool inverse,
                           T scale);

extern template void transform_volume_host<float>(const AxisPlans<float>&, kernels::Complex<float>*, const Shape&,
                                                  bool, float);
extern template void transform_volume_host<double>(const AxisPlans<double>&, kernels::Complex<double>*,
                                                   const Shape&, bool, double);

}  // namespace oocfft::engine
