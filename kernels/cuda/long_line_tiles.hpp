#pragma once
// The tiles of long contiguous lines (7-smooth, past 4096, one line per
// block): the uniform tile, whose threads each hold the same values in
// every stage, and the ragged tile, whose stages need not divide them.
// Both are searches over the values per thread and the blocks per SM,
// their schedules from stage_search.hpp; the choice among them and the
// paired schedule's Stockham tile is schedule_choice.hpp's.

#include "kernels/cuda/stockham_tile.hpp"

namespace oocfft::kernels::cuda {

// The exponents of a 7-smooth line past 4096 (up to 2^20) whose one-line
// tile fits an SM's shared memory, the lines the uniform and ragged tile
// searches serve; `smooth` false for any other.
template <class T>
constexpr SmoothExponents long_line_exponents(std::size_t length) {
  if (length <= 4096 || length > (std::size_t{1} << 20)) return {};
  const int n = static_cast<int>(length);
  if (line_tile_bytes<T>(n) > sm_shared_bytes) return {};
  return smooth_exponents(n);
}

// Uniform tiles: n / e threads, each holding the same e values in every
// pass, every radix of the schedule a divisor of e (cuFFT's own tiles are
// so: 9000 = 30 x 300 threads, 12500 = 50 x 250, as ncu shows them). Our
// schedules pick their radices before the block size, so a pass leaves
// threads idle or gives some two butterflies, and a tile needs the
// registers of its fullest pass; with every pass full, a tile holds its
// values in fewer registers and two blocks share an SM.
//
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
// complex128 with 16 registers spare: stage_spare), at most 49 values
// (complex64) or 42 (complex128); the tile by stages is taken where it has
// fewer stages than the other (or the other has none). Tiles of more
// values were slower wherever measured. Three searches:
// - Two or more blocks per SM (complex64 4097..16384, e 8..64, no more
//   passes than radix_schedule's): taken where the result is two blocks of
//   at least 192 threads (fewer threads, or three and four blocks, were
//   mostly slower). In complex128 the lengths that gained and those that
//   lost had no rule between them.
// - One block per SM, for lines past 10240 (their tiles held one block per
//   SM or were four steps): complex64 with fewer passes than
//   radix_schedule's and at most 64 values; complex128 with at most one
//   pass more and at most 50 values (200 of the thread's registers).
// - One block per SM for complex128 lines 4097..10240 whose tile (of
//   paired_radix_schedule) holds one block per SM: with fewer passes than
//   that tile, at most 50 values, and no radix-15 pass (those with one were
//   slower).
// Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
//
// `paired` is paired_radix_schedule(length), which the third search
// compares with and the callers fall back on (device_schedule in
// schedule_choice.hpp).
template <class T>
constexpr UniformTile uniform_tile(std::size_t length, const RadixSchedule& paired) {
  const bool single = sizeof(T) == 4;
  const SmoothExponents x = long_line_exponents<T>(length);
  if (!x.smooth) return {};
  const int n = static_cast<int>(length);
  const std::size_t tile_bytes = line_tile_bytes<T>(n);
  const int a = x.a, b = x.b, c = x.c, d = x.d;
  // A radix that divides e holds only primes of e: e must be a multiple of
  // every prime of n (without this the search takes tens of microseconds
  // per length on the host, where each launch asks for its tile's shape).
  const int radical = (a > 0 ? 2 : 1) * (b > 0 ? 3 : 1) * (c > 0 ? 5 : 1) * (d > 0 ? 7 : 1);
  const int most_passes = radix_schedule(length, device_composite_radices<T>()).count;
  const int registers_per_value = static_cast<int>(sizeof(T)) / 2;
  // Registers a tile by stages keeps spare in complex128: a later stage's
  // passes hold their twiddles beside the values (stage_pass); without them
  // such tiles spilled. complex64 tiles at no spare ran faster.
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
            static_cast<std::size_t>(k) * tile_bytes <= sm_shared_bytes) {
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

// Ragged tiles: ceil(n / e) threads whose stages need not divide e. A
// thread takes ceil(groups / threads) groups of a stage, the last slots
// idle in some threads (schedule_stage serves any count), so lengths whose
// uniform tiles take many stages or none get few: 10206 = 27 | 27 | 14 in
// 189 threads holding 56 values (9 9 9 14 in 736 threads of 18 before),
// 11760 = 8 6 | 7 7 | 5 in 245 threads of 50 complex128 values (four steps
// before). The tile of the fewest stages over e up to 56 (complex64) or 50
// (complex128) and one to four blocks per SM (registers as ptxas caps them;
// values within them past 28, and complex128's stage_spare of uniform_tile),
// then the most blocks, then as `order` says. The choice
// (schedule_choice.hpp) says where they run.
//
// RaggedOrder::most_threads is the second search of the choice, for lines
// whose first tile the rule leaves out: more threads of fewer values
// (14580 complex64 = 9 5 | 9 4 | 9 in 503 threads of 45 values, where the
// first search gives 9 6 | 9 6 | 5 in 270 threads of 55). Its values stay
// within the registers past 30, not 28: at 28 some tiles filled their
// registers exactly and ran slower.
// Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
enum class RaggedOrder {
  fewest_idle,   // then the fewest idle group slots, then the fewest passes
  most_threads,  // then the most threads, then the fewest idle slots and passes
};

// The block size the tuning table fixes for the ragged tile of complex<T>
// lines of length n (Tuned::ragged_threads): the search takes only that
// block size, holding n / threads values a thread past the register budget
// it plans with (ptxas fit them without spilling); 0 where none is listed.
template <class T>
constexpr int measured_ragged_threads(int n) {
  const TuningEntry* tile = tuned_entry<T>(Tuned::ragged_threads, n);
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
      if (k * threads > 2048 || static_cast<std::size_t>(k) * tile_bytes > sm_shared_bytes) continue;
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
      // passed for some lengths ("excessive constexpr function call
      // complexity", and their plans fell back to the general kernel).
      staged = fewest_conflicts_first<T>(staged);
      if (staged_conflicts<T>(staged) > 2) continue;
      best = {staged.schedule, staged.fused, staged.stages, threads, held, k, registers, true};
      best_idle = idle;
      break;
    }
  }
  return best;
}

}  // namespace oocfft::kernels::cuda
