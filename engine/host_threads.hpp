#pragma once
// The TBB arena that limits a plan's host threads (Options::threads).
#include <tbb/task_arena.h>

namespace oocfft::engine {

// threads == 0: the calling thread's own arena (attach), so that a loop of
// one-shot fft3d calls does not make an arena per call: oneTBB keeps memory
// for every arena it ever made (measured: about 7 KiB a call, 20 MiB over
// 2900 calls of an 8^3 transform; flat with attach). A thread count makes
// an arena of that many threads, per plan.
inline tbb::task_arena make_arena(unsigned threads) {
  if (threads == 0) return tbb::task_arena(tbb::task_arena::attach());
  return tbb::task_arena(static_cast<int>(threads));
}

}  // namespace oocfft::engine
