#pragma once
// The host executor's transform of one staged brick along a set of its
// axes: the host backend's stand-in for the device kernels in the
// streaming pipeline, so CI runs every strategy through the same pipeline.
#include "core/geometry.hpp"
#include "engine/backends/host/axis_plans.hpp"
#include "kernels/complex.hpp"

namespace oocfft::engine {

// `staged` is the brick as it lies in the buffer (oocfft::staged_shape);
// `layout` says which volume axis its x axis is, to pick the line plan.
// The scale is applied by the last axis transformed.
template <class T>
void transform_brick_host(const AxisPlans<T>& plans, kernels::Complex<T>* data, const oocfft::Shape& staged,
                          oocfft::AxisSet axes, oocfft::BrickLayout layout, bool inverse, T scale);

extern template void transform_brick_host<float>(const AxisPlans<float>&, kernels::Complex<float>*,
                                                 const oocfft::Shape&, oocfft::AxisSet,
                                                 oocfft::BrickLayout, bool, float);
extern template void transform_brick_host<double>(const AxisPlans<double>&, kernels::Complex<double>*,
                                                  const oocfft::Shape&, oocfft::AxisSet,
                                                  oocfft::BrickLayout, bool, double);

}  // namespace oocfft::engine
