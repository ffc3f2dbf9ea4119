#include "distributed/box_partition.hpp"

#include <algorithm>

#include "oocfft/error.hpp"

namespace oocfft {

std::size_t Box3::count() const {
  return empty() ? 0 : extent().elements();
}

Shape Box3::extent() const {
  if (empty()) return Shape{0, 0, 0};
  return Shape{static_cast<std::size_t>(high[0] - low[0] + 1), static_cast<std::size_t>(high[1] - low[1] + 1),
               static_cast<std::size_t>(high[2] - low[2] + 1)};
}

Box3 whole_box(Shape shape) {
  return Box3{{0, 0, 0},
              {static_cast<std::int64_t>(shape.nz) - 1, static_cast<std::int64_t>(shape.ny) - 1,
               static_cast<std::int64_t>(shape.nx) - 1}};
}

Box3 slab_box(Shape shape, int axis, int rank, int ranks) {
  if (axis < 0 || axis > 2 || ranks < 1 || rank < 0 || rank >= ranks)
    throw Error(ErrorKind::invalid_argument, "slab_box: axis " + std::to_string(axis) + ", rank " +
                                                 std::to_string(rank) + " of " + std::to_string(ranks));
  Box3 box = whole_box(shape);
  const auto n = static_cast<std::int64_t>(axis == 0 ? shape.nz : axis == 1 ? shape.ny : shape.nx);
  const std::int64_t share = n / ranks;
  const std::int64_t larger = n % ranks;  // the first `larger` ranks take one plane more
  const std::int64_t begin = rank * share + std::min<std::int64_t>(rank, larger);
  const std::int64_t end = begin + share + (rank < larger ? 1 : 0);
  box.low[axis] = begin;
  box.high[axis] = end - 1;
  return box;
}

namespace distributed {

Box3 intersection(const Box3& a, const Box3& b) {
  Box3 c;
  for (int k = 0; k < 3; ++k) {
    c.low[k] = std::max(a.low[k], b.low[k]);
    c.high[k] = std::min(a.high[k], b.high[k]);
  }
  return c;
}

std::string to_string(const Box3& box) {
  if (box.empty()) return "empty";
  std::string s = "[";
  const char* names[] = {"z ", ", y ", ", x "};
  for (int k = 0; k < 3; ++k)
    s += names[k] + std::to_string(box.low[k]) + ".." + std::to_string(box.high[k]);
  return s + "]";
}

std::optional<std::string> tiling_fault(const std::vector<Box3>& boxes, Shape shape, const char* what) {
  const Box3 whole = whole_box(shape);
  const std::string of_shape = " of the shape " + shape.to_string();
  std::size_t points = 0;
  for (std::size_t r = 0; r < boxes.size(); ++r) {
    if (boxes[r].empty()) continue;
    if (intersection(boxes[r], whole) != boxes[r])
      return "rank " + std::to_string(r) + "'s " + what + " box " + to_string(boxes[r]) + " lies outside" +
             of_shape;
    points += boxes[r].count();
  }
  // Quadratic in the ranks, as heFFTe's own check; a few thousand ranks
  // cost milliseconds, once per plan.
  for (std::size_t a = 0; a < boxes.size(); ++a)
    for (std::size_t b = a + 1; b < boxes.size(); ++b) {
      const Box3 shared = intersection(boxes[a], boxes[b]);
      if (!shared.empty())
        return std::string("the ") + what + " boxes of ranks " + std::to_string(a) + " and " + std::to_string(b) +
               " overlap in " + to_string(shared);
    }
  // Inside the shape and disjoint: fewer points than the shape means a gap.
  if (points != shape.elements())
    return std::string("the ") + what + " boxes leave " + std::to_string(shape.elements() - points) +
           " points" + of_shape + " in no rank's box";
  return std::nullopt;
}

std::vector<Box3> slab_boxes(Shape shape, int axis, int ranks) {
  std::vector<Box3> boxes;
  for (int r = 0; r < ranks; ++r) boxes.push_back(slab_box(shape, axis, r, ranks));
  return boxes;
}

}  // namespace distributed
}  // namespace oocfft
