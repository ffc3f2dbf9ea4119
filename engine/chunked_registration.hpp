#pragma once
// ChunkedRegistration: page-locks the caller's array chunk by chunk
// (transpose/host_chunks.hpp) from a background thread while the streaming
// pipeline runs, in array order, which is the order of the first pass's
// bricks. Bricks whose chunks are locked DMA straight from the array; the
// others go through staging (or, when the caller asked for registration,
// wait for their chunks). The destructor stops the thread and unlocks every
// chunk it locked, so the array is never left page-locked after a run,
// whether it ends normally, fails or is cancelled.
//
// A chunk that fails to lock (another registration overlaps it, or the
// system refuses) stops the locking there: the chunks before it stay
// usable, the bricks after it stage. Compiled only with CUDA.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>

#include "transpose/host_chunks.hpp"

namespace oocfft::engine {

class ChunkedRegistration {
 public:
  ChunkedRegistration(std::byte* array, transpose::HostChunks chunks, int device);
  ~ChunkedRegistration();
  ChunkedRegistration(const ChunkedRegistration&) = delete;
  ChunkedRegistration& operator=(const ChunkedRegistration&) = delete;

  const transpose::HostChunks& chunks() const { return chunks_; }
  // True when chunks 0..c are locked; never blocks.
  bool ready(std::size_t c) const { return c < locked_.load(std::memory_order_acquire); }
  // Waits until chunks 0..c are locked (true) or locking stopped short of c
  // (false: the brick must stage).
  bool wait_ready(std::size_t c);
  // Seconds the locking thread spent in cudaHostRegister, and the time the
  // destructor will spend unlocking is added by the caller.
  double lock_seconds() const { return lock_seconds_; }
  // Unlocks everything now (also done by the destructor); returns the seconds.
  double unlock();

 private:
  void lock_all(int device);

  std::byte* array_;
  transpose::HostChunks chunks_;
  std::atomic<std::size_t> locked_{0};
  std::atomic<bool> stop_{false};
  bool finished_ = false;  // guarded by mutex_
  std::mutex mutex_;
  std::condition_variable changed_;
  double lock_seconds_ = 0;  // written by the thread, read after join
  std::thread thread_;
  bool unlocked_ = false;
};

}  // namespace oocfft::engine
