#include "engine/host_backend.hpp"

#include "kernels/host_executor.hpp"

namespace oocfft::engine {

template <class T>
void transform_volume_host(const AxisPlans<T>& plans, kernels::Complex<T>* data, const Shape& shape, bool inverse,
                           T scale) {
  using kernels::LineBatch;
  const auto nx = static_cast<std::ptrdiff_t>(shape.nx);
  const auto plane = static_cast<std::ptrdiff_t>(shape.ny * shape.nx);
  const LineBatch x_lines{shape.nx, 1, shape.ny * shape.nz, nx, 1, 0};
  const LineBatch y_lines{shape.ny, nx, shape.nx, 1, shape.nz, plane};
  const LineBatch z_lines{shape.nz, plane, shape.ny * shape.nx, 1, 1, 0};
  // Axes of length 1 are skipped; the scale goes with the last pass that runs.
  const bool run_x = shape.nx > 1, run_y = shape.ny > 1, run_z = shape.nz > 1;
  if (!run_x && !run_y && !run_z) {
    data[0] = scale * data[0];
    return;
  }
  if (run_x) kernels::execute_lines_host(*plans.x, data, x_lines, inverse, run_y || run_z ? T(1) : scale);
  if (run_y) kernels::execute_lines_host(*plans.y, data, y_lines, inverse, run_z ? T(1) : scale);
  if (run_z) kernels::execute_lines_host(*plans.z, data, z_lines, inverse, scale);
}

template void transform_volume_host<float>(const AxisPlans<float>&, kernels::Complex<float>*, const Shape&, bool,
                                           float);
template void transform_volume_host<double>(const AxisPlans<double>&, kernels::Complex<double>*, const Shape&, bool,
                                            double);

}  // namespace oocfft::engine
