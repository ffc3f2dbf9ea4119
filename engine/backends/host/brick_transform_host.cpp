#include "engine/backends/host/brick_transform_host.hpp"

#include "kernels/host_executor.hpp"
#include "kernels/real_lines.hpp"
#include "kernels/trig_lines.hpp"

#include <vector>

namespace oocfft::engine {

namespace {

// The trigonometric transforms: a real-to-real line along each axis of
// `axes` longer than one point (a point alone only scales, which the caller
// folds into `scale`), the scale applied by the last.
template <class T>
void transform_trig_brick_host(const AxisPlans<T>& plans, T* data, const oocfft::Shape& b, oocfft::AxisSet axes,
                               oocfft::BrickLayout layout, bool inverse, T scale) {
  using kernels::LineBatch;
  const auto nx = static_cast<std::ptrdiff_t>(b.nx);
  const auto plane = static_cast<std::ptrdiff_t>(b.ny * b.nx);
  // In the line layouts the staged x axis holds the volume's y or z lines.
  const int x_axis = layout == oocfft::BrickLayout::y_lines ? 1 : layout == oocfft::BrickLayout::z_lines ? 0 : 2;
  struct Step {
    const kernels::TrigLinePlan<T>* plan;
    LineBatch lines;
  };
  std::vector<Step> steps;
  if (axes.x && b.nx > 1) steps.push_back({&plans.trig(x_axis, inverse), LineBatch{b.nx, 1, b.ny * b.nz, nx, 1, 0}});
  if (axes.y && b.ny > 1) steps.push_back({&plans.trig(1, inverse), LineBatch{b.ny, nx, b.nx, 1, b.nz, plane}});
  if (axes.z && b.nz > 1) steps.push_back({&plans.trig(0, inverse), LineBatch{b.nz, plane, b.ny * b.nx, 1, 1, 0}});
  if (steps.empty()) {
    if (scale != T(1))
      for (std::size_t i = 0; i < b.elements(); ++i) data[i] *= scale;
    return;
  }
  for (std::size_t i = 0; i < steps.size(); ++i)
    kernels::execute_trig_lines_host(*steps[i].plan, data, steps[i].lines, i + 1 == steps.size() ? scale : T(1));
}

}  // namespace

template <class T>
void transform_brick_host(const AxisPlans<T>& plans, kernels::Complex<T>* data, const oocfft::Shape& b,
                          oocfft::AxisSet axes, oocfft::BrickLayout layout, bool inverse, T scale) {
  using kernels::LineBatch;
  const auto nx = static_cast<std::ptrdiff_t>(b.nx);
  const auto plane = static_cast<std::ptrdiff_t>(b.ny * b.nx);
  // In the line layouts the staged x axis holds the volume's y or z lines.
  const kernels::LinePlan<T>& x_plan = layout == oocfft::BrickLayout::y_lines   ? *plans.y
                                       : layout == oocfft::BrickLayout::z_lines ? *plans.z
                                                                                   : *plans.x;
  if (!plans.trig_forward.empty()) {
    transform_trig_brick_host(plans, reinterpret_cast<T*>(data), b, axes, layout, inverse, scale);
    return;
  }
  // A real transform's x stage runs on every natural brick along x, even
  // a half spectrum of one value (its imaginary part is set there): real
  // rows to the half spectrum first (forward), back to real rows last.
  const bool real_x = plans.real_x != nullptr && layout == oocfft::BrickLayout::natural && axes.x;
  const bool run_x = axes.x && b.nx > 1 && !real_x, run_y = axes.y && b.ny > 1, run_z = axes.z && b.nz > 1;
  if (!run_x && !run_y && !run_z && !real_x) {
    if (scale != T(1))
      for (std::size_t i = 0; i < b.elements(); ++i) data[i] = scale * data[i];
    return;
  }
  auto* reals = reinterpret_cast<T*>(data);
  const std::size_t rows = b.nz * b.ny, row_pitch = 2 * b.nx;
  if (real_x && !inverse)
    kernels::execute_real_rows_host(*plans.real_x, reals, rows, row_pitch, false, run_y || run_z ? T(1) : scale);
  const bool x_last = real_x && inverse;
  if (run_x)
    kernels::execute_lines_host(x_plan, data, LineBatch{b.nx, 1, b.ny * b.nz, nx, 1, 0}, inverse,
                                run_y || run_z ? T(1) : scale);
  if (run_y)
    kernels::execute_lines_host(*plans.y, data, LineBatch{b.ny, nx, b.nx, 1, b.nz, plane}, inverse,
                                run_z || x_last ? T(1) : scale);
  if (run_z)
    kernels::execute_lines_host(*plans.z, data, LineBatch{b.nz, plane, b.ny * b.nx, 1, 1, 0}, inverse,
                                x_last ? T(1) : scale);
  if (x_last) kernels::execute_real_rows_host(*plans.real_x, reals, rows, row_pitch, true, scale);
}

template void transform_brick_host<float>(const AxisPlans<float>&, kernels::Complex<float>*,
                                          const oocfft::Shape&, oocfft::AxisSet, oocfft::BrickLayout,
                                          bool, float);
template void transform_brick_host<double>(const AxisPlans<double>&, kernels::Complex<double>*,
                                           const oocfft::Shape&, oocfft::AxisSet, oocfft::BrickLayout,
                                           bool, double);

}  // namespace oocfft::engine
