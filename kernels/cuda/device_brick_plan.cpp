#include "kernels/cuda/device_brick_plan.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "kernels/cuda/cubin_cache.hpp"
#include "kernels/cuda/device_limits.hpp"
#include "kernels/cuda/device_line_plan.hpp"
#include "kernels/cuda/device_real_rows.hpp"
#include "kernels/cuda/device_trig_lines.hpp"
#include "kernels/cuda/plan_time_schedules.hpp"
#include "kernels/cuda/schedule_registry.hpp"
#include "kernels/cuda/tile_job.hpp"
#include "kernels/cuda/trig_lines_kernels.hpp"

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
  VolumeTransform transform;
  TileKernels kernels = TileKernels::compiled_where_available;
  // Why the compiled tiles are off on this device ("" where they are not).
  std::string compiled_tiles_off;
  // Complex lines; axes of equal length share one plan (and its tables).
  // A real transform has no complex x plan (real_x instead), a
  // trigonometric one none at all.
  std::shared_ptr<DeviceLinePlan<T>> x, y, z;
  std::shared_ptr<DeviceRealRows<T>> real_x;                // real: the x rows
  std::shared_ptr<DeviceTrigLines<T>> trig_x, trig_y, trig_z;  // trig: equal lengths share
  std::shared_ptr<PlanTimeSchedules> plan_time;

  // The axes' line plans and their lines on the largest brick, x, y, z.
  std::array<const DeviceLinePlan<T>*, 3> plans() const { return {x.get(), y.get(), z.get()}; }
  std::array<LineBatch, 3> lines() const { return {x_lines(max_shape), y_lines(max_shape), z_lines(max_shape)}; }
  // The real rows of the largest brick: count and pitch (reals).
  std::size_t real_rows() const { return max_shape.ny * max_shape.nz; }
  std::size_t real_pitch() const { return 2 * max_shape.nx; }
  // The complex FFT each axis runs on the largest brick, and its lines:
  // the axis's own lines, the real rows' half-length or paired lines, or
  // the trigonometric lines' packed workspace.
  std::array<std::pair<const DeviceLinePlan<T>*, LineBatch>, 3> complex_ffts() const {
    const auto own = plans();
    const auto axis_lines = lines();
    std::array<std::pair<const DeviceLinePlan<T>*, LineBatch>, 3> ffts;
    const DeviceTrigLines<T>* trig[3] = {trig_x.get(), trig_y.get(), trig_z.get()};
    for (int a = 0; a < 3; ++a) {
      ffts[a] = {own[a], axis_lines[a]};
      if (trig[a] != nullptr) ffts[a] = {trig[a]->line_plan(), trig[a]->complex_lines(axis_lines[a])};
    }
    if (real_x) ffts[0] = {real_x->line_plan(), real_x->complex_lines(real_rows(), real_pitch())};
    return ffts;
  }
  void prepare_plan_time(std::shared_ptr<PlanTimeSchedules> given, const std::filesystem::path& cache_directory);
};

// The schedules the axes need that the build lacks, compiled (or loaded)
// once each, then handed to every line plan.
template <class T>
void DeviceBrickPlan<T>::Impl::prepare_plan_time(std::shared_ptr<PlanTimeSchedules> given,
                                                 const std::filesystem::path& cache_directory) {
  std::vector<ScheduleKey> wanted;
  for (const auto& [plan, batch] : complex_ffts())
    if (plan != nullptr)
      for (const ScheduleKey& key : plan->plan_time_keys(batch)) wanted.push_back(key);
  // The real rows' FFT with its split and merge folded in (repeats the
  // FFT's own keys: prepare() answers a key once).
  if (real_x)
    for (const ScheduleKey& key : real_x->plan_time_keys(real_rows(), real_pitch())) wanted.push_back(key);
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
  if (real_x) real_x->use_plan_time(plan_time);
  for (const auto& p : {trig_x, trig_y, trig_z})
    if (p) p->use_plan_time(plan_time);
}

template <class T>
DeviceBrickPlan<T>::DeviceBrickPlan(Shape max_shape, AxisSet axes, TileKernels kernels,
                                    std::shared_ptr<PlanTimeSchedules> plan_time,
                                    const std::filesystem::path& cache_directory)
    : DeviceBrickPlan(max_shape, axes, VolumeTransform{}, kernels, std::move(plan_time), cache_directory) {}

template <class T>
DeviceBrickPlan<T>::DeviceBrickPlan(Shape max_shape, AxisSet axes, const VolumeTransform& transform,
                                    TileKernels kernels, std::shared_ptr<PlanTimeSchedules> plan_time,
                                    const std::filesystem::path& cache_directory)
    : impl_(std::make_unique<Impl>()) {
  if (transform.kind == TransformKind::real &&
      (transform.real_length == 0 || transform.real_length / 2 + 1 != max_shape.nx))
    throw Error(ErrorKind::invalid_argument,
                "DeviceBrickPlan: a real transform of length " + std::to_string(transform.real_length) +
                    " has " + std::to_string(transform.real_length / 2 + 1) +
                    " complex values along x, the brick " + std::to_string(max_shape.nx));
  const DeviceLimits limits = DeviceLimits::current();
  // The compiled tiles' shapes were fixed for the bounds of
  // tile_resources.hpp: a device below them runs the general kernel.
  impl_->compiled_tiles_off = limits.compiled_tiles_shortfall();
  if (!impl_->compiled_tiles_off.empty()) kernels = TileKernels::general_only;
  impl_->max_shape = max_shape;
  impl_->axes = axes;
  impl_->transform = transform;
  impl_->kernels = kernels;
  if (transform.kind == TransformKind::trig) {
    // Every axis asked for that is longer than one point: a point's factor
    // is in the run's scale (engine/api/trig_volume.hpp), as on the host.
    std::vector<std::shared_ptr<DeviceTrigLines<T>>> made;
    auto trig_for = [&](std::size_t n) {
      for (const auto& p : made)
        if (p->length() == n) return p;
      made.push_back(std::make_shared<DeviceTrigLines<T>>(n, transform.trig, transform.trig_norm, limits, kernels));
      return made.back();
    };
    if (axes.x && max_shape.nx > 1) impl_->trig_x = trig_for(max_shape.nx);
    if (axes.y && max_shape.ny > 1) impl_->trig_y = trig_for(max_shape.ny);
    if (axes.z && max_shape.nz > 1) impl_->trig_z = trig_for(max_shape.nz);
  } else {
    std::vector<std::shared_ptr<DeviceLinePlan<T>>> made;
    auto plan_for = [&](std::size_t n) {
      for (const auto& p : made)
        if (p->length() == n) return p;
      made.push_back(std::make_shared<DeviceLinePlan<T>>(n, limits, kernels));
      return made.back();
    };
    // Complex axes of length 1 are the identity and get no plan; the real
    // rows always run (even a length-1 row moves into the complex layout).
    if (transform.kind == TransformKind::real) {
      if (axes.x) impl_->real_x = std::make_shared<DeviceRealRows<T>>(transform.real_length, limits, kernels);
    } else if (axes.x && max_shape.nx > 1) {
      impl_->x = plan_for(max_shape.nx);
    }
    if (axes.y && max_shape.ny > 1) impl_->y = plan_for(max_shape.ny);
    if (axes.z && max_shape.nz > 1) impl_->z = plan_for(max_shape.nz);
  }
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
  const Impl& p = *impl_;
  const Shape& s = p.max_shape;
  std::size_t bytes = 0;
  if (p.x) bytes = std::max(bytes, p.x->workspace_bytes(x_lines(s)));
  if (p.y) bytes = std::max(bytes, p.y->workspace_bytes(y_lines(s)));
  if (p.z) bytes = std::max(bytes, p.z->workspace_bytes(z_lines(s)));
  if (p.real_x) bytes = std::max(bytes, p.real_x->workspace_bytes(p.real_rows(), p.real_pitch()));
  if (p.trig_x) bytes = std::max(bytes, p.trig_x->workspace_bytes(x_lines(s)));
  if (p.trig_y) bytes = std::max(bytes, p.trig_y->workspace_bytes(y_lines(s)));
  if (p.trig_z) bytes = std::max(bytes, p.trig_z->workspace_bytes(z_lines(s)));
  return bytes;
}

template <class T>
std::size_t DeviceBrickPlan<T>::table_bytes() const {
  // Each plan once (axes of equal length share theirs).
  std::size_t bytes = 0;
  std::vector<const void*> seen;
  auto add = [&](const auto& p) {
    if (!p || std::find(seen.begin(), seen.end(), p.get()) != seen.end()) return;
    seen.push_back(p.get());
    bytes += p->table_bytes();
  };
  for (const auto& p : {impl_->x, impl_->y, impl_->z}) add(p);
  add(impl_->real_x);
  for (const auto& p : {impl_->trig_x, impl_->trig_y, impl_->trig_z}) add(p);
  return bytes;
}

namespace {

[[noreturn]] void refuse_brick(const char* call, const Shape& shape, const Shape& plan, const std::string& why) {
  throw Error(ErrorKind::invalid_argument,
              std::string("DeviceBrickPlan::") + call + ": brick " + std::to_string(shape.nz) + "x" +
                  std::to_string(shape.ny) + "x" + std::to_string(shape.nx) + " " + why + " (plan " +
                  std::to_string(plan.nz) + "x" + std::to_string(plan.ny) + "x" + std::to_string(plan.nx) + ")");
}

void check_brick(const char* call, const Shape& shape, const Shape& m, const AxisSet& axes, const void* data) {
  if (shape.nx > m.nx || shape.ny > m.ny || shape.nz > m.nz)
    refuse_brick(call, shape, m, "is larger than the plan's brick");
  if ((axes.x && shape.nx != m.nx) || (axes.y && shape.ny != m.ny) || (axes.z && shape.nz != m.nz))
    refuse_brick(call, shape, m, "differs from the plan along a transformed axis");
  if (data == nullptr) refuse_brick(call, shape, m, "has a null data pointer");
}

}  // namespace

template <class T>
void DeviceBrickPlan<T>::execute(Complex<T>* data, Shape shape, void* workspace, bool inverse, T scale,
                                 cudaStream_t stream) const {
  const Impl& p = *impl_;
  const Shape& m = p.max_shape;
  if (p.transform.kind == TransformKind::trig)
    refuse_brick("execute", shape, m, "is complex, the plan trigonometric (execute_real)");
  check_brick("execute", shape, m, p.axes, data);
  if (shape.elements() == 0) return;
  // The stages in order (x, y, z forward; a real transform's inverse runs
  // z, y, then its real rows); the norm factor goes with the last.
  const DeviceLinePlan<T>* order[3] = {p.x.get(), p.y.get(), p.z.get()};
  const LineBatch lines[3] = {x_lines(shape), y_lines(shape), z_lines(shape)};
  std::vector<int> stages;  // axis 0..2
  for (int a = 0; a < 3; ++a)
    if (order[a] != nullptr || (a == 0 && p.real_x)) stages.push_back(a);
  if (stages.empty()) {
    if (scale != T(1)) launch_scale(data, static_cast<std::int64_t>(shape.elements()), scale, stream);
    return;
  }
  if (p.real_x && inverse) std::reverse(stages.begin(), stages.end());
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const int a = stages[i];
    const T s = i + 1 == stages.size() ? scale : T(1);
    if (a == 0 && p.real_x)
      p.real_x->execute(reinterpret_cast<T*>(data), shape.ny * shape.nz, 2 * shape.nx, workspace, inverse, s, stream);
    else
      order[a]->execute(data, lines[a], workspace, inverse, s, stream);
  }
}

template <class T>
void DeviceBrickPlan<T>::execute_real(T* data, Shape shape, void* workspace, T scale, cudaStream_t stream) const {
  const Impl& p = *impl_;
  const Shape& m = p.max_shape;
  if (p.transform.kind != TransformKind::trig)
    refuse_brick("execute_real", shape, m, "is real, the plan not trigonometric (execute)");
  check_brick("execute_real", shape, m, p.axes, data);
  if (shape.elements() == 0) return;
  const DeviceTrigLines<T>* order[3] = {p.trig_x.get(), p.trig_y.get(), p.trig_z.get()};
  const LineBatch lines[3] = {x_lines(shape), y_lines(shape), z_lines(shape)};
  int last = -1;
  for (int a = 0; a < 3; ++a)
    if (order[a] != nullptr) last = a;
  if (last < 0) {
    if (scale != T(1)) launch_scale_real(data, static_cast<std::int64_t>(shape.elements()), scale, stream);
    return;
  }
  for (int a = 0; a <= last; ++a)
    if (order[a] != nullptr) order[a]->execute(data, lines[a], workspace, a == last ? scale : T(1), stream);
}

template <class T>
const VolumeTransform& DeviceBrickPlan<T>::transform() const {
  return impl_->transform;
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
  const Impl& p = *impl_;
  std::string s;
  const char* names[3] = {"x", "y", "z"};
  const auto ffts = p.complex_ffts();
  const DeviceTrigLines<T>* trig[3] = {p.trig_x.get(), p.trig_y.get(), p.trig_z.get()};
  for (int a = 0; a < 3; ++a) {
    const auto& [plan, batch] = ffts[a];
    std::string what;
    if (a == 0 && p.real_x)
      what = p.real_x->describe();
    else if (trig[a] != nullptr)
      what = trig[a]->describe() + (a == 0 ? "" : ", strided lanes");
    else if (plan != nullptr)
      what = plan->describe() + (a == 0 ? "" : ", strided lanes");
    else
      continue;
    s += std::string("  device axis ") + names[a] + ": " + what;
    if (plan != nullptr)
      s += std::string("; tiles: ") + to_string(plan->tile_kernel(batch)) +
           plan_time_notes(p.plan_time.get(), plan->plan_time_keys(batch));
    s += "\n";
  }
  if (s.empty()) return "  device: no axis longer than 1\n";
  s += "  tile kernels: " + std::string(to_string(p.kernels)) + " (compiled ahead of time: set " + kernel_set() +
       ")\n";
  if (!p.compiled_tiles_off.empty()) s += "  compiled tiles off on this device: " + p.compiled_tiles_off + "\n";
  if (p.plan_time) s += "  " + p.plan_time->summary() + "\n";
  return s;
}

template <class T>
std::string DeviceBrickPlan<T>::tile_kernels_used() const {
  const auto ffts = impl_->complex_ffts();
  std::string used;
  for (int a = 0; a < 3; ++a) {
    const auto& [plan, batch] = ffts[a];
    if (plan == nullptr) {
      used += '-';
      continue;
    }
    if (a == 0 && impl_->real_x &&
        impl_->real_x->ends_kernel(impl_->real_rows(), impl_->real_pitch(), false) == TileKernel::plan_time) {
      used += 'F';
      continue;
    }
    switch (plan->tile_kernel(batch)) {
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
