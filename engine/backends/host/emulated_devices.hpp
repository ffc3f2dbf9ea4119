#pragma once
// EmulatedDevices: the memories of the host backend's devices for one
// execution (PassPlan::devices, device_placement.hpp). Each device has its
// own region for the z planes it keeps between the passes, and the
// exchange between them is explicit: a y-slab's resident planes are copied
// from the region of the device that keeps them into the brick of the
// device that runs the y-slab (or out of it, in the reversed order), and
// the bytes that cross from one device to another are counted, as peer
// copies would be on a GPU node. One device is the single-device
// carry-over region, with nothing exchanged.
#include <atomic>
#include <cstddef>
#include <optional>
#include <vector>

#include "core/geometry.hpp"
#include "engine/planning/pass_planner.hpp"
#include "volume/host_buffer.hpp"

namespace oocfft::engine {

class EmulatedDevices {
 public:
  // Allocates each device's region; Error(out_of_memory) names the device
  // whose region cannot be had.
  EmulatedDevices(const PassPlan& plan, const Shape& volume);

  // Whether any device keeps planes between the passes.
  bool carries() const { return plan_.resident_planes > 0; }
  // Where z-slab `box` lies in the region of `device`, which must keep all
  // of it (a logic error otherwise: the plan gives a kept slab to its keeper).
  std::byte* slab(unsigned device, const Box& box) const;
  // The first `planes` z planes of y-slab `box`, run by `device`, between
  // the regions of the devices that keep them and the packed `brick`: into
  // the brick (forward order) or out of it (reversed order).
  void copy_planes(unsigned device, const Box& box, std::size_t planes, std::byte* brick, bool to_brick);
  // Bytes copied between two different devices so far.
  std::size_t exchanged_bytes() const { return exchanged_.load(); }

 private:
  const PassPlan& plan_;
  Shape volume_;
  std::vector<std::optional<volume::HostBuffer>> regions_;  // one per device; empty where it keeps nothing
  std::atomic<std::size_t> exchanged_{0};
};

}  // namespace oocfft::engine
