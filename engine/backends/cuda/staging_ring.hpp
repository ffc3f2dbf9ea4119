#pragma once
// StagingRing: one stream's page-locked staging, cut into slots of a few
// MiB, through which a brick moves between a pageable volume and the device
// piece by piece. Host copies of several pieces run at once as tasks of the
// plan's TBB arena (each copy is itself split across threads by the store);
// the lane's own thread only queues the DMA of each piece as its gather
// lands, and hands each piece that came down to a scatter task.
//
// Why slots of a few MiB: a slot written by the gather and read by the DMA
// soon after can stay in the last-level cache, and the volume is read once
// and written once, with streaming stores (run_copy.hpp). The DMA of piece
// k + 1 overlaps the scatter of piece k, and the gathers (or scatters) of
// several pieces run at once, so one lane alone can keep the link busy:
// that is what lets the lanes take turns per direction (cuda_backend.cpp).
//
// The ring keeps one event per slot, recorded after the DMA that last used
// the slot, and waits for it before the slot is filled again, also across
// bricks. Every task it started has ended when upload() or download()
// returns or throws: an exception from a host copy is rethrown on the lane
// after the others ended.
#include <cuda_runtime_api.h>
#include <tbb/task_arena.h>

#include <cstddef>
#include <functional>
#include <vector>

#include "kernels/cuda/stream.hpp"

namespace oocfft::engine {

class StagingRing {
 public:
  // One piece between its slot and the volume (a gather or a scatter):
  // runs as a task, any number at once.
  using HostCopy = std::function<void(std::size_t piece, std::byte* slot)>;
  // Queues one piece's DMA between its slot and the device on the ring's
  // stream: called on the lane's thread, in piece order.
  using QueueCopy = std::function<void(std::size_t piece, std::byte* slot)>;

  // `memory` holds `bytes` of page-locked staging, owned by the caller;
  // slots of `slot_bytes` (whole elements of `element_bytes`, at most
  // `bytes`: one slot, the whole buffer, for bricks that move whole) are
  // cut from it.
  StagingRing(std::byte* memory, std::size_t bytes, std::size_t slot_bytes, std::size_t element_bytes,
              cudaStream_t stream, tbb::task_arena& arena);
  ~StagingRing();
  StagingRing(const StagingRing&) = delete;
  StagingRing& operator=(const StagingRing&) = delete;

  std::size_t slot_bytes() const { return slot_bytes_; }
  std::size_t slots() const { return slots_; }

  // Gathers pieces 0..count-1 into slots as tasks and queues the DMA of each
  // as it lands. Returns when every DMA is queued (the last may still run on
  // the stream); `on_first_gathered` runs once, before the first DMA is
  // queued.
  void upload(std::size_t count, const HostCopy& gather, const QueueCopy& queue_copy,
              const std::function<void()>& on_first_gathered);
  // Queues the DMA of pieces 0..count-1 into slots and scatters each as it
  // lands; `on_last_queued` runs right after the last DMA is queued (the
  // caller records its end event there). Returns when every piece is in the
  // volume.
  void download(std::size_t count, const QueueCopy& queue_copy, const HostCopy& scatter,
                const std::function<void()>& on_last_queued);

 private:
  class Tasks;
  std::byte* slot(std::size_t piece) const { return memory_ + (piece % slots_) * slot_bytes_; }

  std::byte* memory_;
  std::size_t slot_bytes_ = 0;
  std::size_t slots_ = 0;
  cudaStream_t stream_;
  tbb::task_arena& arena_;
  std::vector<kernels::cuda::Event> dma_done_;  // per slot: its last DMA has ended
};

}  // namespace oocfft::engine
