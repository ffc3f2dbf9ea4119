#include "engine/backends/cuda/staging_ring.hpp"

#include <tbb/task_group.h>

#include <algorithm>
#include <memory>

#include "oocfft/error.hpp"

namespace oocfft::engine {

// One task group per slot: the host copy of the piece in that slot. A lane
// waits for one slot's copy at a time, inside the arena, so that it helps
// with the copies instead of sleeping and still makes progress in an arena
// without worker threads. Every group is waited for before the object goes,
// so no task outlives the ring's call.
class StagingRing::Tasks {
 public:
  Tasks(tbb::task_arena& arena, std::size_t slots)
      : arena_(arena), groups_(std::make_unique<tbb::task_group[]>(slots)), slots_(slots) {}
  ~Tasks() {
    for (std::size_t i = 0; i < slots_; ++i) {
      try {
        wait(i);
      } catch (...) {
        // The first error is already on its way to the caller.
      }
    }
  }
  Tasks(const Tasks&) = delete;
  Tasks& operator=(const Tasks&) = delete;

  void run(std::size_t slot, std::function<void()> copy) {
    arena_.execute([&] { groups_[slot].run(std::move(copy)); });
  }
  // Rethrows what the slot's copy threw.
  void wait(std::size_t slot) {
    arena_.execute([&] { groups_[slot].wait(); });
  }

 private:
  tbb::task_arena& arena_;
  std::unique_ptr<tbb::task_group[]> groups_;
  std::size_t slots_;
};

StagingRing::StagingRing(std::byte* memory, std::size_t bytes, std::size_t slot_bytes, std::size_t element_bytes,
                         cudaStream_t stream, tbb::task_arena& arena)
    : memory_(memory), stream_(stream), arena_(arena) {
  const std::size_t whole = bytes / element_bytes * element_bytes;
  if (whole == 0) throw Error(ErrorKind::invalid_argument, "a staging ring needs room for one element");
  slot_bytes_ = std::clamp(slot_bytes / element_bytes * element_bytes, element_bytes, whole);
  slots_ = bytes / slot_bytes_;
  dma_done_.reserve(slots_);
  for (std::size_t i = 0; i < slots_; ++i) dma_done_.emplace_back(false);
}

StagingRing::~StagingRing() {
  // DMAs into or out of the slots end before the caller may free them.
  (void)cudaStreamSynchronize(stream_);
}

void StagingRing::upload(std::size_t count, const HostCopy& gather, const QueueCopy& queue_copy,
                         const std::function<void()>& on_first_gathered) {
  Tasks tasks(arena_, slots_);
  std::size_t started = 0;
  auto start_gather = [&] {
    const std::size_t k = started++;
    dma_done_[k % slots_].synchronize();  // the slot's last DMA has read it
    tasks.run(k % slots_, [&gather, k, to = slot(k)] { gather(k, to); });
  };
  while (started < std::min(count, slots_)) start_gather();
  for (std::size_t k = 0; k < count; ++k) {
    tasks.wait(k % slots_);
    if (k == 0) on_first_gathered();
    queue_copy(k, slot(k));
    dma_done_[k % slots_].record(stream_);
    // Refill the slot of the piece before this one: its DMA was queued
    // ahead of this piece's, so the copy engine has work while the lane
    // waits for it.
    if (started < count && (k >= 1 || slots_ == 1)) start_gather();
  }
}

void StagingRing::download(std::size_t count, const QueueCopy& queue_copy, const HostCopy& scatter,
                           const std::function<void()>& on_last_queued) {
  Tasks tasks(arena_, slots_);
  std::size_t queued = 0;
  auto queue_next = [&] {
    const std::size_t k = queued++;
    tasks.wait(k % slots_);  // the slot's last piece is in the volume
    queue_copy(k, slot(k));
    if (k + 1 == count) on_last_queued();
    dma_done_[k % slots_].record(stream_);
  };
  while (queued < std::min(count, slots_)) queue_next();
  for (std::size_t k = 0; k < count; ++k) {
    dma_done_[k % slots_].synchronize();
    tasks.run(k % slots_, [&scatter, k, from = slot(k)] { scatter(k, from); });
    // Refill the slot of the piece before this one, whose scatter started
    // a step earlier; the DMAs queued meanwhile keep the copy engine busy.
    if (queued < count && (k >= 1 || slots_ == 1)) queue_next();
  }
  for (std::size_t i = 0; i < std::min(count, slots_); ++i) tasks.wait(i);
}

}  // namespace oocfft::engine
