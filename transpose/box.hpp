#pragma once
// Box: a brick's place in a volume (origin and extent, C order, x fastest),
// and BrickLayout: how the brick's elements are ordered in a staging buffer.
#include <cstddef>

#include "kernels/brick.hpp"

namespace oocfft::transpose {

using kernels::BrickShape;

struct Box {
  std::size_t z0 = 0, y0 = 0, x0 = 0;
  BrickShape extent;
  std::size_t elements() const { return extent.elements(); }
};

// natural: [z][y][x] as in the volume (the engine's z-slabs and y-slabs).
// y_lines: [z][x][y], every y line contiguous; z_lines: [y][x][z], every z
// line contiguous. The line layouts are the 2023 line-transpose method's
// chunks: lines gathered element by element so the device transforms
// contiguous lines only.
enum class BrickLayout { natural, y_lines, z_lines };

// The brick's shape as it lies in the staging (and device) buffer.
inline BrickShape staged_shape(const Box& box, BrickLayout layout) {
  const BrickShape& e = box.extent;
  switch (layout) {
    case BrickLayout::natural: return e;
    case BrickLayout::y_lines: return {e.nz, e.nx, e.ny};
    case BrickLayout::z_lines: return {e.ny, e.nx, e.nz};
  }
  return e;
}

}  // namespace oocfft::transpose
