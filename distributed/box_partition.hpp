#pragma once
// The boxes of every rank, and the checks that they tile the global shape:
// each nonempty box inside the shape, no two overlapping, and together as
// many points as the shape (so none left out). The checks run on the boxes
// every rank gathered, so every rank reaches the same verdict.
#include <optional>
#include <string>
#include <vector>

#include "oocfft/distributed.hpp"

namespace oocfft::distributed {

// The points two boxes share (empty when they share none).
Box3 intersection(const Box3& a, const Box3& b);
// "[z0..z1, y0..y1, x0..x1]" (inclusive), or "empty".
std::string to_string(const Box3& box);

// Why `boxes` (one a rank, in rank order) do not tile `shape`, naming the
// ranks and boxes (`what`: "in" or "out"); none when they do.
std::optional<std::string> tiling_fault(const std::vector<Box3>& boxes, Shape shape, const char* what);

// Every rank's slab of `shape` along `axis` (slab_box), in rank order.
std::vector<Box3> slab_boxes(Shape shape, int axis, int ranks);

}  // namespace oocfft::distributed
