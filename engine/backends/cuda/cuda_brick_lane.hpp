#pragma once
// CudaBrickLane: one stream of the CUDA backend (cuda_backend.hpp), the
// BrickLane the shared pipeline (stream_pipeline.hpp) hands bricks to. It
// owns its stream, events, device brick and workspace, and takes each brick
// through upload (straight from page-locked memory when the store offers
// it, else through its staging ring), the pass's stages on the device, and
// download. What the lanes of one execution share (the kernels, the store,
// the staging, the resident planes, the direction turns) is a LaneContext
// the backend fills. Compiled only when the library is built with CUDA.
#include <cuda_runtime_api.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "engine/backends/cuda/brick_kernels.hpp"
#include "engine/backends/cuda/staging_ring.hpp"
#include "engine/pipeline/execution_backend.hpp"
#include "engine/pipeline/stream_pipeline.hpp"
#include "kernels/cuda/centring.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/stream.hpp"
#include "oocfft/error.hpp"

namespace oocfft::engine {

namespace kc = kernels::cuda;

// The device time of `event` on the host clock of the execution: the origin
// event was recorded and waited for at host time `origin_seconds`.
struct DeviceClock {
  const kc::Event* origin = nullptr;
  double origin_seconds = 0;
  double at(const kc::Event& event) const { return origin_seconds + event.elapsed_ms_since(*origin) / 1000.0; }
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

// Direct DMA (page-locked memory) in one direction, one brick after
// another across the lanes of a device: each lane's copies wait on the
// device for the copies the previous lane queued (an event chain), so the
// copy engine finishes one brick at a time and that brick's kernels run
// while the next one moves. Copies of several streams at once share the
// link and all end together, and the link then idles while every lane's
// kernels run (bench/RESULTS.md, "Real data and the DCT/DST": the
// resident rfftn from a HostArray).
class DmaChain {
 public:
  // Queues `copies` (which enqueue on `stream`) after the last copies any
  // lane queued through this chain.
  template <class Copies>
  void queue(cudaStream_t stream, const Copies& copies) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (used_) last_.wait_on(stream);
    copies();
    last_.record(stream);
    used_ = true;
  }

 private:
  std::mutex mutex_;
  kc::Event last_{false};  // on the current device when the chain is made
  bool used_ = false;
};

// Staged bricks take turns per direction: one lane gathers and uploads while
// another downloads and scatters. Lanes whose staged pieces shared the link
// all uploaded at once and then all downloaded at once, so the link never
// carried both directions (bench/RESULTS.md, "16 GiB through a 4 GiB device
// budget (two passes)"); direct DMA takes its turns on the device (DmaChain).
struct DirectionTurns {
  std::mutex upload, download;
  DmaChain direct_upload, direct_download;
};

// The planes one device keeps between the passes: z planes [z0, z1) of
// the volume, whole, in that device's memory.
struct ResidentRegion {
  int device = 0;  // the CUDA ordinal
  std::byte* data = nullptr;
  std::size_t z0 = 0, z1 = 0;
};

// What every lane of one device shares in one execution.
template <class T>
struct LaneContext {
  int device = 0;             // the CUDA ordinal the lane runs on
  unsigned device_index = 0;  // its index into PassPlan::devices and `regions`
  const CudaKernelSet<T>* kernels = nullptr;
  volume::VolumeStore* store = nullptr;
  StagingOnDemand* staging = nullptr;
  std::size_t staging_bytes = 0;
  std::size_t slot_bytes = 0;  // the staging ring's slots: the whole buffer when bricks move whole
  DirectionTurns* turns = nullptr;  // the execution's, shared by its lanes
  const PassPlan* plan = nullptr;
  // Every device's planes kept between the passes, in the order of
  // PassPlan::devices; null: no carry-over.
  const std::vector<ResidentRegion>* regions = nullptr;
  std::atomic<std::size_t>* exchanged_bytes = nullptr;  // copied from one device to another
  volume::DirectAccess* direct = nullptr;  // null: every brick stages
  std::atomic<std::size_t>* direct_bricks = nullptr;
  tbb::task_arena* arena = nullptr;
  bool inverse = false;
  double scale = 1;
  const kernels::PointwiseStage* multiply = nullptr;  // null: the plan does not multiply
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
  CudaBrickLane(const LaneContext<T>& context, unsigned index, std::size_t brick_bytes, std::size_t workspace_bytes);
  // A brick that failed half-way may still have copies in flight on the
  // stream: they end before memory can be unlocked or the buffers freed.
  // The lane's device is current while its stream and buffers go.
  ~CudaBrickLane();
  CudaBrickLane(const CudaBrickLane&) = delete;
  CudaBrickLane& operator=(const CudaBrickLane&) = delete;

  cudaStream_t stream() const { return stream_.get(); }
  void set_clock(const DeviceClock& clock) { clock_ = clock; }

  std::size_t process(const BrickJob& job, BrickTiming& t) override;

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
                     bool& direct, const Box* brick = nullptr);

  // The device brick of `box` back to the volume, the same two ways;
  // returns when it is there. Returns the bytes written.
  std::size_t download(const Box& box, BrickLayout layout, std::byte* dev, BrickTiming& t, bool& direct,
                       const Box* brick = nullptr);

  // The timeline's H2D span starts at the brick's first copy onto the device.
  void mark_h2d_start();

  // The lane's staging ring, made on the first brick that stages.
  StagingRing& staging_ring();

  // The staged pieces of `box`: device-contiguous pieces of at most a slot
  // for a natural brick; a brick in a line layout moves whole (the plan
  // gave it staging of its size, one slot).
  std::vector<Box> staged_pieces(const Box& box, BrickLayout layout, const StagingRing& ring) const;

  // Staged piece `piece` of `box` between its slot and its place in the
  // device brick at `dev`: one contiguous range, or with `brick` (`box` is
  // then a part of it) rows strided into the brick.
  void copy_staged_piece(const Box& box, const Box& piece, std::byte* dev, std::byte* slot, const Box* brick,
                         bool to_device) const;

  // The pieces a brick is staged in, and the bytes of a row where the store
  // packs the piece's rows (VolumeStore::packed_row_bytes; 0: the brick's
  // own rows).
  struct StagedPieces {
    std::vector<Box> boxes;
    std::vector<std::size_t> packed_rows;
  };
  StagedPieces staged(const Box& box, BrickLayout layout, const StagingRing& ring, const Box* brick,
                      volume::Transfer transfer) const;
  // A staged piece whose rows the store packs at `row_bytes` to or from its
  // place in the device brick of `box`, the rows at the brick's pitch there.
  void copy_packed_piece(const Box& box, const Box& piece, std::byte* dev, std::byte* slot, std::size_t row_bytes,
                         bool to_device) const;
  // Piece `piece` of a part of brick `brick` (natural layout, packed at
  // `dev`) between its place in the brick, rows strided, and the packed
  // staging `slot`.
  void copy_part_piece(const Box& brick, const Box& piece, std::byte* dev, std::byte* slot, bool to_device) const;

  // The first `planes` z planes of y-slab `box` between the resident
  // regions of the devices that keep them and the packed device brick
  // (into the brick, or out of it in the reversed order): one 3D copy per
  // keeper, device to device on this lane's own device, a peer copy from
  // or to another (the exchange).
  void copy_resident_planes(const Shape& volume, const Box& box, std::size_t planes, std::byte* dev,
                            cudaStream_t s, bool to_brick) const;

  // Where z-slab `box` lies in this lane's device's resident region, which
  // keeps all of it (the plan gives a kept slab to its keeper).
  std::byte* resident_slab(const Shape& volume, const Box& box) const;

  // Makes the context's device current first, so that the lane's stream,
  // events and buffers are made on it.
  static const LaneContext<T>& on_its_device(const LaneContext<T>& context);

  LaneContext<T> c_;
  unsigned index_;
  // Bytes of one element of the volume: complex, or real for the
  // trigonometric transforms (the plan's element_bytes).
  const std::size_t e_;
  kc::Stream stream_;
  kc::Event h2d_start_, h2d_end_, kernel_end_, d2h_end_;
  kc::DeviceBuffer data_;
  kc::DeviceBuffer workspace_;
  bool h2d_started_ = false;
  DeviceClock clock_;
  std::optional<StagingRing> ring_;  // last: its destructor waits for its DMAs before the rest goes
};

extern template class CudaBrickLane<float>;
extern template class CudaBrickLane<double>;

}  // namespace oocfft::engine
