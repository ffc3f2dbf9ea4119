#include "engine/pass_planner.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "oocfft/error.hpp"

namespace oocfft {

namespace engine {
namespace {


std::string extent_text(const BrickShape& b) {
  return std::to_string(b.nz) + "x" + std::to_string(b.ny) + "x" + std::to_string(b.nx);
}

// Extents as an array indexed z=0, y=1, x=2.
std::array<std::size_t, 3> dims(const BrickShape& s) { return {s.nz, s.ny, s.nx}; }
BrickShape shape_of(const std::array<std::size_t, 3>& d) { return {d[0], d[1], d[2]}; }
bool has(const AxisSet& a, int axis) { return axis == 0 ? a.z : axis == 1 ? a.y : a.x; }

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// Drops axes of length 1: they need no transform.
AxisSet effective(AxisSet a, const BrickShape& v) {
  a.z = a.z && v.nz > 1;
  a.y = a.y && v.ny > 1;
  a.x = a.x && v.nx > 1;
  return a;
}

bool empty(const AxisSet& a) { return !a.z && !a.y && !a.x; }

// Elements a brick of the pass needs at least: whole lines along its axes.
std::size_t minimum_brick(const AxisSet& axes, const BrickShape& v) {
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
// is not a sliver.
PassSpec fit_pass(std::string name, AxisSet axes, BrickLayout layout, const BrickShape& v, std::size_t limit) {
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
      e[a] = ceil_div(n[a], ceil_div(n[a], b));
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

bool fits(Strategy s, const BrickShape& v, std::size_t limit) {
  for (const PassTemplate& t : templates(s)) {
    const AxisSet a = effective(t.axes, v);
    if (!empty(a) && minimum_brick(a, v) > limit) return false;
  }
  return true;
}

PassPlan build(Strategy s, const PlannerInput& in, std::size_t limit, unsigned streams) {
  PassPlan plan;
  plan.strategy = s;
  plan.streams = streams;
  plan.element_bytes = in.element_bytes;
  plan.device_budget = in.device_budget;
  const std::size_t volume = in.volume.elements();
  // Pipeline fill: at least two bricks per stream per pass where the lines
  // allow it, else the streams idle while one brick crosses the bus. More
  // did not measure faster: 16 GiB two-pass through a 4 GiB budget on the
  // H100 machine, staged / caller page-locked, 1 GiB bricks (about four per
  // stream and pass, as the budget allows) 1.50-1.77 s / 0.83-0.90 s over
  // three runs, 512 MiB bricks (eight) 1.63-1.66 s / 0.94 s
  // (bench/RESULTS.md, "HDF5 volumes").
  constexpr std::size_t bricks_per_stream = 2;
  const std::size_t fill = std::max<std::size_t>(1, ceil_div(volume, bricks_per_stream * streams));
  for (const PassTemplate& t : templates(s)) {
    const AxisSet a = effective(t.axes, in.volume);
    if (empty(a)) continue;
    const std::size_t need = minimum_brick(a, in.volume);
    const std::size_t cap = s == Strategy::in_core ? volume : std::min(limit, std::max(need, fill));
    plan.passes.push_back(fit_pass(t.name, a, t.layout, in.volume, cap));
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

}  // namespace

AxisSet PassSpec::staged_axes() const {
  if (layout == BrickLayout::natural) return axes;
  return {false, false, true};
}

Box PassSpec::box(const BrickShape& v, std::size_t i) const {
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

std::size_t PassPlan::total_bricks() const {
  std::size_t n = 0;
  for (const PassSpec& p : passes) n += p.bricks;
  return n;
}

PassPlan plan_passes(const PlannerInput& in) {
  const BrickShape& v = in.volume;
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
  lim.staging = in.staging_budget == 0 ? v.elements() : in.staging_budget / s / e;
  // The 2023 paper's chunk: C_d <= DevMem / (k V_d N_stream), k = 3
  // (input, output and the FFT library's work area on the device).
  Limits paper = lim;
  paper.device = usable / (3 * e * s);

  const bool in_core_fits = double(volume_bytes) * per_byte <= double(usable);
  const std::string sizes = "volume " + format_bytes(double(volume_bytes)) + ", device budget " +
                            format_bytes(double(in.device_budget)) + " over " + std::to_string(s) +
                            " streams (brick + workspace x" + std::to_string(per_byte).substr(0, 4) + ")";
  const std::string plane = format_bytes(double(v.ny * v.nx * e));

  auto finish = [&](Strategy st, std::size_t limit, unsigned streams, std::string why) {
    PassPlan p = build(st, in, limit, streams);
    p.reason = std::move(why);
    if (st == Strategy::in_core) {
      p.host_in_place = in.host_backend;
      // The CUDA in-core brick is the whole volume; its staging moves it in
      // pieces no larger than the staging budget (256 MiB by default).
      const std::size_t cap = in.staging_budget == 0 ? (std::size_t{256} << 20) : in.staging_budget;
      p.staging_bytes = in.host_backend ? 0 : std::min(volume_bytes, std::max(cap, v.nx * e));
    }
    return p;
  };

  switch (in.requested) {
    case Strategy::in_core:
      if (!in_core_fits && !in.host_backend)
        throw Error(ErrorKind::invalid_argument, "strategy in_core requested but the " + sizes +
                                                     ": the volume and its workspace do not fit");
      return finish(Strategy::in_core, 0, 1,
                    in.host_backend ? "requested; the host backend transforms in place"
                                    : "requested; " + sizes + ": fits");
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
                  sizes + ": the volume and its workspace fit, one trip up and one down");
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

PassPlan shrink_bricks(const PassPlan& plan, const BrickShape& volume, std::size_t max_elements) {
  PassPlan p = plan;
  p.brick_bytes = 0;
  for (PassSpec& s : p.passes) {
    const std::size_t limit = std::max(max_elements, minimum_brick(s.axes, volume));
    s = fit_pass(s.name, s.axes, s.layout, volume, std::min(limit, s.brick.elements()));
    p.brick_bytes = std::max(p.brick_bytes, s.brick.elements() * p.element_bytes);
  }
  if (p.strategy != Strategy::in_core) p.staging_bytes = p.brick_bytes;
  return p;
}

std::string describe_passes(const PassPlan& plan) {
  std::string s = std::string("  strategy: ") + to_string(plan.strategy) + ", " + std::to_string(plan.passes.size()) +
                  (plan.passes.size() == 1 ? " pass" : " passes") + ", " + std::to_string(plan.streams) +
                  (plan.streams == 1 ? " stream" : " streams") + " [" + plan.reason + "]\n";
  for (std::size_t i = 0; i < plan.passes.size(); ++i) {
    const PassSpec& p = plan.passes[i];
    s += "  pass " + std::to_string(i + 1) + ": " + p.name + ", brick " + extent_text(p.brick) + " (" +
         format_bytes(double(p.brick.elements() * plan.element_bytes)) + "), " + std::to_string(p.bricks) +
         (p.bricks == 1 ? " brick\n" : " bricks\n");
  }
  return s;
}


}  // namespace engine
}  // namespace oocfft
