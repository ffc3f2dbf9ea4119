#pragma once
// ScheduleGeometry<T, N, LanesFast>: the compile-time shape of a tile of the
// compiled-schedule kernels (schedule_kernels.cuh): lanes per tile, block
// size, values per thread, shared memory. Host-visible (no device code): the
// launcher's choice of kernel (tile_kernel_choice.cpp) reads it too.
//
// LanesFast: the lanes of a tile are the contiguous dimension (y and z lines
// of a volume, SC08's FftShMemCol); otherwise the points are (x lines,
// batched 1D).
#include <cstddef>

#include "kernels/radix_schedule.hpp"

namespace oocfft::kernels::cuda {

constexpr int schedule_log2(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

// Values a thread holds per pass, at most: a register budget (each value is
// two registers for complex<float>, four for complex<double>). The first
// version allowed 32 for complex<float>: ptxas spilled 200-440 bytes per
// thread at 20-21 values (lengths 60, 120, 320).
inline constexpr int schedule_max_values = 16;

// The block size of a tile of `points` values over the passes of `s`: the
// cost model. Pass p has lanes * n / R_p butterflies; with t threads a
// thread does ceil(that / t) of them and holds that many times R_p values.
// Among the warp multiples up to 1024 whose largest per-thread count fits
// `max_values`, take the fewest idle butterfly slots (threads with nothing
// to do in some pass), then the count nearest 16: enough independent loads
// and arithmetic per thread to hide latency (the power-of-two kernels were
// tuned there) without spilling.
struct ScheduleThreads {
  int threads = 0;
  int values = 0;
};

constexpr ScheduleThreads choose_schedule_threads(int n, int lanes, const RadixSchedule& s, int max_values) {
  ScheduleThreads best;
  long best_idle = -1;
  const long points = static_cast<long>(n) * lanes;
  for (int t = 32; t <= 1024; t += 32) {
    long slots = 0;
    int values = 0;
    for (int p = 0; p < s.count; ++p) {
      const long butterflies = points / s.radices[p];
      const long per_thread = (butterflies + t - 1) / t;
      slots += per_thread * t * s.radices[p];
      values = values > per_thread * s.radices[p] ? values : static_cast<int>(per_thread * s.radices[p]);
    }
    if (values > max_values) continue;
    const long idle = slots - points * s.count;
    const int distance = values > 16 ? values - 16 : 16 - values;
    const int best_distance = best.values > 16 ? best.values - 16 : 16 - best.values;
    if (best_idle < 0 || idle < best_idle || (idle == best_idle && distance < best_distance)) {
      best = {t, values};
      best_idle = idle;
    }
  }
  return best;
}

template <class T, int N, bool LanesFast>
struct ScheduleGeometry {
  static constexpr RadixSchedule schedule = radix_schedule(N);
  static constexpr int passes = schedule.count;
  // Contiguous lines: a tile of about 4096 complex<float> or 2048
  // complex<double> values (32 KB, several blocks per SM). Strided lines:
  // also at least 64 bytes of neighbouring lanes per point (whole 32-byte
  // sectors with room to spare). Lanes are a power of two.
  static constexpr int target_points = sizeof(T) == 4 ? 4096 : 2048;
  static constexpr int min_lanes = LanesFast ? static_cast<int>(64 / (2 * sizeof(T))) : 1;
  static constexpr int fill_lanes = target_points / N > 1 ? 1 << (schedule_log2(target_points / N + 1) - 1) : 1;
  static constexpr int lanes = fill_lanes > min_lanes ? fill_lanes : min_lanes;
  static constexpr int log_lanes = schedule_log2(lanes);
  static constexpr int points = lanes * N;
  static constexpr ScheduleThreads block = choose_schedule_threads(N, lanes, schedule, schedule_max_values);
  static constexpr int threads = block.threads;
  static constexpr int values = block.values;  // the most a thread holds in any pass
  // Register cap through __launch_bounds__: 64 per thread for complex<float>
  // and 128 for complex<double> where every radix is a power of two and a
  // thread holds 16 values (measured for those kernels: 1024 and 512 threads
  // per SM); twice that with odd radices, whose butterflies keep more
  // temporaries (at 64 registers ptxas spilled 290 bytes per thread for
  // length 60).
  static constexpr bool powers_of_two_only = [] {
    for (int p = 0; p < schedule.count; ++p)
      if ((schedule.radices[p] & (schedule.radices[p] - 1)) != 0) return false;
    return true;
  }();
  static constexpr int register_target = (sizeof(T) == 4 ? 64 : 128) * (powers_of_two_only ? 1 : 2);
  static constexpr int min_blocks = 65536 / (threads * register_target) > 1 ? 65536 / (threads * register_target) : 1;
  // Contiguous lines whose first (last) pass has fewer than 4 butterflies
  // per line: a thread's R values are R neighbouring points, so a warp's
  // direct global accesses would touch 32 rows each. Such tiles go through
  // shared memory with coalesced copies instead (the store side mattered
  // most: n = 16 ran at 0.30x cuFFT with direct stores, which L1 does not
  // merge).
  static constexpr bool staged_load = !LanesFast && N / schedule.radices[0] < 4;
  static constexpr bool staged_store = !LanesFast && N / schedule.radices[passes - 1] < 4;
  // One skewed buffer of real parts and one of imaginary parts (skew() in
  // tile_kernels.cuh); none when one pass does everything in registers.
  static constexpr int shift = sizeof(T) == 4 ? 5 : 4;
  static constexpr bool uses_shared = passes > 1 || staged_load || staged_store;
  static constexpr int shared_words = uses_shared ? points + (points >> shift) + 1 : 0;
  static constexpr std::size_t shared_bytes = 2 * sizeof(T) * static_cast<std::size_t>(shared_words);

  static_assert(passes > 0, "compiled schedules are for 13-smooth lengths above 1");
  static_assert(threads > 0, "no block size keeps a thread's values within the register budget");
  static_assert(shared_bytes <= 227 * 1024, "a tile must fit the shared memory of one block");
};

}  // namespace oocfft::kernels::cuda
