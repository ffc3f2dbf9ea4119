#pragma once
// The in-place tiles: one contiguous line in one skewed shared buffer,
// its stages decimation in frequency, in one block (in_place_shape) or
// spread over a thread-block cluster (cluster_shape); their schedules and
// shapes, and the shapes the tuning table names for some lines
// (measured_in_place_shape). The kernels are in_place_kernels.cuh; which
// lines take these tiles is schedule_choice.hpp's.

#include "kernels/cuda/long_line_tiles.hpp"

namespace oocfft::kernels::cuda {

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
// (in pass order smallest first): the reverse order, and 27s held by a
// thread of 512 in complex128, ran slower.
// Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
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
// memory), two of 256 (Tuned::two_in_place_blocks) or two to four blocks
// of a cluster tile (cluster_shape); the tuning table's in_place_schedule
// entries name the exceptions.
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
  const int cap = sm_registers / ((g.threads + 31) / 32 * 32 * blocks) / 8 * 8;
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
// line per SM runs them in turn, well below copy speed. The first stage's
// radix R_0 is one that C divides: block c takes 1 / C of its groups and
// writes their outputs to sub-blocks of the line, which block r / (R_0 / C)
// holds for output r; after a cluster barrier every later stage is the
// block's own (in_place_kernels.cuh).
//
// C is the fewest blocks, up to the portable cluster size 8, of which at
// least two fit an SM's shared memory (sm_shared_bytes, some of it
// reserved per block), with a radix of in_place_schedule that C divides;
// that radix, the largest such, runs first (the tuning table's
// in_place_schedule entries name the exceptions). Up to four blocks per SM
// share in_place_threads. Faster than one in-place block per line
// wherever tried.
// Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
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
// How many blocks holding `points` points each fit an SM's shared memory.
template <class T>
constexpr int blocks_fitting_sm(int points) {
  const std::size_t bytes = 2 * sizeof(T) * static_cast<std::size_t>(skewed_words(points, skewed_shift<T>()));
  return static_cast<int>(sm_shared_bytes / (bytes + block_reserved_shared_bytes));
}

// The resident blocks of a cluster tile of n points in `blocks` blocks:
// as many as fit an SM's shared memory, up to four; 0 where fewer than two fit.
template <class T>
constexpr int cluster_resident_blocks(int n, int blocks) {
  const int fit = blocks_fitting_sm<T>(n / blocks);
  if (fit < 2) return 0;
  return fit < max_cluster_resident_blocks ? fit : max_cluster_resident_blocks;
}

// The tuning table's in-place schedule for a line of length n, or null.
template <class T>
constexpr const TuningEntry* measured_in_place_schedule(int n) {
  return tuned_entry<T>(Tuned::in_place_schedule, n);
}

// The tile the tuning table's in-place schedule gives a line of length n,
// or none (not valid): its radices, blocks per line, resident blocks and
// block size where the entry names them, else the rules'.
template <class T>
constexpr ScheduleShape measured_in_place_shape(int n) {
  const TuningEntry* m = measured_in_place_schedule<T>(n);
  if (m == nullptr) return {};
  // In pass order: the list read backwards (the first stage is the last pass).
  RadixSchedule schedule;
  for (int i = max_tuned_radices - 1; i >= 0; --i)
    if (m->radices.radices[i] > 1) schedule.radices[schedule.count++] = m->radices.radices[i];
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

}  // namespace oocfft::kernels::cuda
