#pragma once
// ScheduleGeometry<T, N, LanesFast>: the compile-time shape of a tile of the
// compiled-schedule kernels (schedule_kernels.cuh): lanes per tile, block
// size, values per thread, shared memory. Host-visible (no device code): the
// launcher's choice of kernel (tile_kernel_choice.cpp) reads it too.
//
// LanesFast: the lanes of a tile are the contiguous dimension (y and z lines
// of a volume, SC08's FftShMemCol); otherwise the points are (x lines,
// batched 1D).
#if defined(__CUDACC_RTC__)
#include "kernels/cuda/nvrtc_std.hpp"  // NVRTC has no C++ library
#else
#include <cstddef>
#include <cstdint>
#endif

#include "kernels/butterfly.hpp"
#include "kernels/radix_schedule.hpp"

namespace oocfft::kernels::cuda {

// What the last pass of a compiled schedule stores: the transform (plain),
// times four-step step A's twiddle (twiddled, strided lanes), or with the
// lanes made contiguous (transposed: four-step step B on contiguous lines).
enum class ScheduleStore { plain, twiddled, transposed };

constexpr int schedule_log2(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

// Values a thread holds per pass, at most: a register budget (each value is
// two registers for complex<float>, four for complex<double>). 16 for
// complex<float> (the radix-16 butterfly; 64 registers suffice). Odd radices
// keep more temporaries per value; complex<double> schedules with them hold
// at most 12. Never fewer than the largest radix. (Before the kernels lost
// their grid-stride loop, hoisted offsets took most of the registers, and 16
// odd-radix values needed 109-122 for complex<float>; the budget was 12, which
// forced blocks so large that one filled an SM: 3780 = 4 9 3 5 7 ran at 0.46x
// cuFFT with one block of 960 threads, 0.71x with two of 480 at 16 values.)
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
// its 2048 threads (ncu: 16-22% occupancy ran at half of cuFFT's speed, and
// a smaller tile packs blocks of fewer threads more tightly); ties go to the
// larger tile, then to the count nearest 16 values per thread (enough
// independent work per thread; the power-of-two kernels were tuned there).
struct ScheduleTile {
  int lanes = 0;
  int threads = 0;
  int values = 0;
};

// Blocks of `threads` threads at `registers` each that an SM holds at once
// (its 2048 threads and 65536 registers; at most 32 blocks).
constexpr int resident_blocks(int threads, int registers) {
  const int by_threads = 2048 / threads, by_registers = 65536 / (threads * registers);
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

// The plan of the two-block and three-block rules of schedule_shape:
// complex<double> with ptxas's cap (planned with the even split, tiles of
// 26-28 values spilled up to 704 bytes: 5292 0.66 -> 0.42x cuFFT, 4802 0.82
// -> 0.69x; with the cap, 24 of the 58 lengths whose tile differs were
// faster, 6 slower); complex<float> with the even split, its values fitting
// in fewer spare registers (with the cap, fewer values, hence more threads
// or one block: 15 of the 34 lengths whose tile differs were slower, 8748
// 0.68 -> 0.56x, 4 faster, 7776 0.53 -> 0.77x). Both measured on the H100
// (bench/RESULTS.md, issue 10).
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
      // at every exchange. Both measured 1.3-2x slower (complex<double> 2400,
      // 2560: 0.55-0.66x cuFFT with one block of 480-512 threads, 0.85-0.98x
      // with two of 320; 270 with 32-thread blocks 0.48x).
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

// The whole shape of a compiled schedule's tile for lines of length n, as
// ScheduleGeometry below explains it. One constexpr function serves the
// compile-time geometry of the kernels and the plan-time launcher of the
// kernels NVRTC compiles (plan_time_schedules.cpp), so the launch geometry
// and the kernel's own cannot drift apart. `valid` is false where no
// compiled tile holds n (a prime factor above 13, no block size within the
// register budget, or more shared memory than a block has).
struct ScheduleShape {
  RadixSchedule schedule;
  int passes = 0;
  unsigned fused = 0;  // StagedSchedule's: passes run in registers with the next
  int stages = 0;
  int lanes = 0;
  int log_lanes = 0;
  int points = 0;
  int threads = 0;
  int values = 0;
  int register_target = 0;
  int min_blocks = 0;
  bool staged_load = false;
  bool staged_store = false;
  int shift = 0;
  bool uses_shared = false;
  int shared_words = 0;
  std::size_t shared_bytes = 0;
  // The in-place tile (in_place_shape below): stages of decimation in
  // frequency on one line in one shared buffer, the passes of `schedule`
  // in reverse order.
  bool in_place = false;
  // The blocks of a thread-block cluster that hold one line of the
  // in-place tile between them, each N / cluster points (cluster_shape).
  int cluster = 1;
  bool valid = false;
};

// The most shared memory a compiled tile may use (the H100's and A100's
// opt-in limit per block); ScheduleGeometry asserts it.
inline constexpr std::size_t max_schedule_shared_bytes = 227 * 1024;

// A line of a measured list: its length and element type.
struct MeasuredLine {
  int length;
  bool complex128;
};

// The entry of `lines` (entries with `length` and `complex128`) that names
// the complex<T> line of length n; nullptr where none does.
template <class T, class Line, std::size_t Count>
constexpr const Line* listed_entry(const Line (&lines)[Count], int n) {
  for (const Line& line : lines)
    if (line.length == n && line.complex128 == (sizeof(T) == 8)) return &line;
  return nullptr;
}

// Whether `lines` names the complex<T> line of length n.
template <class T, class Line, std::size_t Count>
constexpr bool lists_line(const Line (&lines)[Count], int n) {
  return listed_entry<T>(lines, n) != nullptr;
}

// The skew of a tile's shared buffers, as a shift: one spare word every 32
// words of complex<float> parts, every 16 of complex<double> (skew() in
// tile_kernels.cuh).
template <class T>
constexpr int skewed_shift() {
  return sizeof(T) == 4 ? 5 : 4;
}

// Words of one skewed buffer of `points` values: one extra word every
// 2^shift keeps a stride of 2^shift off a single bank (skew() in
// tile_kernels.cuh); shift 0 leaves the buffer unskewed (tile_skew_shift).
constexpr int skewed_words(int points, int shift) {
  return shift == 0 ? points : points + (points >> shift) + 1;
}

// The skew of a Stockham tile's shared buffers (ScheduleShape::shift): one
// spare word every 32 (complex<float> parts) or 16 (complex<double>) words,
// or none (0). The skew keeps a power-of-two stride off a single bank, but
// it moves every run of 32 consecutive points that does not start on a
// multiple of 32 across a spare word, so that its first and last share a
// bank: a pass's reads of points j + r n/R, and a stage's writes of runs of
// `span` points, take two wavefronts where one would do whenever n/R or
// `span` is odd. Counted over every stage's reads and writes of a warp (32
// banks of 4 bytes), the tiles of contiguous lines with n % 4 != 0 need
// fewer wavefronts unskewed for 146 of the 154 complex<float> 7-smooth
// lengths up to 65536 and 126 of 130 complex<double> ones (19683
// complex<float> as 27 27 27 in 729 threads: 4840 against 3078 per part and
// line; ncu counted 49% of its shared wavefronts as bank-conflict excess,
// 19% unskewed, cuFFT's kernel of that shape 12%).
//
// Measured on the H100 (bench/RESULTS.md, issue 10, section "Unskewed
// tiles"), only tiles of one line gained: complex<double> 5145 0.92 ->
// 1.24x cuFFT, 7350 2.29 -> 2.97x, 6750 0.79 -> 0.86x; complex<float> 9450
// 1.04 -> 1.13x, 18522 2.34 -> 2.82x, 15625 0.77 -> 0.82x. Tiles of several
// lines lost where they are four-step step B (complex<double> 25515 ...
// 56250 by 7-12%, complex<float> 30618 and 51450 by 5-6%), so they keep
// the skew; so do the one-line tiles that lost (skewed_one_line_tiles).
// Strided tiles keep it: their lanes make the strides powers of two. The
// tile searches size every buffer skewed (line_tile_bytes), so the
// unskewed buffer only spares shared memory.
inline constexpr MeasuredLine skewed_one_line_tiles[] = {
    {18225, false},  // 9 5 | 9 5 | 9 in 405 threads: 0.94 -> 0.77x unskewed
    {19845, false},  // 7 7 | 9 5 | 9 in 441 threads: 2.63 -> 2.22x
    {8575, true},    // 7 | 7 5 | 7 5 in 245 threads: 0.99 -> 0.92x
};

template <class T>
constexpr int tile_skew_shift(int n, int lanes, bool lanes_fast) {
  if (!lanes_fast && lanes == 1 && n % 4 != 0 && !lists_line<T>(skewed_one_line_tiles, n)) return 0;
  return skewed_shift<T>();
}

// Whether a pass of radix `radix` and span `span` loads only some of its
// twiddles and forms the others as products of two (PassTwiddles in
// tile_kernels.cuh; composite_factor): where the radix is a composite and
// the pass's table passes 32 KB, about what L1 keeps beside a tile's shared
// memory (of 256 KB an SM on the H100), so that its entries come from L2;
// in the in-place and cluster tiles (`in_place`) for every composite, in the
// Stockham tiles for radices 25 and 27 only. On the H100 against every
// twiddle loaded (bench/RESULTS.md, issue 10, section "Factored twiddles":
// the 267 7-smooth lines with such a pass, two rounds), changes past 3%:
// - in-place tiles: complex<float> 11 of 39 lines faster (10000 -9%, 17640
//   -7%), none slower; complex<double> 43 of 104 faster (14580 -23%, 28000
//   -19%, 10935 -10%), 2 slower (21870 and 23814 +4%, at 1.7-1.8x cuFFT);
// - Stockham tiles, radix 25 or 27: complex<float> 6 of 9 faster (5000 -9%,
//   6912 -8%, 15625 -5%), none slower; complex<double> 7 lines, none; and
//   19683 complex<float> in 729 threads 1.06-1.09 -> 0.91 ms
//   (measured_ragged_tiles);
// - Stockham tiles, radix 6 to 15 (not factored): complex<float> 5 of 79
//   faster, 10 slower (15680 +12%, 14580 +9%: ragged tiles of 500 threads in
//   128 registers); complex<double> 4 of 29 faster, 5 slower.
// Errors rose by at most 3% and stayed below 0.9x cuFFT's.
template <class T>
constexpr bool factored_twiddles(int radix, int span, bool in_place) {
  const bool table_past_l1 = static_cast<std::size_t>(radix - 1) * span * 2 * sizeof(T) > 32 * 1024;
  return composite_factor(radix) != 0 && table_past_l1 && (in_place || radix >= 25);
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
// skewed buffers (ScheduleShape::shift) and the 1 KB the SM reserves per
// block, of the SM's 228 KB.
template <class T>
constexpr std::size_t line_tile_bytes(int n) {
  return 2 * sizeof(T) * static_cast<std::size_t>(skewed_words(n, skewed_shift<T>())) + 1024;
}

// The exponents of a 7-smooth line past 4096 (up to 2^20) whose one-line
// tile fits an SM's shared memory, the lines the uniform and ragged tile
// searches serve; `smooth` false for any other.
template <class T>
constexpr SmoothExponents long_line_exponents(std::size_t length) {
  if (length <= 4096 || length > (std::size_t{1} << 20)) return {};
  const int n = static_cast<int>(length);
  if (line_tile_bytes<T>(n) > 228 * 1024) return {};
  return smooth_exponents(n);
}

// Uniform tiles: n / e threads, each holding the same e values in every
// pass, every radix of the schedule a divisor of e (cuFFT's vector_fft
// tiles are so: 9000 = 30 x 300 threads, 12500 = 50 x 250; ncu, issue 10).
// Our schedules pick their radices before the block size, so a pass
// leaves threads idle or gives some two butterflies, and a tile needs the
// registers of its fullest pass; the long complex64 lines ran one block per
// SM. With every pass full, they hold their values in fewer registers and
// two blocks share an SM. On the H100 (bench/RESULTS.md, issue 10, section
// "Uniform tiles"), two rounds against the tiles before over the 41
// lengths 4097..16384 that have one:
// - two blocks of at least 192 threads (the 16 lengths taken): 12 faster
//   (7776 = 9 9 6 4 4, 216 threads: 0.51 -> 0.78x cuFFT; 9000 = 15 10 10 6,
//   300: 0.64 -> 0.84x; 9216 0.70 -> 0.87x, 10125 0.70 -> 0.88x, 10584 0.66
//   -> 0.82x, 12288 0.85 -> 0.96x, 12500 = 25 10 10 5 0.69 -> 0.79x, 10240
//   1.03 -> 1.23x), 6750, 8000 and 8232 within 3%, 10368 = 8 6 6 6 6
//   slower (0.64 -> 0.60x; ptxas spills 412 bytes);
// - fewer threads, or three and four blocks (lines up to 7500): 18 of 25
//   slower (5760 0.85 -> 0.55x, 5400 0.86 -> 0.70x; 9261 = 9 7 7 7 3 in
//   147 threads 0.74 -> 0.49x), 2 faster (8748 0.65 -> 0.78x, 4802 0.88 ->
//   0.95x).
struct UniformTile {
  RadixSchedule schedule;
  unsigned fused = 0;  // StagedSchedule's
  int stages = 0;
  int threads = 0;
  int values = 0;
  int blocks = 0;
  int registers = 0;
  bool ragged = false;  // a tile of ragged_tile: stages need not divide `values`
};

// The device radices of 7-smooth lengths (dft_composite for the
// composites), largest first, as exponents of 2, 3, 5 and 7.
struct RadixExponents {
  int radix;
  int e2, e3, e5, e7;
};
inline constexpr RadixExponents uniform_radices[] = {
    {27, 0, 3, 0, 0}, {25, 0, 0, 2, 0}, {16, 4, 0, 0, 0}, {15, 0, 1, 1, 0}, {14, 1, 0, 0, 1},
    {10, 1, 0, 1, 0}, {9, 0, 2, 0, 0},  {8, 3, 0, 0, 0},  {7, 0, 0, 0, 1},  {6, 1, 1, 0, 0},
    {5, 0, 0, 1, 0},  {4, 2, 0, 0, 0},  {3, 0, 1, 0, 0},  {2, 1, 0, 0, 0}};

// A schedule run in stages: the passes of a stage keep each thread's
// values in its registers from one pass to the next (schedule_stage in
// schedule_kernels.cuh), so shared memory carries only the exchanges
// between stages. Bit p of `fused` joins pass p to pass p + 1.
struct StagedSchedule {
  RadixSchedule schedule;
  unsigned fused = 0;
  int stages = 0;
};

constexpr int stage_count(int passes, unsigned fused) {
  int stages = 0;
  for (int p = 0; p < passes; ++p) stages += (fused >> p & 1u) ? 0 : 1;
  return stages;
}

// The first pass of stage `stage` (stage_count(passes, fused) for the end).
constexpr int stage_first_pass(int stage, int passes, unsigned fused) {
  int p = 0;
  for (int s = 0; s < stage && p < passes; ++p)
    if (!(fused >> p & 1u)) ++s;
  return p;
}

// The points of one group of stage `stage` of schedule `s`: the product of
// its passes' radices (the radix of a pass for a one-pass stage).
constexpr int stage_points(const RadixSchedule& s, unsigned fused, int stage) {
  int points = 1;
  for (int p = stage_first_pass(stage, s.count, fused); p < stage_first_pass(stage + 1, s.count, fused); ++p)
    points *= s.radices[p];
  return points;
}

// The fewest passes of every divisor 2^i 3^j 5^k 7^l of n = 2^a 3^b 5^c
// 7^d over the radices of uniform_radices that divide `values` (any radix,
// for 0): dynamic programming over the divisors. A pass costs `small`, one
// of radix 2 or 3 one more (little arithmetic per trip through memory);
// `last` holds the last pass's radix (an index into uniform_radices).
struct DivisorPasses {
  static constexpr int max_states = 512;
  static constexpr int none = 1 << 24;
  static constexpr int small = 64;
  int b = 0, c = 0, d = 0;
  bool valid = false;  // n has at most max_states divisors
  int cost[max_states] = {};
  int last[max_states] = {};
  constexpr int index(int i, int j, int k, int l) const { return ((i * (b + 1) + j) * (c + 1) + k) * (d + 1) + l; }
  // The exponents of divisor `at`.
  constexpr void exponents(int at, int& i, int& j, int& k, int& l) const {
    l = at % (d + 1);
    at /= d + 1;
    k = at % (c + 1);
    at /= c + 1;
    j = at % (b + 1);
    i = at / (b + 1);
  }
};

constexpr DivisorPasses divisor_passes(int a, int b, int c, int d, int values) {
  DivisorPasses t;
  t.b = b;
  t.c = c;
  t.d = d;
  if ((a + 1) * (b + 1) * (c + 1) * (d + 1) > DivisorPasses::max_states) return t;
  t.valid = true;
  constexpr int radices = static_cast<int>(sizeof(uniform_radices) / sizeof(uniform_radices[0]));
  for (int i = 0; i <= a; ++i)
    for (int j = 0; j <= b; ++j)
      for (int k = 0; k <= c; ++k)
        for (int l = 0; l <= d; ++l) {
          const int at = t.index(i, j, k, l);
          t.cost[at] = at == 0 ? 0 : DivisorPasses::none;
          t.last[at] = -1;
          for (int r = 0; at != 0 && r < radices; ++r) {
            const RadixExponents& x = uniform_radices[r];
            if ((values != 0 && values % x.radix != 0) || x.e2 > i || x.e3 > j || x.e5 > k || x.e7 > l) continue;
            const int cost = t.cost[t.index(i - x.e2, j - x.e3, k - x.e5, l - x.e7)] + DivisorPasses::small +
                             (x.radix < 4 ? 1 : 0);
            if (cost < t.cost[at]) {
              t.cost[at] = cost;
              t.last[at] = r;
            }
          }
        }
  return t;
}

// Appends the passes of divisor `at` of t to s, largest radix first
// (insertion sort: a handful of passes); false where they do not fit.
constexpr bool append_passes(const DivisorPasses& t, int at, RadixSchedule& s) {
  const int first = s.count;
  while (at != 0) {
    if (s.count == max_schedule_passes) return false;
    const RadixExponents& x = uniform_radices[t.last[at]];
    s.radices[s.count++] = x.radix;
    int i = 0, j = 0, k = 0, l = 0;
    t.exponents(at, i, j, k, l);
    at = t.index(i - x.e2, j - x.e3, k - x.e5, l - x.e7);
  }
  for (int p = first + 1; p < s.count; ++p)
    for (int q = p; q > first && s.radices[q] > s.radices[q - 1]; --q) {
      const int r = s.radices[q];
      s.radices[q] = s.radices[q - 1];
      s.radices[q - 1] = r;
    }
  return true;
}

// The schedule of the 7-smooth n = 2^a 3^b 5^c 7^d with the fewest passes
// whose radices all divide `values`, and of those the fewest of radix 2 or
// 3; count 0 where none has. Radices largest first.
constexpr RadixSchedule fewest_passes_dividing(int a, int b, int c, int d, int values) {
  const DivisorPasses t = divisor_passes(a, b, c, d, values);
  RadixSchedule s;
  const int whole = t.index(a, b, c, d);
  if (!t.valid || t.cost[whole] >= DivisorPasses::none) return s;
  if (!append_passes(t, whole, s)) return RadixSchedule{};
  return s;
}

// The staged schedule of the 7-smooth n = 2^a 3^b 5^c 7^d of the fewest
// stages, then the least `fit` over its stages, then the fewest passes, then
// the fewest of radix 2 or 3 (little arithmetic per pass); stages 0 where
// none has. fit(points) is the cost a stage of that many points per group
// (at most `most_points`) adds, below a pass's, or negative where no stage
// may have them. Dynamic programming over the divisors of n; stages
// largest first, radices largest first within a stage.
//
// Why stages: a pass of a tile costs a trip through shared memory (ncu,
// issue 10: the L1/TEX pipe was the long lines' limit) and its twiddles.
// In a stage of radices R_0..R_m-1 holding D = R_0 ... R_m-1 points per
// group, thread-local passes take the place of D-point butterflies (which
// would need twiddle tables of their own).
// `t` is divisor_passes(a, b, c, d, 0), which a search over many `fit`s
// computes once.
template <class Fit>
constexpr StagedSchedule fewest_stages(const DivisorPasses& t, int a, int b, int c, int d, int most_points,
                                       Fit fit) {
  constexpr int none = DivisorPasses::none;
  constexpr int stage = 64 * DivisorPasses::small;  // a stage costs more than any count of passes
  StagedSchedule result;
  if (!t.valid) return result;
  // staged[x]: the cost of the best staged schedule of divisor x; last[x]:
  // its last stage, a divisor of the same space.
  int staged[DivisorPasses::max_states] = {};
  int last[DivisorPasses::max_states] = {};
  for (int i = 0; i <= a; ++i)
    for (int j = 0; j <= b; ++j)
      for (int k = 0; k <= c; ++k)
        for (int l = 0; l <= d; ++l) {
          const int at = t.index(i, j, k, l);
          staged[at] = at == 0 ? 0 : none;
          last[at] = -1;
          // The last stage: any divisor within (i, j, k, l) of at most
          // most_points points that fits.
          for (int x2 = 0, p2 = 1; at != 0 && x2 <= i && p2 <= most_points; ++x2, p2 *= 2)
            for (int x3 = 0, p3 = p2; x3 <= j && p3 <= most_points; ++x3, p3 *= 3)
              for (int x5 = 0, p5 = p3; x5 <= k && p5 <= most_points; ++x5, p5 *= 5)
                for (int x7 = 0, points = p5; x7 <= l && points <= most_points; ++x7, points *= 7) {
                  const int group = t.index(x2, x3, x5, x7);
                  if (group == 0 || t.cost[group] >= none) continue;
                  const int extra = fit(points);
                  if (extra < 0) continue;
                  const int before = staged[t.index(i - x2, j - x3, k - x5, l - x7)];
                  if (before >= none) continue;
                  const int cost = before + stage + extra + t.cost[group];
                  if (cost < staged[at]) {
                    staged[at] = cost;
                    last[at] = group;
                  }
                }
        }
  const int whole = t.index(a, b, c, d);
  if (staged[whole] >= none) return result;
  // The stages, then largest first (insertion sort: a handful).
  int groups[max_schedule_passes] = {};
  int sizes[max_schedule_passes] = {};
  int count = 0;
  for (int at = whole; at != 0;) {
    const int group = last[at];
    int i = 0, j = 0, k = 0, l = 0, x2 = 0, x3 = 0, x5 = 0, x7 = 0;
    t.exponents(at, i, j, k, l);
    t.exponents(group, x2, x3, x5, x7);
    int size = 1;
    for (int e = 0; e < x2; ++e) size *= 2;
    for (int e = 0; e < x3; ++e) size *= 3;
    for (int e = 0; e < x5; ++e) size *= 5;
    for (int e = 0; e < x7; ++e) size *= 7;
    if (count == max_schedule_passes) return result;
    groups[count] = group;
    sizes[count++] = size;
    at = t.index(i - x2, j - x3, k - x5, l - x7);
  }
  for (int p = 1; p < count; ++p)
    for (int q = p; q > 0 && sizes[q] > sizes[q - 1]; --q) {
      const int z = sizes[q], g = groups[q];
      sizes[q] = sizes[q - 1];
      groups[q] = groups[q - 1];
      sizes[q - 1] = z;
      groups[q - 1] = g;
    }
  for (int g = 0; g < count; ++g) {
    const int first = result.schedule.count;
    if (!append_passes(t, groups[g], result.schedule)) return StagedSchedule{};
    for (int p = first; p + 1 < result.schedule.count; ++p) result.fused |= 1u << p;
  }
  result.stages = count;
  return result;
}

// The staged schedule whose stages each hold a number of points that
// divides `values` (so n / values threads each hold `values` points in
// every stage), as fewest_stages.
constexpr StagedSchedule fewest_stages_dividing(int a, int b, int c, int d, int values) {
  if (values < 2) return StagedSchedule{};
  return fewest_stages(divisor_passes(a, b, c, d, 0), a, b, c, d, values,
                       [values](int points) { return values % points == 0 ? 0 : -1; });
}

// Shared-memory bank conflicts of a stage of span `span` and `points`
// points per group: a warp's 32 consecutive groups j write their value l
// to point (j - j mod span) points + j mod span + l span, skewed (skew() in
// tile_kernels.cuh: one word every 2^shift). The most accesses one bank
// takes for any l: 32 banks of 4 bytes, so a warp's complex<float> parts
// spread over 32 banks and complex<double> parts (8 bytes) over 16 per
// half warp.
template <class T>
constexpr int stage_conflicts(int span, int points) {
  constexpr bool single = sizeof(T) == 4;
  constexpr int shift = skewed_shift<T>();
  constexpr int banks = single ? 32 : 16;
  int worst = 1;
  for (int l = 0; l < points; ++l)
    for (int half = 0; half < 32; half += banks) {
      int count[32] = {};
      for (int j = half; j < half + banks; ++j) {
        const int point = (j - j % span) * points + j % span + l * span;
        const int word = point + (point >> shift);
        const int c = ++count[word % banks];
        worst = c > worst ? c : worst;
      }
    }
  return worst;
}

// The worst stage_conflicts of the stages of `s`, in its order.
template <class T>
constexpr int staged_conflicts(const StagedSchedule& s) {
  int worst = 1, span = 1;
  for (int stage = 0; stage < s.stages; ++stage) {
    const int points = stage_points(s.schedule, s.fused, stage);
    const bool last = stage + 1 == s.stages;
    const int c = last ? 1 : stage_conflicts<T>(span, points);  // the last writes global memory
    worst = c > worst ? c : worst;
    span *= points;
  }
  return worst;
}

// `s` with the stage that leaves the fewest bank conflicts first, the others
// in their order (the first stage's writes go `points` apart, the later
// stages' mostly along memory).
template <class T>
constexpr StagedSchedule fewest_conflicts_first(const StagedSchedule& s) {
  StagedSchedule best = s;
  int best_conflicts = staged_conflicts<T>(s);
  for (int first = 1; first < s.stages; ++first) {
    StagedSchedule t;
    t.stages = s.stages;
    const int begin = stage_first_pass(first, s.schedule.count, s.fused);
    const int end = stage_first_pass(first + 1, s.schedule.count, s.fused);
    for (int p = begin; p < end; ++p) t.schedule.radices[t.schedule.count++] = s.schedule.radices[p];
    t.fused = (1u << (end - begin - 1)) - 1;
    for (int p = 0; p < s.schedule.count; ++p) {
      if (p >= begin && p < end) continue;
      if (s.fused >> p & 1u) t.fused |= 1u << t.schedule.count;
      t.schedule.radices[t.schedule.count++] = s.schedule.radices[p];
    }
    const int c = staged_conflicts<T>(t);
    if (c < best_conflicts) {
      best = t;
      best_conflicts = c;
    }
  }
  return best;
}

// The schedule `s` of a uniform tile of `values` values per thread with
// its first stage fused: the most of its passes whose radices multiply to
// a divisor of `values` run first, in registers, as one stage (largest
// radix first), the other passes after them as before. At span 1 the
// twiddles inside the stage are constants (stage_pass). The tiles of the
// fewest passes take this (uniform_tile); later stages are the search by
// stages', which weighs the passes they cost. A first stage writes j
// `points` apart across a warp: complex<double> stages whose skewed stride
// puts more than two of a half warp on one bank stay unfused (10800 = 6 5
// | 10 | 6 | 6: 0.90 -> 0.61x cuFFT on the H100, eight to a bank;
// bench/RESULTS.md, issue 10, section "Passes in registers").
template <class T>
constexpr StagedSchedule first_stage_fused(const RadixSchedule& s, int values) {
  StagedSchedule best{s, 0u, s.count};
  if (s.count < 2 || s.count > 12) return best;
  int best_passes = 1, best_points = 0, chosen = 0;
  for (int subset = 1; subset < (1 << s.count); ++subset) {
    int passes = 0, points = 1;
    for (int p = 0; p < s.count; ++p)
      if (subset >> p & 1) {
        ++passes;
        points *= s.radices[p];
      }
    if (passes < 2 || values % points != 0) continue;
    if (passes < best_passes || (passes == best_passes && points <= best_points)) continue;
    if (stage_conflicts<T>(1, points) > 2) continue;
    best_passes = passes;
    best_points = points;
    chosen = subset;
  }
  if (chosen == 0) return best;
  RadixSchedule fused;
  for (int pick = 1; pick >= 0; --pick)  // the stage's radices, then the others (s is largest first)
    for (int p = 0; p < s.count; ++p)
      if ((chosen >> p & 1) == pick) fused.radices[fused.count++] = s.radices[p];
  best.schedule = fused;
  best.fused = (1u << (best_passes - 1)) - 1;
  best.stages = s.count - best_passes + 1;
  return best;
}

constexpr bool same_schedule(const RadixSchedule& x, const RadixSchedule& y) {
  if (x.count != y.count) return false;
  for (int p = 0; p < x.count; ++p)
    if (x.radices[p] != y.radices[p]) return false;
  return true;
}

constexpr int stage_points(const ScheduleShape& g, int stage) { return stage_points(g.schedule, g.fused, stage); }

// The shape of the tile that runs `schedule` (a schedule of length n);
// contiguous lines take `uniform` (device_schedule's tile of n, uniform or
// ragged, computed once by the caller) where it runs that schedule.
template <class T>
constexpr ScheduleShape shape_of_schedule(int n, const RadixSchedule& schedule, bool lanes_fast,
                                          const UniformTile& uniform = UniformTile{}) {
  ScheduleShape g;
  g.schedule = schedule;
  g.passes = g.schedule.count;
  g.stages = g.passes;
  if (g.passes == 0) return g;
  // Contiguous lines: tiles of at most about 4096 complex<float> or 2048
  // complex<double> values (32 KB). Strided lines: at least 64 bytes of
  // neighbouring lanes per point (whole 32-byte sectors with room to spare),
  // 128 bytes (8 lanes) for complex<double> powers of two up to 1024: on the
  // H100 that took z lines of 512^3 from 0.83 to 0.98x cuFFT, 3D 512^3 from
  // 0.89 to 0.99x and 1024^3 from 0.94 to 1.01x, where the odd-radix tiles
  // of 360^3 and 300x320x343 went from 0.97 to 0.88x and 1.06 to 0.98x with
  // it (bench/RESULTS.md, issue 10). Lanes are a power of two.
  const int target_points = sizeof(T) == 4 ? 4096 : 2048;
  const int segment = sizeof(T) == 8 && only_powers_of_two(g.schedule) && n <= 1024 ? 128 : 64;
  const int min_lanes = lanes_fast ? static_cast<int>(segment / (2 * sizeof(T))) : 1;
  const int fill_lanes = target_points / n > 1 ? 1 << (schedule_log2(target_points / n + 1) - 1) : 1;
  // Register cap through __launch_bounds__: 64 per thread for complex<float>
  // (1024 threads per SM; 96 for crowded tiles, below), 128 for
  // complex<double> powers of two (512 threads per SM), as measured for the
  // power-of-two kernels. complex<double>
  // schedules with odd radices: 96 (the --smooth sweep, with the 12-value
  // budget and the one-block rule of choose_schedule_tile: 43 lengths faster
  // than at 128 with 10 values, 24 slower, median 0.96 -> 0.98x cuFFT; a few
  // spill 16-48 bytes). The composites 14 and 15 spilled 144-236 bytes there
  // (1050 = 15 5 14 at 0.54x), and 128 registers for them was slower for 20
  // of 69 lengths and faster for 10, so complex<double> schedules up to
  // 4096 leave them out (CompositeRadices in radix_schedule.hpp: 1050 now
  // 0.89x). Crowded tiles take more (below). complex<float> ones needed 96
  // only while the kernels looped over tiles (this_tile() in tile_kernels.cuh).
  g.register_target = sizeof(T) == 4 ? 64 : (only_powers_of_two(g.schedule) ? 128 : 96);
  // A radix-25 pass (radix_schedule.hpp) holds 25 values per thread: at
  // least the registers values_within gives them (88 for complex<float>,
  // 136 for complex<double>). At 64, ptxas spilled 16-672 bytes per thread
  // (3125 complex<float>).
  const int butterfly_registers = 32 + largest_radix(g.schedule) * static_cast<int>(sizeof(T)) / 2;
  if (butterfly_registers > g.register_target) g.register_target = (butterfly_registers + 7) / 8 * 8;
  // Large strided tiles of several odd radices (945 = 9 5 3 7 with 8 lanes)
  // leave no block size within the value budget: the budget then grows.
  auto choose_tile = [&](int first_budget, int registers) {
    const int budgets[] = {first_budget, 16, 24};
    ScheduleTile t;
    for (int budget : budgets) {
      t = choose_schedule_tile(n, g.schedule, fill_lanes > min_lanes ? fill_lanes : min_lanes, min_lanes, budget,
                               registers);
      if (t.threads > 0) break;
    }
    return t;
  };
  ScheduleTile tile = choose_tile(schedule_max_values<T>(g.schedule), g.register_target);
  // complex<float> contiguous lines that no tile holds within the value
  // budget (14406 = 3 14 7 7 7, 15750, 19683 = 9 9 9 9 3; they ran four
  // steps): one block per SM holding up to 32 values per thread, at ptxas's
  // cap where a block size fits it, else with the registers split evenly
  // (19683: 736 threads holding 27 values; ptxas caps them at 80 registers
  // and spills none). On the H100 (bench/RESULTS.md, issue 10), the 14
  // 7-smooth lengths it serves to 19683, two or three rounds each against
  // four steps: 13 faster (14406 0.53 -> 0.81x cuFFT, 15750 0.59 -> 0.86x,
  // 18750 0.54 -> 0.91x, 18000 0.50 -> 0.68x, 19683 0.47 -> 0.49x), 16800
  // slower (2.00 -> 1.70x; 32 values spill 420 bytes). A plain even split
  // for all 14 had 14406 at 0.66x and 16800 at 1.51x. complex<double> lines
  // past 10240 measured faster in four steps, except where their tile is
  // the one-block tile of the rules below or a one-block uniform tile
  // (plan_time_line_in_one_tile in device_line_plan.cpp).
  if (tile.threads == 0 && sizeof(T) == 4 && !lanes_fast && seven_smooth_radices(g.schedule)) {
    const RegisterPlan plans[] = {RegisterPlan::ptxas_quarters, RegisterPlan::even_split};
    for (RegisterPlan plan : plans) {
      int registers = 0;
      tile = choose_resident_tile<T>(n, g.schedule, 1, plan, registers);
      if (tile.threads > 0) {
        g.register_target = registers;
        break;
      }
    }
  }
  g.shift = skewed_shift<T>();
  // Crowded tiles: contiguous lines with odd radices whose tile needs blocks
  // so large that few fit an SM wait at the barriers between passes (ncu,
  // 3024 = 16 9 3 7 complex<float>: 512 threads, barrier the largest stall;
  // cuFFT runs fewer threads holding more values). Such tiles take fewer
  // threads holding more values at more registers, where that leaves a tile
  // and as many resident blocks per SM:
  // - complex<float>, 64-register tiles of more than 341 threads (two blocks
  //   per SM or fewer): up to 24 values at 96 registers. Lines up to 4096 in
  //   one --smooth session on the H100, 96 registers and 24 values for every
  //   length: 57 faster, 18 slower, the slowed ones those with three or more
  //   blocks per SM. Lines past 4096: 16 faster by 5-52% (4725 0.56 -> 0.85x
  //   cuFFT, 6561 0.63 -> 0.88x), where the tile went from one block per SM
  //   to two or stayed at one; where it went from two to one, 10 of 14 were
  //   slower by 23-32% (5376 0.93 -> 0.63x), hence the blocks condition.
  // - complex<double> up to 4096, 96-register tiles of more than 341 threads
  //   (one block per SM): up to 16 values at 128 registers (2268, 2592,
  //   3072, 3136, 3200, 3500: 0.68-0.76 -> 0.95-1.04x cuFFT; 2 of 240 lengths
  //   slower, by 3-4%). Longer complex<double> lines (one block per SM
  //   either way) gained nothing: 3 of 150 faster, 6 slower.
  // Strided tiles keep theirs (not measured) (bench/RESULTS.md, issue 10).
  if (!lanes_fast && !only_powers_of_two(g.schedule) && tile.threads > 0) {
    const bool single = sizeof(T) == 4;
    const int blocks = resident_blocks(tile.threads, g.register_target);
    if (blocks <= (single ? 2 : 1) && (single || n <= 4096)) {
      const int registers = single ? 96 : 128;
      const ScheduleTile fewer = choose_tile(single ? 24 : 16, registers);
      if (fewer.threads > 0 && resident_blocks(fewer.threads, registers) >= blocks) {
        tile = fewer;
        g.register_target = registers;
      }
    }
    // Two and three blocks per SM. A contiguous odd-radix tile that still
    // holds one block per SM (by registers; its shared memory would hold two)
    // takes the two-block tile of choose_resident_tile: fewer threads holding
    // more values. A complex<double> tile at two blocks gets the registers of
    // three where its values fit them (values_within). With one block per SM
    // a tile's load, passes and store run one after another; with two, one
    // block's global accesses overlap the other's passes. Against the tiles
    // before, on the H100 (sessions stitched by tile, bench/RESULTS.md, issue
    // 10):
    // - complex<double> up to 4096: 221 -> 236 of 240 lengths at 0.85x cuFFT
    //   or more, min 0.65 -> 0.80x (2520 0.66 -> 0.95x, 3780 0.69 -> 0.96x;
    //   the third block: 1750 0.80 -> 0.94x, 2187 0.84 -> 0.95x); a fourth
    //   or fifth block (tried for tiles at three or four) was slower for 243,
    //   250, 450 and 1215, whose values spilled 36-116 bytes at 72 registers.
    // - complex<double> 4097..16384: 107 -> 115 of 150 at 0.8x or more,
    //   median 0.96 -> 1.00x (4200 0.72 -> 0.94x).
    // - complex<float> 4097..16384: 84 -> 103 of 150 at 0.8x or more, median
    //   0.83 -> 0.85x (4860 0.55 -> 0.80x, 8000 0.59 -> 0.82x); 7776 slower
    //   (0.59 -> 0.53x: its 27 values spill 616 bytes).
    // On an H200, the committed rule against the tiles before in one session:
    // 35 of 240 complex<double> lengths up to 4096 faster, none slower; past
    // 4096, 37 (complex<float>) and 34 (complex<double>) of 150 faster, 7776
    // complex<float> and two complex<double> lengths (by 3-4%) slower.
    //
    // Whether `count` tiles of `lanes` lines fit the SM's 228 KB of shared
    // memory, 1 KB of it reserved per block.
    auto blocks_fit = [&](int count, int lanes) {
      const std::size_t bytes = 2 * sizeof(T) * static_cast<std::size_t>(skewed_words(n * lanes, g.shift));
      return static_cast<std::size_t>(count) * (bytes + 1024) <= 228 * 1024;
    };
    if (blocks_fit(2, 1) && resident_blocks(tile.threads, g.register_target) < 2) {
      int registers = 0;
      const ScheduleTile two = choose_resident_tile<T>(n, g.schedule, 2, two_block_register_plan<T>(), registers);
      if (two.threads > 0) {
        tile = two;
        g.register_target = registers;
      }
    }
    const int third = planned_registers(tile.threads, 3, two_block_register_plan<T>());
    if (sizeof(T) == 8 && resident_blocks(tile.threads, g.register_target) == 2 &&
        tile.values <= values_within<T>(third) && blocks_fit(3, tile.lanes) &&
        resident_blocks(tile.threads, third) >= 3) {
      g.register_target = third;
    }
    // Resident blocks by measurement. After the rules above, a one-line tile
    // takes the tile of choose_resident_tile for `wanted` blocks per SM
    // (registers as ptxas caps them) where its shared memory fits that many:
    // - four blocks, lines up to 4096 at two blocks (either precision) or
    //   three (complex<float>): fewer threads, more values each (3150
    //   complex<float>: two blocks of 320 threads at 0.78x cuFFT, four of 160
    //   holding 28 values 0.91x; 2100 complex<double> 0.84 -> 0.94x). Past
    //   4096, four blocks were slower (4116 complex<float> 0.85 -> 0.69x,
    //   spilling 120 bytes; 4200 and 4800 by 5%).
    // - three blocks, complex<float> lines past 4096 at two (4900 0.75 ->
    //   0.88x, 5000 0.77 -> 0.89x). complex<double> at three blocks instead
    //   of two was as often slower as faster.
    // - one block, complex<double> at one (mostly lines whose shared memory
    //   holds one tile): fewer threads at up to 248 registers instead of 96,
    //   the single block's passes with more independent values per thread
    //   (7776 0.47 -> 0.88x, 9072 0.66 -> 1.03x, 6804 0.56 -> 0.87x).
    // Chosen from four variants (one, two, three and four blocks for every
    // such tile) run on the H100 over the 7-smooth lengths to 16384 they
    // change; the rules as committed, against the tiles before, two runs
    // each in one session (bench/RESULTS.md, issue 10): complex<float> 21 of
    // the 49 lengths they change faster by more than 5%, none slower (of
    // those up to 4096, 9 were below 0.9x cuFFT, now 3375 and 3402 at
    // 0.897-0.899x); complex<double> 28 of 69 faster, 4 slower (3072 1.04 ->
    // 0.90x, whose values spill 8 bytes; 8820 2.6 -> 1.9x and 10080 1.84 ->
    // 1.63x, which spill 184 and 632; 7290 2.23 -> 2.11x). Lengths with a
    // factor 11 or 13 keep the tiles of the rules above: the variants were
    // measured on 7-smooth lengths only, and 7 of the 152 such tiles up to
    // 16384 the rules would change spilled 8-308 bytes (ptxas, sm_90:
    // 2310, 2366 complex<double> at four blocks), none of them before.
    const int resident = resident_blocks(tile.threads, g.register_target);
    int wanted = 0;
    if (n <= 4096 && (resident == 2 || (single && resident == 3))) wanted = 4;
    if (n > 4096 && single && resident == 2) wanted = 3;
    if (!single && resident == 1) wanted = 1;
    if (wanted > 0 && tile.lanes == 1 && seven_smooth_radices(g.schedule) && blocks_fit(wanted, 1)) {
      int registers = 0;
      const ScheduleTile other =
          choose_resident_tile<T>(n, g.schedule, wanted, RegisterPlan::ptxas_quarters, registers);
      if (other.threads > 0) {
        tile = other;
        g.register_target = registers;
      }
    }
  }
  if (!lanes_fast && uniform.threads > 0 && same_schedule(uniform.schedule, g.schedule)) {
    tile = {1, uniform.threads, uniform.values};
    g.register_target = uniform.registers;
    g.fused = uniform.fused;
    g.stages = uniform.stages;
  }
  if (tile.threads == 0) return g;
  g.lanes = tile.lanes;
  g.log_lanes = schedule_log2(g.lanes);
  g.points = g.lanes * n;
  g.threads = tile.threads;
  g.values = tile.values;
  // Whole warps: a uniform tile's block need not be a multiple of 32.
  const int warp_threads = (g.threads + 31) / 32 * 32;
  g.min_blocks = 65536 / (warp_threads * g.register_target) > 1 ? 65536 / (warp_threads * g.register_target) : 1;
  // Contiguous lines whose first (last) pass has fewer than 4 butterflies
  // per line: a thread's R values are R neighbouring points, so a warp's
  // direct global accesses would touch 32 rows each. Such tiles go through
  // shared memory with coalesced copies instead (the store side mattered
  // most: n = 16 ran at 0.30x cuFFT with direct stores, which L1 does not
  // merge).
  g.staged_load = !lanes_fast && n / stage_points(g, 0) < 4;
  g.staged_store = !lanes_fast && n / stage_points(g, g.stages - 1) < 4;
  // One buffer of real parts and one of imaginary parts, skewed as
  // tile_skew_shift says (the tile's choices above weighed them skewed);
  // none when one stage does everything in registers.
  g.uses_shared = g.stages > 1 || g.staged_load || g.staged_store;
  g.shift = tile_skew_shift<T>(n, g.lanes, lanes_fast);
  g.shared_words = g.uses_shared ? skewed_words(g.points, g.shift) : 0;
  g.shared_bytes = 2 * sizeof(T) * static_cast<std::size_t>(g.shared_words);
  g.valid = g.shared_bytes <= max_schedule_shared_bytes;
  return g;
}

// The registers per thread ptxas leaves a tile's kernel: its launch bounds
// ask for `min_blocks` blocks of `threads` (RegisterPlan says how ptxas
// caps them).
constexpr int capped_registers(const ScheduleShape& g) {
  return planned_registers(g.threads, g.min_blocks, RegisterPlan::ptxas_quarters);
}

// Where a lone 3 may join a 9 as radix 27 (device_radix_schedule below):
// complex64 lines past 1024, complex128 odd lines with exactly three 3s, as
// measured on the H100 (bench/RESULTS.md, issue 10). Against the schedules
// without 27, two rounds each, over the lengths the tile check alone admits:
// - complex64, 16 lengths: past 1024 1728 0.91 -> 0.99x cuFFT, 13824 0.71 ->
//   0.79x, 3402 = 9 9 3 14 0.90 -> 0.925x, 3888 0.90 -> 0.93x, 12096 0.78 ->
//   0.80x; 1512, 2646, 3024 and 6912 slower by 1.5-4%. Up to 1024 nothing
//   was gained (those lines run at copy speed) and 243 lost 4% (59049 =
//   243 x 243 in four steps 1.11 -> 0.93x).
// - complex128, 16 lengths: 945 = 27 5 7 0.88 -> 0.99x, 3375 = 27 5 5 5
//   0.83 -> 0.87x, 9261 0.81 -> 0.91x; 2187, 3780, 3888, 7776 and 8748
//   slower by 8-33%, their tiles spilling 172-344 bytes (ptxas, sm_90) at
//   168 registers where the three faster ones spill none; the register
//   model cannot tell those tiles apart, the lengths can.
template <class T>
constexpr bool twenty_seven_measured(std::size_t n) {
  if (sizeof(T) == 4) return n > 1024;
  int threes = 0;
  for (std::size_t m = n; m % 3 == 0; m /= 3) ++threes;
  return n % 2 == 1 && threes == 3;
}

// Where pairs of 5s may go as radix 25 beyond radix_schedule's own rules
// (device_radix_schedule below): complex128 lines 4097..10240 (the longest
// one-tile complex128 line but for plan_time_line_in_one_tile's
// exceptions). The radix-25 variant of bench/RESULTS.md (issue 10, section "Radix 25") paired every two 5s;
// up to 4096 the complex128 tiles that then hold 25 values within ptxas's
// cap were slower (2025 0.96 -> 0.89x cuFFT, 3600 1.04 -> 0.97x) and the
// faster ones spill. The 14 lengths 4097..10240 whose tile holds them, on
// the H100 in three rounds against the schedules without (section
// "complex128 radix 25 where the tile holds it"): 4500 = 4 9 25 5 0.65 ->
// 0.87x, 8575 0.83 -> 0.92x, 6300 0.98 -> 1.05x, 6125 0.75 -> 0.79x, 6400
// +5%; 4900 = 4 25 7 7 1.27 -> 1.05x and 8000 0.88 -> 0.81x slower; the
// others within 5%. None of them went below 0.8x.
// complex64 lines 12000..16384 (past radix_schedule's own 25 range), where
// the paired schedule has a single radix-25 pass: on the H100 in three
// rounds against the schedules without (section "complex64 radix 25 past
// 12000"), 12250 = 25 5 14 7 0.83 -> 0.95x cuFFT, 15000 = 8 15 25 5 0.85
// -> 0.93x, 14000 0.90 -> 0.94x, 15750 0.85 -> 0.89x, 12000, 12800 and
// 13125 within 2%; 12500 = 4 25 25 5, two radix-25 passes, 0.69 -> 0.57x.
template <class T>
constexpr bool twenty_five_measured(std::size_t n) {
  return (sizeof(T) == 8 && n > 4096 && n <= 10240) || (sizeof(T) == 4 && n >= 12000 && n <= 16384);
}

// The passes of radix `radix` in a schedule.
constexpr int passes_of_radix(const RadixSchedule& s, int radix) {
  int count = 0;
  for (int p = 0; p < s.count; ++p) count += s.radices[p] == radix ? 1 : 0;
  return count;
}

// The schedule of the device's transforms of length n without a uniform
// tile (device_radix_schedule below): radix_schedule with the device's
// composites, a lone 3 beside a 9 joined
// as radix 27 where twenty_seven_measured admits the length, and pairs of
// 5s as radix 25 where twenty_five_measured does; each where the tiles of
// the paired schedule (contiguous, and strided where the schedule without
// it has one) exist and keep their values within the registers ptxas
// leaves them. 27 for every complex64 lone 3 (an earlier variant on
// the H100) was slower wherever that cap fell short of 27 values (2187's
// seven blocks of 96 threads: 80 registers, 0.90 -> 0.56x cuFFT; 8748 0.68
// -> 0.56x): the pass saved is worth less than the spills. So the tiles
// decide.
template <class T>
constexpr RadixSchedule paired_radix_schedule(std::size_t n) {
  const RadixSchedule own = radix_schedule(n, device_composite_radices<T>());
  if (n > (std::size_t{1} << 24) || !seven_smooth_radices(own)) return own;
  const int length = static_cast<int>(n);
  auto holds = [](const ScheduleShape& g) { return g.valid && g.values <= values_within<T>(capped_registers(g)); };
  RadixSchedule chosen = own;
  TileCheckedPairings pairings;
  // Takes the schedule of `tried` where it saves a pass over `chosen` and
  // its tiles hold their values.
  auto try_pairings = [&](const TileCheckedPairings& tried) {
    const RadixSchedule paired = radix_schedule(n, device_composite_radices<T>(), tried);
    if (paired.count == chosen.count) return;
    if (sizeof(T) == 4 && tried.fives_as_25 && passes_of_radix(paired, 25) > 1) return;
    const bool strided_holds =
        holds(shape_of_schedule<T>(length, paired, true)) || !shape_of_schedule<T>(length, chosen, true).valid;
    if (!holds(shape_of_schedule<T>(length, paired, false)) || !strided_holds) return;
    chosen = paired;
    pairings = tried;
  };
  if (twenty_seven_measured<T>(n)) try_pairings({true, pairings.fives_as_25});
  if (twenty_five_measured<T>(n)) try_pairings({pairings.lone_three_as_27, true});
  return chosen;
}

// The uniform tile of a contiguous line (threads == 0 where none serves):
// over the values e per thread, multiples of every prime of n that divide
// n with 64..1024 threads, whose tile's values fit the registers ptxas
// caps it at (about 28 besides the values) and whose shared memory fits
// the SM, the schedule with the fewest passes (fewest_passes_dividing),
// then the fewest of radix 2 or 3, then the most resident blocks, then e
// nearest 32, its first passes in one stage (first_stage_fused). Each
// search below is run twice, the second time by stages: the fewest stages
// first (fewest_stages_dividing; at most one pass more than the fewest-pass
// schedule of that e; no stage with more than two of a warp on a bank;
// complex128 with 16 registers spare: stage_spare), at
// most 49 values (complex64) or 42 (complex128); the tile by stages is
// taken where it has fewer stages than the other (or the other has none).
// On the H100 against the tiles before, three rounds (bench/RESULTS.md,
// issue 10, section
// "Passes in registers"): complex64 24 of the 27 lengths to 20000 that
// change faster by more than 5%, none slower (18000 0.69 -> 1.01x cuFFT,
// 18432 0.66 -> 1.03x, 17496 0.67 -> 0.92x, 12348 0.76 -> 0.94x, 12500
// 0.79 -> 0.99x, 16000 0.78 -> 0.98x); complex128 10 of the 15 faster
// (5292 0.68 -> 0.98x, 12500 0.59 -> 0.81x, 12288 0.93 -> 1.13x; Bluestein
// 4099, whose M = 8232 is one, 1.25 -> 1.50x), 10240 slower (0.88 ->
// 0.79x: by stages 10 4 | 8 | 8 | 4 in 256 threads where the paired tile
// had 512). Tiles by stages of more values were slower in an earlier
// variant of the stage kernel (complex64 16384 = 16 4 | 16 | 16 in 256
// threads of 64: 0.99 -> 0.73x; 17280, 11520, 10800 at 60 values by
// 24-31%; complex128 10368 and 6912 at 48: 0.92 -> 0.58x, 1.01 -> 0.89x).
// One pass more than the fewest against none more (three rounds each):
// complex64 13500 = 6 5 | 6 5 | 15 0.73 -> 0.96x, 9000 0.87 -> 0.95x,
// 18225 0.85 -> 0.94x, 10976 0.72 -> 0.79x, 8000, 9216 and 16384 within
// 4%; complex128 8000 = 10 4 | 10 4 | 5 0.83 -> 1.01x, 6912 +4%. (An
// earlier variant of the stage kernel, its twiddles loaded, had lost most
// there: 9216 = 8 6 | 8 6 | 4 complex64 0.89 -> 0.73x.) Three searches:
// - Two or more blocks per SM (complex64 4097..16384, e 8..64, no more
//   passes than radix_schedule's): taken where the result is two blocks of
//   at least 192 threads (above). In complex128 the lengths that gained
//   (5292 0.68 -> 0.82x) and those that lost (6125 0.80 -> 0.64x) had no
//   rule between them (tried, bench/RESULTS.md).
// - One block per SM, for lines past 10240 (their tiles held one block per
//   SM or were four steps): complex64 with fewer passes than
//   radix_schedule's and at most 64 values; complex128 with at most one
//   pass more and at most 50 values (200 of the thread's registers). On
//   the H100 against the tiles before, two rounds (bench/RESULTS.md, issue
//   10, section "One-block uniform tiles"): complex128 10800 = 10 6 6 6 5
//   four steps 0.61 -> 0.89x cuFFT, 12288 0.68 -> 0.92x, 11250 0.60 ->
//   0.78x, 10935 0.57 -> 0.76x, 12005 0.84 -> 0.99x, 10368 0.76 -> 0.92x,
//   12500 0.55 -> 0.59x, 10584 not slower; complex64 19208 = 14 14 14 7
//   0.70 -> 0.93x, 13122 = 27 9 9 6 0.68 -> 0.80x, 10976 0.64 -> 0.72x,
//   15000 0.92 -> 1.03x, 16875, 18225, 20000 faster. Tiles of more values
//   were slower wherever measured: complex64 e 70..108 in 7 of 8 lengths
//   (17496 = 27 27 6 4, 162 threads of 108 values: 0.66 -> 0.17x; 19683 =
//   27 27 27, 81 values: 0.49 -> 0.35x), complex128 11664 (54 values, 0.60
//   -> 0.56x; ptxas spills 180 bytes).
// - One block per SM for complex128 lines 4097..10240 whose tile (of
//   paired_radix_schedule) holds one block per SM: with fewer passes than
//   that tile, at most 50 values, and no radix-15 pass. On the H100 against
//   the tiles before, two rounds (same section): 9216 = 16 16 6 6, 192
//   threads of 48 values, 0.83 -> 1.02x, 10000 = 10 10 10 10 0.71 ->
//   0.84x, 8232 = 14 14 7 6 0.88 -> 0.98x (Bluestein 4099, whose
//   convolution it is, 0.92 -> 1.25x), 9604 0.87 -> 0.98x, 6561 = 27 27 9
//   0.84 -> 0.88x; those with a radix-15 pass were slower (9000 = 15 10 10
//   6 0.95 -> 0.80x, 10125 0.77 -> 0.71x, 7500 -3%). Every uniform tile of
//   the 40 such lines, fewer passes or not: 8 faster, 21 slower.
//
// `paired` is paired_radix_schedule(length), which the third search
// compares with and the callers fall back on (device_schedule below).
template <class T>
constexpr UniformTile uniform_tile(std::size_t length, const RadixSchedule& paired) {
  const bool single = sizeof(T) == 4;
  const SmoothExponents x = long_line_exponents<T>(length);
  if (!x.smooth) return {};
  const int n = static_cast<int>(length);
  const std::size_t tile_bytes = line_tile_bytes<T>(n);
  const int a = x.a, b = x.b, c = x.c, d = x.d;
  // A radix that divides e holds only primes of e: e must be a multiple of
  // every prime of n. (Without this the search cost 10-30 us per length on
  // the host, where each launch asks for its tile's shape: 5040 ran 12%
  // slower for it.)
  const int radical = (a > 0 ? 2 : 1) * (b > 0 ? 3 : 1) * (c > 0 ? 5 : 1) * (d > 0 ? 7 : 1);
  const int most_passes = radix_schedule(length, device_composite_radices<T>()).count;
  const int registers_per_value = static_cast<int>(sizeof(T)) / 2;
  // Registers a tile by stages keeps spare in complex128: a later stage's
  // passes hold their twiddles beside the values (stage_pass); 12005 = 7 |
  // 7 5 | 7 | 7 in 343 threads of 35 values at 168 registers spilled 152
  // bytes and ran 1.00 -> 0.91x cuFFT (bench/RESULTS.md, issue 10, section
  // "Passes in registers"). complex64 tiles at no spare ran faster (12500 =
  // 10 5 | 25 | 10, 50 values at 128 registers: 0.79 -> 0.99x).
  const int stage_spare = single ? 0 : 16;
  // Passes a schedule by stages may have beyond the fewest (above).
  constexpr int more_passes = 1;
  // The best tile of `least_blocks`..`most_blocks` blocks per SM with at
  // most `most_values` values and `pass_limit` passes (stages, by_stages).
  // by_stages: the fewest stages first (fewest_stages_dividing, with at
  // most `more_passes` passes more than fewest_passes_dividing's and no
  // stage putting more than two of a warp on a bank), else the fewest
  // passes, their first passes fused (first_stage_fused).
  auto search = [&](int least_blocks, int most_blocks, int most_values, int pass_limit, bool by_stages) {
    UniformTile best;
    int best_small = 0;
    for (int e = radical; e <= most_values; e += radical) {
      if (e < 8 || n % e != 0 || n / e < 64 || n / e > 1024) continue;
      const int threads = n / e;
      int blocks = 0, registers = 0;
      for (int k = most_blocks; k >= least_blocks && blocks == 0; --k) {
        const int r = planned_registers(threads, k, RegisterPlan::ptxas_quarters);
        if (k * threads <= 2048 && (r - 28 - (by_stages ? stage_spare : 0)) / registers_per_value >= e &&
            static_cast<std::size_t>(k) * tile_bytes <= 228 * 1024) {
          blocks = k;
          registers = r;
        }
      }
      if (blocks == 0) continue;
      const RadixSchedule fewest = fewest_passes_dividing(a, b, c, d, e);
      if (fewest.count == 0) continue;
      StagedSchedule staged = first_stage_fused<T>(fewest, e);
      if (by_stages) {
        const StagedSchedule all = fewest_conflicts_first<T>(fewest_stages_dividing(a, b, c, d, e));
        if (all.stages > 0 && all.schedule.count <= fewest.count + more_passes && staged_conflicts<T>(all) <= 2)
          staged = all;
      }
      const RadixSchedule& s = staged.schedule;
      const int rank = by_stages ? staged.stages : s.count;
      const int best_rank = by_stages ? best.stages : best.schedule.count;
      if (rank > pass_limit) continue;
      int small = 0;
      for (int p = 0; p < s.count; ++p) small += s.radices[p] < 4 ? 1 : 0;
      const int distance = e > 32 ? e - 32 : 32 - e;
      const int best_distance = best.values > 32 ? best.values - 32 : 32 - best.values;
      const bool better =
          best.threads == 0 || rank < best_rank ||
          (rank == best_rank &&
           (s.count < best.schedule.count ||
            (s.count == best.schedule.count &&
             (small < best_small ||
              (small == best_small &&
               (blocks > best.blocks || (blocks == best.blocks && distance < best_distance)))))));
      if (better) {
        best = {s, staged.fused, staged.stages, threads, e, blocks, registers};
        best_small = small;
      }
    }
    return best;
  };
  // The tile of the fewest stages where it holds at most `staged_values`
  // (49 complex64, 42 complex128) and has fewer stages than the tile of the
  // fewest passes (or that has none), else the latter.
  const int staged_values = single ? 49 : 42;
  auto either = [&](const UniformTile& by_stages, const UniformTile& by_passes) {
    const bool fewer_stages = by_passes.threads == 0 || by_stages.stages < by_passes.stages;
    return by_stages.threads > 0 && by_stages.values <= staged_values && fewer_stages ? by_stages : by_passes;
  };
  if (single && length <= 16384) {
    const UniformTile resident = search(2, 4, 64, most_passes, false);
    if (resident.blocks == 2 && resident.threads >= 192) {
      const UniformTile two = search(2, 2, staged_values, most_passes, true);
      return two.threads >= 192 ? either(two, resident) : resident;
    }
  }
  if (length > 10240) {
    const int limit = single ? most_passes - 1 : most_passes + 1;
    return either(search(1, 1, staged_values, limit, true), search(1, 1, single ? 64 : 50, limit, false));
  }
  if (single) return {};
  const ScheduleShape g = shape_of_schedule<T>(n, paired, false);
  if (!g.valid || g.min_blocks != 1) return {};
  const UniformTile fewer =
      either(search(1, 1, staged_values, paired.count - 1, true), search(1, 1, 50, paired.count - 1, false));
  return passes_of_radix(fewer.schedule, 15) == 0 ? fewer : UniformTile{};
}

template <class T>
constexpr UniformTile uniform_tile(std::size_t length) {
  return uniform_tile<T>(length, paired_radix_schedule<T>(length));
}

// Ragged tiles: ceil(n / e) threads whose stages need not divide e. A
// thread takes ceil(groups / threads) groups of a stage, the last slots
// idle in some threads (schedule_stage serves any count), so lengths whose
// uniform tiles take many stages or none get few: 10206 = 27 | 27 | 14 in
// 189 threads holding 56 values (9 9 9 14 in 736 threads of 18 before),
// 11760 = 8 6 | 7 7 | 5 in 245 threads of 50 complex128 values (four steps
// before). The tile of the fewest stages over e up to 56 (complex64) or 50
// (complex128) and one to four blocks per SM (registers as ptxas caps them;
// values within them past 28, and complex128's stage_spare of uniform_tile),
// then the most blocks, then as `order` says. device_schedule says where
// they run.
//
// RaggedOrder::most_threads is the second search of device_schedule, for
// lines whose first tile the rule leaves out: more threads of fewer values
// (14580 complex64 = 9 5 | 9 4 | 9 in 503 threads of 45 values, where the
// first search gives 9 6 | 9 6 | 5 in 270 threads of 55). Its values stay
// within the registers past 30, not 28: at 28 the tiles of 14700, 14000 and
// 15750 complex64 filled their registers exactly and ran at 0.51-0.86x
// cuFFT; past 30, 14700 ran at 0.95x (bench/RESULTS.md, issue 10, section
// "A second ragged search").
enum class RaggedOrder {
  fewest_idle,   // then the fewest idle group slots, then the fewest passes
  most_threads,  // then the most threads, then the fewest idle slots and passes
};

// Ragged tiles whose block size was measured: the search takes only that
// block size, holding n / threads values a thread past the register budget
// it plans with (ptxas fit them without spilling). On the H100
// (bench/RESULTS.md, issue 10, section "Factored twiddles"):
// complex<float> 19683 as 27 27 27 in 729 threads, 80 registers, 0.89-0.90x
// cuFFT with factored twiddles (the cluster tile 0.74-0.75x; this tile
// 0.75-0.77x with every twiddle loaded).
struct MeasuredRaggedTile {
  int length;
  bool complex128;
  int threads;
};
inline constexpr MeasuredRaggedTile measured_ragged_tiles[] = {{19683, false, 729}};

// The measured block size of the ragged tile of complex<T> lines of length
// n; 0 where none is listed.
template <class T>
constexpr int measured_ragged_threads(int n) {
  const MeasuredRaggedTile* tile = listed_entry<T>(measured_ragged_tiles, n);
  return tile != nullptr ? tile->threads : 0;
}

template <class T>
constexpr UniformTile ragged_tile(std::size_t length, RaggedOrder order = RaggedOrder::fewest_idle) {
  const SmoothExponents x = long_line_exponents<T>(length);
  if (!x.smooth) return {};
  const int n = static_cast<int>(length);
  const std::size_t tile_bytes = line_tile_bytes<T>(n);
  const int registers_per_value = static_cast<int>(sizeof(T)) / 2;
  const bool single = sizeof(T) == 4;
  const int spare = single ? 0 : 16;  // uniform_tile's stage_spare
  const int most_values = single ? 56 : 50;
  const int overhead = order == RaggedOrder::most_threads ? 30 : 28;
  const DivisorPasses passes = divisor_passes(x.a, x.b, x.c, x.d, 0);
  const int measured_threads = measured_ragged_threads<T>(n);
  UniformTile best;
  long best_idle = 0;
  for (int e = 16; e <= most_values; ++e) {
    const int threads = (n + e - 1) / e;
    const bool as_before = e > 16 && threads == (n + e - 2) / (e - 1);  // the thread count of e - 1
    if (threads < 64 || threads > 1024 || as_before) continue;
    if (measured_threads != 0 && threads != measured_threads) continue;
    for (int k = 4; k >= 1; --k) {
      if (k * threads > 2048 || static_cast<std::size_t>(k) * tile_bytes > 228 * 1024) continue;
      const int registers = planned_registers(threads, k, RegisterPlan::ptxas_quarters);
      int values = (registers - overhead - spare) / registers_per_value;
      values = values < most_values ? values : most_values;
      if (measured_threads != 0) values = e;
      // The values a thread holds in a stage of D points (n / D groups over
      // the threads); a stage's idle slots weigh in 32nds of n, below a pass.
      auto slots = [&](int points) { return static_cast<long>((n / points + threads - 1) / threads) * points; };
      StagedSchedule staged = fewest_stages(passes, x.a, x.b, x.c, x.d, values, [&](int points) {
        const long held = slots(points);
        return held > values ? -1 : static_cast<int>((held * threads - n) * 32 / n);
      });
      if (staged.stages == 0) continue;
      int held = 0;
      long idle = 0;
      for (int stage = 0; stage < staged.stages; ++stage) {
        const long stage_held = slots(stage_points(staged.schedule, staged.fused, stage));
        held = stage_held > held ? static_cast<int>(stage_held) : held;
        idle += stage_held * threads - n;
      }
      const bool fewer_idle =
          idle < best_idle || (idle == best_idle && staged.schedule.count < best.schedule.count);
      const bool more_threads = threads > best.threads || (threads == best.threads && fewer_idle);
      const bool later = order == RaggedOrder::most_threads ? more_threads : fewer_idle;
      const bool better = best.threads == 0 || staged.stages < best.stages ||
                          (staged.stages == best.stages && (k > best.blocks || (k == best.blocks && later)));
      if (!better) break;
      // The bank-conflict order and check only for a tile that would win:
      // NVRTC evaluates this search when it compiles the tile, within a
      // limit on constant-expression work that checking every candidate
      // passed for 27 complex64 lengths (9000, 10080: "excessive constexpr
      // function call complexity", and their plans fell back to the general
      // kernel).
      staged = fewest_conflicts_first<T>(staged);
      if (staged_conflicts<T>(staged) > 2) continue;
      best = {staged.schedule, staged.fused, staged.stages, threads, held, k, registers, true};
      best_idle = idle;
      break;
    }
  }
  return best;
}

// The schedule of the device's transforms of length n (7-smooth lines of
// compiled schedules and their line plans alike; n without direct primes):
// the uniform tile's where n has one, else the ragged tile's where the rule
// below takes it, else paired_radix_schedule's; and that tile, which also
// decides a contiguous line's tile. Each is computed once here (the
// pairings' tile checks and the uniform searches take microseconds on the
// host, the ragged searches up to about a millisecond together: 11520
// complex64 0.8 ms, where both run every block count and bank-conflict
// order).
struct DeviceSchedule {
  RadixSchedule schedule;
  UniformTile tile;  // uniform or ragged; none (threads 0) for the paired schedule
};

// The points of a tile's smallest stage.
constexpr int smallest_stage_points(const UniformTile& tile) {
  int smallest = tile.values;
  for (int stage = 0; stage < tile.stages; ++stage) {
    const int points = stage_points(tile.schedule, tile.fused, stage);
    smallest = points < smallest ? points : smallest;
  }
  return smallest;
}

// Ragged tiles are taken where the line has no tile (it would run four
// steps) and the ragged one has no stage of fewer than 6 points; where its
// complex64 tile is not uniform, holds one block per SM, and the ragged one
// runs in fewer stages, none of fewer than 8 points; and where its
// complex64 tile holds two blocks per SM and the ragged one runs in at
// least two stages fewer, none of fewer than 6 points. Where the rule
// leaves the first search's tile out, the second search's (more threads,
// RaggedOrder::most_threads) is weighed the same way. On the H100
// (bench/RESULTS.md, issue 10, sections "Ragged tiles", "Ragged tiles for
// two-block lines", "A second ragged search" and "Lines past 16384"):
// - one-block complex64 lines 4097..20000 the rule takes: 31 of 44 faster
//   by more than 5% (8820 0.65 -> 0.92x cuFFT, 9450 0.78 -> 1.06x, 10206
//   0.62 -> 0.77x, 11250 0.81 -> 1.21x, 13608 0.78 -> 0.93x, 19683 0.50 ->
//   0.73x), 3 slower (17010 3.09 -> 2.15x, whose tile spills 400 bytes;
//   18750 0.91 -> 0.81x; 19200 1.72 -> 1.52x).
// - two-block complex64 lines the rule takes (5292 .. 9600, nine): 7 faster
//   (8748 0.46 -> 0.83x, 6860 0.78 -> 0.96x, 6804 0.77 -> 0.87x, 5292 0.76
//   -> 0.87x, 9261 0.75 -> 0.86x, 9600 1.08 -> 1.18x, 7168 1.09 -> 1.17x),
//   6272 within 5%, 8064 slower (0.83 -> 0.58x: 14 4 | 9 2 | 8 in 150
//   threads spills 340 bytes, which the register model does not foresee;
//   it runs the second search's tile now, spilled_complex64_tiles).
// - lines with no tile: complex128 9450, 10206, 10290, 10500, 11760 (0.58
//   -> 0.73x) and 12000 faster by 12-86%, 11520 slower (1.06 -> 0.94x);
//   complex64 18900, 19440 (0.63 -> 1.23x), 19600 and 19845 faster. Past
//   20000 a complex64 line fills the register file (about 512 threads of
//   up to 50 values), where a stage of 8 or 16 points would give a thread
//   more groups than its values hold: 25088 = 49 | 2 | 2 | 2 | 2 | 2 | 2 |
//   2 | 2 | 2 in 512 threads ran at 0.20x. Of the nine lines whose tile
//   has a stage under 6, eight run four steps: seven faster (25088 0.20 ->
//   0.65x, 25600 0.23 -> 0.75x, 21952 0.34 -> 0.54x, 24300 0.63 -> 0.91x,
//   23814 0.86 -> 1.47x), 23328 = 6 6 6 6 6 3 slower (1.09 -> 0.96x);
//   20480 runs the second search's tile (0.57 -> 0.75x). complex128 11520
//   runs the second search's tile (0.95 -> 1.54x), 11760 four steps again
//   (0.73 -> 0.59x).
// - the ragged tiles the rule leaves out: 47 of the other 97 complex64
//   tiles and 41 of 79 complex128 ones slower, as uniform tiles replaced
//   (15000 complex64 1.02 -> 0.67x), stages of 4-7 points holding up to ten
//   groups per thread (11760 complex64 0.99 -> 0.63x) and tiles that spill
//   200-2600 bytes (stages of 7 7: 4802 complex128 1.00 -> 0.36x); of the
//   two-block lines, the first search's tiles of 7840 and 5760 (stages of
//   5: 0.80 -> 0.76x, 0.86 -> 0.83x) and 9604 (a stage of 4: 0.92 ->
//   0.55x).
// - the second search's tiles (19 complex64 lines up to 20000): 14 faster
//   by more than 5% (13720 0.76 -> 0.89x, 14580 0.74 -> 0.89x, 15435 0.77
//   -> 0.90x, 14700 0.81 -> 0.95x, 9408 0.93 -> 1.24x, 16800 1.69 ->
//   3.14x), 11760, 12544 and 15120 within 5%, 5760 (0.86 -> 0.60x, four
//   blocks of 128 threads spilling 508 bytes; its paired schedule again
//   now, spilled_complex64_tiles) and 18144 (0.93 -> 0.74x, no spill)
//   slower.
//
// ragged_tile_taken applies the rule to `ragged`, for a line whose paired
// schedule has the contiguous tile `paired` (complex64 where that is valid).
constexpr bool ragged_tile_taken(const ScheduleShape& paired, const UniformTile& ragged) {
  if (ragged.threads == 0) return false;
  const int smallest = smallest_stage_points(ragged);
  const bool one_block = paired.min_blocks == 1 && ragged.stages < paired.stages && smallest >= 8;
  const bool two_blocks = paired.min_blocks == 2 && ragged.stages + 2 <= paired.stages && smallest >= 6;
  return (!paired.valid && smallest >= 6) || one_block || two_blocks;
}

// The tiles of the uniform and ragged searches that ptxas spills to local
// memory, which the register model cannot foresee (CUDA 13.0, sm_90: the
// kernels compiled with -Xptxas -v, scripts/spill_census.sh). Each names the
// search whose tile spills; device_schedule passes over it to the next
// choice: a spilled uniform tile to the ragged rule, a spilled first ragged
// tile to the second search, a spilled second one to the paired schedule.
// The census of the 135 uniform and ragged complex64 tiles 4097..28000 and
// the 31 complex128 ones 4097..16384 found 14 complex64 tiles spilling 64
// bytes or more, 11 under 64, and no complex128 one past 52. Listed are
// those whose next choice spills none and ran faster, on the H100 in three
// rounds (bench/RESULTS.md, issue 10, section "Tiles that ptxas spills"):
// - 5760's second ragged tile (508 bytes): its paired schedule, 0.60 ->
//   0.86x cuFFT;
// - 8064's first ragged tile (340 bytes): the second's, 0.58 -> 0.92x;
// - 10125's uniform tile and its first ragged tile, the same 225 threads
//   of 45 values (112 bytes): the second's, 254 threads, 0.86 -> 0.90x;
// - 10935's uniform tile (172 bytes): the first ragged tile, 0.75 -> 0.79x;
// - 17010's first ragged tile (400 bytes): the second's, 2.17 -> 3.16x.
// Left out: 12288's uniform tile (184 bytes) and its ragged ones (the same
// shape) give way only to the paired schedule, which ran slower (0.83x
// against 0.92-0.97x, section "Uniform tiles"); 21609's ragged tiles (212
// bytes, 0.74x) only to four steps, which ran at 0.54-0.64x on its
// neighbours 21875 and 21952; 21000, 24000 and 24500 (500-600 bytes) run
// at 1.33-1.92x as they are; the rest spill under 100 bytes.
enum class TileSearch { uniform, first_ragged, second_ragged };

struct SpilledTile {
  int length;
  TileSearch search;
};

inline constexpr SpilledTile spilled_complex64_tiles[] = {
    {5760, TileSearch::second_ragged}, {8064, TileSearch::first_ragged}, {10125, TileSearch::uniform},
    {10125, TileSearch::first_ragged}, {10935, TileSearch::uniform},     {17010, TileSearch::first_ragged},
};

template <class T>
constexpr bool tile_spills(std::size_t n, TileSearch search) {
  if (sizeof(T) != 4) return false;
  for (const SpilledTile& t : spilled_complex64_tiles)
    if (static_cast<std::size_t>(t.length) == n && t.search == search) return true;
  return false;
}

// The in-place tile: one contiguous line per block in one skewed shared
// buffer, its stages decimation in frequency (Cooley-Tukey in place). A
// group of stage s (radix R, block size M, M' = M / R) reads its R points
// b M + j + M' r, applies the radix-R butterfly, multiplies output r by
// w_M^(j r) and writes it back where it came from, so the groups of a
// stage touch disjoint points: a thread holds one group's R values at a
// time, where the Stockham tiles hold all of a thread's values of a stage
// across the barrier between its reads and its writes (one buffer). Those
// fill the register file past about 20000 complex64 points, and
// complex128 lines past 10240 ran four steps. The first stage reads global
// memory; the last (M' = 1) leaves the transform digit-reversed and writes
// it to global memory in natural order, each thread taking consecutive
// outputs (in_place_kernels.cuh). The stages are the schedule's passes in
// reverse order: stage s is pass P - 1 - s, whose span is M' and whose
// table entry (j, r) is w_M^(j r), so the line plan's twiddles serve both.
//
// The schedule: the fewest passes over uniform_radices up to 16, or with
// 25 and 27 where they save a pass; largest first in the decimation order
// (in pass order smallest first). On the H100 (bench/RESULTS.md, issue 10,
// section "The in-place tile"), 20736 complex64 as 16 16 9 9 ran at 0.83x
// cuFFT and as 9 9 16 16 at 0.68x; 27s held by a thread of 512 spilled
// 56-92 bytes in complex128.
constexpr RadixSchedule in_place_schedule(std::size_t n) {
  if (n > (std::size_t{1} << 24)) return {};
  const SmoothExponents x = smooth_exponents(static_cast<int>(n));
  if (!x.smooth) return {};
  // Radices dividing 5040 = 16 9 5 7: every one of uniform_radices but 25 and 27.
  const RadixSchedule up_to_16 = fewest_passes_dividing(x.a, x.b, x.c, x.d, 5040);
  const RadixSchedule any = fewest_passes_dividing(x.a, x.b, x.c, x.d, 0);
  const RadixSchedule largest_first = up_to_16.count > 0 && up_to_16.count <= any.count ? up_to_16 : any;
  RadixSchedule s = largest_first;
  for (int p = 0; p < s.count; ++p) s.radices[p] = largest_first.radices[s.count - 1 - p];
  return s;
}

// The longest line any compiled tile holds: 227 KB of complex<float>.
inline constexpr int max_schedule_points = static_cast<int>(max_schedule_shared_bytes / 8);

// Threads per SM of the in-place tile: 512, so at least 128 registers
// each, in one block (a line whose buffer takes most of an SM's shared
// memory), two of 256 (two_block_in_place_lines) or two to four blocks of
// a cluster tile (cluster_shape); measured_in_place_schedules names the
// exceptions.
inline constexpr int in_place_threads = 512;

// `blocks` resident per SM share in_place_threads (in whole warps), or run
// `threads` each where given; a line spans `cluster` blocks (cluster_shape),
// each holding n / cluster points. The register cap (from the kernel's
// launch bounds) is what the resident blocks leave a thread of an SM's 64K
// registers in whole eights, at most 248 (a thread addresses 255).
template <class T>
constexpr ScheduleShape in_place_shape(int n, const RadixSchedule& schedule, int blocks = 1, int cluster = 1,
                                       int threads = 0) {
  ScheduleShape g;
  g.schedule = schedule;
  g.passes = schedule.count;
  g.stages = schedule.count;
  if (g.passes == 0) return g;
  g.lanes = 1;
  g.points = n;
  g.threads = threads > 0 ? threads : in_place_threads / blocks / 32 * 32;
  g.values = largest_radix(schedule);
  const int cap = 65536 / ((g.threads + 31) / 32 * 32 * blocks) / 8 * 8;
  g.register_target = cap < 248 ? cap : 248;
  g.min_blocks = blocks;
  g.cluster = cluster;
  g.shift = skewed_shift<T>();
  g.uses_shared = true;
  g.shared_words = skewed_words(n / cluster, g.shift);
  g.shared_bytes = 2 * sizeof(T) * static_cast<std::size_t>(g.shared_words);
  g.in_place = true;
  g.valid = g.shared_bytes <= max_schedule_shared_bytes;
  return g;
}

// The cluster tile: the in-place tile of one line spread over a cluster of
// C blocks (distributed shared memory, compute capability 9.0), each
// holding N / C points, so that blocks of several lines share an SM and
// one block's loads and stores overlap another's passes; one block of a
// line per SM runs them in turn (0.46-0.64 of copy speed where cuFFT ran
// 0.6-0.9). The first stage's radix R_0 is one that C divides: block c
// takes 1 / C of its groups and writes their outputs to sub-blocks of the
// line, which block r / (R_0 / C) holds for output r; after a cluster
// barrier every later stage is the block's own (in_place_kernels.cuh).
//
// C is the fewest blocks, up to the portable cluster size 8, of which at
// least two fit an SM's shared memory (the H100's 228 KB, 1 KB of it
// reserved per block), with a radix of in_place_schedule that C divides;
// that radix, the largest such, runs first (measured_in_place_schedules
// below names the exceptions). Up to four blocks per SM share
// in_place_threads. Trials on the H100 (bench/RESULTS.md, issue 10,
// section "The cluster tile"): 20736 complex64 in two blocks 0.90x cuFFT
// (one in-place block 0.83x), 21952 0.84x (0.72x), 25088 0.94x (0.77x),
// complex128 11664 0.89x (0.71x), 12544 0.89x (0.70x).
inline constexpr std::size_t cluster_sm_shared_bytes = 228 * 1024;
inline constexpr std::size_t block_reserved_shared_bytes = 1024;
inline constexpr int max_cluster_blocks = 8;
inline constexpr int max_cluster_resident_blocks = 4;

// `schedule` with its largest radix that `blocks` divides moved to the
// first stage (the last pass), the others in their order; none where no
// radix is divisible.
constexpr RadixSchedule cluster_schedule(const RadixSchedule& schedule, int blocks) {
  int at = -1;
  for (int p = 0; p < schedule.count; ++p)
    if (schedule.radices[p] % blocks == 0 && (at < 0 || schedule.radices[p] > schedule.radices[at])) at = p;
  if (at < 0) return {};
  RadixSchedule s = schedule;
  for (int p = at; p + 1 < s.count; ++p) s.radices[p] = s.radices[p + 1];
  s.radices[s.count - 1] = schedule.radices[at];
  return s;
}

// In-place tiles whose blocks, radices or block sizes differ from the
// rules', where they ran faster by more than 5% in every round but where
// said (bench/RESULTS.md, issue 10, sections "The cluster tile", per-line
// schedules, "The cluster tile's first stage rolled" and "In-place tiles
// for short lines"): the radices in decimation order, the first stage's
// first.
// - Cluster tiles. complex128: 11664 as 16 9 9 9 in two blocks 0.82-0.84x
//   cuFFT (the rule's 16 27 27 spilled 36 bytes, 0.70x); 10976 as 14 14 8 7
//   in two 0.90x (16 7 7 14 0.84-0.86x, the rule's 16 14 7 7 0.70x); 14400
//   as 16 10 10 9 in four 1.01-1.03x (four steps 0.71x); 10240 as 16 16 10 4
//   in four 0.86-0.88x, 0.96-1.00x with the first stage rolled (its
//   Stockham tile 0.79x); 11250 as 15 10 15 5 in three 0.87x (0.79x); 10584
//   as 14 6 9 14 in two 0.89x (0.78-0.80x); 5400 as 10 10 6 9 in two 0.81x
//   (0.77x); 8750 as 14 25 25 in two blocks of 128 threads, three per SM,
//   1.04-1.05 ms, 0.83-0.84x (its Stockham tile 1.12-1.14 ms, 0.76-0.78x;
//   in 160 threads, the rule's, 0.71x). complex64: 26244 as 27 27 9 4 in
//   three 0.80-0.81x (the rule's 4 27 27 9 in two 0.77x); in blocks of 128
//   threads rather than the rule's 160, 1.24 against 1.26-1.27 ms,
//   0.81-0.83x (2% faster in each of three rounds, short of 5%: taken
//   because 160 threads idle more of the radix-27 stages' groups, 324 a
//   block, and it moves the line off the target's edge). The other 74
//   trials that ran, over 12 lines, were no faster; complex64 19683 and
//   15625 gained from none.
// - One in-place block per line, several per SM, for complex64 lines a
//   Stockham tile or the cluster tile held. Four per SM: 2187 as 9 9 9 3 in
//   256 threads, 0.97x (its Stockham tile 9 9 9 3 0.90x; 3 9 9 9, the
//   Stockham tile's order, 0.77x in the same run), and 5625 as 15 15 25 in
//   128, 0.92-0.93x (its Stockham tile 9 25 25 0.79-0.80x). Two per SM:
//   10206 as 14 27 27 in 256 threads, 0.86 ms, 0.86x (the cluster tile's
//   14 27 27 in two blocks 0.93 ms, 0.79-0.80x; 27 27 14 0.82-0.83x, in 384
//   threads 0.77-0.78x).
// A line listed here runs its tile whatever the rules give it (listed_tile).
// Their whole-line plans take the listed passes (device_schedule); strided
// lines of these lengths run the general kernel with them (strided
// schedules stop at 1024).
inline constexpr int max_in_place_stages = 6;
struct InPlaceSchedule {
  int length;
  bool complex128;
  int cluster;  // blocks holding one line: 1 for one block per line
  int radices[max_in_place_stages];  // unused entries 0
  int resident = 0;                  // blocks per SM; 0: as many as fit, up to four
  int threads = 0;                   // per block; 0: in_place_threads shared among the resident blocks
};
inline constexpr InPlaceSchedule measured_in_place_schedules[] = {
    {11664, true, 2, {16, 9, 9, 9}},   {10976, true, 2, {14, 14, 8, 7}},  {14400, true, 4, {16, 10, 10, 9}},
    {10240, true, 4, {16, 16, 10, 4}}, {11250, true, 3, {15, 10, 15, 5}}, {10584, true, 2, {14, 6, 9, 14}},
    {5400, true, 2, {10, 10, 6, 9}},   {26244, false, 3, {27, 27, 9, 4}, 0, 128},
    {2187, false, 1, {9, 9, 9, 3}, 4, 256},  {5625, false, 1, {15, 15, 25}, 4, 128},
    {10206, false, 1, {14, 27, 27}, 2, 256}, {8750, true, 2, {14, 25, 25}, 0, 128},
};

// How many blocks holding `points` points each fit an SM's shared memory.
template <class T>
constexpr int blocks_fitting_sm(int points) {
  const std::size_t bytes = 2 * sizeof(T) * static_cast<std::size_t>(skewed_words(points, skewed_shift<T>()));
  return static_cast<int>(cluster_sm_shared_bytes / (bytes + block_reserved_shared_bytes));
}

// The resident blocks of a cluster tile of n points in `blocks` blocks:
// as many as fit an SM's shared memory, up to four; 0 where fewer than two fit.
template <class T>
constexpr int cluster_resident_blocks(int n, int blocks) {
  const int fit = blocks_fitting_sm<T>(n / blocks);
  if (fit < 2) return 0;
  return fit < max_cluster_resident_blocks ? fit : max_cluster_resident_blocks;
}

// The entry of measured_in_place_schedules for a line of length n, or null.
template <class T>
constexpr const InPlaceSchedule* measured_in_place_schedule(int n) {
  return listed_entry<T>(measured_in_place_schedules, n);
}

// The tile measured_in_place_schedules lists for a line of length n, or
// none (not valid).
template <class T>
constexpr ScheduleShape measured_in_place_shape(int n) {
  const InPlaceSchedule* m = measured_in_place_schedule<T>(n);
  if (m == nullptr) return {};
  // In pass order: the list read backwards (the first stage is the last pass).
  RadixSchedule schedule;
  for (int i = max_in_place_stages - 1; i >= 0; --i)
    if (m->radices[i] > 1) schedule.radices[schedule.count++] = m->radices[i];
  const int resident = m->resident > 0 ? m->resident : cluster_resident_blocks<T>(n, m->cluster);
  const bool usable = m->cluster >= 1 && m->cluster <= max_cluster_blocks && n % m->cluster == 0 &&
                      schedule.count >= 2 && schedule.radices[schedule.count - 1] % m->cluster == 0 &&
                      resident > 0 && resident <= blocks_fitting_sm<T>(n / m->cluster);
  return usable ? in_place_shape<T>(n, schedule, resident, m->cluster, m->threads) : ScheduleShape{};
}

template <class T>
constexpr ScheduleShape cluster_shape(int n) {
  const RadixSchedule own = in_place_schedule(static_cast<std::size_t>(n));
  if (own.count < 2) return {};
  for (int blocks = 2; blocks <= max_cluster_blocks; ++blocks) {
    const RadixSchedule schedule = cluster_schedule(own, blocks);
    const int resident = cluster_resident_blocks<T>(n, blocks);
    if (schedule.count == 0 || resident == 0) continue;
    return in_place_shape<T>(n, schedule, resident, blocks);
  }
  return {};
}

// device_schedule in two steps, so that the device's tiles
// (ScheduleGeometry) run the second ragged search in a constant evaluation
// of its own: NVRTC limits the work of each, and with both searches in one
// it refused 8 complex64 lengths (5760, 6048, 6480, 6720, 7560, 8640, 11520,
// 13440: "excessive constexpr function call complexity"; the general kernel
// ran them at 0.26-0.46x cuFFT).
struct ScheduleChoice {
  DeviceSchedule schedule;     // the answer unless second_search
  ScheduleShape paired;        // the paired schedule's contiguous tile, which the rule weighs
  bool second_search = false;  // the rule left the first ragged tile out and the second does not spill: weigh it
};

template <class T>
constexpr ScheduleChoice first_schedule_choice(std::size_t n) {
  const RadixSchedule paired = paired_radix_schedule<T>(n);
  const UniformTile uniform = tile_spills<T>(n, TileSearch::uniform) ? UniformTile{} : uniform_tile<T>(n, paired);
  if (uniform.threads > 0) {
    // A complex64 uniform tile within 8 registers of its cap (values at 2
    // each past 28) yields to a ragged tile of fewer stages, none of fewer
    // than 8 points: 10368 = 8 6 | 6 | 6 | 6 in 216 threads of 48 values at
    // 128 registers spills 412 bytes and ran at 0.67x cuFFT, 8 6 | 6 4 | 9
    // in 231 threads at 0.86x (bench/RESULTS.md, issue 10, section "A
    // second ragged search"). The only such line up to 20000 whose ragged
    // tile saves a stage; ragged tiles lost to 10 of 15 other uniform ones.
    const bool crowded = sizeof(T) == 4 && uniform.registers - 28 - 2 * uniform.values < 8;
    const bool weighed = crowded && !tile_spills<T>(n, TileSearch::first_ragged);
    const UniformTile ragged = weighed ? ragged_tile<T>(n) : UniformTile{};
    const bool fewer = ragged.threads > 0 && ragged.stages < uniform.stages && smallest_stage_points(ragged) >= 8;
    return {fewer ? DeviceSchedule{ragged.schedule, ragged} : DeviceSchedule{uniform.schedule, uniform}, {}, false};
  }
  const DeviceSchedule plain{paired, UniformTile{}};
  if (n <= 4096) return {plain, {}, false};
  const ScheduleShape g = shape_of_schedule<T>(static_cast<int>(n), paired, false);
  if (g.valid && (sizeof(T) != 4 || g.min_blocks > 2)) return {plain, g, false};
  const UniformTile first = tile_spills<T>(n, TileSearch::first_ragged) ? UniformTile{} : ragged_tile<T>(n);
  if (ragged_tile_taken(g, first)) return {{first.schedule, first}, g, false};
  return {plain, g, !tile_spills<T>(n, TileSearch::second_ragged)};
}

// The second step: `second` is ragged_tile<T>(n, RaggedOrder::most_threads).
constexpr DeviceSchedule settled_schedule(const ScheduleChoice& choice, const UniformTile& second) {
  if (!choice.second_search || !ragged_tile_taken(choice.paired, second)) return choice.schedule;
  return {second.schedule, second};
}

// Lines a Stockham tile holds that run two in-place blocks per SM instead
// (256 threads each, in_place_schedule's radices): where they ran faster by
// more than 5% on the H100, two rounds of a sweep that gave every line
// 4097..16384 whose buffer fits twice in an SM two in-place blocks
// (bench/RESULTS.md, issue 10, section "The in-place tile"): complex64
// 10000 0.77 -> 0.91x cuFFT, 10935 0.79 -> 0.93x, 10976 0.78 -> 0.85x,
// 11760 0.99 -> 1.21x, 11907 0.82 -> 0.99x; complex128 6804 0.89 -> 1.09x.
// Everywhere else they were slower or no faster (75 of the 143 complex64
// lines slower, most below 9000, where the Stockham tiles hold several
// blocks per SM: 4200 0.82 -> 0.58x).
inline constexpr MeasuredLine two_block_in_place_lines[] = {
    {9072, false},  {9375, false},  {10000, false}, {10080, false}, {10800, false}, {10935, false}, {10976, false},
    {11200, false}, {11340, false}, {11664, false}, {11760, false}, {11907, false}, {12250, false}, {13125, false},
    {13608, false}, {6174, true},   {6300, true},   {6615, true},   {6804, true},
};

// Lines a Stockham tile holds that run the cluster tile instead: where it
// ran faster by more than 5% in both rounds of a sweep of the cluster tile
// over every line 4097..28125 whose tile held one block per SM
// (bench/RESULTS.md, issue 10, section "The cluster tile"): complex64 18144
// 0.75 -> 0.97x cuFFT, 20480 0.75 -> 0.89x, 21600 0.77 -> 0.92x, 15876 0.79
// -> 0.95x, 19683 0.67 -> 0.71x; complex128 9375 0.72 -> 0.90x, 10935 0.75 ->
// 0.88x, 7500 0.85 -> 1.03x, 12800 0.84 -> 1.06x. With them the lines that
// ran one in-place block (20160..24500 complex64, 10976..12800
// complex128), which were no slower in the cluster. Slower in the sweep,
// and left out: 34 complex64 and 43 complex128 lines (16807 complex64 0.95
// -> 0.46x in seven blocks of radix 7; complex128 9216 1.01 -> 0.65x, 6125
// 0.82 -> 0.56x), most of them below 17000 complex64 and 10000 complex128.
// The lines of measured_in_place_schedules run their tiles without being
// listed here (complex128 10240, 11250, 10584 and 5400 and complex64
// 10206 have Stockham tiles). complex64 19683, listed before, runs its
// measured ragged tile (measured_ragged_tiles) since twiddles are factored.
inline constexpr MeasuredLine cluster_lines[] = {
    {14336, false}, {15120, false}, {15360, false}, {15876, false}, {17640, false}, {17920, false}, {18144, false},
    {20160, false}, {20480, false}, {20580, false}, {20736, false}, {21000, false}, {21504, false},
    {21600, false}, {21609, false}, {22050, false}, {22400, false}, {22680, false}, {23040, false}, {23520, false},
    {24000, false}, {24010, false}, {24192, false}, {24500, false}, {24576, false}, {4900, true},   {5250, true},
    {6000, true},   {7000, true},   {7500, true},   {8400, true},   {8820, true},   {8960, true},   {9375, true},
    {10080, true},  {10125, true},  {10935, true},  {10976, true},  {11025, true},  {11200, true},  {11340, true},
    {11907, true},  {12000, true},  {12096, true},  {12800, true},
};

// Lines no Stockham tile holds that keep four steps where the cluster tile
// ran slower: in both rounds of that sweep, complex128 21875 1.50 -> 1.36x,
// 23040 1.64 -> 1.55x, 27648 1.06 -> 0.94x (14400, 0.71 -> 0.67x there,
// has a measured schedule since); in the confirming run of --longer, 28672
// 1.48 -> 1.21x (past the sweep) and 25515 1.50 -> 1.41x (4-6% slower in
// all three rounds). The cluster tile ran the other such lines no slower
// (complex128 11760 0.68 -> 0.89x, 13500 0.69 -> 0.96x, 16000 0.96 ->
// 1.41x; complex64 21952 0.69 -> 0.82x, 25088 0.77 -> 0.95x, 27648 1.32 ->
// 2.27x).
inline constexpr MeasuredLine four_step_lines[] = {
    {21875, true}, {23040, true}, {25515, true}, {27648, true}, {28672, true}};

// Which list above names a line of length n, measured_in_place_schedules
// first.
enum class ListedTile { none, measured_in_place, two_in_place_blocks, cluster, four_steps };

template <class T>
constexpr ListedTile listed_tile(int n) {
  if (lists_line<T>(measured_in_place_schedules, n)) return ListedTile::measured_in_place;
  if (lists_line<T>(two_block_in_place_lines, n)) return ListedTile::two_in_place_blocks;
  if (lists_line<T>(cluster_lines, n)) return ListedTile::cluster;
  if (lists_line<T>(four_step_lines, n)) return ListedTile::four_steps;
  return ListedTile::none;
}

// The whole-line tile of contiguous lines of length n whose settled
// schedule has the contiguous Stockham tile `stockham`:
// - the tile of measured_in_place_schedules for its lines (listed_tile);
// - past 4096, the cluster tile (cluster_shape) where `stockham` is not
//   valid (the line would run four steps) but for four_step_lines, and for
//   the lines of cluster_lines;
// - two in-place blocks for the lines of two_block_in_place_lines;
// - one in-place block where neither tile is valid but that one fits;
// - else `stockham`, which may be invalid: four steps.
// Powers of two keep their Stockham tiles (0.98-1.08x cuFFT). On the H100
// against four steps, the in-place tile in one block ran complex64
// 16385..28000 22 of 23 lines faster, complex128 8193..14000 the 14 lines
// it served (bench/RESULTS.md, issue 10, section "The in-place tile");
// the cluster tile ran those lines faster again (section "The cluster
// tile"). Bluestein's convolution keeps the Stockham tile of the settled
// schedule whatever a whole line takes (convolution_shape).
template <class T>
constexpr ScheduleShape contiguous_shape(int n, const ScheduleShape& stockham) {
  if (n > max_schedule_points || (n & (n - 1)) == 0) return stockham;
  const ListedTile listed = listed_tile<T>(n);
  if (listed == ListedTile::measured_in_place) {
    const ScheduleShape measured = measured_in_place_shape<T>(n);
    if (measured.valid) return measured;
  }
  if (n <= 4096 || listed == ListedTile::four_steps) return stockham;
  if ((!stockham.valid && listed == ListedTile::none) || listed == ListedTile::cluster) {
    const ScheduleShape cluster = cluster_shape<T>(n);
    if (cluster.valid) return cluster;
  }
  if (stockham.valid && listed != ListedTile::two_in_place_blocks) return stockham;
  const RadixSchedule own = in_place_schedule(static_cast<std::size_t>(n));
  const ScheduleShape in_place =
      in_place_shape<T>(n, own, listed == ListedTile::two_in_place_blocks ? 2 : 1);
  return in_place.valid ? in_place : stockham;
}

// The contiguous Stockham tile of the settled schedule `settled`.
template <class T>
constexpr ScheduleShape contiguous_stockham(int n, const DeviceSchedule& settled) {
  return shape_of_schedule<T>(n, settled.schedule, false, settled.tile);
}

// The schedule of a whole line: the in-place tile's where `contiguous` is
// that tile, else `settled`.
constexpr DeviceSchedule line_schedule(const DeviceSchedule& settled, const ScheduleShape& contiguous) {
  return contiguous.in_place ? DeviceSchedule{contiguous.schedule, UniformTile{}} : settled;
}

// The schedule the steps above settle on: Bluestein's convolution's, and a
// whole line's but where the in-place tile takes it.
template <class T>
constexpr DeviceSchedule settled_device_schedule(std::size_t n) {
  const ScheduleChoice choice = first_schedule_choice<T>(n);
  return settled_schedule(choice, choice.second_search ? ragged_tile<T>(n, RaggedOrder::most_threads) : UniformTile{});
}

// The schedule of a whole line of length n.
template <class T>
constexpr DeviceSchedule device_schedule(std::size_t n) {
  const DeviceSchedule settled = settled_device_schedule<T>(n);
  if (n > static_cast<std::size_t>(max_schedule_points)) return settled;
  const int length = static_cast<int>(n);
  return line_schedule(settled, contiguous_shape<T>(length, contiguous_stockham<T>(length, settled)));
}

// The line plans (stockham_radices: whole lines, and Bluestein's
// convolutions) and the compiled tiles (schedule_shape, convolution_shape)
// ask the same functions.
template <class T>
constexpr RadixSchedule device_radix_schedule(std::size_t n) {
  return device_schedule<T>(n).schedule;
}
template <class T>
constexpr RadixSchedule convolution_radix_schedule(std::size_t n) {
  return settled_device_schedule<T>(n).schedule;
}

// The tile of a whole line of length n whose settled schedule is
// `settled`: contiguous_shape, or the strided Stockham tile of `settled`
// (the in-place tile serves contiguous lines only; strided lines past 1024
// run the general kernel). ScheduleGeometry takes the same steps.
template <class T>
constexpr ScheduleShape layout_shape(int n, const DeviceSchedule& settled, bool lanes_fast) {
  if (lanes_fast) return shape_of_schedule<T>(n, settled.schedule, true, settled.tile);
  return contiguous_shape<T>(n, contiguous_stockham<T>(n, settled));
}

template <class T>
constexpr ScheduleShape schedule_shape(int n, bool lanes_fast) {
  const int length = n > 0 ? n : 1;
  return layout_shape<T>(length, settled_device_schedule<T>(static_cast<std::size_t>(length)), lanes_fast);
}

// The Stockham tile of the settled schedule of length n, whatever a whole
// line takes: what the tile rules above give, and what Bluestein's
// one-kernel convolution of that length runs (convolution_shape).
template <class T>
constexpr ScheduleShape stockham_shape(int n, bool lanes_fast) {
  const int length = n > 0 ? n : 1;
  const DeviceSchedule settled = settled_device_schedule<T>(static_cast<std::size_t>(length));
  return shape_of_schedule<T>(length, settled.schedule, lanes_fast, settled.tile);
}

template <class T>
constexpr ScheduleShape convolution_shape(int m, bool lanes_fast) {
  return stockham_shape<T>(m, lanes_fast);
}

// The tile shapes of lines of length n in both layouts, and of Bluestein's
// contiguous convolution, computed once per plan (TileStockham in
// device_line_plan.cpp): the compiled-kernel check of every launch
// (schedule_key_for) reads them instead of computing schedule_shape again,
// which takes 2-11 us on the host for lines past 4096 (the uniform_tile
// searches and the pairings' tile checks).
struct ScheduleShapes {
  int length = 0;
  ScheduleShape contiguous;
  ScheduleShape strided;
  ScheduleShape convolution;  // contiguous; a strided convolution's is `strided`
  constexpr const ScheduleShape& of(bool lanes_fast) const { return lanes_fast ? strided : contiguous; }
  constexpr const ScheduleShape& convolution_of(bool lanes_fast) const {
    return lanes_fast ? strided : convolution;
  }
};

template <class T>
constexpr ScheduleShapes schedule_shapes(int n) {
  const DeviceSchedule settled = settled_device_schedule<T>(static_cast<std::size_t>(n > 0 ? n : 1));
  const ScheduleShape stockham = contiguous_stockham<T>(n, settled);
  return {n, contiguous_shape<T>(n, stockham), layout_shape<T>(n, settled, true), stockham};
}

// Shared bytes of Bluestein's one-kernel convolution of length m: always
// the whole tile, even where the schedule alone would keep one pass in
// registers (bluestein_schedule_kernel).
template <class T>
constexpr std::size_t bluestein_shared_bytes(const ScheduleShape& g) {
  return 2 * sizeof(T) * static_cast<std::size_t>(skewed_words(g.points, g.shift));
}

// The launch grid of a tile kernel (compiled schedule or general) over
// `groups` groups of `lanes` lines, 2^log_lanes lines per tile: one block
// per tile, in two dimensions where the tiles outnumber a grid's x limit;
// block (x, y) takes tile y * x + x (this_tile() in tile_kernels.cuh, which
// says why there is no grid-stride loop).
struct TileGrid {
  unsigned x = 0;
  unsigned y = 0;
};

inline constexpr std::int64_t max_grid_x = 0x7fffffff;

// A tile of `cluster` blocks (cluster_shape) takes `cluster` consecutive
// blocks of a grid row, whose width is a multiple of it.
constexpr TileGrid tile_grid(std::int64_t lanes, int log_lanes, std::int64_t groups, int cluster = 1) {
  const std::int64_t blocks = ((lanes + (std::int64_t{1} << log_lanes) - 1) >> log_lanes) * groups * cluster;
  if (blocks <= 0) return {};
  const std::int64_t widest = max_grid_x - max_grid_x % cluster;
  const std::int64_t x = blocks < widest ? blocks : widest;
  return {static_cast<unsigned>(x), static_cast<unsigned>((blocks + x - 1) / x)};
}

template <class T, int N, bool LanesFast>
struct ScheduleGeometry {
  // The Stockham tile of the settled schedule (settled_device_schedule, its
  // second ragged search evaluated apart: first_schedule_choice says why),
  // which the members below describe and Bluestein's convolution runs; and
  // the whole-line tile of contiguous lines (contiguous_shape), which may
  // be the in-place tile instead.
  static constexpr ScheduleChoice choice = first_schedule_choice<T>(N);
  static constexpr UniformTile second_ragged =
      choice.second_search ? ragged_tile<T>(N, RaggedOrder::most_threads) : UniformTile{};
  static constexpr DeviceSchedule device = settled_schedule(choice, second_ragged);
  static constexpr ScheduleShape shape = shape_of_schedule<T>(N, device.schedule, LanesFast, device.tile);
  static constexpr ScheduleShape line = LanesFast ? shape : contiguous_shape<T>(N, shape);
  static constexpr bool in_place = line.in_place;
  static constexpr RadixSchedule schedule = shape.schedule;
  static constexpr int passes = shape.passes;
  static constexpr unsigned fused = shape.fused;
  static constexpr int stages = shape.stages;
  // The passes of stage S: first_pass(S) .. first_pass(S + 1) - 1.
  static constexpr int first_pass(int stage) { return stage_first_pass(stage, passes, fused); }
  // The points of one group of stage S: the product of its radices.
  static constexpr int stage_points(int stage) { return cuda::stage_points(shape, stage); }
  static constexpr int register_target = shape.register_target;
  static constexpr int lanes = shape.lanes;
  static constexpr int log_lanes = shape.log_lanes;
  static constexpr int points = shape.points;
  static constexpr int threads = shape.threads;
  static constexpr int values = shape.values;  // the most a thread holds in any pass
  static constexpr int min_blocks = shape.min_blocks;
  static constexpr bool staged_load = shape.staged_load;
  static constexpr bool staged_store = shape.staged_store;
  static constexpr int shift = shape.shift;
  static constexpr bool uses_shared = shape.uses_shared;
  static constexpr int shared_words = shape.shared_words;
  static constexpr std::size_t shared_bytes = shape.shared_bytes;

  static_assert(line.passes > 0, "compiled schedules are for 13-smooth lengths above 1");
  static_assert(line.threads > 0, "no block size keeps a thread's values within the register budget");
  static_assert(line.shared_bytes <= max_schedule_shared_bytes, "a tile must fit the shared memory of one block");
};

}  // namespace oocfft::kernels::cuda
