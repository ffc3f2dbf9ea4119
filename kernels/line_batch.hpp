#pragma once
// LineBatch: where the lines of a batched 1D transform lie in a buffer, for
// the host executor, the device line plans and the device kernels alike. A
// line has `length` points `point_stride` elements apart; lines come in
// `groups` of `lanes` neighbouring lines, line (lane, group) starting at
// lane * lane_distance + group * group_distance. Executors transform
// neighbouring lanes together, so put the dimension with the smallest
// distance in lanes: for y and z lines of a [z][y][x] brick the lanes are x
// positions (distance 1), so tiles read rows. Line q of the batch is lane
// q mod lanes of group q / lanes.
// Examples for a [nz][ny][nx] volume:
//   x lines: {nx, 1,     ny*nz, nx, 1,  0}
//   y lines: {ny, nx,    nx,    1,  nz, ny*nx}
//   z lines: {nz, ny*nx, ny*nx, 1,  1,  0}
// Host-visible and NVRTC-visible (no device code, no library beyond sizes).
#if defined(__CUDACC_RTC__)
#include "kernels/cuda/nvrtc_std.hpp"  // NVRTC has no C++ library
#else
#include <cstddef>
#include <cstdint>
#endif

namespace oocfft::kernels {

struct LineBatch {
  std::size_t length = 1;
  std::ptrdiff_t point_stride = 1;
  std::size_t lanes = 1;
  std::ptrdiff_t lane_distance = 0;
  std::size_t groups = 1;
  std::ptrdiff_t group_distance = 0;

  constexpr std::size_t lines() const { return lanes * groups; }
  // The counts as signed 64-bit integers, for the device plans' and
  // kernels' index arithmetic (line, lane and point indices are signed).
  constexpr std::int64_t signed_length() const { return static_cast<std::int64_t>(length); }
  constexpr std::int64_t lane_count() const { return static_cast<std::int64_t>(lanes); }
  constexpr std::int64_t group_count() const { return static_cast<std::int64_t>(groups); }
  constexpr std::int64_t line_count() const { return static_cast<std::int64_t>(lines()); }
};

}  // namespace oocfft::kernels
