#include "engine/cuda_streaming.hpp"

#include <cuda_runtime_api.h>
#include <cuda_runtime.h>  // make_cudaPitchedPtr, make_cudaPos, make_cudaExtent

#include <algorithm>
#include <new>
#include <optional>
#include <vector>

#include "engine/chunked_registration.hpp"
#include "engine/stream_pipeline.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_brick_plan.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/stream.hpp"
#include "oocfft/error.hpp"
#include "transpose/host_chunks.hpp"
#include "transpose/host_volume.hpp"
#include "transpose/run_copy.hpp"

namespace oocfft::engine {

namespace kc = kernels::cuda;

std::size_t default_device_budget() {
  std::size_t free_bytes = 0, total_bytes = 0;
  kc::check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  const std::size_t margin = std::max<std::size_t>(std::size_t{512} << 20, total_bytes / 20);
  if (free_bytes <= margin)
    throw Error(ErrorKind::out_of_memory, "the device has " + format_bytes(double(free_bytes)) +
                                              " free, less than the safety margin of " +
                                              format_bytes(double(margin)));
  return free_bytes - margin;
}

namespace {

// True when the caller has page-locked the array: both its first and its
// last byte lie in registered host memory.
bool already_page_locked(const std::byte* data, std::size_t bytes) {
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

// Chunks of about this size are page-locked one at a time: about 10 ms of
// cudaHostRegister each (0.04 s/GiB), fine enough that the locking keeps
// just ahead of the first pass's bricks.
constexpr std::size_t registration_chunk_bytes = std::size_t{256} << 20;

// Splits a natural-layout box into pieces that are each one contiguous
// range of the device brick and at most `limit` elements: runs of whole
// planes, else of whole rows in one plane, else parts of one row.
std::vector<Box> device_contiguous_pieces(const Box& box, std::size_t limit) {
  const BrickShape& e = box.extent;
  std::vector<Box> pieces;
  if (e.elements() <= limit) return {box};
  const std::size_t plane = e.ny * e.nx;
  if (plane <= limit) {
    const std::size_t k = limit / plane;
    for (std::size_t z = 0; z < e.nz; z += k)
      pieces.push_back({box.z0 + z, box.y0, box.x0, {std::min(k, e.nz - z), e.ny, e.nx}});
  } else if (e.nx <= limit) {
    const std::size_t k = limit / e.nx;
    for (std::size_t z = 0; z < e.nz; ++z)
      for (std::size_t y = 0; y < e.ny; y += k)
        pieces.push_back({box.z0 + z, box.y0 + y, box.x0, {1, std::min(k, e.ny - y), e.nx}});
  } else {
    for (std::size_t z = 0; z < e.nz; ++z)
      for (std::size_t y = 0; y < e.ny; ++y)
        for (std::size_t x = 0; x < e.nx; x += limit)
          pieces.push_back({box.z0 + z, box.y0 + y, box.x0 + x, {1, 1, std::min(limit, e.nx - x)}});
  }
  return pieces;
}

// Offset of a piece's first element in the device brick of `box`.
std::size_t offset_in(const Box& box, const Box& piece) {
  const BrickShape& e = box.extent;
  return ((piece.z0 - box.z0) * e.ny + (piece.y0 - box.y0)) * e.nx + (piece.x0 - box.x0);
}

// A box between the page-locked array and its packed device brick, one DMA
// per chunk copy (transpose/host_chunks.hpp): 1D for single runs, 2D for
// runs at a constant stride.
void copy_box_direct(std::byte* host, const std::vector<transpose::ChunkCopy>& copies, std::byte* device,
                     bool to_device, cudaStream_t stream) {
  for (const transpose::ChunkCopy& c : copies) {
    std::byte* h = host + c.host_offset;
    std::byte* d = device + c.device_offset;
    cudaError_t status;
    if (c.rows == 1) {
      status = to_device ? cudaMemcpyAsync(d, h, c.width, cudaMemcpyHostToDevice, stream)
                         : cudaMemcpyAsync(h, d, c.width, cudaMemcpyDeviceToHost, stream);
    } else {
      status = to_device
                   ? cudaMemcpy2DAsync(d, c.width, h, c.host_pitch, c.width, c.rows, cudaMemcpyHostToDevice, stream)
                   : cudaMemcpy2DAsync(h, c.host_pitch, d, c.width, c.width, c.rows, cudaMemcpyDeviceToHost, stream);
    }
    kc::check_cuda(status, c.rows == 1 ? "cudaMemcpyAsync (page-locked array)" : "cudaMemcpy2DAsync (page-locked array)");
  }
}

// Which bricks may DMA straight from the caller's array.
struct DirectAccess {
  const transpose::HostChunks* chunks = nullptr;  // null: every brick stages
  ChunkedRegistration* registration = nullptr;    // null: the caller locked the whole array

  // True when the brick whose copies end in chunk `last` can go direct:
  // waits for its chunks to be locked; false if locking stopped short.
  bool allows(std::size_t last) const {
    if (chunks == nullptr) return false;
    return registration == nullptr || registration->wait_ready(last);
  }
};

// The device time of `event` on the host clock of the execution: the origin
// event was recorded and waited for at host time `origin_seconds`.
struct DeviceClock {
  const kc::Event* origin = nullptr;
  double origin_seconds = 0;
  double at(const kc::Event& event) const { return origin_seconds + event.elapsed_ms_since(*origin) / 1000.0; }
};

// The library's own kernels behind the pipeline's seam.
template <class T>
class InHouseBrickKernels final : public DeviceBrickKernels<T> {
 public:
  InHouseBrickKernels(BrickShape max_shape, AxisSet axes) : plan_(max_shape, axes) {}
  std::size_t workspace_bytes() const override { return plan_.workspace_bytes(); }
  std::size_t table_bytes() const override { return plan_.table_bytes(); }
  void execute(kernels::Complex<T>* data, BrickShape shape, void* workspace, bool inverse, T scale,
               cudaStream_t stream) const override {
    plan_.execute(data, shape, workspace, inverse, scale, stream);
  }
  std::string describe() const override { return plan_.describe(); }

 private:
  kc::DeviceBrickPlan<T> plan_;
};

template <class T>
using PassKernels = std::vector<std::unique_ptr<const DeviceBrickKernels<T>>>;

// The streams' pinned staging buffers, page-locked on the first brick that
// needs one: up front when every brick stages, never when every brick DMAs
// straight from the page-locked array (page-locking 2 GiB of staging took
// about 0.9 s on the H100 machine: a plan's first execution against later
// ones in bench/RESULTS.md).
class StagingOnDemand {
 public:
  StagingOnDemand(transpose::StagingPool& pool, std::size_t count, std::size_t bytes)
      : pool_(pool), count_(count), bytes_(bytes) {}
  std::byte* buffer(unsigned lane) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (buffers_ == nullptr) {
      try {
        buffers_ = &pool_.acquire(count_, bytes_, transpose::Pinning::pinned);
      } catch (const std::bad_alloc&) {
        throw Error(ErrorKind::out_of_memory, "could not page-lock " + std::to_string(count_) +
                                                  " staging buffers of " + format_bytes(double(bytes_)));
      }
    }
    return (*buffers_)[lane].data();
  }
  std::size_t held_bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return buffers_ == nullptr ? 0 : pool_.held_bytes();
  }

 private:
  transpose::StagingPool& pool_;  // its lock is held by the caller for the whole run
  std::size_t count_, bytes_;
  mutable std::mutex mutex_;
  std::vector<transpose::StagingBuffer>* buffers_ = nullptr;
};

template <class T>
class CudaBrickLane final : public BrickLane {
 public:
  CudaBrickLane(int device, unsigned index, const PassKernels<T>& kernels, transpose::VolumeStore& store,
                StagingOnDemand& staging, std::size_t staging_bytes, std::size_t brick_bytes, std::size_t workspace_bytes,
                DirectAccess direct, std::atomic<std::size_t>& direct_bricks, tbb::task_arena& arena, bool inverse,
                T scale, Clock::time_point start)
      : device_(device), index_(index), kernels_(kernels), store_(store), staging_on_demand_(staging),
        staging_bytes_(staging_bytes),
        data_(brick_bytes, "brick"), workspace_(workspace_bytes, "workspace"), direct_(direct),
        direct_bricks_(direct_bricks), arena_(arena), inverse_(inverse), scale_(scale), start_(start) {}
  // A brick that failed half-way may still have copies in flight on the
  // stream: they end before the array can be unlocked or the buffers freed.
  ~CudaBrickLane() { (void)cudaStreamSynchronize(stream_.get()); }
  CudaBrickLane(const CudaBrickLane&) = delete;
  CudaBrickLane& operator=(const CudaBrickLane&) = delete;

  cudaStream_t stream() const { return stream_.get(); }
  void set_clock(const DeviceClock& clock) { clock_ = clock; }

  void process(const BrickJob& job, BrickTiming& t) override {
    kc::check_cuda(cudaSetDevice(device_), "cudaSetDevice");  // stream threads start on device 0
    const PassSpec& spec = *job.spec;
    const std::size_t e = sizeof(kernels::Complex<T>);
    const cudaStream_t s = stream_.get();
    std::byte* dev = static_cast<std::byte*>(data_.get());
    std::byte* host = store_.host_array();
    // Line layouts always go through staging (the element-wise transposes);
    // natural bricks DMA straight from the array once their chunks are
    // page-locked; a staged brick larger than staging goes up in
    // device-contiguous pieces.
    std::vector<transpose::ChunkCopy> copies;
    bool direct = false;
    if (direct_.chunks != nullptr && spec.layout == BrickLayout::natural) {
      copies = transpose::chunk_copies(store_.shape(), e, job.box, *direct_.chunks);
      direct = direct_.allows(transpose::last_chunk(copies));
    }
    const std::vector<Box> pieces = direct || spec.layout != BrickLayout::natural
                                        ? std::vector<Box>{job.box}
                                        : device_contiguous_pieces(job.box, staging_bytes_ / e);

    if (direct) {
      direct_bricks_.fetch_add(1);
      h2d_start_.record(s);
      copy_box_direct(host, copies, dev, true, s);
    } else {
      if (staging_ == nullptr) staging_ = staging_on_demand_.buffer(index_);
      for (std::size_t k = 0; k < pieces.size(); ++k) {
        if (k > 0) staging_free_.synchronize();  // the previous piece has left the staging buffer
        const double g0 = seconds_since(start_);
        arena_.execute([&] { store_.read(pieces[k], spec.layout, staging_); });
        if (k == 0) t.gather_start = g0;
        t.gather_end = seconds_since(start_);
        // Recorded after the gather, so the H2D span is the copy alone.
        if (k == 0) h2d_start_.record(s);
        kc::check_cuda(cudaMemcpyAsync(dev + offset_in(job.box, pieces[k]) * e, staging_, pieces[k].elements() * e,
                                       cudaMemcpyHostToDevice, s),
                       "cudaMemcpyAsync");
        staging_free_.record(s);
      }
    }
    h2d_end_.record(s);
    kernels_[job.pass]->execute(reinterpret_cast<kernels::Complex<T>*>(dev), transpose::staged_shape(job.box, spec.layout),
                               workspace_.get(), inverse_, job.last_pass ? scale_ : T(1), s);
    kernel_end_.record(s);
    if (direct) {
      copy_box_direct(host, copies, dev, false, s);
      d2h_end_.record(s);
      d2h_end_.synchronize();
    } else {
      for (std::size_t k = 0; k < pieces.size(); ++k) {
        kc::check_cuda(cudaMemcpyAsync(staging_, dev + offset_in(job.box, pieces[k]) * e, pieces[k].elements() * e,
                                       cudaMemcpyDeviceToHost, s),
                       "cudaMemcpyAsync");
        d2h_end_.record(s);
        d2h_end_.synchronize();
        const double s0 = seconds_since(start_);
        arena_.execute([&] { store_.write(pieces[k], spec.layout, staging_); });
        if (k == 0) t.scatter_start = s0;
        t.scatter_end = seconds_since(start_);
      }
    }
    t.h2d_start = clock_.at(h2d_start_);
    t.h2d_end = t.kernel_start = clock_.at(h2d_end_);
    t.kernel_end = t.d2h_start = clock_.at(kernel_end_);
    t.d2h_end = clock_.at(d2h_end_);
  }

 private:
  int device_;
  unsigned index_;
  const PassKernels<T>& kernels_;
  transpose::VolumeStore& store_;
  StagingOnDemand& staging_on_demand_;
  std::byte* staging_ = nullptr;
  std::size_t staging_bytes_;
  kc::DeviceBuffer data_;
  kc::DeviceBuffer workspace_;
  DirectAccess direct_;
  std::atomic<std::size_t>& direct_bricks_;
  tbb::task_arena& arena_;
  bool inverse_;
  T scale_;
  Clock::time_point start_;
  kc::Stream stream_;
  kc::Event h2d_start_, h2d_end_, kernel_end_, d2h_end_;
  kc::Event staging_free_{false};
  DeviceClock clock_;
};

}  // namespace

struct CudaStreaming::Impl {
  Precision precision;
  int device = 0;
  BrickKernelFactory factory;
  PassKernels<float> single;
  PassKernels<double> twice;

  template <class T>
  const PassKernels<T>& kernels() const {
    if constexpr (sizeof(T) == 4) {
      return single;
    } else {
      return twice;
    }
  }
  template <class F>
  void for_each_plan(F f) const {
    for (const auto& k : single) f(*k);
    for (const auto& k : twice) f(*k);
  }
  // The kernels of one pass: the factory's where set, else the library's.
  template <class T>
  std::unique_ptr<const DeviceBrickKernels<T>> make(const PassSpec& pass) const {
    if constexpr (sizeof(T) == 4) {
      if (factory.single) return factory.single(pass.staged_brick(), pass.staged_axes());
    } else {
      if (factory.twice) return factory.twice(pass.staged_brick(), pass.staged_axes());
    }
    return std::make_unique<InHouseBrickKernels<T>>(pass.staged_brick(), pass.staged_axes());
  }
};

CudaStreaming::CudaStreaming(const PassPlan& plan, Precision precision, const BrickKernelFactory* factory)
    : impl_(std::make_unique<Impl>()) {
  impl_->precision = precision;
  if (factory != nullptr) impl_->factory = *factory;
  kc::check_cuda(cudaGetDevice(&impl_->device), "cudaGetDevice");
  for (const PassSpec& pass : plan.passes) {
    if (precision == Precision::single) {
      impl_->single.push_back(impl_->make<float>(pass));
    } else {
      impl_->twice.push_back(impl_->make<double>(pass));
    }
  }
}

CudaStreaming::~CudaStreaming() = default;

std::size_t CudaStreaming::table_bytes() const {
  std::size_t bytes = 0;
  impl_->for_each_plan([&](const auto& k) { bytes += k.table_bytes(); });
  return bytes;
}

std::size_t CudaStreaming::workspace_bytes() const {
  std::size_t bytes = 0;
  impl_->for_each_plan([&](const auto& k) { bytes = std::max(bytes, k.workspace_bytes()); });
  return bytes;
}

std::string CudaStreaming::describe() const {
  std::string s;
  std::size_t pass = 0;
  impl_->for_each_plan([&](const auto& k) { s += "  pass " + std::to_string(++pass) + " kernels:\n" + k.describe(); });
  return s;
}

template <class T>
void CudaStreaming::execute(const PassPlan& plan_in, kernels::Complex<T>* data, const BrickShape& volume,
                            bool inverse, T scale, tbb::task_arena& arena, transpose::StagingPool& pool,
                            const Options& options, RunReport* report) const {
  const Clock::time_point start = Clock::now();
  kc::check_cuda(cudaSetDevice(impl_->device), "cudaSetDevice");
  const std::size_t e = sizeof(kernels::Complex<T>);
  const std::size_t volume_bytes = volume.elements() * e;

  // Direct DMA from the caller's array, or staging (see the policy above).
  std::byte* array = reinterpret_cast<std::byte*>(data);
  std::optional<transpose::HostChunks> chunks;
  std::optional<ChunkedRegistration> registration;
  DirectAccess direct;
  if (plan_in.natural_layout_only() && options.register_host_memory != HostRegistration::off) {
    if (already_page_locked(array, volume_bytes)) {
      chunks.emplace(volume_bytes);
      direct.chunks = &*chunks;
    } else if (options.register_host_memory == HostRegistration::on) {
      // Locked chunk by chunk ahead of the bricks, each brick waiting for
      // its chunks (staging only if locking fails).
      const std::size_t plane_bytes = volume.ny * volume.nx * e;
      registration.emplace(array,
                           transpose::HostChunks(reinterpret_cast<std::uintptr_t>(array), volume, e,
                                                 std::max<std::size_t>(1, registration_chunk_bytes / plane_bytes)),
                           impl_->device);
      direct.chunks = &registration->chunks();
      direct.registration = &*registration;
    }
  }

  std::unique_lock<std::mutex> lock(pool.mutex());
  StagingOnDemand staging(pool, plan_in.streams, plan_in.staging_bytes);
  if (direct.chunks == nullptr) (void)staging.buffer(0);  // every brick stages: fail early, before any data moves

  // Device buffers: on out-of-memory, halve the bricks and try again (the
  // kernels accept any brick up to the one they were built for), before any
  // data has moved.
  transpose::HostVolume store(reinterpret_cast<std::byte*>(data), volume, e);
  PassPlan plan = plan_in;
  std::size_t workspace = workspace_bytes();
  const PassKernels<T>* kernels = &impl_->kernels<T>();
  PassKernels<T> shrunk;  // kernels sized for smaller bricks, after an OOM
  std::atomic<std::size_t> direct_bricks{0};
  std::vector<std::unique_ptr<CudaBrickLane<T>>> owned;
  for (int attempt = 0;; ++attempt) {
    try {
      owned.clear();
      for (unsigned s = 0; s < plan.streams; ++s)
        owned.push_back(std::make_unique<CudaBrickLane<T>>(
            impl_->device, s, *kernels, store, staging, plan.staging_bytes, plan.brick_bytes, workspace, direct,
            direct_bricks, arena,
            inverse, scale, start));
      break;
    } catch (const Error& error) {
      owned.clear();
      const std::size_t smaller = plan.brick_bytes / e / 2;
      if (error.kind() != ErrorKind::out_of_memory || attempt >= 8 || plan.strategy == Strategy::in_core)
        throw;
      const PassPlan next = shrink_bricks(plan, volume, smaller);
      if (next.brick_bytes >= plan.brick_bytes) throw;  // whole lines no longer fit
      plan = next;
      // The workspace follows the largest brick a kernel is built for.
      shrunk.clear();
      workspace = 0;
      for (const PassSpec& pass : plan.passes) {
        shrunk.push_back(impl_->make<T>(pass));
        workspace = std::max(workspace, shrunk.back()->workspace_bytes());
      }
      kernels = &shrunk;
    }
  }

  // The origin of the device timeline: recorded on lane 0 and waited for.
  kc::Event origin;
  origin.record(owned[0]->stream());
  origin.synchronize();
  const DeviceClock clock{&origin, seconds_since(start)};
  std::vector<BrickLane*> lanes;
  for (auto& lane : owned) {
    lane->set_clock(clock);
    lanes.push_back(lane.get());
  }

  PipelineHooks hooks;
  hooks.progress = &options.progress;
  hooks.cancel = &options.cancel;
  if (report != nullptr && report->record_timeline) hooks.timeline = &report->timeline;
  const PipelineTotals totals = run_pipeline(plan, volume, lanes, hooks);
  owned.clear();  // every stream drained before the array is unlocked
  double register_seconds = 0;
  if (registration) {
    register_seconds = registration->unlock();  // joins the locking thread first
    register_seconds += registration->lock_seconds();
  }
  if (report != nullptr) {
    report->registered = direct_bricks.load() > 0;
    report->direct_bricks = direct_bricks.load();
    report->bricks = totals.bricks;
    report->bytes_moved = totals.bytes_moved;
    report->staging_bytes = staging.held_bytes();
    std::size_t tables = table_bytes();
    for (const auto& k : shrunk) tables += k->table_bytes();
    report->device_bytes = plan.streams * (plan.brick_bytes + workspace) + tables;
    report->register_seconds = register_seconds;
    report->seconds = seconds_since(start);
  }
}

template void CudaStreaming::execute<float>(const PassPlan&, kernels::Complex<float>*, const BrickShape&, bool, float,
                                            tbb::task_arena&, transpose::StagingPool&, const Options&,
                                            RunReport*) const;
template void CudaStreaming::execute<double>(const PassPlan&, kernels::Complex<double>*, const BrickShape&, bool,
                                             double, tbb::task_arena&, transpose::StagingPool&, const Options&,
                                             RunReport*) const;

}  // namespace oocfft::engine
