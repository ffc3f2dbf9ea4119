#pragma once
// A brick: a box of a volume held contiguously in C order [nz][ny][nx], and
// the set of axes a transform runs along. Shared by the host executor's
// callers and the CUDA kernels, so both take the same description.
#include <cstddef>

namespace oocfft::kernels {

struct BrickShape {
  std::size_t nz = 1;
  std::size_t ny = 1;
  std::size_t nx = 1;
  std::size_t elements() const { return nz * ny * nx; }
};

// Which axes a brick transform runs along.
struct AxisSet {
  bool z = false;
  bool y = false;
  bool x = false;
  static constexpr AxisSet all() { return {true, true, true}; }
  static constexpr AxisSet xy() { return {false, true, true}; }
  static constexpr AxisSet only_z() { return {true, false, false}; }
};

}  // namespace oocfft::kernels
