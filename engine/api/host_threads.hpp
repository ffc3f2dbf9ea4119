#pragma once
// The TBB arena that limits a plan's host threads (Options::threads and
// Options::host_threads).
#include <tbb/task_arena.h>

#include <memory>

#include "oocfft/host_threads.hpp"
#include "oocfft/options.hpp"

namespace oocfft {

class HostThreads::Impl {
 public:
  explicit Impl(unsigned threads) : threads_(threads), arena_(static_cast<int>(threads)) { arena_.initialize(); }
  unsigned threads() const { return threads_; }
  tbb::task_arena& arena() { return arena_; }

 private:
  unsigned threads_;
  tbb::task_arena arena_;
};

namespace engine {

// The arena a plan runs its host work in:
//   options.host_threads set: its shared arena;
//   threads == 0: the calling thread's own arena (attach), so that a loop
//     of one-shot fft3d calls does not make an arena per call (measured:
//     about 7 KiB a call, 20 MiB over 2900 calls of an 8^3 transform; flat
//     with attach);
//   otherwise an arena of that many threads, for this plan alone.
std::shared_ptr<tbb::task_arena> make_arena(const Options& options);

}  // namespace engine
}  // namespace oocfft
