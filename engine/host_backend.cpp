#include "engine/host_backend.hpp"

#include <limits>
#include <mutex>
#include <new>
#include <optional>
#include <vector>

#include "engine/axis_plans.hpp"
#include "engine/brick_transform_host.hpp"
#include "engine/stream_pipeline.hpp"
#include "oocfft/error.hpp"

namespace oocfft::engine {
namespace {

template <class T>
class HostBrickLane final : public BrickLane {
 public:
  HostBrickLane(const AxisPlans<T>& plans, volume::VolumeStore& store, std::byte* buffer, tbb::task_arena& arena,
                bool inverse, T scale, Clock::time_point start)
      : plans_(plans), store_(store), buffer_(buffer), arena_(arena), inverse_(inverse), scale_(scale),
        start_(start) {}

  void process(const BrickJob& job, BrickTiming& t) override {
    const PassSpec& spec = *job.spec;
    arena_.execute([&] {
      t.gather_start = seconds_since(start_);
      store_.read(job.box, spec.layout, buffer_);
      t.gather_end = t.kernel_start = seconds_since(start_);
      transform_brick_host(plans_, reinterpret_cast<kernels::Complex<T>*>(buffer_),
                           transpose::staged_shape(job.box, spec.layout), spec.staged_axes(), spec.layout, inverse_,
                           job.last_pass ? scale_ : T(1));
      t.kernel_end = t.scatter_start = seconds_since(start_);
      store_.write(job.box, spec.layout, buffer_);
      t.scatter_end = seconds_since(start_);
    });
  }

 private:
  const AxisPlans<T>& plans_;
  volume::VolumeStore& store_;
  std::byte* buffer_;
  tbb::task_arena& arena_;
  bool inverse_;
  T scale_;
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
  explicit HostBackend(const Shape& shape) : plans_(shape), volume_{shape.nz, shape.ny, shape.nx} {}

  Backend kind() const override { return Backend::host; }
  // No device: without a budget everything is in core (in place).
  std::size_t default_device_budget() const override { return std::numeric_limits<std::size_t>::max() / 4; }
  std::shared_ptr<const PassKernelSet> build(const PassPlan&) const override {
    return std::make_shared<HostKernelSet>(plans_.describe());
  }
  const volume::PageLocker* page_locker() const override { return nullptr; }

  // One axis at a time (x, y, z, the order of the all-axes transform), so
  // that cancel is polled before each axis and progress reported after
  // each, as the streamed plans do per brick: an in-core volume of
  // gigabytes takes seconds per axis.
  bool transform_in_place(std::byte* data, const RunContext& run) const override {
    const Options& o = *run.options;
    std::vector<kernels::AxisSet> axes;
    if (volume_.nx > 1) axes.push_back({false, false, true});
    if (volume_.ny > 1) axes.push_back({false, true, false});
    if (volume_.nz > 1) axes.push_back({true, false, false});
    if (axes.empty()) axes.push_back(kernels::AxisSet::all());  // 1x1x1: the scale alone
    auto* values = reinterpret_cast<kernels::Complex<T>*>(data);
    const std::size_t bytes = volume_.elements() * sizeof(kernels::Complex<T>);
    for (std::size_t a = 0; a < axes.size(); ++a) {
      if (o.cancel && o.cancel())
        throw Error(ErrorKind::cancelled, "cancelled after " + std::to_string(a) + " of " +
                                              std::to_string(axes.size()) + " axes" +
                                              (a == 0 ? "; the array is untouched"
                                                      : "; the array holds a partly transformed volume"));
      const bool last = a + 1 == axes.size();
      run.arena->execute([&] {
        transform_brick_host(plans_, values, volume_, axes[a], transpose::BrickLayout::natural, run.inverse,
                             last ? static_cast<T>(run.scale) : T(1));
      });
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

  void execute(const FittedPlan& fitted, volume::VolumeStore& store, const RunContext& run,
               RunReport* report) const override {
    const PassPlan& plan = fitted.plan;
    const Clock::time_point start = Clock::now();
    std::lock_guard<std::mutex> lock(run.pool->mutex());
    std::vector<volume::StagingBuffer>* buffers = nullptr;
    try {
      buffers = &run.pool->acquire(plan.streams, plan.staging_bytes, nullptr);
    } catch (const std::bad_alloc&) {
      throw Error(ErrorKind::out_of_memory, "could not allocate " + std::to_string(plan.streams) +
                                                " host brick buffers of " + format_bytes(double(plan.staging_bytes)));
    }
    std::vector<std::unique_ptr<HostBrickLane<T>>> owned;
    std::vector<BrickLane*> lanes;
    for (unsigned s = 0; s < plan.streams; ++s) {
      owned.push_back(std::make_unique<HostBrickLane<T>>(plans_, store, (*buffers)[s].data(), *run.arena,
                                                         run.inverse, static_cast<T>(run.scale), start));
      lanes.push_back(owned.back().get());
    }
    const PipelineTotals totals = run_pipeline(plan, store, lanes, PipelineHooks::of(*run.options, report));
    if (report != nullptr) {
      report->bricks = totals.bricks;
      report->bytes_moved = totals.bytes_moved;
      report->staging_bytes = run.pool->held_bytes();
      report->device_bytes = 0;
      report->seconds = seconds_since(start);
    }
  }

 private:
  AxisPlans<T> plans_;
  BrickShape volume_;
};

}  // namespace

std::unique_ptr<ExecutionBackend> make_host_backend(const Shape& shape, Precision precision) {
  if (precision == Precision::single) return std::make_unique<HostBackend<float>>(shape);
  return std::make_unique<HostBackend<double>>(shape);
}

}  // namespace oocfft::engine
