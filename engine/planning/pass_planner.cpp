#include "engine/planning/pass_planner.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "oocfft/error.hpp"

namespace oocfft {

namespace engine {
namespace {


std::string extent_text(const Shape& b) {
  return std::to_string(b.nz) + "x" + std::to_string(b.ny) + "x" + std::to_string(b.nx);
}

// Extents as an array indexed z=0, y=1, x=2.
std::array<std::size_t, 3> dims(const Shape& s) { return {s.nz, s.ny, s.nx}; }
Shape shape_of(const std::array<std::size_t, 3>& d) { return {d[0], d[1], d[2]}; }
bool has(const AxisSet& a, int axis) { return axis == 0 ? a.z : axis == 1 ? a.y : a.x; }

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// Drops axes of length 1: they need no transform; except a real
// transform's x stage (`real_x`), which turns real rows into the half
// spectrum even when that has one value.
AxisSet effective(AxisSet a, const Shape& v, bool real_x = false) {
  a.z = a.z && v.nz > 1;
  a.y = a.y && v.ny > 1;
  a.x = a.x && (v.nx > 1 || real_x);
  return a;
}

bool empty(const AxisSet& a) { return !a.z && !a.y && !a.x; }

// Elements a brick of the pass needs at least: whole lines along its axes.
std::size_t minimum_brick(const AxisSet& axes, const Shape& v) {
  const auto n = dims(v);
  std::size_t p = 1;
  for (int a = 0; a < 3; ++a)
    if (has(axes, a)) p *= n[a];
  return p;
}

// The brick of a pass along `axes` holding at most `limit` elements: whole
// lines along the axes, then as much of x, then y, then z as fits, so the
// host copies move the longest contiguous runs (and the line layouts take
// lines in the paper's order). The split axis is balanced so the last brick
// is not a sliver, and, when it alone makes the bricks, cut into a multiple
// of `streams` bricks: the streams take bricks in rounds, so 9 bricks on 4
// streams take three rounds, as 12 smaller ones do, the last with one
// stream busy.
PassSpec fit_pass(std::string name, AxisSet axes, BrickLayout layout, const Shape& v, std::size_t limit,
                  unsigned streams = 1) {
  const auto n = dims(v);
  std::array<std::size_t, 3> e{1, 1, 1};
  std::size_t p = 1;
  for (int a = 0; a < 3; ++a)
    if (has(axes, a)) {
      e[a] = n[a];
      p *= n[a];
    }
  for (int a : {2, 1, 0}) {
    if (has(axes, a)) continue;
    if (p * n[a] <= limit) {
      e[a] = n[a];
      p *= n[a];
    } else {
      const std::size_t b = std::max<std::size_t>(1, limit / p);
      std::size_t count = ceil_div(n[a], b);
      // The axes outside this one, not yet taken, are one point a brick.
      std::size_t outer = 1;
      for (int o = 0; o < a; ++o)
        if (!has(axes, o)) outer *= n[o];
      if (outer == 1 && streams > 1 && count > 1) count = std::min(n[a], ceil_div(count, streams) * streams);
      e[a] = ceil_div(n[a], count);
      break;
    }
  }
  PassSpec s;
  s.name = std::move(name);
  s.axes = axes;
  s.layout = layout;
  s.brick = shape_of(e);
  s.bricks = ceil_div(n[0], e[0]) * ceil_div(n[1], e[1]) * ceil_div(n[2], e[2]);
  return s;
}

struct PassTemplate {
  const char* name;
  AxisSet axes;
  BrickLayout layout;
};

std::vector<PassTemplate> templates(Strategy s) {
  constexpr AxisSet x{false, false, true}, y{false, true, false}, z{true, false, false};
  switch (s) {
    case Strategy::in_core: return {{"xyz on the whole volume", AxisSet::all(), BrickLayout::natural}};
    case Strategy::two_pass:
      return {{"xy on z-slabs", AxisSet::xy(), BrickLayout::natural},
              {"z on y-slabs", z, BrickLayout::natural}};
    case Strategy::three_pass:
      return {{"x on x-rows", x, BrickLayout::natural},
              {"y on y-columns", y, BrickLayout::natural},
              {"z on z-columns", z, BrickLayout::natural}};
    case Strategy::line_transpose:
      return {{"x lines", x, BrickLayout::natural},
              {"y lines, transposed element-wise", y, BrickLayout::y_lines},
              {"z lines, transposed element-wise", z, BrickLayout::z_lines}};
    case Strategy::automatic: break;
  }
  return {};
}

// Per-stream element limits for the brick, and whether every pass's minimum
// brick fits them.
struct Limits {
  std::size_t device = 0;   // device share of one stream, in brick elements
  std::size_t staging = 0;  // staging share of one stream, in elements
  std::size_t brick() const { return std::min(device, staging); }
};

bool fits(Strategy s, const Shape& v, std::size_t limit) {
  for (const PassTemplate& t : templates(s)) {
    const AxisSet a = effective(t.axes, v);
    if (!empty(a) && minimum_brick(a, v) > limit) return false;
  }
  return true;
}

// The brick size that fills the pipeline, in elements.
std::size_t fill_elements(const PlannerInput& in, unsigned streams) {
  // At least two bricks per stream per pass where the lines allow it, else
  // the streams idle while one brick crosses the bus. More did not measure
  // faster: 16 GiB two-pass through a 4 GiB budget on the H100 machine,
  // staged / caller page-locked, 1 GiB bricks (about four per stream and
  // pass, as the budget allows) 1.50-1.77 s / 0.83-0.90 s over three runs,
  // 512 MiB bricks (eight) 1.63-1.66 s / 0.94 s (the case of bench/RESULTS.md,
  // "16 GiB through a 4 GiB device budget (two passes)").
  constexpr std::size_t bricks_per_stream = 2;
  // And no brick over 1 GiB: 96 GiB in 11 bricks of 8.8 GiB over 4 streams
  // left most of the time in the first gather and the last scatter.
  constexpr std::size_t brick_ceiling_bytes = std::size_t{1} << 30;
  return std::max<std::size_t>(1, std::min(ceil_div(in.volume.elements(), bricks_per_stream * streams),
                                           brick_ceiling_bytes / in.element_bytes));
}

PassPlan build(Strategy s, const PlannerInput& in, std::size_t limit, unsigned streams) {
  PassPlan plan;
  plan.strategy = s;
  plan.streams = streams;
  plan.element_bytes = in.element_bytes;
  plan.device_budget = in.device_budget;
  const std::size_t volume = in.volume.elements();
  const std::size_t fill = fill_elements(in, streams);
  for (const PassTemplate& t : templates(s)) {
    const AxisSet a = effective(t.axes, in.volume, in.real_x);
    if (empty(a)) continue;
    const std::size_t need = minimum_brick(a, in.volume);
    const std::size_t cap = s == Strategy::in_core ? volume : std::min(limit, std::max(need, fill));
    plan.passes.push_back(fit_pass(t.name, a, t.layout, in.volume, cap, streams));
  }
  if (plan.passes.empty()) {
    // A 1x1x1 volume: one brick so the normalisation still happens.
    plan.passes.push_back(fit_pass("scale only", AxisSet::all(), BrickLayout::natural, in.volume, volume));
  }
  for (const PassSpec& p : plan.passes)
    plan.brick_bytes = std::max(plan.brick_bytes, p.brick.elements() * in.element_bytes);
  plan.staging_bytes = plan.brick_bytes;
  return plan;
}

// One stream's staging ring on a device: 32 MiB in slots of at most
// staging_slot_limit. Page-locking 4 rings costs about 0.01 s on a plan's
// first execution, where brick-sized staging (2 GiB) took 0.9 s. Measured
// on the H100 host (bench/RESULTS.md, "16 GiB through a 4 GiB device budget
// (two passes)"): rings of 32 MiB ran ahead of 16, 64 and 128 MiB ones,
// slots of 2 MiB behind 4 to 16 MiB ones (per-piece task and DMA overheads).
constexpr std::size_t staging_ring_bytes = std::size_t{32} << 20;
constexpr std::size_t staging_slot_limit = std::size_t{8} << 20;

// Carry-over: the z planes pass 1 leaves on the device, whole pass-1 slabs,
// as many as the budget holds beyond the streams' bricks and workspace.
// Each resident byte saves a trip down in pass 1 and one up in pass 2.
void plan_carry_over(PassPlan& p, const PlannerInput& in, std::size_t usable, double per_byte) {
  if (p.passes.size() != 2) return;  // one pass (nz == 1, or only z lines): nothing to carry
  const double lanes = double(p.streams) * double(p.brick_bytes) * per_byte;
  if (lanes >= double(usable)) return;
  const std::size_t spare = usable - static_cast<std::size_t>(lanes);
  const std::size_t plane = in.volume.ny * in.volume.nx * in.element_bytes;
  const std::size_t slab = p.passes[0].brick.nz;
  p.resident_planes = std::min(in.volume.nz, spare / plane / slab * slab);
  p.resident_bytes = p.resident_planes * plane;
}

// Refuses a plane program that is not forward, multiply, inverse or a
// part of them in that order.
void check_plane_program(const std::vector<Stage>& program) {
  // A stack of 2D transforms in the run's direction (Axes::planes).
  if (program.size() == 1 && program.front() == Stage::transform) return;
  const Stage order[] = {Stage::forward, Stage::multiply, Stage::inverse};
  std::size_t next = 0;
  for (const Stage st : program) {
    while (next < 3 && order[next] != st) ++next;
    if (next == 3)
      throw Error(ErrorKind::invalid_argument, "plane program \"" + describe_stages(program) +
                                                   "\" is not forward, multiply, inverse or a part of them in order");
    ++next;
  }
}

// A plane program (pass_planner.hpp): whole planes in one pass on as many
// streams as have a plane to work on and a share that holds one, else
// rows, columns, rows. `usable` and `per_byte` as in plan_passes.
PassPlan plan_plane_program(const PlannerInput& in, std::size_t usable, double per_byte) {
  const Shape& v = in.volume;
  const std::size_t e = in.element_bytes;
  const std::vector<Stage>& program = in.plane_program;
  check_plane_program(program);
  if (in.requested == Strategy::line_transpose || in.requested == Strategy::two_pass)
    throw Error(ErrorKind::invalid_argument, std::string("strategy ") + to_string(in.requested) +
                                                 " requested for a plane program (x and y of each plane only): "
                                                 "ask for in_core (whole planes), three_pass (rows and columns) or "
                                                 "automatic");
  AxisSet xy = effective(AxisSet::xy(), v);
  if (empty(xy)) xy = AxisSet::xy();  // 1x1 planes: the multiply and the scale alone
  const std::size_t plane = minimum_brick(xy, v);
  // A device stages through its ring whatever the brick; the host
  // backend's brick buffers are its staging, shared by the streams.
  const std::size_t staging = !in.host_backend           ? std::size_t(-1)
                              : in.staging_budget != 0   ? in.staging_budget
                              : in.host_available != 0   ? in.host_available / 4
                                                         : std::size_t(-1);
  auto share = [&](unsigned streams) {
    return std::min(static_cast<std::size_t>(double(usable) / streams / per_byte / double(e)),
                    staging / streams / e);
  };
  PassPlan plan;
  plan.element_bytes = e;
  plan.device_budget = in.device_budget;
  const std::string sizes = "plane " + format_bytes(double(plane * e)) + " x " + std::to_string(v.nz) +
                            ", device budget " + format_bytes(double(in.device_budget));
  // Streams beyond the planes would idle; fewer streams give each a larger
  // share, so a plane of most of the budget still runs in one residency.
  unsigned streams = static_cast<unsigned>(std::min<std::size_t>(in.streams, v.nz));
  while (streams > 1 && plane > share(streams)) --streams;
  plan.streams = streams;
  if (in.requested != Strategy::three_pass && plane <= share(streams)) {
    const std::size_t cap = std::min(share(streams), std::max(plane, fill_elements(in, streams)));
    PassSpec pass = fit_pass("xy on z-slabs", xy, BrickLayout::natural, v, cap);
    pass.stages = program;
    plan.passes.push_back(std::move(pass));
    plan.strategy = Strategy::in_core;
    plan.reason = sizes + ": a plane fits a stream's share; each runs the whole program in one residency";
  } else {
    plan.streams = in.streams;
    const std::size_t limit = share(in.streams);
    if (v.nx > limit || v.ny > limit)
      throw Error(ErrorKind::out_of_memory, "not even one row and one column of a plane fit one stream's share (" +
                                                format_bytes(double(limit * e)) + "): " + sizes);
    constexpr AxisSet x{false, false, true}, y{false, true, false};
    const std::size_t cap = std::min(limit, std::max(v.ny, fill_elements(in, in.streams)));
    // Rows forward, then columns: the plane is a spectrum along both axes
    // only there, so the multiply and the inverse along y run in the
    // column pass, and rows come back last.
    if (program.front() == Stage::forward || program.front() == Stage::transform) {
      PassSpec rows = fit_pass("x on x-rows", x, BrickLayout::natural, v, std::max(v.nx, cap));
      rows.stages = {program.front()};
      plan.passes.push_back(std::move(rows));
    }
    PassSpec columns = fit_pass("y on y-columns", y, BrickLayout::natural, v, cap);
    columns.stages = program;
    plan.passes.push_back(std::move(columns));
    if (program.back() == Stage::inverse) {
      PassSpec rows = fit_pass("x on x-rows", x, BrickLayout::natural, v, std::max(v.nx, cap));
      rows.stages = {Stage::inverse};
      plan.passes.push_back(std::move(rows));
    }
    plan.strategy = Strategy::three_pass;
    plan.reason = sizes + (in.requested == Strategy::three_pass ? ": rows and columns, as requested"
                                                                : ": a plane does not fit a stream's share; rows "
                                                                  "and columns, the multiply in the column pass");
  }
  for (const PassSpec& p : plan.passes) plan.brick_bytes = std::max(plan.brick_bytes, p.brick.elements() * e);
  plan.staging_bytes = plan.brick_bytes;
  if (!in.host_backend) {
    // The ring, within a staging budget where one is given.
    const std::size_t ring = in.staging_budget != 0 ? in.staging_budget / plan.streams / e * e : staging_ring_bytes;
    plan.staging_bytes = std::min({plan.staging_bytes, staging_ring_bytes, std::max(ring, 2 * e)});
  }
  return plan;
}

}  // namespace

Box PassPlan::volume_part(const Box& box) const {
  Box rest = box;
  const std::size_t resident = std::min(box.extent.nz, resident_planes > box.z0 ? resident_planes - box.z0 : 0);
  rest.z0 = box.z0 + resident;
  rest.extent.nz = box.extent.nz - resident;
  return rest;
}

CarryRole PassPlan::carry_role(unsigned pass, const Box& box) const {
  if (resident_planes == 0 || passes.size() != 2) return CarryRole::none;
  const bool slab_pass = reversed ? pass == 1 : pass == 0;
  if (slab_pass) {
    if (!keeps_resident(box)) return CarryRole::none;
    return reversed ? CarryRole::take_slab : CarryRole::keep_slab;
  }
  return reversed ? CarryRole::keep_planes : CarryRole::take_planes;
}

PassPlan reversed_passes(PassPlan plan) {
  std::reverse(plan.passes.begin(), plan.passes.end());
  plan.reversed = !plan.reversed;
  return plan;
}

AxisSet PassSpec::staged_axes() const {
  if (layout == BrickLayout::natural) return axes;
  return {false, false, true};
}

Box PassSpec::box(const Shape& v, std::size_t i) const {
  const std::size_t cy = ceil_div(v.ny, brick.ny), cx = ceil_div(v.nx, brick.nx);
  const std::size_t iz = i / (cy * cx), iy = (i / cx) % cy, ix = i % cx;
  Box b;
  b.z0 = iz * brick.nz;
  b.y0 = iy * brick.ny;
  b.x0 = ix * brick.nx;
  b.extent = {std::min(brick.nz, v.nz - b.z0), std::min(brick.ny, v.ny - b.y0), std::min(brick.nx, v.nx - b.x0)};
  return b;
}

bool PassPlan::natural_layout_only() const {
  for (const PassSpec& p : passes)
    if (p.layout != BrickLayout::natural) return false;
  return true;
}

std::size_t PassPlan::staging_slot_bytes() const {
  if (!natural_layout_only()) return staging_bytes;
  const std::size_t half = staging_bytes / 2 / element_bytes * element_bytes;
  return std::max(element_bytes, std::min(staging_slot_limit, half));
}

std::size_t PassPlan::total_bricks() const {
  std::size_t n = 0;
  for (const PassSpec& p : passes) n += p.bricks;
  return n;
}

PassPlan plan_passes(const PlannerInput& in) {
  const Shape& v = in.volume;
  const std::size_t e = in.element_bytes;
  const std::size_t volume_bytes = v.elements() * e;
  if (in.streams == 0 || in.streams > 64)
    throw Error(ErrorKind::invalid_argument,
                "options.streams is " + std::to_string(in.streams) + "; it must be between 1 and 64");
  if (in.device_budget <= in.table_bytes)
    throw Error(ErrorKind::out_of_memory, "device budget " + format_bytes(double(in.device_budget)) +
                                              " does not hold the kernels' tables (" +
                                              format_bytes(double(in.table_bytes)) + ")");
  const std::size_t usable = in.device_budget - in.table_bytes;
  const double per_byte = 1.0 + in.workspace_ratio;  // brick + workspace
  const unsigned s = in.streams;

  Limits lim;
  lim.device = static_cast<std::size_t>(double(usable) / s / per_byte / double(e));
  lim.staging = in.staging_budget != 0      ? in.staging_budget / s / e
                : in.host_available != 0 ? std::min(v.elements(), in.host_available / 4 / s / e)
                                         : v.elements();
  // The 2023 paper's chunk: C_d <= DevMem / (k V_d N_stream), k = 3
  // (input, output and the FFT library's work area on the device).
  Limits paper = lim;
  paper.device = usable / (3 * e * s);

  // In core on the host: the volume and the executor's workspace. On a
  // device the volume stays resident and the streams' bricks (the y-slabs
  // on their way down) come on top.
  if (!in.plane_program.empty()) return plan_plane_program(in, usable, per_byte);

  const std::size_t resident_lane_limit =
      volume_bytes < usable ? static_cast<std::size_t>(double(usable - volume_bytes) / s / per_byte / double(e)) : 0;
  const bool in_core_fits = in.host_backend ? double(volume_bytes) * per_byte <= double(usable)
                                            : fits(Strategy::two_pass, v, std::min(resident_lane_limit, lim.staging));
  const std::string sizes = "volume " + format_bytes(double(volume_bytes)) + ", device budget " +
                            format_bytes(double(in.device_budget)) + " over " + std::to_string(s) +
                            " streams (brick + workspace x" + std::to_string(per_byte).substr(0, 4) + ")";
  const std::string plane = format_bytes(double(v.ny * v.nx * e));

  auto finish = [&](Strategy st, std::size_t limit, unsigned streams, std::string why) {
    PassPlan p;
    if (st == Strategy::in_core && in.host_backend) {
      p = build(st, in, limit, streams);
      p.host_in_place = true;
      p.staging_bytes = 0;
    } else if (st == Strategy::in_core) {
      // Resident: the two passes' z-slabs and y-slabs, the volume kept on
      // the device between them.
      p = build(Strategy::two_pass, in, std::min(resident_lane_limit, lim.staging), s);
      p.strategy = Strategy::in_core;
      if (p.passes.size() == 2) {
        p.resident_planes = v.nz;
        p.resident_bytes = volume_bytes;
      }
    } else {
      p = build(st, in, limit, streams);
      if (st == Strategy::two_pass) plan_carry_over(p, in, usable, per_byte);
    }
    // With no staging budget, a device stages natural bricks through a ring
    // per stream rather than a buffer the size of a brick.
    if (!in.host_backend && in.staging_budget == 0 && p.natural_layout_only())
      p.staging_bytes = std::min(p.staging_bytes, staging_ring_bytes);
    p.reason = std::move(why);
    return p;
  };

  switch (in.requested) {
    case Strategy::in_core:
      if (!in_core_fits && !in.host_backend)
        throw Error(ErrorKind::invalid_argument, "strategy in_core requested but the " + sizes +
                                                     (in.host_backend ? ": the volume and its workspace do not fit"
                                                                      : ": the volume and the streams' bricks do not fit"));
      return finish(Strategy::in_core, 0, 1,
                    in.host_backend ? "requested; the host backend transforms in place"
                                    : "requested; " + sizes + ": the volume stays resident");
    case Strategy::two_pass:
    case Strategy::three_pass: {
      if (!fits(in.requested, v, lim.brick()))
        throw Error(ErrorKind::invalid_argument,
                    std::string("strategy ") + to_string(in.requested) + " requested but its bricks (" +
                        (in.requested == Strategy::two_pass ? "an XY plane of " + plane + " and a z line"
                                                            : std::string("one line of each axis")) +
                        ") do not fit one stream's share of the budgets: " + sizes);
      return finish(in.requested, lim.brick(), s, "requested; " + sizes);
    }
    case Strategy::line_transpose:
      if (!fits(Strategy::line_transpose, v, paper.brick()))
        throw Error(ErrorKind::invalid_argument,
                    "strategy line_transpose requested but one line does not fit the chunk C_d = DevMem / "
                    "(3 V_d N_stream) of " + format_bytes(double(paper.brick() * e)) + ": " + sizes);
      return finish(Strategy::line_transpose, paper.brick(), s,
                    "requested; chunk C_d = DevMem / (3 V_d N_stream) = " + format_bytes(double(paper.brick() * e)));
    case Strategy::automatic: break;
  }
  if (in_core_fits)
    return finish(Strategy::in_core, 0, 1,
                  sizes + (in.host_backend ? ": the volume and its workspace fit"
                                           : ": the volume and the streams' bricks fit; resident, one trip up and one down"));
  if (fits(Strategy::two_pass, v, lim.brick()))
    return finish(Strategy::two_pass, lim.brick(), s,
                  sizes + ": does not fit; an XY plane (" + plane + ") fits a stream's share, so 2 passes");
  if (fits(Strategy::three_pass, v, lim.brick()))
    return finish(Strategy::three_pass, lim.brick(), s,
                  sizes + ": an XY plane (" + plane + ") does not fit a stream's share, lines do: 3 passes");
  throw Error(ErrorKind::out_of_memory, "not even one line of each axis fits one stream's share of the budgets: " +
                                            sizes + ", staging budget " +
                                            format_bytes(double(in.staging_budget)) + ", shape " +
                                            std::to_string(v.nz) + "x" + std::to_string(v.ny) + "x" +
                                            std::to_string(v.nx));
}

std::string describe_passes(const PassPlan& plan, const std::string& resident_where) {
  std::string s = std::string("  strategy: ") + to_string(plan.strategy) + ", " + std::to_string(plan.passes.size()) +
                  (plan.passes.size() == 1 ? " pass" : " passes") + ", " + std::to_string(plan.streams) +
                  (plan.streams == 1 ? " stream" : " streams") + " [" + plan.reason + "]\n";
  for (std::size_t i = 0; i < plan.passes.size(); ++i) {
    const PassSpec& p = plan.passes[i];
    s += "  pass " + std::to_string(i + 1) + ": " + p.name + ", brick " + extent_text(p.brick) + " (" +
         format_bytes(double(p.brick.elements() * plan.element_bytes)) + "), " + std::to_string(p.bricks) +
         (p.bricks == 1 ? " brick" : " bricks");
    const bool plain = p.stages.size() == 1 && p.stages[0] == Stage::transform;
    s += plain ? "\n" : "; on each brick: " + describe_stages(p.stages) + "\n";
  }
  if (plan.resident_planes > 0)
    s += "  kept " + resident_where + " between the passes: z planes 0.." + std::to_string(plan.resident_planes - 1) + " (" +
         format_bytes(double(plan.resident_bytes)) + "); pass 1 writes back only the rest, pass 2 reads only the rest\n";
  return s;
}


}  // namespace engine
}  // namespace oocfft
