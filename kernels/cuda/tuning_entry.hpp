#pragma once
// The entries of a tuning table (tuning.hpp): a line whose tile or schedule
// differs from what the rules of the tile shapes give, because it was
// measured faster so. One entry says which rule it overrides (Tuned), for
// which line, with what, and why (`reason`, one sentence). The factories
// below keep each entry of a table on one line.
#if defined(__CUDACC_RTC__)
#include "kernels/cuda/nvrtc_std.hpp"  // NVRTC has no C++ library
#else
#include <cstddef>
#endif

namespace oocfft::kernels::cuda {

// The element type of a tuned line.
enum class TunedType { complex64, complex128 };

// The searches of a long line's tile, in the order the choice tries them
// (first_schedule_choice in schedule_choice.hpp).
enum class TileSearch { uniform, first_ragged, second_ragged };

// Which rule an entry overrides.
enum class Tuned {
  skewed_one_line_tile,  // a one-line tile that keeps its skew (tile_skew_shift)
  ragged_threads,        // the block size of the line's ragged tile (ragged_tile)
  spilled_tile,          // the tile of `search` spills: the next choice runs (tile_spills)
  in_place_schedule,     // the in-place tile's blocks, radices and block size (measured_in_place_shape)
  two_in_place_blocks,   // two in-place blocks per SM, not the Stockham tile (contiguous_shape)
  cluster_tile,          // the cluster tile, not the Stockham tile (contiguous_shape)
  four_steps,            // four steps, not the cluster tile (contiguous_shape)
  stockham_radices,      // the radices of the line's schedule (paired_radix_schedule)
};

// The most radices an entry lists.
inline constexpr int max_tuned_radices = 6;

// The radices an entry lists, unused entries 0: an in-place schedule's in
// decimation order, the first stage's first; a Stockham schedule's in pass
// order.
struct TunedRadices {
  int radices[max_tuned_radices];
};

struct TuningEntry {
  Tuned what = Tuned::skewed_one_line_tile;
  int length = 0;
  TunedType type = TunedType::complex64;
  TileSearch search = TileSearch::uniform;  // spilled_tile
  int cluster = 1;                          // in_place_schedule: blocks holding one line (1: one block per line)
  TunedRadices radices{};                   // in_place_schedule, stockham_radices
  int resident = 0;  // in_place_schedule: blocks per SM; 0: as many as fit, up to four
  int threads = 0;   // ragged_threads; in_place_schedule (0: in_place_threads shared among the resident blocks)
  const char* reason = "";
};

// A line run as `what` says, with nothing more to say.
constexpr TuningEntry tuned_line(Tuned what, int length, TunedType type, const char* reason) {
  TuningEntry e;
  e.what = what;
  e.length = length;
  e.type = type;
  e.reason = reason;
  return e;
}

constexpr TuningEntry ragged_threads(int length, TunedType type, int threads, const char* reason) {
  TuningEntry e = tuned_line(Tuned::ragged_threads, length, type, reason);
  e.threads = threads;
  return e;
}

constexpr TuningEntry spilled_tile(int length, TunedType type, TileSearch search, const char* reason) {
  TuningEntry e = tuned_line(Tuned::spilled_tile, length, type, reason);
  e.search = search;
  return e;
}

// `resident` and `threads` 0: as the rules give them.
constexpr TuningEntry in_place_schedule(int length, TunedType type, int cluster, TunedRadices radices, int resident,
                                        int threads, const char* reason) {
  TuningEntry e = tuned_line(Tuned::in_place_schedule, length, type, reason);
  e.cluster = cluster;
  e.radices = radices;
  e.resident = resident;
  e.threads = threads;
  return e;
}

constexpr TuningEntry stockham_radices(int length, TunedType type, TunedRadices radices, const char* reason) {
  TuningEntry e = tuned_line(Tuned::stockham_radices, length, type, reason);
  e.radices = radices;
  return e;
}

}  // namespace oocfft::kernels::cuda
