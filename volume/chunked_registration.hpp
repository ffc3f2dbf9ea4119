#pragma once
// ChunkedRegistration: page-locks the caller's array chunk by chunk
// (volume/host_chunks.hpp) from a background thread while the streaming
// pipeline runs, in array order, which is the order of the first pass's
// bricks. Each brick waits for its chunks, then DMAs straight from the
// array. The destructor stops the thread and unlocks every chunk it locked,
// so the array is never left page-locked after a run, whether it ends
// normally, fails or is cancelled.
//
// A chunk that fails to lock (another registration overlaps it, or the
// system refuses) stops the locking there: the chunks before it stay
// usable, the bricks after it stage.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>

#include "volume/host_chunks.hpp"
#include "volume/page_locker.hpp"

namespace oocfft::volume {

class ChunkedRegistration {
 public:
  ChunkedRegistration(std::byte* array, HostChunks chunks, const PageLocker& locker);
  ~ChunkedRegistration();
  ChunkedRegistration(const ChunkedRegistration&) = delete;
  ChunkedRegistration& operator=(const ChunkedRegistration&) = delete;

  const HostChunks& chunks() const { return chunks_; }
  // Waits until chunks 0..c are locked (true) or locking stopped short of c
  // (false: the brick must stage).
  bool wait_ready(std::size_t c);
  // Stops the locking thread, unlocks every chunk it locked and returns the
  // seconds spent unlocking; the destructor does the same if not called.
  // Call only once no DMA uses the array any more.
  double unlock();
  // Seconds the locking thread ran; valid after unlock().
  double lock_seconds() const { return lock_seconds_; }

 private:
  void lock_all();
  // True when chunks 0..c are locked; never blocks.
  bool ready(std::size_t c) const { return c < locked_.load(std::memory_order_acquire); }

  std::byte* array_;
  const PageLocker& locker_;
  HostChunks chunks_;
  std::atomic<std::size_t> locked_{0};
  std::atomic<bool> stop_{false};
  bool finished_ = false;  // guarded by mutex_
  std::mutex mutex_;
  std::condition_variable changed_;
  double lock_seconds_ = 0;  // written by the thread, read after join
  std::thread thread_;
  bool unlocked_ = false;
};

}  // namespace oocfft::volume
