#pragma once
// The resource model of the compiled-schedule tiles: what a block of a tile
// costs an SM (threads, registers, shared memory), the registers its launch
// bounds plan for a thread, the butterfly slots its passes take, and the
// skew of its shared buffers. Constant expressions only, on the host, in
// nvcc's device code and under NVRTC alike: the tile shapes built on them
// are template arguments of the kernels.
//
// The SM's sizes below are compile-time bounds, not read from the device:
// an ahead-of-time kernel bakes its shape in, and a plan-time kernel must
// get the same shape. They are sm_90's. A plan checks them against the
// device it runs on (DeviceLimits::holds_compiled_tiles, device_limits.hpp)
// and keeps to the general kernel where the device has less.
#if defined(__CUDACC_RTC__)
#include "kernels/cuda/nvrtc_std.hpp"  // NVRTC has no C++ library
#else
#include <cstddef>
#include <cstdint>
#endif

#include "kernels/butterfly.hpp"
#include "kernels/radix_schedule.hpp"

namespace oocfft::kernels::cuda {

// Compile-time bounds of the model (see the header comment): the most
// shared memory a compiled tile may use per block (the opt-in limit), an
// SM's shared memory, the part of it the SM reserves per resident block,
// and an SM's registers and threads.
inline constexpr std::size_t max_schedule_shared_bytes = 227 * 1024;
inline constexpr std::size_t sm_shared_bytes = 228 * 1024;
inline constexpr std::size_t block_reserved_shared_bytes = 1024;
inline constexpr int sm_registers = 65536;
inline constexpr int sm_threads = 2048;

constexpr int schedule_log2(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

constexpr bool only_powers_of_two(const RadixSchedule& s) {
  for (int p = 0; p < s.count; ++p)
    if ((s.radices[p] & (s.radices[p] - 1)) != 0) return false;
  return true;
}

constexpr int largest_radix(const RadixSchedule& s) {
  int largest = 0;
  for (int p = 0; p < s.count; ++p) largest = s.radices[p] > largest ? s.radices[p] : largest;
  return largest;
}

// Whether no pass of a schedule has radix 11 or 13 (the length is 7-smooth).
constexpr bool seven_smooth_radices(const RadixSchedule& s) {
  for (int p = 0; p < s.count; ++p)
    if (s.radices[p] == 11 || s.radices[p] == 13) return false;
  return true;
}

// The passes of radix `radix` in a schedule.
constexpr int passes_of_radix(const RadixSchedule& s, int radix) {
  int count = 0;
  for (int p = 0; p < s.count; ++p) count += s.radices[p] == radix ? 1 : 0;
  return count;
}

// Values a thread holds per pass, at most: a register budget (each value is
// two registers for complex<float>, four for complex<double>). 16 for
// complex<float> (the radix-16 butterfly; 64 registers suffice). Odd radices
// keep more temporaries per value; complex<double> schedules with them hold
// at most 12. Never fewer than the largest radix.
template <class T>
constexpr int schedule_max_values(const RadixSchedule& s) {
  const int largest = largest_radix(s);
  const int cap = sizeof(T) == 4 || only_powers_of_two(s) ? 16 : 12;
  return cap > largest ? cap : largest;
}

// The tile of a compiled schedule: lanes (lines per tile), block size, and
// the most values a thread holds in one pass. The cost model: pass p has
// lanes * n / R_p butterflies; with t threads a thread does ceil(that / t)
// of them and holds that many times R_p values. Over tiles of max_lanes,
// max_lanes / 2, ... min_lanes lanes and warp multiples t up to 1024 whose
// largest per-thread count fits `max_values`, take the fewest butterfly
// slots per point (idle threads in some pass count), weighted up where the
// blocks that fit an SM at `registers` per thread hold fewer than half of
// its threads (low occupancy ran slow, and a smaller tile packs blocks of
// fewer threads more tightly); ties go to the larger tile, then to the
// count nearest 16 values per thread (enough independent work per thread).
// Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
struct ScheduleTile {
  int lanes = 0;
  int threads = 0;
  int values = 0;
};

// Blocks of `threads` threads at `registers` each that an SM holds at once
// (its sm_threads threads and sm_registers registers; at most 32 blocks).
constexpr int resident_blocks(int threads, int registers) {
  const int by_threads = sm_threads / threads, by_registers = sm_registers / (threads * registers);
  const int blocks = by_threads < by_registers ? by_threads : by_registers;
  return blocks < 32 ? blocks : 32;
}

// The work of a tile of `points` points with `threads` threads: butterfly
// slots (a thread of pass p does ceil(points / R_p / threads) butterflies;
// idle threads count) and the most values a thread holds in one pass.
struct TileWork {
  long slots = 0;
  int values = 0;
};

constexpr TileWork tile_work(long points, const RadixSchedule& s, int threads) {
  TileWork w;
  for (int p = 0; p < s.count; ++p) {
    const long per_thread = (points / s.radices[p] + threads - 1) / threads;
    w.slots += per_thread * threads * s.radices[p];
    w.values = w.values > per_thread * s.radices[p] ? w.values : static_cast<int>(per_thread * s.radices[p]);
  }
  return w;
}

// Butterfly slots per point, weighted up where `blocks` resident blocks of
// `threads` hold fewer than half of the SM's 2048 threads (the cost model
// of choose_schedule_tile below says why).
constexpr double weighted_slots(const TileWork& w, long points, int blocks, int threads) {
  const double occupancy = static_cast<double>(blocks * threads) / 2048;
  return static_cast<double>(w.slots) / static_cast<double>(points) * (occupancy < 0.5 ? 0.5 / occupancy : 1.0);
}

// How the registers per thread of `blocks` resident blocks of `threads`
// threads are planned (the value budget of values_within and the
// __launch_bounds__ through min_blocks), in the allocation unit of 8, at
// most 248 (a thread addresses 255):
// - ptxas_quarters: the cap ptxas gives such a kernel. Each of the SM's four
//   register files of 16384 holds a quarter of the warps, rounded up: two
//   blocks of 224 threads get 128 registers (14 warps, 4 per quarter), not
//   the 144 that 65536 / 448 would leave; two of 352, 80 (not 88); three of
//   224, 80 (not 96).
// - even_split: 65536 / (blocks threads), which ptxas may cap lower; values
//   that fit the split but not the cap spill.
enum class RegisterPlan { even_split, ptxas_quarters };

constexpr int planned_registers(int threads, int blocks, RegisterPlan plan) {
  int registers = 65536 / (blocks * threads);
  if (plan == RegisterPlan::ptxas_quarters) {
    const int warps = blocks * ((threads + 31) / 32);
    registers = 16384 / (32 * ((warps + 3) / 4));
  }
  const int whole = registers - registers % 8;
  return whole < 248 ? whole : 248;
}

// The plan of the two-block and three-block rules of shape_of_schedule:
// complex<double> with ptxas's cap (planned with the even split, its tiles of
// 26-28 values spilled), complex<float> with the even split (its values fit
// in fewer spare registers; with the cap it takes fewer values, hence more
// threads or one block).
// Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
template <class T>
constexpr RegisterPlan two_block_register_plan() {
  return sizeof(T) == 8 ? RegisterPlan::ptxas_quarters : RegisterPlan::even_split;
}

// Values a thread may hold at `registers` registers in the tiles of
// choose_resident_tile and the third-block rule of schedule_shape: each
// value takes 2 (complex<float>) or 4 (complex<double>) registers, and
// indices, twiddles and addresses about 32 more; at most 32.
template <class T>
constexpr int values_within(int registers) {
  const int values = (registers - 32) / (static_cast<int>(sizeof(T)) / 2);
  return values < 32 ? values : 32;
}

// The tile of one contiguous line with `blocks` resident blocks per SM:
// each block size t (up to 2048 / blocks threads) takes the registers `plan`
// gives that many blocks and the values those hold; the fewest weighted
// butterfly slots per point win. `registers` receives the winner's.
template <class T>
constexpr ScheduleTile choose_resident_tile(int n, const RadixSchedule& s, int blocks, RegisterPlan plan,
                                            int& registers) {
  ScheduleTile best;
  double best_cost = 0;
  for (int t = 32; t * blocks <= 2048 && t <= 1024; t += 32) {
    const int r = planned_registers(t, blocks, plan);
    const TileWork work = tile_work(n, s, t);
    if (work.values > values_within<T>(r)) continue;
    const double cost = weighted_slots(work, n, blocks, t);
    if (best.threads == 0 || cost < best_cost - 1e-9) {
      best = {1, t, work.values};
      best_cost = cost;
      registers = r;
    }
  }
  return best;
}

constexpr ScheduleTile choose_schedule_tile(int n, const RadixSchedule& s, int max_lanes, int min_lanes,
                                            int max_values, int registers) {
  ScheduleTile best;
  double best_cost = 0;
  for (int lanes = max_lanes; lanes >= min_lanes && lanes >= 1; lanes /= 2) {
    const long points = static_cast<long>(n) * lanes;
    for (int t = 32; t <= 1024; t += 32) {
      const TileWork work = tile_work(points, s, t);
      const int values = work.values;
      if (values > max_values) continue;
      const int blocks = resident_blocks(t, registers);
      if (blocks == 0) continue;  // a block this large could not launch at `registers` each
      // One resident block per SM runs its load, passes and store one after
      // another with nothing to overlap them; a single warp per block idles
      // at every exchange. Both measured slower (bench/RESULTS.md, section
      // Kernel tuning table (sm_90)).
      const double lone = blocks < 2 || t < 64 ? 1.5 : 1.0;
      const double cost = weighted_slots(work, points, blocks, t) * lone;
      const int distance = values > 16 ? values - 16 : 16 - values;
      const int best_distance = best.values > 16 ? best.values - 16 : 16 - best.values;
      if (best.threads == 0 || cost < best_cost - 1e-9 ||
          (cost < best_cost + 1e-9 && lanes == best.lanes && distance < best_distance)) {
        best = {lanes, t, values};
        best_cost = cost;
      }
    }
  }
  return best;
}

// The skew of a tile's shared buffers, as a shift: one spare word every 32
// words of complex<float> parts, every 16 of complex<double> (skew() in
// general_tile_kernels.cuh).
template <class T>
constexpr int skewed_shift() {
  return sizeof(T) == 4 ? 5 : 4;
}

// Words of one skewed buffer of `points` values: one extra word every
// 2^shift keeps a stride of 2^shift off a single bank (skew() in
// general_tile_kernels.cuh); shift 0 leaves the buffer unskewed (tile_skew_shift).
constexpr int skewed_words(int points, int shift) {
  return shift == 0 ? points : points + (points >> shift) + 1;
}

// n = 2^a 3^b 5^c 7^d; `smooth` false where n has another prime factor.
struct SmoothExponents {
  int a = 0, b = 0, c = 0, d = 0;
  bool smooth = false;
};

constexpr SmoothExponents smooth_exponents(int n) {
  SmoothExponents x;
  for (; n % 2 == 0; n /= 2) ++x.a;
  for (; n % 3 == 0; n /= 3) ++x.b;
  for (; n % 5 == 0; n /= 5) ++x.c;
  for (; n % 7 == 0; n /= 7) ++x.d;
  x.smooth = n == 1;
  return x;
}

// The shared memory a block of one contiguous line of n points takes: its
// skewed buffers (ScheduleShape::shift) and what the SM reserves per block,
// of the SM's sm_shared_bytes.
template <class T>
constexpr std::size_t line_tile_bytes(int n) {
  return 2 * sizeof(T) * static_cast<std::size_t>(skewed_words(n, skewed_shift<T>())) + block_reserved_shared_bytes;
}

// Whether a pass of radix `radix` and span `span` loads only some of its
// twiddles and forms the others as products of two (PassTwiddles in
// general_tile_kernels.cuh; composite_factor): where the radix is a
// composite and the pass's table passes 32 KB, about what L1 keeps beside a
// tile's shared memory, so that its entries would come from L2; in the
// in-place and cluster tiles (`in_place`) for every composite, in the
// Stockham tiles for radices 25 and 27 only (for radices 6 to 15 they were
// as often slower as faster). Errors rose by at most 3%.
// Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
template <class T>
constexpr bool factored_twiddles(int radix, int span, bool in_place) {
  const bool table_past_l1 = static_cast<std::size_t>(radix - 1) * span * 2 * sizeof(T) > 32 * 1024;
  return composite_factor(radix) != 0 && table_past_l1 && (in_place || radix >= 25);
}

}  // namespace oocfft::kernels::cuda
