#pragma once
// The choice of a line's schedule and tile: which radices (a lone 3
// joined to a 9 as 27, pairs of 5s as 25, where the tiles hold them),
// which tile of the searches (uniform, ragged, or the paired schedule's
// Stockham tile), and whether a whole contiguous line runs that tile, an
// in-place tile, the cluster tile or four steps. The rules are here; the
// lines measured to run better otherwise are the tuning table's
// (tuning.hpp). The line plans (device_line_plan.cpp) and the compiled
// tiles (ScheduleGeometry) ask the same functions, so a plan and the
// kernel it launches agree.

#include "kernels/cuda/in_place_tiles.hpp"

namespace oocfft::kernels::cuda {

// Where a lone 3 may join a 9 as radix 27 (paired_radix_schedule below):
// complex64 lines past 1024, complex128 odd lines with exactly three 3s.
// Up to 1024 nothing was gained; other complex128 lengths were slower,
// their tiles spilling where the register model cannot tell them apart
// (the lengths can).
// Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
template <class T>
constexpr bool twenty_seven_measured(std::size_t n) {
  if (sizeof(T) == 4) return n > 1024;
  int threes = 0;
  for (std::size_t m = n; m % 3 == 0; m /= 3) ++threes;
  return n % 2 == 1 && threes == 3;
}

// Where pairs of 5s may go as radix 25 beyond radix_schedule's own rules
// (paired_radix_schedule below): complex128 lines 4097..10240 (the longest
// one-tile complex128 line but for plan_time_line_in_one_tile's
// exceptions; up to 4096 the tiles holding 25 values were slower or
// spilled), and complex64 lines 12000..16384 (past radix_schedule's own 25
// range) where the paired schedule has a single radix-25 pass (two were
// slower). Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
template <class T>
constexpr bool twenty_five_measured(std::size_t n) {
  return (sizeof(T) == 8 && n > 4096 && n <= 10240) || (sizeof(T) == 4 && n >= 12000 && n <= 16384);
}

// The schedule a Tuned::stockham_radices entry lists for the complex<T>
// line of length n (pass order), or none (count 0).
template <class T>
constexpr RadixSchedule tuned_stockham_schedule(std::size_t n) {
  RadixSchedule listed;
  const TuningEntry* e = tuned_entry<T>(Tuned::stockham_radices, static_cast<int>(n));
  if (e == nullptr) return listed;
  for (int i = 0; i < max_tuned_radices && e->radices.radices[i] > 1; ++i)
    listed.radices[listed.count++] = e->radices.radices[i];
  return listed;
}

// The schedule of the device's transforms of length n without a uniform
// tile (device_radix_schedule below): radix_schedule with the device's
// composites, a lone 3 beside a 9 joined as radix 27 where
// twenty_seven_measured admits the length, and pairs of 5s as radix 25
// where twenty_five_measured does; each where the tiles of the paired
// schedule (contiguous, and strided where the schedule without it has
// one) exist and keep their values within the registers ptxas leaves them.
// 27 for every complex64 lone 3 was slower wherever that cap fell short of
// 27 values: the pass saved is worth less than the spills, so the tiles
// decide. A line the tuning table lists (Tuned::stockham_radices) runs the
// schedule listed.
template <class T>
constexpr RadixSchedule paired_radix_schedule(std::size_t n) {
  const RadixSchedule own = radix_schedule(n, device_composite_radices<T>());
  if (n > (std::size_t{1} << 24) || !seven_smooth_radices(own)) return own;
  const RadixSchedule tuned = tuned_stockham_schedule<T>(n);
  if (tuned.count > 0) return tuned;
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

template <class T>
constexpr UniformTile uniform_tile(std::size_t length) {
  return uniform_tile<T>(length, paired_radix_schedule<T>(length));
}

// The schedule of the device's transforms of length n (7-smooth lines of
// compiled schedules and their line plans alike; n without direct primes):
// the uniform tile's where n has one, else the ragged tile's where the rule
// below takes it, else paired_radix_schedule's; and that tile, which also
// decides a contiguous line's tile. Each is computed once here (the
// pairings' tile checks and the uniform searches take microseconds on the
// host, the ragged searches up to about a millisecond together).
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
// RaggedOrder::most_threads) is weighed the same way. The ragged tiles the
// rule leaves out were slower about as often as not (uniform tiles
// replaced, stages of 4-7 points holding many groups per thread, spills);
// past 20000 a complex64 line fills the register file, where a stage of 8
// or 16 points gives a thread more groups than its values hold, and lines
// whose tile has a stage under 6 run the in-place tiles.
// Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
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

// Whether the tile of `search` spills for the complex<T> line of length n:
// ptxas spills some tiles of the uniform and ragged searches to local
// memory, which the register model cannot foresee (CUDA 13.0, sm_90:
// scripts/spill_census.sh). The tuning table lists those whose next choice
// spills none and ran faster (Tuned::spilled_tile); first_schedule_choice
// passes over them to the next choice: a spilled uniform tile to the
// ragged rule, a spilled first ragged tile to the second search, a spilled
// second one to the paired schedule.
template <class T>
constexpr bool tile_spills(std::size_t n, TileSearch search) {
  return tuned_spill<T>(static_cast<int>(n), search);
}

// device_schedule in two steps, so that the device's tiles
// (ScheduleGeometry) run the second ragged search in a constant evaluation
// of its own: NVRTC limits the work of each, and with both searches in one
// it refused some complex64 lengths ("excessive constexpr function call
// complexity"), whose plans then ran the general kernel.
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
    // than 8 points (10368 = 8 6 | 6 | 6 | 6 in 216 threads of 48 values at
    // 128 registers spills; 8 6 | 6 4 | 9 in 231 threads ran faster). The
    // only such line up to 20000 whose ragged tile saves a stage; ragged
    // tiles lost to most other uniform ones.
    // Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
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

// Which rule of the tuning table names a line of length n (in_place_schedule
// first): its in-place schedule, two in-place blocks, the cluster tile or
// four steps.
enum class ListedTile { none, measured_in_place, two_in_place_blocks, cluster, four_steps };

template <class T>
constexpr ListedTile listed_tile(int n) {
  if (is_tuned<T>(Tuned::in_place_schedule, n)) return ListedTile::measured_in_place;
  if (is_tuned<T>(Tuned::two_in_place_blocks, n)) return ListedTile::two_in_place_blocks;
  if (is_tuned<T>(Tuned::cluster_tile, n)) return ListedTile::cluster;
  if (is_tuned<T>(Tuned::four_steps, n)) return ListedTile::four_steps;
  return ListedTile::none;
}

// The whole-line tile of contiguous lines of length n whose settled
// schedule has the contiguous Stockham tile `stockham`:
// - the tile of the table's in-place schedule for its lines (listed_tile);
// - past 4096, the cluster tile (cluster_shape) where `stockham` is not
//   valid (the line would run four steps) but for the table's four-step
//   lines, and for its cluster lines;
// - two in-place blocks for the table's two-block lines;
// - one in-place block where neither tile is valid but that one fits;
// - else `stockham`, which may be invalid: four steps.
// Powers of two keep their Stockham tiles. Against four steps, the
// in-place tiles ran faster on nearly every line they serve, the cluster
// tile faster again. Bluestein's convolution keeps the Stockham tile of
// the settled schedule whatever a whole line takes (convolution_shape).
// Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
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

}  // namespace oocfft::kernels::cuda
