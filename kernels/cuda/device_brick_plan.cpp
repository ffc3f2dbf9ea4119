#include "kernels/cuda/device_brick_plan.hpp"

#include <algorithm>

#include "kernels/cuda/device_limits.hpp"
#include "kernels/cuda/device_line_plan.hpp"
#include "kernels/cuda/schedule_registry.hpp"
#include "kernels/cuda/tile_job.hpp"

namespace oocfft::kernels::cuda {

namespace {

// The lines of each axis of a [nz][ny][nx] brick. x lines are contiguous;
// y and z lines take the x positions as neighbouring lanes so that a tile
// reads whole rows (the strided-axis kernel, no transpose pass).
StridedLines x_lines(const BrickShape& s) {
  return {s.nx, 1, static_cast<std::int64_t>(s.ny * s.nz), static_cast<std::int64_t>(s.nx), 1, 0};
}
StridedLines y_lines(const BrickShape& s) {
  const auto nx = static_cast<std::int64_t>(s.nx), ny = static_cast<std::int64_t>(s.ny);
  if (s.nx == 1) return {s.ny, 1, static_cast<std::int64_t>(s.nz), ny, 1, 0};  // rows of a [z][y] brick
  return {s.ny, nx, nx, 1, static_cast<std::int64_t>(s.nz), nx * ny};
}
StridedLines z_lines(const BrickShape& s) {
  const auto plane = static_cast<std::int64_t>(s.nx * s.ny);
  return {s.nz, plane, plane, 1, 1, 0};
}

}  // namespace

template <class T>
class DeviceBrickPlan<T>::Impl {
 public:
  BrickShape max_shape;
  AxisSet axes;
  TileKernels kernels = TileKernels::compiled_where_available;
  // Axes of equal length share one plan (and its tables).
  std::shared_ptr<DeviceLinePlan<T>> x, y, z;
};

template <class T>
DeviceBrickPlan<T>::DeviceBrickPlan(BrickShape max_shape, AxisSet axes, TileKernels kernels) : impl_(std::make_unique<Impl>()) {
  const DeviceLimits limits = DeviceLimits::current();
  impl_->max_shape = max_shape;
  impl_->axes = axes;
  impl_->kernels = kernels;
  std::vector<std::shared_ptr<DeviceLinePlan<T>>> made;
  auto plan_for = [&](std::size_t n) {
    for (const auto& p : made)
      if (p->length() == n) return p;
    made.push_back(std::make_shared<DeviceLinePlan<T>>(n, limits, kernels));
    return made.back();
  };
  // Axes of length 1 are the identity and get no plan.
  if (axes.x && max_shape.nx > 1) impl_->x = plan_for(max_shape.nx);
  if (axes.y && max_shape.ny > 1) impl_->y = plan_for(max_shape.ny);
  if (axes.z && max_shape.nz > 1) impl_->z = plan_for(max_shape.nz);
}

template <class T>
DeviceBrickPlan<T>::~DeviceBrickPlan() = default;
template <class T>
DeviceBrickPlan<T>::DeviceBrickPlan(DeviceBrickPlan&&) noexcept = default;
template <class T>
DeviceBrickPlan<T>& DeviceBrickPlan<T>::operator=(DeviceBrickPlan&&) noexcept = default;

template <class T>
std::size_t DeviceBrickPlan<T>::workspace_bytes() const {
  const BrickShape& s = impl_->max_shape;
  std::size_t bytes = 0;
  if (impl_->x) bytes = std::max(bytes, impl_->x->workspace_bytes(x_lines(s)));
  if (impl_->y) bytes = std::max(bytes, impl_->y->workspace_bytes(y_lines(s)));
  if (impl_->z) bytes = std::max(bytes, impl_->z->workspace_bytes(z_lines(s)));
  return bytes;
}

template <class T>
std::size_t DeviceBrickPlan<T>::table_bytes() const {
  std::size_t bytes = 0;
  const DeviceLinePlan<T>* seen[3] = {nullptr, nullptr, nullptr};
  int count = 0;
  for (const auto& p : {impl_->x, impl_->y, impl_->z}) {
    if (!p || std::find(seen, seen + count, p.get()) != seen + count) continue;
    seen[count++] = p.get();
    bytes += p->table_bytes();
  }
  return bytes;
}

template <class T>
void DeviceBrickPlan<T>::execute(Complex<T>* data, BrickShape shape, void* workspace, bool inverse, T scale,
                                 cudaStream_t stream) const {
  const Impl& p = *impl_;
  const BrickShape& m = p.max_shape;
  auto refuse = [&](const char* why) {
    throw Error(ErrorKind::invalid_argument,
                std::string("DeviceBrickPlan::execute: brick ") + std::to_string(shape.nz) + "x" +
                    std::to_string(shape.ny) + "x" + std::to_string(shape.nx) + " " + why + " (plan " +
                    std::to_string(m.nz) + "x" + std::to_string(m.ny) + "x" + std::to_string(m.nx) + ")");
  };
  if (shape.nx > m.nx || shape.ny > m.ny || shape.nz > m.nz) refuse("is larger than the plan's brick");
  if ((p.axes.x && shape.nx != m.nx) || (p.axes.y && shape.ny != m.ny) || (p.axes.z && shape.nz != m.nz))
    refuse("differs from the plan along a transformed axis");
  if (data == nullptr) refuse("has a null data pointer");
  if (shape.elements() == 0) return;
  // x, then y, then z; the norm factor goes with the last pass over the data.
  const DeviceLinePlan<T>* order[3] = {p.x.get(), p.y.get(), p.z.get()};
  const StridedLines lines[3] = {x_lines(shape), y_lines(shape), z_lines(shape)};
  int last = -1;
  for (int a = 0; a < 3; ++a)
    if (order[a] != nullptr) last = a;
  if (last < 0) {
    if (scale != T(1)) launch_scale(data, static_cast<std::int64_t>(shape.elements()), scale, stream);
    return;
  }
  for (int a = 0; a <= last; ++a)
    if (order[a] != nullptr) order[a]->execute(data, lines[a], workspace, inverse, a == last ? scale : T(1), stream);
}

template <class T>
std::string DeviceBrickPlan<T>::describe() const {
  std::string s;
  const char* names[3] = {"x", "y", "z"};
  const DeviceLinePlan<T>* order[3] = {impl_->x.get(), impl_->y.get(), impl_->z.get()};
  const BrickShape& m = impl_->max_shape;
  const StridedLines lines[3] = {x_lines(m), y_lines(m), z_lines(m)};
  for (int a = 0; a < 3; ++a) {
    if (order[a] == nullptr) continue;
    s += std::string("  device axis ") + names[a] + ": " + order[a]->describe() + (a == 0 ? "" : ", strided lanes") +
         "; tiles: " + to_string(order[a]->tile_kernel(lines[a])) + "\n";
  }
  if (s.empty()) return "  device: no axis longer than 1\n";
  return s + "  tile kernels: " + to_string(impl_->kernels) + " (compiled set: " + kernel_set() + ")\n";
}

template <class T>
std::string DeviceBrickPlan<T>::tile_kernels_used() const {
  const DeviceLinePlan<T>* order[3] = {impl_->x.get(), impl_->y.get(), impl_->z.get()};
  const BrickShape& m = impl_->max_shape;
  const StridedLines lines[3] = {x_lines(m), y_lines(m), z_lines(m)};
  std::string used;
  for (int a = 0; a < 3; ++a) {
    if (order[a] == nullptr) {
      used += '-';
    } else {
      used += order[a]->tile_kernel(lines[a]) == TileKernel::compiled_schedule ? 'S' : 'G';
    }
  }
  return used;
}

const char* to_string(TileKernels kernels) noexcept {
  return kernels == TileKernels::general_only ? "general (run-time length) only"
                                              : "compiled schedules where built, general otherwise";
}

template class DeviceBrickPlan<float>;
template class DeviceBrickPlan<double>;

}  // namespace oocfft::kernels::cuda
