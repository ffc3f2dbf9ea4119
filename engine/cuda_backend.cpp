#include "engine/cuda_backend.hpp"

#include <cuda_runtime_api.h>
#include <cuda_runtime.h>  // make_cudaPitchedPtr, make_cudaPos, make_cudaExtent

#include <algorithm>
#include <mutex>
#include <new>
#include <optional>
#include <vector>

#include "engine/brick_kernels.hpp"
#include "engine/pass_program.hpp"
#include "engine/staging_ring.hpp"
#include "engine/stream_pipeline.hpp"
#include "kernels/cuda/centring.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_brick_plan.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/spectrum_multiply.hpp"
#include "kernels/cuda/stream.hpp"
#include "oocfft/error.hpp"


namespace oocfft::engine {

namespace kc = kernels::cuda;

namespace {

// Free device memory minus a margin for the CUDA context's own allocations
// and other users: max(512 MiB, 5% of the device).
std::size_t free_device_memory_budget() {
  std::size_t free_bytes = 0, total_bytes = 0;
  kc::check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  const std::size_t margin = std::max<std::size_t>(std::size_t{512} << 20, total_bytes / 20);
  if (free_bytes <= margin)
    throw Error(ErrorKind::out_of_memory, "the device has " + format_bytes(double(free_bytes)) +
                                              " free, less than the safety margin of " +
                                              format_bytes(double(margin)));
  return free_bytes - margin;
}

// cudaHostRegister behind the volume stores' PageLocker: portable, so any
// context may DMA from the memory; errors are cleared from this thread's
// state and reported as false.
class CudaPageLocker final : public volume::PageLocker {
 public:
  explicit CudaPageLocker(int device) : device_(device) {}
  bool lock(std::byte* data, std::size_t bytes) const noexcept override {
    // Locking threads start on device 0: register on the plan's device.
    if (cudaSetDevice(device_) != cudaSuccess ||
        cudaHostRegister(data, bytes, cudaHostRegisterPortable) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    return true;
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

// Splits a natural-layout box into pieces that are each one contiguous
// range of the device brick and at most `limit` elements: runs of whole
// planes, else of whole rows in one plane, else parts of one row.
std::vector<Box> device_contiguous_pieces(const Box& box, std::size_t limit) {
  const Shape& e = box.extent;
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

bool same_box(const Box& a, const Box& b) {
  return a.z0 == b.z0 && a.y0 == b.y0 && a.x0 == b.x0 && a.extent.nz == b.extent.nz && a.extent.ny == b.extent.ny &&
         a.extent.nx == b.extent.nx;
}

// Offset of a piece's first element in the device brick of `box`.
std::size_t offset_in(const Box& box, const Box& piece) {
  const Shape& e = box.extent;
  return ((piece.z0 - box.z0) * e.ny + (piece.y0 - box.y0)) * e.nx + (piece.x0 - box.x0);
}

// A box between page-locked host memory and its packed device brick, one
// DMA per copy the store gave: 1D for single runs, 2D for runs at a
// constant stride.
void copy_box_direct(const std::vector<volume::DmaCopy>& copies, std::byte* device, bool to_device,
                     cudaStream_t stream) {
  for (const volume::DmaCopy& c : copies) {
    std::byte* h = c.host;
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
    kc::check_cuda(status, c.rows == 1 ? "cudaMemcpyAsync (page-locked host memory)"
                                       : "cudaMemcpy2DAsync (page-locked host memory)");
  }
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
  // `plan_time` (may be null) holds the plan-time schedules of the plan's
  // passes before this one; `kernel_cache` is where new ones are cached.
  InHouseBrickKernels(Shape max_shape, AxisSet axes, std::shared_ptr<kc::PlanTimeSchedules> plan_time,
                      const std::filesystem::path& kernel_cache)
      : plan_(max_shape, axes, kc::TileKernels::compiled_where_available, std::move(plan_time), kernel_cache) {}
  std::size_t workspace_bytes() const override { return plan_.workspace_bytes(); }
  std::size_t table_bytes() const override { return plan_.table_bytes(); }
  void execute(kernels::Complex<T>* data, Shape shape, void* workspace, bool inverse, T scale,
               cudaStream_t stream) const override {
    plan_.execute(data, shape, workspace, inverse, scale, stream);
  }
  std::string describe() const override { return plan_.describe(); }
  std::shared_ptr<kc::PlanTimeSchedules> plan_time() const { return plan_.shared_plan_time(); }

 private:
  kc::DeviceBrickPlan<T> plan_;
};

// The library's kernels (or the benchmark peer's) for every pass of a plan.
template <class T>
class CudaKernelSet final : public PassKernelSet {
 public:
  std::vector<std::unique_ptr<const DeviceBrickKernels<T>>> passes;

  std::size_t table_bytes() const override {
    std::size_t bytes = 0;
    for (const auto& k : passes) bytes += k->table_bytes();
    return bytes;
  }
  std::size_t workspace_bytes() const override {
    std::size_t bytes = 0;
    for (const auto& k : passes) bytes = std::max(bytes, k->workspace_bytes());
    return bytes;
  }
  std::string describe() const override {
    std::string s;
    for (std::size_t i = 0; i < passes.size(); ++i)
      s += "  pass " + std::to_string(i + 1) + " kernels:\n" + passes[i]->describe();
    return s;
  }
};

// The streams' pinned staging buffers, page-locked on the first brick that
// needs one: up front when every brick stages, never when every brick DMAs
// straight from page-locked memory (page-locking 2 GiB of staging took
// about 0.9 s on the H100 machine: a plan's first execution against later
// ones in bench/RESULTS.md).
class StagingOnDemand {
 public:
  StagingOnDemand(volume::StagingPool& pool, std::size_t count, std::size_t bytes, const volume::PageLocker& locker)
      : pool_(pool), count_(count), bytes_(bytes), locker_(locker) {}
  std::byte* buffer(unsigned lane) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (buffers_ == nullptr) {
      try {
        buffers_ = &pool_.acquire(count_, bytes_, &locker_);
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
  volume::StagingPool& pool_;  // its lock is held by the caller for the whole run
  std::size_t count_, bytes_;
  const volume::PageLocker& locker_;
  mutable std::mutex mutex_;
  std::vector<volume::HostBuffer>* buffers_ = nullptr;
};

// Staged bricks take turns per direction: one lane gathers and uploads while
// another downloads and scatters. Lanes whose staged pieces shared the link
// all uploaded at once and then all downloaded at once, so the link never
// carried both directions (bench/RESULTS.md, issue 9); DMA straight from
// page-locked memory gets the same turns from the copy engine's queue.
struct DirectionTurns {
  std::mutex upload, download;
};

// What every lane of one execution shares.
template <class T>
struct LaneContext {
  int device = 0;
  const CudaKernelSet<T>* kernels = nullptr;
  volume::VolumeStore* store = nullptr;
  StagingOnDemand* staging = nullptr;
  std::size_t staging_bytes = 0;
  std::size_t slot_bytes = 0;  // the staging ring's slots: the whole buffer when bricks move whole
  DirectionTurns* turns = nullptr;  // the execution's, shared by its lanes
  const PassPlan* plan = nullptr;
  std::byte* resident = nullptr;  // the planes kept between the passes; null: no carry-over
  volume::DirectAccess* direct = nullptr;  // null: every brick stages
  std::atomic<std::size_t>* direct_bricks = nullptr;
  tbb::task_arena* arena = nullptr;
  bool inverse = false;
  double scale = 1;
  const kernels::SpectrumFilter* filter = nullptr;  // null: the plan does not multiply
  const kc::CentringView* centring = nullptr;        // null: the plan does not centre
  Clock::time_point start;
};

template <class T>
class CudaBrickLane final : public BrickLane {
 public:
  // Throws DeviceBuffersUnavailable when its device memory cannot be had:
  // the buffers, but also the stream and its events, which come first (with
  // the buffers of the lanes before taking all but a few MiB, stream
  // creation failed "out of memory" where smaller bricks would have fit).
  CudaBrickLane(const LaneContext<T>& context, unsigned index, std::size_t brick_bytes, std::size_t workspace_bytes)
      : c_(context),
        index_(index),
        stream_(on_device([] { return kc::Stream(); })),
        h2d_start_(on_device([] { return kc::Event(); })),
        h2d_end_(on_device([] { return kc::Event(); })),
        kernel_end_(on_device([] { return kc::Event(); })),
        d2h_end_(on_device([] { return kc::Event(); })),
        data_(on_device([&] { return kc::DeviceBuffer(brick_bytes, "brick"); })),
        workspace_(on_device([&] { return kc::DeviceBuffer(workspace_bytes, "workspace"); })) {}
  // A brick that failed half-way may still have copies in flight on the
  // stream: they end before memory can be unlocked or the buffers freed.
  ~CudaBrickLane() { (void)cudaStreamSynchronize(stream_.get()); }
  CudaBrickLane(const CudaBrickLane&) = delete;
  CudaBrickLane& operator=(const CudaBrickLane&) = delete;

  cudaStream_t stream() const { return stream_.get(); }
  void set_clock(const DeviceClock& clock) { clock_ = clock; }

  std::size_t process(const BrickJob& job, BrickTiming& t) override {
    kc::check_cuda(cudaSetDevice(c_.device), "cudaSetDevice");  // stream threads start on device 0
    const PassSpec& spec = *job.spec;
    const cudaStream_t s = stream_.get();
    const Shape volume = c_.store->shape();
    const bool carry = c_.resident != nullptr;
    // Pass 1 of a carry-over plan transforms a resident slab where it stays
    // on the device; pass 2 copies the resident planes of its y-slab device
    // to device and reads only the rest from the volume.
    const bool keep = carry && job.pass == 0 && c_.plan->keeps_resident(job.box);
    std::byte* dev = keep ? c_.resident + job.box.z0 * volume.ny * volume.nx * e_ : static_cast<std::byte*>(data_.get());
    Box from_volume = job.box;
    std::size_t offset = 0;  // of from_volume in the device brick
    h2d_started_ = false;
    if (carry && job.pass == 1) {
      mark_h2d_start();
      from_volume = c_.plan->volume_part(job.box);
      const std::size_t planes = job.box.extent.nz - from_volume.extent.nz;
      copy_resident_planes(volume, job.box, planes, dev, s);
      offset = planes * job.box.extent.ny * job.box.extent.nx * e_;
    }
    bool direct = false;
    std::size_t moved = 0;
    // A store of padded planes names the part of the brick that holds
    // data: the brick is zeroed where it lies and only that part goes up
    // (and comes down), so the padding's zeros never cross PCIe.
    const bool parts = !carry && c_.direct == nullptr && spec.layout == BrickLayout::natural;
    const Box read_part = parts ? c_.store->read_part(job.box) : job.box;
    if (!same_box(read_part, job.box)) {
      mark_h2d_start();
      kc::check_cuda(cudaMemsetAsync(dev, 0, job.box.elements() * e_, s), "cudaMemsetAsync (a brick's padding)");
      if (read_part.elements() > 0) moved += upload(read_part, spec.layout, dev, 0, t, direct, &job.box);
    } else if (from_volume.elements() > 0) {
      moved += upload(from_volume, spec.layout, dev, offset, t, direct);
    }
    mark_h2d_start();  // a brick wholly resident: an empty span
    h2d_end_.record(s);
    auto* values = reinterpret_cast<kernels::Complex<T>*>(dev);
    run_stages(
        spec.stages, c_.inverse, job.last_pass, c_.scale,
        [&](bool inverse, double scale) {
          c_.kernels->passes[job.pass]->execute(values, oocfft::staged_shape(job.box, spec.layout),
                                                workspace_.get(), inverse, static_cast<T>(scale), s);
        },
        [&] { kc::multiply_brick(values, job.box.extent, {job.box.z0, job.box.y0, job.box.x0}, *c_.filter, s); },
        [&](bool output) {
          kc::centre_brick(values, oocfft::staged_shape(job.box, spec.layout), {job.box.z0, job.box.y0, job.box.x0},
                           staged_axes_of(spec.layout), *c_.centring,
                           output ? kernels::CentringSide::output : kernels::CentringSide::input, s);
        });
    kernel_end_.record(s);
    if (keep) {
      // The next pass reads the slab from other streams: it must be done.
      kernel_end_.synchronize();
    } else {
      const Box write_part = parts ? c_.store->write_part(job.box) : job.box;
      if (same_box(write_part, job.box)) {
        moved += download(job.box, spec.layout, dev, t, direct);
      } else if (write_part.elements() > 0) {
        moved += download(write_part, spec.layout, dev, t, direct, &job.box);
      } else {
        d2h_end_.record(s);  // nothing of the brick is kept
        d2h_end_.synchronize();
      }
      t.d2h_start = clock_.at(kernel_end_);
      t.d2h_end = clock_.at(d2h_end_);
    }
    if (direct) c_.direct_bricks->fetch_add(1);
    t.h2d_start = clock_.at(h2d_start_);
    t.h2d_end = t.kernel_start = clock_.at(h2d_end_);
    t.kernel_end = clock_.at(kernel_end_);
    return moved;
  }

 private:
  // A device resource made by `make`; a shortage of memory for it becomes
  // DeviceBuffersUnavailable, on which the engine retries with smaller
  // bricks.
  template <class Make>
  static auto on_device(Make&& make) -> decltype(make()) {
    try {
      return make();
    } catch (const Error& error) {
      if (error.kind() != ErrorKind::out_of_memory) throw;
      throw DeviceBuffersUnavailable{error.what()};
    }
  }

  // Volume box `box` up into the device brick at `offset` bytes: straight
  // from page-locked memory when the store offers it for the box, else
  // through the staging buffer (a natural brick larger than it in
  // device-contiguous pieces). Returns the bytes read.
  // With `brick`, `box` is a part of that brick (its read_part), copied
  // into its place with strided rows.
  std::size_t upload(const Box& box, BrickLayout layout, std::byte* dev, std::size_t offset, BrickTiming& t,
                     bool& direct, const Box* brick = nullptr) {
    const cudaStream_t s = stream_.get();
    std::vector<volume::DmaCopy> copies;
    if (c_.direct != nullptr && layout == BrickLayout::natural) copies = c_.direct->copies(box);
    if (!copies.empty()) {
      direct = true;
      mark_h2d_start();
      copy_box_direct(copies, dev + offset, true, s);
      return box.elements() * e_;
    }
    StagingRing& ring = staging_ring();
    const std::vector<Box> pieces = staged_pieces(box, layout, ring);
    const std::lock_guard<std::mutex> turn(c_.turns->upload);
    t.gather_start = seconds_since(c_.start);
    ring.upload(
        pieces.size(), [&](std::size_t k, std::byte* slot) { c_.store->read(pieces[k], layout, slot); },
        [&](std::size_t k, std::byte* slot) { copy_staged_piece(box, pieces[k], dev + offset, slot, brick, true); },
        [&] { mark_h2d_start(); });  // after the first gather, so the H2D span is the copies alone
    t.gather_end = seconds_since(c_.start);
    return box.elements() * e_;
  }

  // The device brick of `box` back to the volume, the same two ways;
  // returns when it is there. Returns the bytes written.
  std::size_t download(const Box& box, BrickLayout layout, std::byte* dev, BrickTiming& t, bool& direct,
                       const Box* brick = nullptr) {
    const cudaStream_t s = stream_.get();
    std::vector<volume::DmaCopy> copies;
    if (c_.direct != nullptr && layout == BrickLayout::natural) copies = c_.direct->copies(box);
    if (!copies.empty()) {
      direct = true;
      copy_box_direct(copies, dev, false, s);
      d2h_end_.record(s);
      d2h_end_.synchronize();
      return box.elements() * e_;
    }
    StagingRing& ring = staging_ring();
    const std::vector<Box> pieces = staged_pieces(box, layout, ring);
    const std::lock_guard<std::mutex> turn(c_.turns->download);
    t.scatter_start = seconds_since(c_.start);
    ring.download(
        pieces.size(),
        [&](std::size_t k, std::byte* slot) { copy_staged_piece(box, pieces[k], dev, slot, brick, false); },
        [&](std::size_t k, const std::byte* slot) { c_.store->write(pieces[k], layout, slot); },
        [&] { d2h_end_.record(s); });
    t.scatter_end = seconds_since(c_.start);
    return box.elements() * e_;
  }

  // The timeline's H2D span starts at the brick's first copy onto the device.
  void mark_h2d_start() {
    if (h2d_started_) return;
    h2d_start_.record(stream_.get());
    h2d_started_ = true;
  }

  // The lane's staging ring, made on the first brick that stages.
  StagingRing& staging_ring() {
    if (!ring_)
      ring_.emplace(c_.staging->buffer(index_), c_.staging_bytes, c_.slot_bytes, e_, stream_.get(), *c_.arena);
    return *ring_;
  }

  // The staged pieces of `box`: device-contiguous pieces of at most a slot
  // for a natural brick; a brick in a line layout moves whole (the plan
  // gave it staging of its size, one slot).
  static std::vector<Box> staged_pieces(const Box& box, BrickLayout layout, const StagingRing& ring) {
    if (layout == BrickLayout::natural) return device_contiguous_pieces(box, ring.slot_bytes() / e_);
    if (box.elements() * e_ > ring.slot_bytes())
      throw Error(ErrorKind::invalid_argument, "internal: a line-layout brick larger than its staging slot");
    return {box};
  }

  // Staged piece `piece` of `box` between its slot and its place in the
  // device brick at `dev`: one contiguous range, or with `brick` (`box` is
  // then a part of it) rows strided into the brick.
  void copy_staged_piece(const Box& box, const Box& piece, std::byte* dev, std::byte* slot, const Box* brick,
                         bool to_device) const {
    if (brick != nullptr) {
      copy_part_piece(*brick, piece, dev, slot, to_device);
      return;
    }
    std::byte* at = dev + offset_in(box, piece) * e_;
    const std::size_t bytes = piece.elements() * e_;
    kc::check_cuda(to_device ? cudaMemcpyAsync(at, slot, bytes, cudaMemcpyHostToDevice, stream_.get())
                             : cudaMemcpyAsync(slot, at, bytes, cudaMemcpyDeviceToHost, stream_.get()),
                   "cudaMemcpyAsync (a staged piece)");
  }

  // Piece `piece` of a part of brick `brick` (natural layout, packed at
  // `dev`) between its place in the brick, rows strided, and the packed
  // staging `slot`.
  void copy_part_piece(const Box& brick, const Box& piece, std::byte* dev, std::byte* slot, bool to_device) const {
    const Shape& e = piece.extent;
    const cudaPitchedPtr host = make_cudaPitchedPtr(slot, e.nx * e_, e.nx * e_, e.ny);
    const cudaPitchedPtr device = make_cudaPitchedPtr(dev, brick.extent.nx * e_, brick.extent.nx * e_, brick.extent.ny);
    const cudaPos at = make_cudaPos((piece.x0 - brick.x0) * e_, piece.y0 - brick.y0, piece.z0 - brick.z0);
    cudaMemcpy3DParms p{};
    if (to_device) {
      p.srcPtr = host;
      p.dstPtr = device;
      p.dstPos = at;
      p.kind = cudaMemcpyHostToDevice;
    } else {
      p.srcPtr = device;
      p.srcPos = at;
      p.dstPtr = host;
      p.kind = cudaMemcpyDeviceToHost;
    }
    p.extent = make_cudaExtent(e.nx * e_, e.ny, e.nz);
    kc::check_cuda(cudaMemcpy3DAsync(&p, stream_.get()), "cudaMemcpy3DAsync (a part of a brick)");
  }

  // The first `planes` z planes of y-slab `box`, resident since pass 1,
  // into the packed device brick: one 3D device-to-device copy.
  void copy_resident_planes(const Shape& volume, const Box& box, std::size_t planes, std::byte* dev,
                            cudaStream_t s) const {
    if (planes == 0) return;
    cudaMemcpy3DParms p{};
    p.srcPtr = make_cudaPitchedPtr(c_.resident, volume.nx * e_, volume.nx * e_, volume.ny);
    p.srcPos = make_cudaPos(box.x0 * e_, box.y0, box.z0);
    p.dstPtr = make_cudaPitchedPtr(dev, box.extent.nx * e_, box.extent.nx * e_, box.extent.ny);
    p.extent = make_cudaExtent(box.extent.nx * e_, box.extent.ny, planes);
    p.kind = cudaMemcpyDeviceToDevice;
    kc::check_cuda(cudaMemcpy3DAsync(&p, s), "cudaMemcpy3DAsync (resident planes, device to device)");
  }

  static constexpr std::size_t e_ = sizeof(kernels::Complex<T>);
  LaneContext<T> c_;
  unsigned index_;
  kc::Stream stream_;
  kc::Event h2d_start_, h2d_end_, kernel_end_, d2h_end_;
  kc::DeviceBuffer data_;
  kc::DeviceBuffer workspace_;
  bool h2d_started_ = false;
  DeviceClock clock_;
  std::optional<StagingRing> ring_;  // last: its destructor waits for its DMAs before the rest goes
};

template <class T>
class CudaBackend final : public ExecutionBackend {
 public:
  CudaBackend(const BrickKernelFactory* factory, std::filesystem::path kernel_cache)
      : device_(current_device()), locker_(device_), kernel_cache_(std::move(kernel_cache)) {
    if (factory != nullptr) factory_ = *factory;
  }

  Backend kind() const override { return Backend::cuda; }
  std::size_t default_device_budget() const override {
    kc::check_cuda(cudaSetDevice(device_), "cudaSetDevice");
    return free_device_memory_budget();
  }
  const volume::PageLocker* page_locker() const override { return &locker_; }

  std::shared_ptr<const PassKernelSet> build(const PassPlan& plan) const override {
    kc::check_cuda(cudaSetDevice(device_), "cudaSetDevice");
    auto set = std::make_shared<CudaKernelSet<T>>();
    std::shared_ptr<kc::PlanTimeSchedules> plan_time;  // the plan's passes share them
    for (const PassSpec& pass : plan.passes) set->passes.push_back(make(pass, plan_time));
    return set;
  }

  void execute(const FittedPlan& fitted, volume::VolumeStore& store, const RunContext& run,
               RunReport* report) const override {
    const PassPlan& plan = fitted.plan;
    const Clock::time_point start = Clock::now();
    kc::check_cuda(cudaSetDevice(device_), "cudaSetDevice");

    // Direct DMA where the store offers it (the policy is the store's).
    std::unique_ptr<volume::DirectAccess> direct;
    if (plan.natural_layout_only()) direct = store.open_direct_access(run.options->register_host_memory, locker_);

    std::unique_lock<std::mutex> lock(run.pool->mutex());
    StagingOnDemand staging(*run.pool, plan.streams, plan.staging_bytes, locker_);
    if (direct == nullptr) (void)staging.buffer(0);  // every brick stages: fail early, before any data moves

    LaneContext<T> context;
    context.device = device_;
    context.kernels = static_cast<const CudaKernelSet<T>*>(fitted.kernels.get());
    context.store = &store;
    context.staging = &staging;
    context.staging_bytes = plan.staging_bytes;
    context.slot_bytes = plan.staging_slot_bytes();
    DirectionTurns turns;
    context.turns = &turns;
    context.plan = &plan;
    std::optional<kc::DeviceBuffer> resident;
    if (plan.resident_bytes > 0) {
      try {
        resident.emplace(plan.resident_bytes, "the planes kept between the passes");
      } catch (const Error& error) {
        if (error.kind() != ErrorKind::out_of_memory) throw;
        throw DeviceBuffersUnavailable{error.what()};
      }
      context.resident = static_cast<std::byte*>(resident->get());
    }
    context.direct = direct.get();
    std::atomic<std::size_t> direct_bricks{0};
    context.direct_bricks = &direct_bricks;
    context.arena = run.arena;
    context.inverse = run.inverse;
    context.scale = run.scale;
    context.filter = run.filter;
    std::optional<kc::DeviceCentringTables> centring;
    if (run.centring != nullptr) {
      centring.emplace(*run.centring);
      context.centring = &centring->view();
    }
    context.start = start;
    std::vector<std::unique_ptr<CudaBrickLane<T>>> owned;
    const std::size_t workspace = fitted.kernels->workspace_bytes();
    for (unsigned s = 0; s < plan.streams; ++s)
      owned.push_back(std::make_unique<CudaBrickLane<T>>(context, s, plan.brick_bytes, workspace));

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

    const PipelineTotals totals = run_pipeline(plan, store, lanes, PipelineHooks::of(*run.options, report));
    owned.clear();  // every stream drained before host memory is unlocked
    const double register_seconds = direct != nullptr ? direct->finish() : 0.0;
    if (report != nullptr) {
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
  static int current_device() {
    int device = 0;
    kc::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    return device;
  }
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
    auto kernels =
        std::make_unique<InHouseBrickKernels<T>>(pass.staged_brick(), pass.staged_axes(), plan_time, kernel_cache_);
    if (!plan_time) plan_time = kernels->plan_time();
    return kernels;
  }

  int device_ = 0;
  BrickKernelFactory factory_;
  CudaPageLocker locker_;
  std::filesystem::path kernel_cache_;
};

}  // namespace

std::unique_ptr<ExecutionBackend> make_cuda_backend(Precision precision, const BrickKernelFactory* kernels,
                                                    const std::filesystem::path& kernel_cache) {
  if (precision == Precision::single) return std::make_unique<CudaBackend<float>>(kernels, kernel_cache);
  return std::make_unique<CudaBackend<double>>(kernels, kernel_cache);
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

}  // namespace oocfft::engine
