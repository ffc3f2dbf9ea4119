#pragma once
// The Stockham tile of a compiled schedule (ScheduleShape): for lines of
// length n and a schedule of their passes, the lanes per tile, the block
// size, the values a thread holds, the registers the kernel's launch bounds
// ask for, and its shared buffers. One constant expression serves the
// kernels' compile-time geometry (ScheduleGeometry) and the plan-time
// launcher (plan_time_schedules.cpp), so that the launch and the kernel
// cannot drift apart. The rules that pick block counts and registers are
// here; the tuning table (tuning.hpp) names the lines measured otherwise.

#include "kernels/cuda/stage_search.hpp"
#include "kernels/cuda/tile_resources.hpp"
#include "kernels/cuda/tuning.hpp"

namespace oocfft::kernels::cuda {

// The whole shape of a compiled schedule's tile for lines of length n, as
// ScheduleGeometry (schedule_geometry.hpp) explains it. `valid` is false
// where no compiled tile holds n (a prime factor above 13, no block size
// within the register budget, or more shared memory than a block has).
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

// A long line's tile whose block size the searches of long_line_tiles.hpp
// chose (threads == 0 for none): `threads` threads each holding `values`
// values in every stage of `schedule` (uniform), or at most that many
// (ragged), at `registers` registers, `blocks` resident per SM.
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


constexpr int stage_points(const ScheduleShape& g, int stage) { return stage_points(g.schedule, g.fused, stage); }

// The skew of a Stockham tile's shared buffers (ScheduleShape::shift): one
// spare word every 32 (complex<float> parts) or 16 (complex<double>) words,
// or none (0). The skew keeps a power-of-two stride off a single bank, but
// it moves every run of 32 consecutive points that does not start on a
// multiple of 32 across a spare word, so that its first and last share a
// bank: a pass's reads of points j + r n/R, and a stage's writes of runs of
// `span` points, take two wavefronts where one would do whenever n/R or
// `span` is odd. Tiles of contiguous lines go unskewed where that was
// measured faster:
// - one line, n % 4 != 0: fewer wavefronts for most 7-smooth lengths;
// - several lines, n odd: every radix, span and line stride is odd, so no
//   access needs the skew (ncu, the f32 row pairs of 81: half of every
//   shared load's and store's wavefronts were excess, skewed). Batched
//   lines, four-step step B and the real tiles (row pairs; the half-length
//   tiles of n = 2 mod 4) ran faster unskewed, in both precisions.
// Tiles of several lines of even n keep the skew (on the H100 such tiles
// of four-step step B lost unskewed), as do the one-line tiles the tuning
// table lists (Tuned::skewed_one_line_tile). Strided tiles keep it: their
// lanes make the strides powers of two. The tile searches size every
// buffer skewed (line_tile_bytes), so the unskewed buffer only spares
// shared memory.
// Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
template <class T>
constexpr int tile_skew_shift(int n, int lanes, bool lanes_fast) {
  if (!lanes_fast && (lanes == 1 ? n % 4 != 0 : n % 2 != 0) && !is_tuned<T>(Tuned::skewed_one_line_tile, n)) return 0;
  return skewed_shift<T>();
}

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
  // 128 bytes (8 lanes) for complex<double> powers of two up to 1024 (faster
  // for the power-of-two volumes, slower for odd radices). Lanes are a power
  // of two. Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
  const int target_points = sizeof(T) == 4 ? 4096 : 2048;
  const int segment = sizeof(T) == 8 && only_powers_of_two(g.schedule) && n <= 1024 ? 128 : 64;
  const int min_lanes = lanes_fast ? static_cast<int>(segment / (2 * sizeof(T))) : 1;
  const int fill_lanes = target_points / n > 1 ? 1 << (schedule_log2(target_points / n + 1) - 1) : 1;
  // Register cap through __launch_bounds__: 64 per thread for complex<float>
  // (1024 threads per SM; 96 for crowded tiles, below), 128 for
  // complex<double> powers of two (512 threads per SM), as measured for the
  // power-of-two kernels; 96 for complex<double> schedules with odd radices
  // (with the 12-value budget and the one-block rule of
  // choose_schedule_tile; 128 was slower for more lengths than it was
  // faster). The composites 14 and 15 spilled at 96, so complex<double>
  // schedules up to 4096 leave them out (CompositeRadices in
  // radix_schedule.hpp). Crowded tiles take more (below).
  // Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
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
  // and spills none). Faster than four steps for all but one of the lengths
  // it serves (16800, whose 32 values spill); the cap before the even split
  // was faster than the even split alone. complex<double> lines past 10240
  // measured faster in four steps, except where their tile is the one-block
  // tile of the rules below or a one-block uniform tile
  // (plan_time_line_in_one_tile in device_line_plan.cpp).
  // Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
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
  // so large that few fit an SM wait at the barriers between passes (ncu:
  // the barrier was the largest stall). Such tiles take fewer threads
  // holding more values at more registers, where that leaves a tile and as
  // many resident blocks per SM:
  // - complex<float>, 64-register tiles of more than 341 threads (two blocks
  //   per SM or fewer): up to 24 values at 96 registers; where that took a
  //   tile from two blocks per SM to one it was slower, hence the blocks
  //   condition.
  // - complex<double> up to 4096, 96-register tiles of more than 341 threads
  //   (one block per SM): up to 16 values at 128 registers. Longer
  //   complex<double> lines (one block per SM either way) gained nothing.
  // Strided tiles keep theirs (not measured).
  // Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
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
    // block's global accesses overlap the other's passes. A fourth or fifth
    // block was slower where the values spilled.
    // Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
    //
    // Whether `count` tiles of `lanes` lines fit the SM's shared memory,
    // block_reserved_shared_bytes of it reserved per block.
    auto blocks_fit = [&](int count, int lanes) {
      const std::size_t bytes = 2 * sizeof(T) * static_cast<std::size_t>(skewed_words(n * lanes, g.shift));
      return static_cast<std::size_t>(count) * (bytes + block_reserved_shared_bytes) <= sm_shared_bytes;
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
    //   three (complex<float>): fewer threads, more values each. Past 4096,
    //   four blocks were slower (spills).
    // - three blocks, complex<float> lines past 4096 at two. complex<double>
    //   at three blocks instead of two was as often slower as faster.
    // - one block, complex<double> at one (mostly lines whose shared memory
    //   holds one tile): fewer threads at up to 248 registers instead of 96,
    //   the single block's passes with more independent values per thread.
    // Chosen from four variants (one, two, three and four blocks for every
    // such tile) over the 7-smooth lengths to 16384 they change. Lengths
    // with a factor 11 or 13 keep the tiles of the rules above: the
    // variants were measured on 7-smooth lengths only, and some of those
    // tiles would spill.
    // Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
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
  const int fitting = sm_registers / (warp_threads * g.register_target);
  g.min_blocks = fitting > 1 ? fitting : 1;
  // Contiguous lines whose first (last) pass has fewer than 4 butterflies
  // per line: a thread's R values are R neighbouring points, so a warp's
  // direct global accesses would touch 32 rows each. Such tiles go through
  // shared memory with coalesced copies instead (the store side mattered
  // most: L1 does not merge such stores).
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

}  // namespace oocfft::kernels::cuda
