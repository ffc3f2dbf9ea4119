#pragma once
// Which device of a plan does what (docs/ARCHITECTURE.md, "Several
// devices"), decided with the plan before any data moves. A plan's lanes
// are devices x streams; each device has its own budget and keeps its own
// carry-over:
//   - each pass's bricks are spread over the devices in contiguous runs of
//     brick order, as even as the bricks allow, and a lane takes only its
//     device's bricks;
//   - a carry-over plan (and the resident plan, which carries the whole
//     volume) keeps z planes 0..R-1 between its passes, each device a
//     contiguous run of whole pass-1 slabs of them within its own budget;
//     a slab that stays is transformed by the device that keeps it, and
//     the slabs that do not stay go to the devices with the fewest, so
//     that every device has about as many;
//   - the y-slab pass takes the resident planes of each y-slab from every
//     device that holds some: the part held by another device than the
//     y-slab's is the exchange (peer copies on a GPU node, copies between
//     the emulated devices' memories on the host backend).
// One device is the single-device plan: its slabs 0..R-1 stay, nothing is
// exchanged.
#include <cstddef>
#include <vector>

namespace oocfft::engine {

// One device of a plan.
struct DevicePlacement {
  int ordinal = 0;         // the CUDA device, or the host backend's emulated device
  std::size_t budget = 0;  // its resolved device budget
  // The z planes it keeps between the passes, [resident_z0, resident_z1).
  std::size_t resident_z0 = 0, resident_z1 = 0;
  std::size_t resident_planes() const { return resident_z1 - resident_z0; }
};

// The device of each of `bricks` bricks: contiguous runs in brick order,
// the first `bricks % devices` devices one brick more.
std::vector<unsigned> spread_evenly(std::size_t bricks, unsigned devices);

// How many of `slabs` slabs each device keeps, at most `capacity[d]`
// each: one at a time to each device with room, in turn, so the counts
// differ by at most one where capacity allows. Their sum is
// min(slabs, sum of capacity).
std::vector<std::size_t> share_slabs(std::size_t slabs, const std::vector<std::size_t>& capacity);

// The device of each of `slabs` pass-1 slabs when device d keeps `kept[d]`
// of them, contiguous from slab 0 in device order; each slab that is not
// kept goes to the device with the fewest slabs so far (the lowest index
// among equals), and each device's slabs that are not kept are again one
// contiguous run, in device order.
std::vector<unsigned> place_slabs(std::size_t slabs, const std::vector<std::size_t>& kept);

}  // namespace oocfft::engine
