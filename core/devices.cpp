#include "oocfft/devices.hpp"

#include <algorithm>

#include "oocfft/error.hpp"

namespace oocfft {

Devices Devices::all() {
  Devices d;
  d.choice_ = DeviceChoice::all;
  return d;
}

Devices Devices::list(std::vector<int> ordinals) {
  if (ordinals.empty())
    throw Error(ErrorKind::invalid_argument, "options.devices: an empty list names no device; leave the option at "
                                             "its default (the current device) or list at least one");
  if (ordinals.size() > static_cast<std::size_t>(max_listed))
    throw Error(ErrorKind::invalid_argument, "options.devices lists " + std::to_string(ordinals.size()) +
                                                 " devices, more than " + std::to_string(max_listed));
  for (std::size_t i = 0; i < ordinals.size(); ++i) {
    if (ordinals[i] < 0)
      throw Error(ErrorKind::invalid_argument,
                  "options.devices names device " + std::to_string(ordinals[i]) + ": ordinals start at 0");
    if (std::find(ordinals.begin(), ordinals.begin() + static_cast<std::ptrdiff_t>(i), ordinals[i]) !=
        ordinals.begin() + static_cast<std::ptrdiff_t>(i))
      throw Error(ErrorKind::invalid_argument,
                  "options.devices names device " + std::to_string(ordinals[i]) + " twice");
  }
  Devices d;
  d.choice_ = DeviceChoice::listed;
  d.ordinals_ = std::move(ordinals);
  return d;
}

std::string Devices::to_string() const {
  switch (choice_) {
    case DeviceChoice::current: return "current";
    case DeviceChoice::all: return "all";
    case DeviceChoice::listed: break;
  }
  std::string s;
  for (const int d : ordinals_) {
    if (!s.empty()) s += ',';
    s += std::to_string(d);
  }
  return s;
}

}  // namespace oocfft
