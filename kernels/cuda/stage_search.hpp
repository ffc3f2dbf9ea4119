#pragma once
// The search for staged schedules: the radices of a 7-smooth length grouped
// into stages whose passes keep a thread's values in registers from one
// pass to the next (schedule_stage in compiled_schedule_kernels.cuh), so
// that shared memory carries only the exchanges between stages. Dynamic
// programming over the divisors of the length (the fewest passes, the
// fewest stages under a fit per stage) and the bank conflicts of a stage's
// writes. Arithmetic on schedules only: the tiles that run them are
// long_line_tiles.hpp's.

#include "kernels/cuda/tile_resources.hpp"

namespace oocfft::kernels::cuda {

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
// compiled_schedule_kernels.cuh), so shared memory carries only the exchanges
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
// general_tile_kernels.cuh: one word every 2^shift). The most accesses one bank
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
// `points` apart across a warp: stages whose skewed stride puts more than
// two of a (half) warp on one bank stay unfused (measured slower; that
// section of bench/RESULTS.md, Kernel tuning table (sm_90)).
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

}  // namespace oocfft::kernels::cuda
