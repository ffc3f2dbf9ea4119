#pragma once
// VolumeStore: where a volume lives, seen by the engine. It reads a brick
// (a box, in a given staging layout) into a staging buffer and writes one
// back; the engine never knows whether the volume is a host array or a file.
// read() and write() may be called concurrently from several stream threads
// for disjoint boxes, and run their copies in the caller's TBB arena.
#include <cstddef>

#include "transpose/box.hpp"

namespace oocfft::transpose {

class VolumeStore {
 public:
  virtual ~VolumeStore() = default;
  virtual BrickShape shape() const = 0;
  virtual std::size_t element_bytes() const = 0;
  virtual void read(const Box& box, BrickLayout layout, std::byte* staging) const = 0;
  virtual void write(const Box& box, BrickLayout layout, const std::byte* staging) = 0;
  // The address of element (0,0,0) when the volume is one C-order array in
  // host memory that the device's copy engines could reach once the array
  // is page-locked; nullptr for stores that must stage (files).
  virtual std::byte* host_array() const { return nullptr; }
};

}  // namespace oocfft::transpose
