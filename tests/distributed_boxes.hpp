#pragma once
// What the distributed suites share: the layouts of boxes over the ranks
// (z-, y- and x-slabs, uneven bricks), the part of a whole volume a box
// holds, and the relative L2 error over every rank's part together, so
// that every rank reaches the same verdict.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "core/relative_l2.hpp"
#include "oocfft/distributed.hpp"

namespace oocfft::test {

// The points of `box` from a whole volume of `shape`, in C order of the box.
template <class V>
std::vector<V> cut(const std::vector<V>& whole, Shape shape, const Box3& box) {
  std::vector<V> part;
  if (box.empty()) return part;
  for (auto z = box.low[0]; z <= box.high[0]; ++z)
    for (auto y = box.low[1]; y <= box.high[1]; ++y)
      for (auto x = box.low[2]; x <= box.high[2]; ++x)
        part.push_back(whole[(static_cast<std::size_t>(z) * shape.ny + static_cast<std::size_t>(y)) * shape.nx +
                             static_cast<std::size_t>(x)]);
  return part;
}

// Relative L2 of `got` against `want` over all ranks' parts together.
template <class Y, class R>
double global_relative_l2(const std::vector<Y>& got, const std::vector<R>& want) {
  L2Sums sums;
  for (std::size_t i = 0; i < got.size(); ++i) sums.add(got[i], want[i]);
  double local[2] = {static_cast<double>(sums.difference), static_cast<double>(sums.reference)};
  double all[2] = {0, 0};
  MPI_Allreduce(local, all, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (std::isnan(all[0])) return std::numeric_limits<double>::infinity();
  return std::sqrt(all[0] / all[1]);
}

// Box factories: given the shape, the rank and the ranks, a box.
using BoxOf = std::function<Box3(Shape, int, int)>;

inline Box3 z_slab(Shape s, int r, int n) { return slab_box(s, 0, r, n); }
inline Box3 y_slab(Shape s, int r, int n) { return slab_box(s, 1, r, n); }
// x-slabs, the last rank taking the rest: uneven, and empty on the ranks
// beyond nx.
inline Box3 x_slab(Shape s, int r, int n) {
  Box3 b = whole_box(s);
  const auto nx = static_cast<std::int64_t>(s.nx);
  const std::int64_t share = (nx + n - 1) / n;
  b.low[2] = std::min<std::int64_t>(r * share, nx);
  b.high[2] = r == n - 1 ? nx - 1 : std::min<std::int64_t>((r + 1) * share, nx) - 1;
  return b;
}
// Uneven bricks: the ranks split z in halves of unequal size and y at a
// point one third in, cycling over the four bricks; ranks beyond four hold
// nothing, fewer than four merge the remainder into the last.
inline Box3 bricks(Shape s, int r, int n) {
  const auto nz = static_cast<std::int64_t>(s.nz), ny = static_cast<std::int64_t>(s.ny);
  const std::int64_t zc = (nz + 2) / 3, yc = ny / 3 + 1;
  const Box3 all[4] = {
      {{0, 0, 0}, {zc - 1, yc - 1, static_cast<std::int64_t>(s.nx) - 1}},
      {{0, yc, 0}, {zc - 1, ny - 1, static_cast<std::int64_t>(s.nx) - 1}},
      {{zc, 0, 0}, {nz - 1, yc - 1, static_cast<std::int64_t>(s.nx) - 1}},
      {{zc, yc, 0}, {nz - 1, ny - 1, static_cast<std::int64_t>(s.nx) - 1}}};
  if (n >= 4) return r < 4 ? all[r] : Box3{};
  // Fewer ranks: the first n - 1 take a brick each, the last the rest as
  // z-slab halves where they line up, else the whole remainder.
  if (n == 1) return whole_box(s);
  if (n == 2) return r == 0 ? Box3{{0, 0, 0}, {zc - 1, ny - 1, all[0].high[2]}} : Box3{{zc, 0, 0}, {nz - 1, ny - 1, all[0].high[2]}};
  // n == 3
  if (r < 2) return all[r];
  return Box3{{zc, 0, 0}, {nz - 1, ny - 1, all[0].high[2]}};
}

struct Layout {
  const char* name;
  BoxOf in;
  BoxOf out;
};

}  // namespace oocfft::test
