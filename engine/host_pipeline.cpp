#include "engine/host_pipeline.hpp"

#include <memory>
#include <new>

#include "engine/brick_transform_host.hpp"
#include "engine/stream_pipeline.hpp"
#include "oocfft/error.hpp"
#include "transpose/host_volume.hpp"

namespace oocfft::engine {
namespace {

template <class T>
class HostBrickLane final : public BrickLane {
 public:
  HostBrickLane(const AxisPlans<T>& plans, transpose::VolumeStore& store, std::byte* buffer, tbb::task_arena& arena,
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
  transpose::VolumeStore& store_;
  std::byte* buffer_;
  tbb::task_arena& arena_;
  bool inverse_;
  T scale_;
  Clock::time_point start_;
};

}  // namespace

template <class T>
void execute_host_pipeline(const PassPlan& plan, const AxisPlans<T>& plans, kernels::Complex<T>* data,
                           const BrickShape& volume, bool inverse, T scale, tbb::task_arena& arena,
                           transpose::StagingPool& pool, const Options& options, RunReport* report) {
  const Clock::time_point start = Clock::now();
  std::lock_guard<std::mutex> lock(pool.mutex());
  std::vector<transpose::StagingBuffer>* buffers = nullptr;
  try {
    buffers = &pool.acquire(plan.streams, plan.staging_bytes, transpose::Pinning::pageable);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::out_of_memory, "could not allocate " + std::to_string(plan.streams) +
                                              " host brick buffers of " + format_bytes(double(plan.staging_bytes)));
  }
  transpose::HostVolume store(reinterpret_cast<std::byte*>(data), volume, sizeof(kernels::Complex<T>));
  std::vector<std::unique_ptr<HostBrickLane<T>>> owned;
  std::vector<BrickLane*> lanes;
  for (unsigned s = 0; s < plan.streams; ++s) {
    owned.push_back(std::make_unique<HostBrickLane<T>>(plans, store, (*buffers)[s].data(), arena, inverse, scale, start));
    lanes.push_back(owned.back().get());
  }
  PipelineHooks hooks;
  hooks.progress = &options.progress;
  hooks.cancel = &options.cancel;
  if (report != nullptr && report->record_timeline) hooks.timeline = &report->timeline;
  const PipelineTotals totals = run_pipeline(plan, volume, lanes, hooks);
  if (report != nullptr) {
    report->bricks = totals.bricks;
    report->bytes_moved = totals.bytes_moved;
    report->staging_bytes = pool.held_bytes();
    report->device_bytes = 0;
    report->seconds = seconds_since(start);
  }
}

template void execute_host_pipeline<float>(const PassPlan&, const AxisPlans<float>&, kernels::Complex<float>*,
                                           const BrickShape&, bool, float, tbb::task_arena&, transpose::StagingPool&,
                                           const Options&, RunReport*);
template void execute_host_pipeline<double>(const PassPlan&, const AxisPlans<double>&, kernels::Complex<double>*,
                                            const BrickShape&, bool, double, tbb::task_arena&,
                                            transpose::StagingPool&, const Options&, RunReport*);

}  // namespace oocfft::engine
