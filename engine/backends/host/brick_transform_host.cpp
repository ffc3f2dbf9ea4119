#include "engine/backends/host/brick_transform_host.hpp"

#include "kernels/host_executor.hpp"
#include "kernels/real_lines.hpp"

namespace oocfft::engine {

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
