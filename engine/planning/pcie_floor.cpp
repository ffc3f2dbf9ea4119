#include "engine/planning/pcie_floor.hpp"

#include <algorithm>
#include <cstdio>

namespace oocfft::engine {

namespace {

double pass_seconds(double up, double down, const LinkBandwidth& link) {
  const double both = std::min(up, down);
  return both / link.duplex_each_way + (up - both) / link.h2d + (down - both) / link.d2h;
}

}  // namespace

double pcie_floor_seconds(unsigned passes, std::size_t volume_bytes, std::size_t resident_bytes,
                          const LinkBandwidth& link) {
  const double v = double(volume_bytes);
  if (passes == 2 && resident_bytes > 0) {
    const double rest = v - double(std::min(resident_bytes, volume_bytes));
    return pass_seconds(v, rest, link) + pass_seconds(rest, v, link);
  }
  return double(passes) * pass_seconds(v, v, link);
}

LinkBandwidth aggregate_link(const LinkBandwidth& one, unsigned devices) {
  if (devices <= 1) return one;
  const double n = double(devices);
  return {std::min(n * one.h2d, reference_node_ceiling.h2d), std::min(n * one.d2h, reference_node_ceiling.d2h),
          std::min(n * one.duplex_each_way, reference_node_ceiling.duplex_each_way)};
}

std::string describe_link(const LinkBandwidth& link) {
  char text[120];
  std::snprintf(text, sizeof text, "%.1f / %.1f GB/s one way, %.1f GB/s each way duplex", link.h2d * 1e-9,
                link.d2h * 1e-9, link.duplex_each_way * 1e-9);
  return text;
}

}  // namespace oocfft::engine
