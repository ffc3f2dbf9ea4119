#pragma once
// ScheduleGeometry<T, N, LanesFast>: the compile-time shape of a tile of the
// compiled-schedule kernels (compiled_schedule_kernels.cuh): lanes per
// tile, block size, values per thread, shared memory; and the launch grid
// of a tile kernel. Host-visible (no device code): the choice of kernel
// for a tile job (choose_tile_kernel in schedule_registry.cpp) and the
// plan-time launcher read it too.
//
// LanesFast: the lanes of a tile are the contiguous dimension (y and z lines
// of a volume, SC08's FftShMemCol); otherwise the points are (x lines,
// batched 1D).
//
// The shape is built in layers, each a header of its own:
//   tile_resources.hpp   the resource model: threads, registers, shared
//                        memory of a block, and the compile-time bounds
//   stage_search.hpp     schedules grouped into stages held in registers
//   tuning.hpp           the measured exceptions (tuning_sm90.hpp: the table)
//   stockham_tile.hpp    the Stockham tile of a schedule
//   long_line_tiles.hpp  the uniform and ragged tiles of long lines
//   in_place_tiles.hpp   the in-place and cluster tiles
//   schedule_choice.hpp  which schedule and tile a line runs

#include "kernels/cuda/schedule_choice.hpp"

namespace oocfft::kernels::cuda {

// What the last pass of a compiled schedule stores: the transform (plain),
// times four-step step A's twiddle (twiddled, strided lanes), or with the
// lanes made contiguous (transposed: four-step step B on contiguous lines).
enum class ScheduleStore { plain, twiddled, transposed };

// The launch grid of a tile kernel (compiled schedule or general) over
// `groups` groups of `lanes` lines, 2^log_lanes lines per tile: one block
// per tile, in two dimensions where the tiles outnumber a grid's x limit;
// block (x, y) takes tile y * x + x (this_tile() in general_tile_kernels.cuh, which
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
