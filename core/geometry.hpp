#pragma once
// The geometry every layer speaks: a brick's extent is an oocfft::Shape
// (include/oocfft/shape.hpp, C order, x fastest), a Box is a brick's place in
// a volume, BrickLayout says how a brick's elements lie in a staging or
// device buffer, and AxisSet which axes a brick transform runs along.
// Kept in core so that kernels, transpose, volume, io and the engine take
// the same description without including one another.
#include <cstddef>

#include "oocfft/shape.hpp"

namespace oocfft {

// A box of a volume: origin and extent. The extent is a Shape: a brick is
// a small volume in its own right, held contiguously in C order.
struct Box {
  std::size_t z0 = 0, y0 = 0, x0 = 0;
  Shape extent;
  std::size_t elements() const { return extent.elements(); }
};

// natural: [z][y][x] as in the volume (the engine's z-slabs and y-slabs).
// y_lines: [z][x][y], every y line contiguous; z_lines: [y][x][z], every z
// line contiguous. The line layouts are the 2023 line-transpose method's
// chunks: lines gathered element by element so the device transforms
// contiguous lines only.
enum class BrickLayout { natural, y_lines, z_lines };

// The brick's shape as it lies in the staging (and device) buffer.
inline Shape staged_shape(const Box& box, BrickLayout layout) {
  const Shape& e = box.extent;
  switch (layout) {
    case BrickLayout::natural: return e;
    case BrickLayout::y_lines: return {e.nz, e.nx, e.ny};
    case BrickLayout::z_lines: return {e.ny, e.nx, e.nz};
  }
  return e;
}

// Which axes a brick transform runs along.
struct AxisSet {
  bool z = false;
  bool y = false;
  bool x = false;
  static constexpr AxisSet all() { return {true, true, true}; }
  static constexpr AxisSet xy() { return {false, true, true}; }
  static constexpr AxisSet only_z() { return {true, false, false}; }
};

}  // namespace oocfft
