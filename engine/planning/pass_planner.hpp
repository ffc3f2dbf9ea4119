#pragma once
// Planning of the out-of-core passes: which strategy, how many passes, which
// axes each pass transforms, and the brick (a box of the volume) each pass
// streams. One function, plan_passes(), decides, and writes its reason into
// the plan so describe() can explain it.
//
// The rule (docs/ARCHITECTURE.md, "The algorithm"): the fewest passes that fit.
//   in_core    the volume and its workspace fit the device budget. The host
//              backend transforms it where it lies; a device keeps it
//              resident: z-slabs go up and are transformed along x and y as
//              they land, then y-slabs are transformed along z and come
//              down, all streams overlapping (one trip up, one down).
//   two_pass   an XY plane fits one stream's share: z-slabs for X and Y,
//              then y-slabs (z columns) for Z. What the budget holds beyond
//              the streams' bricks keeps the first z-slabs of pass 1 on the
//              device (carry-over): pass 2 copies them device to device
//              instead of a trip down and up again.
//   three_pass an x line, a y line and a z line each fit: X, Y, Z passes.
//   line_transpose (only on request) the 2023 paper's method: X, Y, Z
//              passes of chunks of C_d <= DevMem / (k V_d N_stream)
//              elements with k = 3, Y and Z lines transposed element-wise
//              on the host into contiguous lines.
//
// The z lines alone (PlannerInput::z_lines_only) are one pass of y-slabs,
// each brick whole z lines of as many columns as a stream's share holds.
//
// A plane program (PlannerInput::plane_program: angular-spectrum work, or
// a stack of 2D transforms, the lone stage `transform`) transforms only x
// and y of each z plane, with a multiply between the transforms where
// there is one (pass_program.hpp):
//   one pass   a plane fits a stream's share: z-slabs of whole planes run
//              the whole program on the device (reported as in_core);
//   split      it does not (or three_pass is requested): x-rows forward,
//              y-columns running the rest of the program up to the
//              inverse along y, x-rows inverse (reported as three_pass).
// A real transform's plane program (PlannerInput::real_x: numpy's rfft2
// of each plane) keeps its x stage even on a half spectrum of one column;
// its inverse runs these passes in reverse order (the engine reverses a
// real inverse's passes), so that the x rows come last.
//
// Several devices (PlannerInput::devices, device_placement.hpp): the lanes
// are devices x streams, the bricks sized for the smallest budget and each
// pass's bricks spread over the devices; in_core keeps the volume resident
// across them when it fits the sum of their budgets beside their lanes,
// and two_pass keeps on each device what its own budget holds. The host
// backend with one device transforms in_core in place; with several it
// plans them as a GPU node's, so that CI runs the placement.
#include <cstddef>
#include <string>
#include <vector>

#include "core/format_bytes.hpp"
#include "core/geometry.hpp"
#include "engine/planning/device_placement.hpp"
#include "engine/planning/pass_program.hpp"
#include "oocfft/options.hpp"

namespace oocfft::engine {


struct PassSpec {
  std::string name;      // "xy on z-slabs"
  AxisSet axes;          // volume axes transformed by this pass
  BrickLayout layout = BrickLayout::natural;
  Shape brick;      // largest box of the pass, in volume coordinates
  std::size_t bricks = 0;
  // What the pass does to each brick on the device, in order.
  std::vector<Stage> stages{Stage::transform};
  // The device (an index into PassPlan::devices) of each brick; empty: all
  // on the first.
  std::vector<unsigned> owner;

  // Axes to transform in the staged (device) brick: the volume axes for the
  // natural layout; the contiguous x axis for the line layouts.
  AxisSet staged_axes() const;
  Shape staged_brick() const { return oocfft::staged_shape(Box{0, 0, 0, brick}, layout); }
  // The boxes of the pass, in order: brick i of bricks.
  Box box(const Shape& volume, std::size_t i) const;
};

// What a brick does with the planes a carry-over plan keeps on the device
// between its two passes (PassPlan::carry_role).
enum class CarryRole {
  none,          // read from the volume, written back to it
  keep_slab,     // z-slab, forward order: transformed where it stays, not written back
  take_planes,   // y-slab, forward order: its resident planes copied from the device, the rest read
  keep_planes,   // y-slab, reversed order: read whole; its resident planes copied to the device, the rest written back
  take_slab,     // z-slab, reversed order: transformed where it stays, not read
};

struct PassPlan {
  Strategy strategy = Strategy::in_core;
  std::vector<PassSpec> passes;
  unsigned streams = 1;
  std::size_t element_bytes = 8;
  std::size_t brick_bytes = 0;    // largest staged brick over the passes
  std::size_t staging_bytes = 0;  // one stream's staging buffer
  std::size_t device_budget = 0;  // resolved budget the plan was made for (the smallest device's)
  std::string reason;
  // The devices the lanes run on: lane l is stream l % streams of
  // devices[l / streams] (device_placement.hpp). One unless the options
  // name more.
  std::vector<DevicePlacement> devices{DevicePlacement{}};
  // Bytes of resident planes the y-slab pass copies from the device that
  // keeps them to another (device_placement.hpp); 0 on one device.
  std::size_t exchange_bytes = 0;

  unsigned lanes() const { return streams * static_cast<unsigned>(devices.size()); }
  // The device (an index into devices) that runs brick `brick` of pass `pass`.
  unsigned device_of(unsigned pass, std::size_t brick) const {
    const std::vector<unsigned>& o = passes[pass].owner;
    return o.empty() ? 0 : o[brick];
  }
  // The device (an index into devices) that keeps resident z plane `z`;
  // devices.size() when none does.
  unsigned keeper_of(std::size_t z) const;

  std::size_t total_bricks() const;
  // True when every pass moves natural-layout bricks (no line transposes),
  // so bricks can DMA straight from the volume.
  bool natural_layout_only() const;
  // One slot of a device stream's staging ring (engine/backends/cuda/staging_ring.hpp):
  // natural bricks move in pieces of at most 8 MiB, at least two slots to a
  // ring; bricks in a line layout move whole, through all of it.
  std::size_t staging_slot_bytes() const;
  // True when this plan transforms the volume in place on the host without
  // the pipeline (host backend, in_core).
  bool host_in_place = false;
  // Carry-over (passes "xy on z-slabs" then "z on y-slabs"): the first
  // `resident_planes` z planes stay on the devices after pass 1, a whole
  // number of pass-1 slabs (or nz: the resident in-core plan), each
  // device's run of them (DevicePlacement) in one device buffer; in all
  // `resident_bytes`. 0: every brick goes back to the volume.
  std::size_t resident_planes = 0;
  std::size_t resident_bytes = 0;

  // Passes in the reverse order (reversed_passes()): y-slabs (z) first,
  // then z-slabs (xy). The inverse of a real transform runs so, because
  // its x stage, the half spectrum back to real rows, must come last.
  bool reversed = false;

  // Whether some brick goes back to the volume between two passes: not in
  // a one-pass plan, nor in the resident plan that keeps the whole volume
  // on the device, nor on the host in place. A real inverse out of place
  // needs a half spectrum between its passes exactly when this holds.
  bool writes_between_passes() const {
    return !host_in_place && passes.size() > 1 && strategy != Strategy::in_core;
  }

  // Pass 1 of a carry-over plan: whether z-slab `box` stays on the device.
  bool keeps_resident(const Box& box) const { return box.z0 + box.extent.nz <= resident_planes; }
  // Pass 2: the planes of y-slab `box` that are not resident, which the
  // volume supplies; their extent.nz is 0 when the whole box is resident.
  Box volume_part(const Box& box) const;

  // The carry-over of brick `box` of pass `pass`, whichever the order:
  //   forward order   z-slab pass: a resident slab stays (no write-back);
  //                   y-slab pass: its resident planes come from the device;
  //   reversed order  y-slab pass: its resident planes go to the device
  //                   (only the rest is written back);
  //                   z-slab pass: a resident slab comes from the device (no
  //                   read).
  // None without carry-over (resident_planes == 0).
  CarryRole carry_role(unsigned pass, const Box& box) const;
};

// The same plan with its passes in reverse order and the carry-over
// mirrored (CarryRole): the same bricks, buffers and device bytes.
PassPlan reversed_passes(PassPlan plan);

struct PlannerInput {
  Shape volume;
  std::size_t element_bytes = 8;
  std::size_t device_budget = 0;   // resolved, > 0: each device's unless device_budgets says
  // The devices (CUDA ordinals, or the host backend's emulated devices), in
  // lane order; at least one.
  std::vector<int> devices{0};
  // Each device's resolved budget, in the order of `devices`; empty: each
  // has device_budget. Bricks are sized for the smallest, carry-over for
  // each its own.
  std::vector<std::size_t> device_budgets;
  std::size_t staging_budget = 0;  // all lanes of all devices together; 0 = no limit
  unsigned streams = 4;  // per device
  Strategy requested = Strategy::automatic;
  bool host_backend = false;
  // Device workspace per byte of brick (the kernels' ping-pong buffer: 1).
  double workspace_ratio = 1.0;
  std::size_t table_bytes = 0;  // device bytes held by the kernels' tables
  // Host memory available to the call (MemAvailable); 0 = unknown. With no
  // staging budget, the streams' staging takes at most a quarter of it: a
  // 96 GiB array beside 35 GiB of staging on a 125 GiB host was ended by
  // the kernel's OOM killer.
  std::size_t host_available = 0;
  // Empty: transform every axis (the 3D FFT). Otherwise the stages to run
  // on every z plane along x and y (a plane program: forward, multiply,
  // inverse, or a part of it), and only those axes.
  std::vector<Stage> plane_program;
  // The z lines alone, in the run's direction (the distributed plan's last
  // step: its y-slabs come transformed along x and y): one pass of y-slabs,
  // whatever `requested` asks. Not with a plane program.
  bool z_lines_only = false;
  // A real transform (kernels/volume_transform.hpp): `volume` is the half
  // spectrum, and the x stage runs even where it has one value.
  bool real_x = false;
};

// Throws Error(invalid_argument) for a requested strategy that cannot run
// within the budgets and Error(out_of_memory) when not even one line of an
// axis fits; the caller's data is not touched.
PassPlan plan_passes(const PlannerInput& input);

// "two_pass: 2 passes, xy on z-slabs 4x512x512 (8 bricks), ..." for describe().
// `resident_where` says where carried-over planes are kept: "on the
// device", or on the host backend "in host memory".
std::string describe_passes(const PassPlan& plan, const std::string& resident_where = "on the device");
// A plan on several devices: each device's budget, its bricks of each pass
// and the z planes it keeps, and the bytes exchanged between them; part of
// describe_passes.
std::string describe_placement(const PassPlan& plan);

}  // namespace oocfft::engine
