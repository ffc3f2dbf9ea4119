#include "engine/cuda_streaming.hpp"

#include <cuda_runtime_api.h>
#include <cuda_runtime.h>  // make_cudaPitchedPtr, make_cudaPos, make_cudaExtent

#include <algorithm>
#include <new>
#include <optional>
#include <vector>

#include "engine/stream_pipeline.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_brick_plan.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/stream.hpp"
#include "oocfft/error.hpp"
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

// Page-locks the caller's array for the duration of an execution; unlocks
// on destruction. A failed registration leaves `ok()` false (the engine
// then stages) and clears the CUDA error.
class HostArrayRegistration {
 public:
  HostArrayRegistration(void* data, std::size_t bytes) : data_(data) {
    ok_ = cudaHostRegister(data, bytes, cudaHostRegisterDefault) == cudaSuccess;
    if (!ok_) (void)cudaGetLastError();
  }
  ~HostArrayRegistration() {
    if (ok_) (void)cudaHostUnregister(data_);
  }
  HostArrayRegistration(const HostArrayRegistration&) = delete;
  HostArrayRegistration& operator=(const HostArrayRegistration&) = delete;
  bool ok() const { return ok_; }

 private:
  void* data_;
  bool ok_ = false;
};

bool already_page_locked(const void* data) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, data) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeHost;
}

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

// A box of the registered host array to or from a packed device brick, as
// few DMA descriptors as the box allows: one run, rows of runs, or a 3D copy.
void copy_box_direct(std::byte* host, const BrickShape& v, std::size_t e, const Box& box, std::byte* device,
                     bool to_device, cudaStream_t stream) {
  const transpose::RunGeometry g = transpose::run_geometry(v, box);
  std::byte* h = host + g.first * e;
  const cudaMemcpyKind kind = to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  if (g.count == 1) {
    kc::check_cuda(cudaMemcpyAsync(to_device ? static_cast<void*>(device) : h, to_device ? static_cast<void*>(h) : device,
                                   g.length * e, kind, stream),
                   "cudaMemcpyAsync");
    return;
  }
  if (box.extent.nx == v.nx) {  // y-slab: nz runs of by*nx, one 2D copy
    const std::size_t width = g.length * e, host_pitch = v.ny * v.nx * e;
    const cudaError_t status = to_device
                                   ? cudaMemcpy2DAsync(device, width, h, host_pitch, width, g.count, kind, stream)
                                   : cudaMemcpy2DAsync(h, host_pitch, device, width, width, g.count, kind, stream);
    kc::check_cuda(status, "cudaMemcpy2DAsync");
    return;
  }
  cudaMemcpy3DParms p{};
  const BrickShape& b = box.extent;
  cudaPitchedPtr host_ptr = make_cudaPitchedPtr(host, v.nx * e, v.nx * e, v.ny);
  cudaPitchedPtr dev_ptr = make_cudaPitchedPtr(device, b.nx * e, b.nx * e, b.ny);
  const cudaPos host_pos = make_cudaPos(box.x0 * e, box.y0, box.z0);
  if (to_device) {
    p.srcPtr = host_ptr;
    p.srcPos = host_pos;
    p.dstPtr = dev_ptr;
  } else {
    p.srcPtr = dev_ptr;
    p.dstPtr = host_ptr;
    p.dstPos = host_pos;
  }
  p.extent = make_cudaExtent(b.nx * e, b.ny, b.nz);
  p.kind = kind;
  kc::check_cuda(cudaMemcpy3DAsync(&p, stream), "cudaMemcpy3DAsync");
}

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

template <class T>
class CudaBrickLane final : public BrickLane {
 public:
  CudaBrickLane(int device, const PassKernels<T>& kernels, transpose::VolumeStore& store,
                std::byte* staging, std::size_t staging_bytes, std::size_t brick_bytes, std::size_t workspace_bytes,
                bool direct, tbb::task_arena& arena, bool inverse, T scale, Clock::time_point start)
      : device_(device), kernels_(kernels), store_(store), staging_(staging), staging_bytes_(staging_bytes),
        data_(brick_bytes, "brick"), workspace_(workspace_bytes, "workspace"), direct_(direct), arena_(arena),
        inverse_(inverse), scale_(scale), start_(start) {}

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
    // a natural brick larger than staging goes up in device-contiguous pieces.
    const bool direct = direct_ && spec.layout == BrickLayout::natural;
    const std::vector<Box> pieces = direct || spec.layout != BrickLayout::natural
                                        ? std::vector<Box>{job.box}
                                        : device_contiguous_pieces(job.box, staging_bytes_ / e);

    if (direct) {
      h2d_start_.record(s);
      copy_box_direct(host, store_.shape(), e, job.box, dev, true, s);
    } else {
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
      copy_box_direct(host, store_.shape(), e, job.box, dev, false, s);
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
  const PassKernels<T>& kernels_;
  transpose::VolumeStore& store_;
  std::byte* staging_;
  std::size_t staging_bytes_;
  kc::DeviceBuffer data_;
  kc::DeviceBuffer workspace_;
  bool direct_;
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
  bool has_line_layout = false;
  for (const PassSpec& p : plan_in.passes) has_line_layout |= p.layout != BrickLayout::natural;

  // Direct DMA from the caller's array, or staging (see the policy above).
  std::optional<HostArrayRegistration> registration;
  bool direct = false;
  double register_seconds = 0;
  if (!has_line_layout && options.register_host_memory != HostRegistration::off) {
    if (already_page_locked(data)) {
      direct = true;
    } else if (options.register_host_memory == HostRegistration::on) {
      const Clock::time_point r0 = Clock::now();
      registration.emplace(data, volume_bytes);
      register_seconds = seconds_since(r0);
      direct = registration->ok();
    }
  }

  std::unique_lock<std::mutex> lock(pool.mutex());
  std::byte* no_staging = nullptr;
  std::vector<transpose::StagingBuffer>* staging = nullptr;
  if (!direct) {
    try {
      staging = &pool.acquire(plan_in.streams, plan_in.staging_bytes, transpose::Pinning::pinned);
    } catch (const std::bad_alloc&) {
      throw Error(ErrorKind::out_of_memory, "could not page-lock " + std::to_string(plan_in.streams) +
                                                " staging buffers of " + format_bytes(double(plan_in.staging_bytes)));
    }
  }

  // Device buffers: on out-of-memory, halve the bricks and try again (the
  // kernels accept any brick up to the one they were built for), before any
  // data has moved.
  transpose::HostVolume store(reinterpret_cast<std::byte*>(data), volume, e);
  PassPlan plan = plan_in;
  std::size_t workspace = workspace_bytes();
  const PassKernels<T>* kernels = &impl_->kernels<T>();
  PassKernels<T> shrunk;  // kernels sized for smaller bricks, after an OOM
  std::vector<std::unique_ptr<CudaBrickLane<T>>> owned;
  for (int attempt = 0;; ++attempt) {
    try {
      owned.clear();
      for (unsigned s = 0; s < plan.streams; ++s)
        owned.push_back(std::make_unique<CudaBrickLane<T>>(
            impl_->device, *kernels, store, direct ? no_staging : (*staging)[s].data(),
            direct ? 0 : plan.staging_bytes, plan.brick_bytes, workspace, direct, arena, inverse, scale, start));
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
  if (report != nullptr) {
    report->registered = direct;
    report->bricks = totals.bricks;
    report->bytes_moved = totals.bytes_moved;
    report->staging_bytes = direct ? 0 : pool.held_bytes();
    std::size_t tables = table_bytes();
    for (const auto& k : shrunk) tables += k->table_bytes();
    report->device_bytes = plan.streams * (plan.brick_bytes + workspace) + tables;
    report->register_seconds = register_seconds;
  }
  owned.clear();
  if (registration) {
    const Clock::time_point u0 = Clock::now();
    registration.reset();
    if (report != nullptr) report->register_seconds += seconds_since(u0);
  }
  if (report != nullptr) report->seconds = seconds_since(start);
}

template void CudaStreaming::execute<float>(const PassPlan&, kernels::Complex<float>*, const BrickShape&, bool, float,
                                            tbb::task_arena&, transpose::StagingPool&, const Options&,
                                            RunReport*) const;
template void CudaStreaming::execute<double>(const PassPlan&, kernels::Complex<double>*, const BrickShape&, bool,
                                             double, tbb::task_arena&, transpose::StagingPool&, const Options&,
                                             RunReport*) const;

}  // namespace oocfft::engine
