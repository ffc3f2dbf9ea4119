#pragma once
// Planning of the out-of-core passes: which strategy, how many passes, which
// axes each pass transforms, and the brick (a box of the volume) each pass
// streams. One function, plan_passes(), decides, and writes its reason into
// the plan so describe() can explain it.
//
// The rule (DESIGN.md, "The algorithm"): the fewest passes that fit.
//   in_core    the volume and its workspace fit the device budget: 1 pass.
//   two_pass   an XY plane fits one stream's share: z-slabs for X and Y,
//              then y-slabs (z columns) for Z.
//   three_pass an x line, a y line and a z line each fit: X, Y, Z passes.
//   line_transpose (only on request) the 2023 paper's method: X, Y, Z
//              passes of chunks of C_d <= DevMem / (k V_d N_stream)
//              elements with k = 3, Y and Z lines transposed element-wise
//              on the host into contiguous lines.
#include <cstddef>
#include <string>
#include <vector>

#include "core/format_bytes.hpp"
#include "kernels/brick.hpp"
#include "oocfft/options.hpp"
#include "transpose/box.hpp"

namespace oocfft::engine {

using kernels::AxisSet;
using kernels::BrickShape;
using transpose::Box;
using transpose::BrickLayout;

struct PassSpec {
  std::string name;      // "xy on z-slabs"
  AxisSet axes;          // volume axes transformed by this pass
  BrickLayout layout = BrickLayout::natural;
  BrickShape brick;      // largest box of the pass, in volume coordinates
  std::size_t bricks = 0;

  // Axes to transform in the staged (device) brick: the volume axes for the
  // natural layout; the contiguous x axis for the line layouts.
  AxisSet staged_axes() const;
  BrickShape staged_brick() const { return transpose::staged_shape(Box{0, 0, 0, brick}, layout); }
  // The boxes of the pass, in order: brick i of bricks.
  Box box(const BrickShape& volume, std::size_t i) const;
};

struct PassPlan {
  Strategy strategy = Strategy::in_core;
  std::vector<PassSpec> passes;
  unsigned streams = 1;
  std::size_t element_bytes = 8;
  std::size_t brick_bytes = 0;    // largest staged brick over the passes
  std::size_t staging_bytes = 0;  // one stream's staging buffer
  std::size_t device_budget = 0;  // resolved budget the plan was made for
  std::string reason;

  std::size_t total_bricks() const;
  // True when every pass moves natural-layout bricks (no line transposes),
  // so bricks can DMA straight from the volume.
  bool natural_layout_only() const;
  // True when this plan transforms the volume in place on the host without
  // the pipeline (host backend, in_core).
  bool host_in_place = false;
};

struct PlannerInput {
  BrickShape volume;
  std::size_t element_bytes = 8;
  std::size_t device_budget = 0;   // resolved, > 0
  std::size_t staging_budget = 0;  // all streams together; 0 = no limit
  unsigned streams = 4;
  Strategy requested = Strategy::automatic;
  bool host_backend = false;
  // Device workspace per byte of brick (the kernels' ping-pong buffer: 1).
  double workspace_ratio = 1.0;
  std::size_t table_bytes = 0;  // device bytes held by the kernels' tables
};

// Throws Error(invalid_argument) for a requested strategy that cannot run
// within the budgets and Error(out_of_memory) when not even one line of an
// axis fits; the caller's data is not touched.
PassPlan plan_passes(const PlannerInput& input);

// The same passes with every brick at most `max_elements` (used to retry
// with smaller bricks after a device allocation fails).
PassPlan shrink_bricks(const PassPlan& plan, const BrickShape& volume, std::size_t max_elements);

// "two_pass: 2 passes, xy on z-slabs 4x512x512 (8 bricks), ..." for describe().
std::string describe_passes(const PassPlan& plan);

}  // namespace oocfft::engine
