#include "engine/planning/pass_planner.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>

#include "oocfft/error.hpp"

namespace oocfft {

namespace engine {
namespace {


// "0-3, 8-9": the bricks of `pass` that device `device` runs, as runs.
std::string brick_runs(const PassSpec& pass, unsigned device) {
  std::string s;
  for (std::size_t i = 0; i < pass.bricks;) {
    const unsigned owner = pass.owner.empty() ? 0 : pass.owner[i];
    std::size_t j = i + 1;
    while (j < pass.bricks && (pass.owner.empty() ? 0 : pass.owner[j]) == owner) ++j;
    if (owner == device) {
      if (!s.empty()) s += ", ";
      s += std::to_string(i);
      if (j - i > 1) {
        s += '-';
        s += std::to_string(j - 1);
      }
    }
    i = j;
  }
  return s.empty() ? "none" : s;
}

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

// Each device's budget, in the order of in.devices.
std::vector<std::size_t> budgets_of(const PlannerInput& in) {
  if (in.devices.empty()) throw Error(ErrorKind::invalid_argument, "a plan needs at least one device");
  if (in.device_budgets.empty()) return std::vector<std::size_t>(in.devices.size(), in.device_budget);
  if (in.device_budgets.size() != in.devices.size())
    throw Error(ErrorKind::invalid_argument, std::to_string(in.device_budgets.size()) + " device budgets for " +
                                                 std::to_string(in.devices.size()) + " devices");
  return in.device_budgets;
}

// The plan's devices with their budgets, nothing resident yet.
std::vector<DevicePlacement> placements_of(const PlannerInput& in) {
  const std::vector<std::size_t> budgets = budgets_of(in);
  std::vector<DevicePlacement> devices(in.devices.size());
  for (std::size_t d = 0; d < devices.size(); ++d) {
    devices[d].ordinal = in.devices[d];
    devices[d].budget = budgets[d];
  }
  return devices;
}

// `streams` per device; the bricks fill and round to all the lanes.
PassPlan build(Strategy s, const PlannerInput& in, std::size_t limit, unsigned streams) {
  PassPlan plan;
  plan.strategy = s;
  plan.streams = streams;
  plan.element_bytes = in.element_bytes;
  plan.devices = placements_of(in);
  plan.device_budget = std::min_element(plan.devices.begin(), plan.devices.end(), [](const auto& a, const auto& b) {
                         return a.budget < b.budget;
                       })->budget;
  const unsigned lanes = plan.lanes();
  const std::size_t volume = in.volume.elements();
  const std::size_t fill = fill_elements(in, lanes);
  for (const PassTemplate& t : templates(s)) {
    const AxisSet a = effective(t.axes, in.volume, in.real_x);
    if (empty(a)) continue;
    const std::size_t need = minimum_brick(a, in.volume);
    const std::size_t cap = s == Strategy::in_core ? volume : std::min(limit, std::max(need, fill));
    plan.passes.push_back(fit_pass(t.name, a, t.layout, in.volume, cap, lanes));
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

// Every pass's bricks spread evenly over the devices (device_placement.hpp).
void spread_bricks(PassPlan& p) {
  if (p.devices.size() < 2) return;
  for (PassSpec& pass : p.passes) pass.owner = spread_evenly(pass.bricks, static_cast<unsigned>(p.devices.size()));
}

// Carry-over: the z planes pass 1 leaves on the devices, whole pass-1
// slabs, as many as each device's budget holds beyond its lanes' bricks and
// workspace (device_placement.hpp). Each resident byte saves a trip down
// in pass 1 and one up in pass 2. `whole_volume` (the resident plan): every
// slab must stay, or nothing does and this returns false; the last slab may
// be short of a whole one, so a device's room is checked in planes.
// `table_bytes` is on every device. Spreads the other passes' bricks.
bool plan_carry_over(PassPlan& p, const PlannerInput& in, std::size_t table_bytes, double per_byte,
                     bool whole_volume) {
  spread_bricks(p);
  if (p.passes.size() != 2) return true;  // one pass (nz == 1, or only z lines): nothing to carry
  const Shape& v = in.volume;
  const std::size_t plane = v.ny * v.nx * in.element_bytes;
  const std::size_t slab = p.passes[0].brick.nz, slabs = p.passes[0].bricks;
  const std::size_t short_of_whole = (slabs * slab - v.nz) * plane;  // the last slab's missing planes
  const double lanes = double(p.streams) * double(p.brick_bytes) * per_byte;
  std::vector<std::size_t> room(p.devices.size(), 0), capacity(p.devices.size(), 0);
  for (std::size_t d = 0; d < p.devices.size(); ++d) {
    const std::size_t usable = p.devices[d].budget > table_bytes ? p.devices[d].budget - table_bytes : 0;
    if (lanes >= double(usable)) continue;
    room[d] = usable - static_cast<std::size_t>(lanes);
    capacity[d] = (room[d] + (whole_volume ? short_of_whole : 0)) / plane / slab;
  }
  const std::vector<std::size_t> kept = share_slabs(slabs, capacity);
  std::size_t z = 0;
  for (std::size_t d = 0; d < p.devices.size(); ++d) {
    p.devices[d].resident_z0 = z;
    z = std::min(v.nz, z + kept[d] * slab);
    p.devices[d].resident_z1 = z;
    if (whole_volume && p.devices[d].resident_planes() * plane > room[d]) z = v.nz + 1;  // does not fit
  }
  if (whole_volume && z != v.nz) {
    for (DevicePlacement& d : p.devices) d.resident_z0 = d.resident_z1 = 0;
    return false;
  }
  p.resident_planes = z;
  p.resident_bytes = p.resident_planes * plane;
  if (p.devices.size() > 1) {
    p.passes[0].owner = place_slabs(slabs, kept);
    // The resident planes of each y-slab that another device keeps.
    for (std::size_t i = 0; i < p.passes[1].bricks; ++i) {
      const Box box = p.passes[1].box(v, i);
      const unsigned owner = p.passes[1].owner[i];
      for (std::size_t d = 0; d < p.devices.size(); ++d)
        if (d != owner)
          p.exchange_bytes += p.devices[d].resident_planes() * box.extent.ny * box.extent.nx * in.element_bytes;
    }
  }
  return true;
}

// The brick elements' bytes the staging allows a plane or z-lines plan
// over all its lanes: a device stages through its ring whatever the
// brick; the host backend's brick buffers are its staging, shared by the
// lanes.
std::size_t brick_staging_limit(const PlannerInput& in) {
  if (!in.host_backend) return std::size_t(-1);
  if (in.staging_budget != 0) return in.staging_budget;
  return in.host_available != 0 ? in.host_available / 4 : std::size_t(-1);
}

// A plane or z-lines plan's staging: the host backend's a brick per lane;
// a device's a ring per lane, within a staging budget where one is given.
void stage_through_rings(PassPlan& plan, const PlannerInput& in) {
  const std::size_t e = in.element_bytes;
  plan.staging_bytes = plan.brick_bytes;
  if (in.host_backend) return;
  const std::size_t ring = in.staging_budget != 0 ? in.staging_budget / plan.lanes() / e * e : staging_ring_bytes;
  plan.staging_bytes = std::min({plan.staging_bytes, staging_ring_bytes, std::max(ring, 2 * e)});
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
  // A real transform's x stage runs even on a half spectrum of one value.
  AxisSet xy = effective(AxisSet::xy(), v, in.real_x);
  if (empty(xy)) xy = AxisSet::xy();  // 1x1 planes: the multiply and the scale alone
  const std::size_t plane = minimum_brick(xy, v);
  const std::size_t staging = brick_staging_limit(in);
  const std::size_t devices = in.devices.size();
  auto share = [&](unsigned streams) {
    return std::min(static_cast<std::size_t>(double(usable) / streams / per_byte / double(e)),
                    staging / (streams * devices) / e);
  };
  PassPlan plan;
  plan.element_bytes = e;
  plan.devices = placements_of(in);
  plan.device_budget = usable + in.table_bytes;
  const std::string sizes = "plane " + format_bytes(double(plane * e)) + " x " + std::to_string(v.nz) +
                            ", device budget " + format_bytes(double(usable + in.table_bytes));
  // Streams beyond the planes would idle; fewer streams give each a larger
  // share, so a plane of most of the budget still runs in one residency.
  unsigned streams = static_cast<unsigned>(std::min<std::size_t>(in.streams, v.nz));
  while (streams > 1 && plane > share(streams)) --streams;
  plan.streams = streams;
  if (in.requested != Strategy::three_pass && plane <= share(streams)) {
    const std::size_t cap = std::min(share(streams), std::max(plane, fill_elements(in, plan.lanes())));
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
    const std::size_t cap = std::min(limit, std::max(v.ny, fill_elements(in, plan.lanes())));
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
  spread_bricks(plan);
  stage_through_rings(plan, in);
  return plan;
}

// The z lines alone (PlannerInput::z_lines_only): one pass of y-slabs of
// whole z lines, bricks spread over the lanes as the passes of a 3D plan
// are. `usable` and `per_byte` as in plan_passes.
PassPlan plan_z_lines(const PlannerInput& in, std::size_t usable, double per_byte) {
  const Shape& v = in.volume;
  const std::size_t e = in.element_bytes;
  constexpr AxisSet z{true, false, false};
  const std::size_t staging = brick_staging_limit(in);
  PassPlan plan;
  plan.element_bytes = e;
  plan.devices = placements_of(in);
  plan.device_budget = usable + in.table_bytes;
  plan.streams = in.streams;
  const std::size_t limit = std::min(static_cast<std::size_t>(double(usable) / plan.streams / per_byte / double(e)),
                                     staging / plan.lanes() / e);
  const std::string sizes = "z lines of " + format_bytes(double(v.nz * e)) + ", device budget " +
                            format_bytes(double(usable + in.table_bytes)) + " over " + std::to_string(plan.streams) +
                            " streams";
  if (v.nz > limit)
    throw Error(ErrorKind::out_of_memory, "not even one z line fits one stream's share (" +
                                              format_bytes(double(limit * e)) + "): " + sizes);
  const std::size_t cap = std::min(limit, std::max(v.nz, fill_elements(in, plan.lanes())));
  PassSpec pass = fit_pass("z on y-slabs", z, BrickLayout::natural, v, cap, plan.lanes());
  plan.passes.push_back(std::move(pass));
  plan.strategy = Strategy::two_pass;
  plan.reason = sizes + ": the z lines alone, one pass of y-slabs (the second pass of two_pass)";
  plan.brick_bytes = plan.passes.front().brick.elements() * e;
  spread_bricks(plan);
  stage_through_rings(plan, in);
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

unsigned PassPlan::keeper_of(std::size_t z) const {
  for (std::size_t d = 0; d < devices.size(); ++d)
    if (z >= devices[d].resident_z0 && z < devices[d].resident_z1) return static_cast<unsigned>(d);
  return static_cast<unsigned>(devices.size());
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
  const std::vector<std::size_t> budgets = budgets_of(in);
  for (std::size_t d = 0; d < budgets.size(); ++d)
    if (budgets[d] <= in.table_bytes) {
      const std::string which = budgets.size() > 1 ? "device " + std::to_string(in.devices[d]) + ": " : "";
      throw Error(ErrorKind::out_of_memory, which + "device budget " + format_bytes(double(budgets[d])) +
                                                " does not hold the kernels' tables (" +
                                                format_bytes(double(in.table_bytes)) + ")");
    }
  // Every device's lanes take bricks of one size: the smallest budget's.
  const std::size_t usable = *std::min_element(budgets.begin(), budgets.end()) - in.table_bytes;
  const double per_byte = 1.0 + in.workspace_ratio;  // brick + workspace
  const unsigned s = in.streams;
  const unsigned devices = static_cast<unsigned>(budgets.size());
  const unsigned lanes = s * devices;
  // One device of the host backend transforms in core where the volume
  // lies; several emulate a GPU node's devices, resident plan included.
  const bool host_in_place = in.host_backend && devices == 1;

  Limits lim;
  lim.device = static_cast<std::size_t>(double(usable) / s / per_byte / double(e));
  lim.staging = in.staging_budget != 0      ? in.staging_budget / lanes / e
                : in.host_available != 0 ? std::min(v.elements(), in.host_available / 4 / lanes / e)
                                         : v.elements();
  // The 2023 paper's chunk: C_d <= DevMem / (k V_d N_stream), k = 3
  // (input, output and the FFT library's work area on the device).
  Limits paper = lim;
  paper.device = usable / (3 * e * s);

  // In core on the host: the volume and the executor's workspace. On a
  // device the volume stays resident and the streams' bricks (the y-slabs
  // on their way down) come on top.
  if (!in.plane_program.empty()) return plan_plane_program(in, usable, per_byte);
  if (in.z_lines_only) return plan_z_lines(in, usable, per_byte);

  // Resident on the devices: each keeps its share of the z planes and its
  // lanes' bricks (the y-slabs on their way down) come on top.
  const std::size_t share_bytes = ceil_div(v.nz, devices) * v.ny * v.nx * e;  // the volume on one device
  const std::size_t resident_lane_limit =
      share_bytes < usable ? static_cast<std::size_t>(double(usable - share_bytes) / s / per_byte / double(e)) : 0;
  // Resident: the two passes' z-slabs and y-slabs, the volume kept on the
  // devices between them; none when the slabs do not fit.
  auto resident_plan = [&]() -> std::optional<PassPlan> {
    if (!fits(Strategy::two_pass, v, std::min(resident_lane_limit, lim.staging))) return std::nullopt;
    PassPlan p = build(Strategy::two_pass, in, std::min(resident_lane_limit, lim.staging), s);
    p.strategy = Strategy::in_core;
    if (!plan_carry_over(p, in, in.table_bytes, per_byte, true)) return std::nullopt;
    return p;
  };
  const std::optional<PassPlan> resident = host_in_place ? std::nullopt : resident_plan();
  const bool in_core_fits = host_in_place ? double(volume_bytes) * per_byte <= double(usable) : resident.has_value();
  const std::string sizes = "volume " + format_bytes(double(volume_bytes)) + ", device budget " +
                            format_bytes(double(usable + in.table_bytes)) +
                            (devices > 1 ? " on each of " + std::to_string(devices) + " devices" : std::string()) +
                            " over " + std::to_string(s) + " streams (brick + workspace x" +
                            std::to_string(per_byte).substr(0, 4) + ")";
  const std::string plane = format_bytes(double(v.ny * v.nx * e));

  auto finish = [&](Strategy st, std::size_t limit, unsigned streams, std::string why) {
    PassPlan p;
    if (st == Strategy::in_core && host_in_place) {
      p = build(st, in, limit, streams);
      p.host_in_place = true;
      p.staging_bytes = 0;
    } else if (st == Strategy::in_core) {
      p = *resident;
    } else {
      p = build(st, in, limit, streams);
      if (st == Strategy::two_pass)
        plan_carry_over(p, in, in.table_bytes, per_byte, false);
      else
        spread_bricks(p);
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
      if (!in_core_fits && !host_in_place)
        throw Error(ErrorKind::invalid_argument,
                    "strategy in_core requested but the " + sizes +
                        (devices > 1 ? ": the volume and the streams' bricks do not fit across the devices"
                                     : ": the volume and the streams' bricks do not fit"));
      return finish(Strategy::in_core, 0, 1,
                    host_in_place ? "requested; the host backend transforms in place"
                                  : "requested; " + sizes + ": the volume stays resident" +
                                        (devices > 1 ? " across the devices" : ""));
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
                  sizes + (host_in_place ? ": the volume and its workspace fit"
                           : devices > 1 ? ": the volume and the streams' bricks fit across the devices; resident, "
                                           "one trip up and one down, the z pass after an exchange between them"
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
  if (plan.devices.size() > 1) s += describe_placement(plan);
  return s;
}

std::string describe_placement(const PassPlan& plan) {
  std::string s;
  for (std::size_t d = 0; d < plan.devices.size(); ++d) {
    const DevicePlacement& device = plan.devices[d];
    s += "  device " + std::to_string(device.ordinal) + " (budget " + format_bytes(double(device.budget)) + ")";
    for (std::size_t p = 0; p < plan.passes.size(); ++p)
      s += std::string(p == 0 ? ": " : "; ") + "pass " + std::to_string(p + 1) + " bricks " +
           brick_runs(plan.passes[p], static_cast<unsigned>(d));
    if (device.resident_planes() > 0)
      s += "; keeps z planes " + std::to_string(device.resident_z0) + ".." + std::to_string(device.resident_z1 - 1) +
           " (" + format_bytes(double(device.resident_planes() * (plan.resident_bytes / plan.resident_planes))) + ")";
    s += "\n";
  }
  if (plan.resident_planes > 0)
    s += "  exchange: the y-slab pass copies " + format_bytes(double(plan.exchange_bytes)) +
         " of resident planes from the device that keeps them to the device of the y-slab\n";
  return s;
}


}  // namespace engine
}  // namespace oocfft
