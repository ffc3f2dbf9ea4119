#include "engine/backends/cuda/cuda_backend.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <mutex>
#include <new>
#include <optional>
#include <vector>

#include "engine/backends/cuda/brick_kernels.hpp"
#include "engine/backends/cuda/cuda_brick_lane.hpp"
#include "engine/backends/cuda/link_probe.hpp"
#include "engine/backends/cuda/peer_exchange.hpp"
#include "engine/planning/pass_program.hpp"
#include "engine/pipeline/stream_pipeline.hpp"
#include "kernels/cuda/centring.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_brick_plan.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/free_device_memory.hpp"
#include "kernels/cuda/stream.hpp"
#include "oocfft/error.hpp"

namespace oocfft::engine {

namespace kc = kernels::cuda;

namespace {

// cudaHostRegister behind the volume stores' PageLocker: portable, so any
// context may DMA from the memory; errors are cleared from this thread's
// state and reported as false.
class CudaPageLocker final : public volume::PageLocker {
 public:
  explicit CudaPageLocker(int device) : device_(device) {}
  bool lock(std::byte* data, std::size_t bytes) const noexcept override {
    // Locking threads start on device 0: register on the plan's device.
    // The caller's device is restored after: a lane of another device of
    // the plan may be the one asking, for its staging.
    int caller = 0;
    const bool known = cudaGetDevice(&caller) == cudaSuccess;
    const bool locked = cudaSetDevice(device_) == cudaSuccess &&
                        cudaHostRegister(data, bytes, cudaHostRegisterPortable) == cudaSuccess;
    if (!locked) (void)cudaGetLastError();
    if (known && caller != device_) (void)cudaSetDevice(caller);
    return locked;
  }
  // Unlocking needs no particular device: a registration belongs to the
  // primary context of the device it was made on.
  void unlock(std::byte* data) const noexcept override {
    if (cudaHostUnregister(data) != cudaSuccess) (void)cudaGetLastError();
  }
  bool is_locked(const std::byte* data, std::size_t bytes) const noexcept override {
    for (const std::byte* p : {data, data + bytes - 1}) {
      cudaPointerAttributes attributes{};
      if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
      }
      if (attributes.type != cudaMemoryTypeHost) return false;
    }
    return true;
  }

 private:
  int device_;
};

// The library's own kernels behind the pipeline's seam.
template <class T>
class InHouseBrickKernels final : public DeviceBrickKernels<T> {
 public:
  // `plan_time` (may be null) holds the plan-time schedules of the plan's
  // passes before this one; `kernel_cache` is where new ones are cached.
  // `transform`: a real transform's x stage on the passes along x; a
  // trigonometric transform's lines on every pass, whose inverse runs the
  // inverse type (a second plan).
  InHouseBrickKernels(Shape max_shape, AxisSet axes, std::shared_ptr<kc::PlanTimeSchedules> plan_time,
                      const std::filesystem::path& kernel_cache, const kernels::VolumeTransform& transform)
      : plan_(max_shape, axes, transform, kc::TileKernels::compiled_where_available, plan_time, kernel_cache) {
    if (transform.kind == kernels::TransformKind::trig) {
      kernels::VolumeTransform back = transform;
      back.trig = kernels::inverse_kind(transform.trig);
      inverse_plan_.emplace(max_shape, axes, back, kc::TileKernels::compiled_where_available, plan_.shared_plan_time(),
                            kernel_cache);
    }
  }
  std::size_t workspace_bytes() const override {
    return std::max(plan_.workspace_bytes(), inverse_plan_ ? inverse_plan_->workspace_bytes() : 0);
  }
  std::size_t table_bytes() const override {
    return plan_.table_bytes() + (inverse_plan_ ? inverse_plan_->table_bytes() : 0);
  }
  // A trigonometric brick holds real values where the pipeline hands it
  // complex ones: the same bytes, read as reals.
  void execute(kernels::Complex<T>* data, Shape shape, void* workspace, bool inverse, T scale,
               cudaStream_t stream) const override {
    if (inverse_plan_) {
      (inverse ? *inverse_plan_ : plan_).execute_real(reinterpret_cast<T*>(data), shape, workspace, scale, stream);
      return;
    }
    plan_.execute(data, shape, workspace, inverse, scale, stream);
  }
  std::string describe() const override {
    return inverse_plan_ ? plan_.describe() + "    inverse:\n" + inverse_plan_->describe() : plan_.describe();
  }
  std::shared_ptr<kc::PlanTimeSchedules> plan_time() const { return plan_.shared_plan_time(); }

 private:
  kc::DeviceBrickPlan<T> plan_;
  std::optional<kc::DeviceBrickPlan<T>> inverse_plan_;  // trigonometric transforms only
};

// The CUDA devices `devices` names, in lane order: Error(invalid_argument)
// names one this process does not see.
std::vector<int> resolve_cuda_devices(const Devices& devices) {
  int count = 0;
  kc::check_cuda(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  switch (devices.choice()) {
    case DeviceChoice::current: {
      int device = 0;
      kc::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
      return {device};
    }
    case DeviceChoice::all: {
      std::vector<int> every(static_cast<std::size_t>(count));
      for (int d = 0; d < count; ++d) every[static_cast<std::size_t>(d)] = d;
      return every;
    }
    case DeviceChoice::listed: break;
  }
  for (const int d : devices.ordinals()) {
    if (d < count) continue;
    const std::string seen = count == 1 ? "1 device (0)" : std::to_string(count) + " devices (0.." +
                                                             std::to_string(count - 1) + ")";
    throw Error(ErrorKind::invalid_argument,
                "options.devices names CUDA device " + std::to_string(d) + ", but this process sees " + seen);
  }
  return devices.ordinals();
}

// Restores the calling thread's current CUDA device when it goes: an
// execution on several devices makes each current in turn, and the caller's
// own device is none of the plan's business.
class CurrentDeviceRestored {
 public:
  CurrentDeviceRestored() { kc::check_cuda(cudaGetDevice(&device_), "cudaGetDevice"); }
  ~CurrentDeviceRestored() { (void)cudaSetDevice(device_); }
  CurrentDeviceRestored(const CurrentDeviceRestored&) = delete;
  CurrentDeviceRestored& operator=(const CurrentDeviceRestored&) = delete;

 private:
  int device_ = 0;
};

template <class T>
class CudaBackend final : public ExecutionBackend {
 public:
  CudaBackend(const BrickKernelFactory* factory, std::filesystem::path kernel_cache,
              const kernels::VolumeTransform& transform, const Devices& devices)
      : devices_(resolve_cuda_devices(devices)), exchange_(devices_), locker_(devices_.front()),
        kernel_cache_(std::move(kernel_cache)), transform_(transform) {
    if (factory != nullptr) {
      if (transform.kind != kernels::TransformKind::complex)
        throw Error(ErrorKind::unsupported, "the benchmark's kernel peer runs complex transforms only");
      factory_ = *factory;
    }
  }

  Backend kind() const override { return Backend::cuda; }
  std::vector<int> devices() const override { return devices_; }
  std::string exchange_route() const override { return exchange_.route(); }
  std::size_t default_device_budget(int device) const override {
    const CurrentDeviceRestored caller_device;
    kc::check_cuda(cudaSetDevice(device), "cudaSetDevice");
    return kc::free_device_memory_budget();
  }
  const volume::PageLocker* page_locker() const override { return &locker_; }
  // The process's figures for the first device (link_probe.hpp), not the
  // plan's; the engine counts one such link per device.
  LinkRates link_rates() const override { return device_link_rates(devices_.front()); }

  // On `device`: the kernels' tables live there, and plan-time kernels
  // are loaded for it.
  std::shared_ptr<const PassKernelSet> build(const PassPlan& plan, int device) const override {
    const CurrentDeviceRestored caller_device;
    try {
      kc::check_cuda(cudaSetDevice(device), "cudaSetDevice");
      auto set = std::make_shared<CudaKernelSet<T>>();
      std::shared_ptr<kc::PlanTimeSchedules> plan_time;  // the plan's passes share them
      for (const PassSpec& pass : plan.passes) set->passes.push_back(make(pass, plan_time));
      return set;
    } catch (const Error& error) {
      if (devices_.size() == 1) throw;
      throw Error(error.kind(), "device " + std::to_string(device) + ": " + error.what());
    }
  }

  void execute(const FittedPlan& fitted, volume::VolumeStore& store, const RunContext& run,
               RunReport* report) const override {
    const PassPlan& plan = fitted.plan;
    const std::size_t devices = plan.devices.size();
    const CurrentDeviceRestored caller_device;
    // Before the clock starts: waits out a link probe in progress, and keeps
    // one from starting on these devices until the transform has ended.
    std::deque<DeviceExecution> in_flight;
    for (const DevicePlacement& d : plan.devices) in_flight.emplace_back(d.ordinal);
    const Clock::time_point start = Clock::now();
    kc::check_cuda(cudaSetDevice(plan.devices[0].ordinal), "cudaSetDevice");
    if (devices > 1 && plan.resident_planes > 0) exchange_.enable();

    // Direct DMA where the store offers it (the policy is the store's); the
    // registration is portable, so every device's lanes may DMA from it.
    std::unique_ptr<volume::DirectAccess> direct;
    if (plan.natural_layout_only()) direct = store.open_direct_access(run.options->register_host_memory, locker_);

    std::unique_lock<std::mutex> lock(run.pool->mutex());
    StagingOnDemand staging(*run.pool, plan.lanes(), plan.staging_bytes, locker_);
    if (direct == nullptr) (void)staging.buffer(0);  // every brick stages: fail early, before any data moves

    // Each device's planes kept between the passes, in its own memory, at
    // the plane size the plan counted (FittedPlan::device_bytes_of).
    const std::size_t plane = plan.resident_planes == 0 ? 0 : plan.resident_bytes / plan.resident_planes;
    std::vector<kc::DeviceBuffer> resident(devices);
    std::vector<ResidentRegion> regions(devices);
    std::vector<std::unique_ptr<kc::DeviceCentringTables>> centring(devices);
    std::vector<std::unique_ptr<DirectionTurns>> turns(devices);  // each device's link has its own
    std::atomic<std::size_t> direct_bricks{0}, exchanged{0};
    std::vector<std::unique_ptr<CudaBrickLane<T>>> owned;
    std::vector<std::unique_ptr<kc::Event>> origins(devices);
    for (std::size_t d = 0; d < devices; ++d) {
      const DevicePlacement& placement = plan.devices[d];
      // A device's failure names it where the plan has several.
      const std::string which = devices > 1 ? "device " + std::to_string(placement.ordinal) + ": " : "";
      try {
        kc::check_cuda(cudaSetDevice(placement.ordinal), "cudaSetDevice");
        regions[d] = {placement.ordinal, nullptr, placement.resident_z0, placement.resident_z1};
        if (placement.resident_planes() > 0) {
          try {
            resident[d] = take_kept(placement.ordinal, placement.resident_planes() * plane);
            if (resident[d].get() == nullptr)
              resident[d] = kc::DeviceBuffer(placement.resident_planes() * plane, "the planes kept between the passes");
          } catch (const Error& error) {
            if (error.kind() != ErrorKind::out_of_memory) throw;
            throw DeviceBuffersUnavailable{error.what()};
          }
          regions[d].data = static_cast<std::byte*>(resident[d].get());
        }
        if (run.centring != nullptr) centring[d] = std::make_unique<kc::DeviceCentringTables>(*run.centring);
        turns[d] = std::make_unique<DirectionTurns>();

        LaneContext<T> context;
        context.device = placement.ordinal;
        context.device_index = static_cast<unsigned>(d);
        context.kernels = static_cast<const CudaKernelSet<T>*>(&fitted.kernels_of(static_cast<unsigned>(d)));
        context.store = &store;
        context.staging = &staging;
        context.staging_bytes = plan.staging_bytes;
        context.slot_bytes = plan.staging_slot_bytes();
        context.turns = turns[d].get();
        context.plan = &plan;
        if (plan.resident_bytes > 0) context.regions = &regions;
        context.exchanged_bytes = &exchanged;
        context.direct = direct.get();
        context.direct_bricks = &direct_bricks;
        context.arena = run.arena;
        context.inverse = run.inverse;
        context.scale = run.scale;
        context.multiply = run.multiply;
        if (centring[d]) context.centring = &centring[d]->view();
        context.start = start;
        const std::size_t workspace = fitted.kernels_of(static_cast<unsigned>(d)).workspace_bytes();
        const std::size_t first = owned.size();
        for (unsigned s = 0; s < plan.streams; ++s)
          owned.push_back(std::make_unique<CudaBrickLane<T>>(context, static_cast<unsigned>(d) * plan.streams + s,
                                                             plan.brick_bytes, workspace));
        // The origin of the device's timeline: recorded on its first lane
        // and waited for (events of two devices cannot be compared).
        origins[d] = std::make_unique<kc::Event>();
        origins[d]->record(owned[first]->stream());
        origins[d]->synchronize();
        const DeviceClock clock{origins[d].get(), seconds_since(start)};
        for (std::size_t l = first; l < owned.size(); ++l) owned[l]->set_clock(clock);
      } catch (const DeviceBuffersUnavailable& shortage) {
        throw DeviceBuffersUnavailable{which + shortage.message};
      } catch (const Error& error) {
        if (which.empty()) throw;
        throw Error(error.kind(), which + error.what());
      }
    }
    std::vector<BrickLane*> lanes;
    for (auto& lane : owned) lanes.push_back(lane.get());

    const PipelineTotals totals = run_pipeline(plan, store, lanes, PipelineHooks::of(*run.options, report));
    owned.clear();  // every stream of every device drained before host memory is unlocked
    for (std::size_t d = 0; d < devices; ++d) keep(plan.devices[d].ordinal, std::move(resident[d]));
    const double register_seconds = direct != nullptr ? direct->finish() : 0.0;
    if (report != nullptr) {
      report->devices = static_cast<unsigned>(devices);
      report->exchanged_bytes = exchanged.load();
      report->registered = direct_bricks.load() > 0;
      report->direct_bricks = direct_bricks.load();
      report->bricks = totals.bricks;
      report->bytes_moved = totals.bytes_moved;
      report->resident_bytes = plan.resident_bytes;
      report->staging_bytes = staging.held_bytes();
      report->device_bytes = fitted.device_bytes();
      report->register_seconds = register_seconds;
      report->seconds = seconds_since(start);
    }
  }

 private:
  // The kernels of one pass: the factory's where set, else the library's,
  // with the plan-time schedules of the passes before (`plan_time`, which
  // the first pass that needs some sets).
  std::unique_ptr<const DeviceBrickKernels<T>> make(const PassSpec& pass,
                                                    std::shared_ptr<kc::PlanTimeSchedules>& plan_time) const {
    if constexpr (sizeof(T) == 4) {
      if (factory_.single) return factory_.single(pass.staged_brick(), pass.staged_axes());
    } else {
      if (factory_.twice) return factory_.twice(pass.staged_brick(), pass.staged_axes());
    }
    // The x stage of a real transform rides on the natural passes along x;
    // a trigonometric transform's lines on every pass.
    const bool real_x = transform_.kind == kernels::TransformKind::real && pass.layout == BrickLayout::natural &&
                        pass.axes.x;
    const bool trig = transform_.kind == kernels::TransformKind::trig;
    auto built = std::make_unique<InHouseBrickKernels<T>>(pass.staged_brick(), pass.staged_axes(), plan_time,
                                                          kernel_cache_,
                                                          real_x || trig ? transform_ : kernels::VolumeTransform{});
    if (!plan_time) plan_time = built->plan_time();
    return built;
  }

  // The resident planes' buffer of `device` kept from the last execution,
  // when it holds `bytes`; else none (and a smaller one is freed first).
  kc::DeviceBuffer take_kept(int device, std::size_t bytes) const {
    const std::lock_guard<std::mutex> lock(kept_mutex_);
    kc::DeviceBuffer taken;
    for (auto k = kept_.begin(); k != kept_.end(); ++k)
      if (k->first == device) {
        if (k->second.bytes() >= bytes) taken = std::move(k->second);
        kept_.erase(k);
        break;
      }
    return taken;
  }
  void keep(int device, kc::DeviceBuffer buffer) const {
    if (buffer.get() == nullptr) return;
    const std::lock_guard<std::mutex> lock(kept_mutex_);
    kept_.emplace_back(device, std::move(buffer));
  }

  std::vector<int> devices_;  // CUDA ordinals, in lane order
  // The planes each device keeps between the passes, kept from one
  // execution to the next for the plan's life, as its tables are: the
  // first gigabyte or so written into a buffer freed and allocated again
  // went at about half the link's rate, which cost a resident plan a
  // twentieth of its run (measured: bench/RESULTS.md, "Real data and the
  // DCT/DST"). A failed execution frees them; a later
  // one takes them only where they are large enough.
  mutable std::mutex kept_mutex_;
  mutable std::vector<std::pair<int, kc::DeviceBuffer>> kept_;  // CUDA ordinal, buffer
  PeerExchange exchange_;
  BrickKernelFactory factory_;
  CudaPageLocker locker_;  // registers portable memory: every device of the plan may DMA from it
  std::filesystem::path kernel_cache_;
  kernels::VolumeTransform transform_;
};

}  // namespace

std::unique_ptr<ExecutionBackend> make_cuda_backend(Precision precision, const BrickKernelFactory* kernels,
                                                    const std::filesystem::path& kernel_cache,
                                                    const kernels::VolumeTransform& transform,
                                                    const Devices& devices) {
  if (precision == Precision::single)
    return std::make_unique<CudaBackend<float>>(kernels, kernel_cache, transform, devices);
  return std::make_unique<CudaBackend<double>>(kernels, kernel_cache, transform, devices);
}

std::unique_ptr<volume::PageLocker> make_cuda_page_locker() {
  int device = 0;
  kc::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  return std::make_unique<CudaPageLocker>(device);
}

std::string cuda_unavailable_reason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky error so later calls start clean
    return std::string("no usable CUDA device: ") + cudaGetErrorString(status);
  }
  if (count == 0) return "no CUDA device present";
  return "";
}

int cuda_device_count_reported() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();  // as cuda_unavailable_reason: later calls start clean
    return 0;
  }
  return count;
}

}  // namespace oocfft::engine
