#include "engine/backends/host/host_backend.hpp"

#include <algorithm>
#include <limits>
#include <mutex>
#include <new>
#include <vector>

#include "engine/backends/host/axis_plans.hpp"
#include "engine/backends/host/brick_transform_host.hpp"
#include "engine/backends/host/emulated_devices.hpp"
#include "engine/planning/pass_program.hpp"
#include "engine/pipeline/stream_pipeline.hpp"
#include "volume/host_buffer.hpp"
#include "oocfft/error.hpp"

namespace oocfft::engine {
namespace {

// One lane of the host backend: a stream of one emulated device. Its
// "device" is host memory: the brick buffer, and for a carry-over plan the
// regions of the emulated devices (EmulatedDevices), so that every strategy
// runs without a GPU exactly as it does with one or several.
template <class T>
class HostBrickLane final : public BrickLane {
 public:
  HostBrickLane(const PassPlan& plan, const AxisPlans<T>& plans, volume::VolumeStore& store, std::byte* buffer,
                EmulatedDevices& devices, const RunContext& run, Clock::time_point start)
      : plan_(plan), plans_(plans), store_(store), buffer_(buffer), devices_(devices), arena_(*run.arena),
        inverse_(run.inverse), scale_(run.scale), multiply_(run.multiply), centring_(run.centring), start_(start) {}

  std::size_t process(const BrickJob& job, BrickTiming& t) override {
    const PassSpec& spec = *job.spec;
    const std::size_t e = plan_.element_bytes;  // complex, or real for the trigonometric transforms
    // A carry-over plan's resident slabs are transformed where they stay;
    // the y-slab pass takes its resident planes from there, or, in the
    // reversed order, leaves them there (PassPlan::carry_role).
    const CarryRole role = devices_.carries() ? plan_.carry_role(job.pass, job.box) : CarryRole::none;
    const bool in_region = role == CarryRole::keep_slab || role == CarryRole::take_slab;
    std::byte* brick = in_region ? devices_.slab(job.device, job.box) : buffer_;
    const Box rest = plan_.volume_part(job.box);
    const std::size_t resident_planes = job.box.extent.nz - rest.extent.nz;
    std::size_t moved = 0;
    arena_.execute([&] {
      t.gather_start = seconds_since(start_);
      if (role == CarryRole::take_planes) {
        devices_.copy_planes(job.device, job.box, resident_planes, brick, true);
        if (rest.extent.nz > 0)
          store_.read(rest, spec.layout, brick + resident_planes * job.box.extent.ny * job.box.extent.nx * e);
        moved += rest.elements() * e;
      } else if (role != CarryRole::take_slab) {
        store_.read(job.box, spec.layout, brick);
        moved += job.box.elements() * e;
      }
      t.gather_end = t.kernel_start = seconds_since(start_);
      auto* values = reinterpret_cast<kernels::Complex<T>*>(brick);
      run_stages(
          spec.stages, inverse_, job.last_pass, scale_,
          [&](bool inverse, double scale) {
            transform_brick_host(plans_, values, oocfft::staged_shape(job.box, spec.layout), spec.staged_axes(),
                                 spec.layout, inverse, static_cast<T>(scale));
          },
          [&] {
            multiply_->multiply(values, job.box.extent, {job.box.z0, job.box.y0, job.box.x0});
          },
          [&](bool output) {
            kernels::centre_brick(values, oocfft::staged_shape(job.box, spec.layout),
                                  {job.box.z0, job.box.y0, job.box.x0}, staged_axes_of(spec.layout), *centring_,
                                  output ? kernels::CentringSide::output : kernels::CentringSide::input);
          });
      t.kernel_end = seconds_since(start_);
      if (role == CarryRole::keep_planes) {
        t.scatter_start = t.kernel_end;
        devices_.copy_planes(job.device, job.box, resident_planes, brick, false);
        if (rest.extent.nz > 0)
          store_.write(rest, spec.layout, brick + resident_planes * job.box.extent.ny * job.box.extent.nx * e);
        t.scatter_end = seconds_since(start_);
        moved += rest.elements() * e;
      } else if (role != CarryRole::keep_slab) {
        t.scatter_start = t.kernel_end;
        store_.write(job.box, spec.layout, brick);
        t.scatter_end = seconds_since(start_);
        moved += job.box.elements() * e;
      }
    });
    return moved;
  }

 private:
  const PassPlan& plan_;
  const AxisPlans<T>& plans_;
  volume::VolumeStore& store_;
  std::byte* buffer_;
  EmulatedDevices& devices_;
  tbb::task_arena& arena_;
  bool inverse_;
  double scale_;
  const kernels::PointwiseStage* multiply_;  // null: the plan does not multiply
  const kernels::CentringTables* centring_;  // null: the plan does not centre
  Clock::time_point start_;
};

// The host executor needs no device memory; its line plans serve every
// plan of the shape.
class HostKernelSet final : public PassKernelSet {
 public:
  explicit HostKernelSet(std::string description) : description_(std::move(description)) {}
  std::size_t table_bytes() const override { return 0; }
  std::size_t workspace_bytes() const override { return 0; }
  std::string describe() const override { return description_; }

 private:
  std::string description_;
};

template <class T>
class HostBackend final : public ExecutionBackend {
 public:
  HostBackend(const Shape& shape, const kernels::VolumeTransform& transform, const Devices& devices)
      : plans_(shape, transform), volume_{shape.nz, shape.ny, shape.nx},
        devices_(devices.choice() == DeviceChoice::listed ? devices.ordinals() : std::vector<int>{0}) {}

  Backend kind() const override { return Backend::host; }
  std::vector<int> devices() const override { return devices_; }
  std::string exchange_route() const override {
    return "copies between the emulated devices' memories (host backend)";
  }
  // No device: without a budget everything is in core (in place).
  std::size_t default_device_budget(int) const override { return std::numeric_limits<std::size_t>::max() / 4; }
  // Every emulated device runs the backend's line plans (immutable, so
  // shared): its "kernels" hold no device memory.
  std::shared_ptr<const PassKernelSet> build(const PassPlan&, int) const override {
    return std::make_shared<HostKernelSet>(plans_.describe());
  }
  const volume::PageLocker* page_locker() const override { return nullptr; }

  // One axis at a time (x, y, z, the order of the all-axes transform), so
  // that cancel is polled before each axis and progress reported after
  // each, as the streamed plans do per brick: an in-core volume of
  // gigabytes takes seconds per axis.
  bool transform_in_place(std::byte* data, const RunContext& run) const override {
    const Options& o = *run.options;
    std::vector<oocfft::AxisSet> axes;
    // A real transform's x stage always runs (even on a half spectrum of
    // one value), first forward and last inverse.
    const bool real_x = plans_.real_x != nullptr;
    if (volume_.nx > 1 || real_x) axes.push_back({false, false, true});
    if (volume_.ny > 1) axes.push_back({false, true, false});
    if (volume_.nz > 1) axes.push_back({true, false, false});
    if (axes.empty()) axes.push_back(oocfft::AxisSet::all());  // 1x1x1: the scale alone
    if (real_x && run.inverse) std::reverse(axes.begin(), axes.end());
    auto* values = reinterpret_cast<kernels::Complex<T>*>(data);
    const std::size_t bytes =
        volume_.elements() * (plans_.trig_forward.empty() ? sizeof(kernels::Complex<T>) : sizeof(T));
    // Centred: the phases in a sweep of their own before the first axis
    // and after the last (there are no bricks to fold them into here).
    auto centre = [&](kernels::CentringSide side) {
      if (run.centring == nullptr) return;
      run.arena->execute([&] {
        kernels::centre_brick(values, volume_, {}, staged_axes_of(oocfft::BrickLayout::natural), *run.centring,
                              side);
      });
    };
    for (std::size_t a = 0; a < axes.size(); ++a) {
      if (o.cancel && o.cancel())
        throw Error(ErrorKind::cancelled, "cancelled after " + std::to_string(a) + " of " +
                                              std::to_string(axes.size()) + " axes" +
                                              (a == 0 ? "; the array is untouched"
                                                      : "; the array holds a partly transformed volume"));
      const bool last = a + 1 == axes.size();
      if (a == 0) centre(kernels::CentringSide::input);
      run.arena->execute([&] {
        transform_brick_host(plans_, values, volume_, axes[a], oocfft::BrickLayout::natural, run.inverse,
                             last ? static_cast<T>(run.scale) : T(1));
      });
      if (last) centre(kernels::CentringSide::output);
      if (o.progress) {
        Progress p;
        p.bricks_done = a + 1;
        p.bricks_total = axes.size();
        p.bytes_moved = 2 * bytes * (a + 1);
        p.pass = static_cast<unsigned>(a);
        p.passes = static_cast<unsigned>(axes.size());
        o.progress(p);
      }
    }
    return true;
  }

  // No link to measure: the floor of a host run is what the same plan
  // would take over the reference machine's link.
  LinkRates link_rates() const override {
    return {reference_link, "the reference H100 figures (emulated: the host backend has no link)"};
  }

  void execute(const FittedPlan& fitted, volume::VolumeStore& store, const RunContext& run,
               RunReport* report) const override {
    const PassPlan& plan = fitted.plan;
    const Clock::time_point start = Clock::now();
    std::lock_guard<std::mutex> lock(run.pool->mutex());
    // Every lane of every emulated device has its own brick buffer.
    std::vector<volume::HostBuffer>* buffers = nullptr;
    try {
      buffers = &run.pool->acquire(plan.lanes(), plan.staging_bytes, nullptr);
    } catch (const std::bad_alloc&) {
      throw Error(ErrorKind::out_of_memory, "could not allocate " + std::to_string(plan.lanes()) +
                                                " host brick buffers of " + format_bytes(double(plan.staging_bytes)));
    }
    EmulatedDevices devices(plan, store.shape());
    std::vector<std::unique_ptr<HostBrickLane<T>>> owned;
    std::vector<BrickLane*> lanes;
    for (unsigned l = 0; l < plan.lanes(); ++l) {
      owned.push_back(
          std::make_unique<HostBrickLane<T>>(plan, plans_, store, (*buffers)[l].data(), devices, run, start));
      lanes.push_back(owned.back().get());
    }
    const PipelineTotals totals = run_pipeline(plan, store, lanes, PipelineHooks::of(*run.options, report));
    if (report != nullptr) {
      report->devices = static_cast<unsigned>(plan.devices.size());
      report->exchanged_bytes = devices.exchanged_bytes();
      report->bricks = totals.bricks;
      report->bytes_moved = totals.bytes_moved;
      report->resident_bytes = plan.resident_bytes;
      report->staging_bytes = run.pool->held_bytes();
      report->device_bytes = 0;
      report->seconds = seconds_since(start);
    }
  }

 private:
  AxisPlans<T> plans_;
  Shape volume_;
  std::vector<int> devices_;  // emulated
};

}  // namespace

std::unique_ptr<ExecutionBackend> make_host_backend(const Shape& shape, Precision precision,
                                                   const kernels::VolumeTransform& transform, const Devices& devices) {
  if (precision == Precision::single) return std::make_unique<HostBackend<float>>(shape, transform, devices);
  return std::make_unique<HostBackend<double>>(shape, transform, devices);
}

}  // namespace oocfft::engine
