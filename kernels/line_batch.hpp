#pragma once
// LineBatch: where the lines of a batched 1D transform lie in a buffer. A
// line has `length` points `point_stride` elements apart; lines come in
// `groups` of `lanes` neighbouring lines. Executors transform neighbouring
// lanes together, so put the dimension with the smallest distance in lanes.
// Examples for a [nz][ny][nx] volume:
//   x lines: {nx, 1,     ny*nz, nx, 1,  0}
//   y lines: {ny, nx,    nx,    1,  nz, ny*nx}
//   z lines: {nz, ny*nx, ny*nx, 1,  1,  0}
#include <cstddef>

namespace oocfft::kernels {

struct LineBatch {
  std::size_t length = 1;
  std::ptrdiff_t point_stride = 1;
  std::size_t lanes = 1;
  std::ptrdiff_t lane_distance = 0;
  std::size_t groups = 1;
  std::ptrdiff_t group_distance = 0;

  std::size_t lines() const { return lanes * groups; }
};

}  // namespace oocfft::kernels
