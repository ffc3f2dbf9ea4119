#include "engine/planning/device_placement.hpp"

#include <algorithm>

namespace oocfft::engine {

std::vector<unsigned> spread_evenly(std::size_t bricks, unsigned devices) {
  std::vector<unsigned> owner(bricks, 0);
  if (devices <= 1) return owner;
  const std::size_t base = bricks / devices, extra = bricks % devices;
  std::size_t next = 0;
  for (unsigned d = 0; d < devices; ++d)
    for (std::size_t i = 0; i < base + (d < extra ? 1 : 0); ++i) owner[next++] = d;
  return owner;
}

std::vector<std::size_t> share_slabs(std::size_t slabs, const std::vector<std::size_t>& capacity) {
  std::vector<std::size_t> count(capacity.size(), 0);
  std::size_t left = slabs;
  for (bool room = true; left > 0 && room;) {
    room = false;
    for (std::size_t d = 0; d < capacity.size() && left > 0; ++d)
      if (count[d] < capacity[d]) {
        ++count[d];
        --left;
        room = true;
      }
  }
  return count;
}

std::vector<unsigned> place_slabs(std::size_t slabs, const std::vector<std::size_t>& kept) {
  const std::size_t devices = kept.size();
  std::vector<unsigned> owner;
  owner.reserve(slabs);
  for (std::size_t d = 0; d < devices; ++d) owner.insert(owner.end(), kept[d], static_cast<unsigned>(d));
  std::vector<std::size_t> total = kept, extra(devices, 0);
  for (std::size_t s = owner.size(); s < slabs; ++s) {
    const auto fewest = std::min_element(total.begin(), total.end()) - total.begin();
    ++total[fewest];
    ++extra[fewest];
  }
  for (std::size_t d = 0; d < devices; ++d) owner.insert(owner.end(), extra[d], static_cast<unsigned>(d));
  return owner;
}

}  // namespace oocfft::engine
