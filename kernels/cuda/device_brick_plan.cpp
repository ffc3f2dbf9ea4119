#include "kernels/cuda/device_brick_plan.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "kernels/cuda/cubin_cache.hpp"
#include "kernels/cuda/device_limits.hpp"
#include "kernels/cuda/device_line_plan.hpp"
#include "kernels/cuda/plan_time_schedules.hpp"
#include "kernels/cuda/schedule_registry.hpp"
#include "kernels/cuda/tile_job.hpp"

namespace oocfft::kernels::cuda {

LineBatch x_lines(const Shape& s) {
  return {s.nx, 1, s.ny * s.nz, static_cast<std::ptrdiff_t>(s.nx), 1, 0};
}
LineBatch y_lines(const Shape& s) {
  const auto nx = static_cast<std::ptrdiff_t>(s.nx), ny = static_cast<std::ptrdiff_t>(s.ny);
  if (s.nx == 1) return {s.ny, 1, s.nz, ny, 1, 0};  // rows of a [z][y] brick
  return {s.ny, nx, s.nx, 1, s.nz, nx * ny};
}
LineBatch z_lines(const Shape& s) {
  const auto plane = static_cast<std::ptrdiff_t>(s.nx * s.ny);
  return {s.nz, plane, s.nx * s.ny, 1, 1, 0};
}

template <class T>
class DeviceBrickPlan<T>::Impl {
 public:
  Shape max_shape;
  AxisSet axes;
  TileKernels kernels = TileKernels::compiled_where_available;
  // Why the compiled tiles are off on this device ("" where they are not).
  std::string compiled_tiles_off;
  // Axes of equal length share one plan (and its tables).
  std::shared_ptr<DeviceLinePlan<T>> x, y, z;
  std::shared_ptr<PlanTimeSchedules> plan_time;

  // The axes' line plans and their lines on the largest brick, x, y, z.
  std::array<const DeviceLinePlan<T>*, 3> plans() const { return {x.get(), y.get(), z.get()}; }
  std::array<LineBatch, 3> lines() const { return {x_lines(max_shape), y_lines(max_shape), z_lines(max_shape)}; }
  void prepare_plan_time(std::shared_ptr<PlanTimeSchedules> given, const std::filesystem::path& cache_directory);
};

// The schedules the axes need that the build lacks, compiled (or loaded)
// once each, then handed to every line plan.
template <class T>
void DeviceBrickPlan<T>::Impl::prepare_plan_time(std::shared_ptr<PlanTimeSchedules> given,
                                                 const std::filesystem::path& cache_directory) {
  const auto axis_plans = plans();
  const auto axis_lines = lines();
  std::vector<ScheduleKey> wanted;
  for (int a = 0; a < 3; ++a)
    if (axis_plans[a] != nullptr)
      for (const ScheduleKey& key : axis_plans[a]->plan_time_keys(axis_lines[a])) wanted.push_back(key);
  // No NVRTC and no cache directory for a plan the build serves alone, or
  // one whose schedules are of no family NVRTC is asked for.
  if (std::none_of(wanted.begin(), wanted.end(), [](const ScheduleKey& k) { return !outside_plan_time_family(k); }))
    return;
  plan_time = given ? std::move(given)
                    : std::make_shared<PlanTimeSchedules>(CubinCache(
                          cache_directory.empty() ? default_kernel_cache_directory() : cache_directory));
  for (const ScheduleKey& key : wanted) plan_time->prepare(key);
  for (const auto& p : {x, y, z})
    if (p) p->use_plan_time(plan_time);
}

template <class T>
DeviceBrickPlan<T>::DeviceBrickPlan(Shape max_shape, AxisSet axes, TileKernels kernels,
                                    std::shared_ptr<PlanTimeSchedules> plan_time,
                                    const std::filesystem::path& cache_directory)
    : impl_(std::make_unique<Impl>()) {
  const DeviceLimits limits = DeviceLimits::current();
  // The compiled tiles' shapes were fixed for the bounds of
  // tile_resources.hpp: a device below them runs the general kernel.
  impl_->compiled_tiles_off = limits.compiled_tiles_shortfall();
  if (!impl_->compiled_tiles_off.empty()) kernels = TileKernels::general_only;
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
  if (kernels == TileKernels::compiled_where_available)
    impl_->prepare_plan_time(std::move(plan_time), cache_directory);
}

template <class T>
DeviceBrickPlan<T>::~DeviceBrickPlan() = default;
template <class T>
DeviceBrickPlan<T>::DeviceBrickPlan(DeviceBrickPlan&&) noexcept = default;
template <class T>
DeviceBrickPlan<T>& DeviceBrickPlan<T>::operator=(DeviceBrickPlan&&) noexcept = default;

template <class T>
std::size_t DeviceBrickPlan<T>::workspace_bytes() const {
  const Shape& s = impl_->max_shape;
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
void DeviceBrickPlan<T>::execute(Complex<T>* data, Shape shape, void* workspace, bool inverse, T scale,
                                 cudaStream_t stream) const {
  const Impl& p = *impl_;
  const Shape& m = p.max_shape;
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
  const LineBatch lines[3] = {x_lines(shape), y_lines(shape), z_lines(shape)};
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

namespace {

// What became of the plan-time schedules an axis wanted: "; plan-time:
// <schedule> <compiled by NVRTC in 0.41 s | loaded from the disk cache ...>"
// for each, or the reason it is missing.
std::string plan_time_notes(const PlanTimeSchedules* plan_time, const std::vector<ScheduleKey>& keys) {
  std::string notes;
  for (const ScheduleKey& key : keys) {
    if (const auto why = outside_plan_time_family(key)) {
      notes += "; " + describe(key) + ": not compiled at plan time (" + *why + ")";
      continue;
    }
    if (plan_time == nullptr) continue;
    if (const auto outcome = plan_time->outcome(key)) notes += "; " + describe(*outcome);
  }
  return notes;
}

}  // namespace

template <class T>
std::string DeviceBrickPlan<T>::describe() const {
  std::string s;
  const char* names[3] = {"x", "y", "z"};
  const auto order = impl_->plans();
  const auto lines = impl_->lines();
  for (int a = 0; a < 3; ++a) {
    if (order[a] == nullptr) continue;
    s += std::string("  device axis ") + names[a] + ": " + order[a]->describe() + (a == 0 ? "" : ", strided lanes") +
         "; tiles: " + to_string(order[a]->tile_kernel(lines[a])) +
         plan_time_notes(impl_->plan_time.get(), order[a]->plan_time_keys(lines[a])) + "\n";
  }
  if (s.empty()) return "  device: no axis longer than 1\n";
  s += "  tile kernels: " + std::string(to_string(impl_->kernels)) + " (compiled ahead of time: set " + kernel_set() +
       ")\n";
  if (!impl_->compiled_tiles_off.empty())
    s += "  compiled tiles off on this device: " + impl_->compiled_tiles_off + "\n";
  if (impl_->plan_time) s += "  " + impl_->plan_time->summary() + "\n";
  return s;
}

template <class T>
std::string DeviceBrickPlan<T>::tile_kernels_used() const {
  const auto order = impl_->plans();
  const auto lines = impl_->lines();
  std::string used;
  for (int a = 0; a < 3; ++a) {
    if (order[a] == nullptr) {
      used += '-';
      continue;
    }
    switch (order[a]->tile_kernel(lines[a])) {
      case TileKernel::ahead_of_time: used += 'S'; break;
      case TileKernel::plan_time: used += 'P'; break;
      case TileKernel::general: used += 'G'; break;
    }
  }
  return used;
}

template <class T>
const PlanTimeSchedules* DeviceBrickPlan<T>::plan_time() const {
  return impl_->plan_time.get();
}

template <class T>
std::shared_ptr<PlanTimeSchedules> DeviceBrickPlan<T>::shared_plan_time() const {
  return impl_->plan_time;
}

const char* to_string(TileKernels kernels) noexcept {
  switch (kernels) {
    case TileKernels::compiled_where_available:
      return "compiled schedules (ahead of time, else at plan time with NVRTC), general otherwise";
    case TileKernels::ahead_of_time_only: return "compiled schedules ahead of time only, general otherwise";
    case TileKernels::general_only: return "general (run-time length) only";
  }
  return "?";
}

template class DeviceBrickPlan<float>;
template class DeviceBrickPlan<double>;

}  // namespace oocfft::kernels::cuda
