#include "engine/backends/host/emulated_devices.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "oocfft/error.hpp"

namespace oocfft::engine {

EmulatedDevices::EmulatedDevices(const PassPlan& plan, const Shape& volume)
    : plan_(plan), volume_(volume), regions_(plan.devices.size()) {
  const std::size_t plane = volume.ny * volume.nx * plan.element_bytes;
  for (std::size_t d = 0; d < plan.devices.size(); ++d) {
    const std::size_t bytes = plan.devices[d].resident_planes() * plane;
    if (bytes == 0) continue;
    try {
      regions_[d].emplace(bytes, "the planes kept between the passes");
    } catch (const Error& error) {
      if (error.kind() != ErrorKind::out_of_memory) throw;
      throw Error(ErrorKind::out_of_memory, "emulated device " + std::to_string(plan.devices[d].ordinal) + ": " +
                                                error.what());
    }
  }
}

std::byte* EmulatedDevices::slab(unsigned device, const Box& box) const {
  const DevicePlacement& d = plan_.devices.at(device);
  if (box.z0 < d.resident_z0 || box.z0 + box.extent.nz > d.resident_z1 || !regions_[device])
    throw std::logic_error("z-slab at plane " + std::to_string(box.z0) + " given to emulated device " +
                           std::to_string(d.ordinal) + ", which does not keep it");
  return regions_[device]->data() + (box.z0 - d.resident_z0) * volume_.ny * volume_.nx * plan_.element_bytes;
}

void EmulatedDevices::copy_planes(unsigned device, const Box& box, std::size_t planes, std::byte* brick,
                                  bool to_brick) {
  const Shape& b = box.extent;
  const std::size_t e = plan_.element_bytes;
  const std::size_t row = b.nx * e;
  // Each keeper's run of the planes is one copy; those of another device
  // than the y-slab's are the exchange.
  for (std::size_t k = 0; k < plan_.devices.size(); ++k) {
    const DevicePlacement& keeper = plan_.devices[k];
    const std::size_t z0 = std::max(box.z0, keeper.resident_z0);
    const std::size_t z1 = std::min(box.z0 + planes, keeper.resident_z1);
    if (z0 >= z1) continue;
    std::byte* region = regions_[k]->data();
    // The workers take copies: the plan and this object are freed by the
    // threads that made them, synchronised with the workers through TBB,
    // which ThreadSanitizer cannot see.
    const std::size_t keeper_z0 = keeper.resident_z0, ny = volume_.ny, nx = volume_.nx;
    tbb::parallel_for(z0, z1, [=](std::size_t z) {
      for (std::size_t y = 0; y < b.ny; ++y) {
        std::byte* in_brick = brick + ((z - box.z0) * b.ny + y) * row;
        std::byte* in_region = region + (((z - keeper_z0) * ny + box.y0 + y) * nx + box.x0) * e;
        if (to_brick)
          std::memcpy(in_brick, in_region, row);
        else
          std::memcpy(in_region, in_brick, row);
      }
    });
    if (k != device) exchanged_ += (z1 - z0) * b.ny * row;
  }
}

}  // namespace oocfft::engine
