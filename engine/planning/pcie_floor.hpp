#pragma once
// The PCIe floor of a streamed transform: the time its host<->device
// traffic takes at the link's bandwidth, with nothing else in the way.
// Per pass, the bytes going up and coming down overlap at the duplex rate
// and the rest runs at the one-way rate. A carry-over plan keeps R bytes on
// the device between its two passes: pass 1 moves V up and V - R down,
// pass 2 V - R up and V down (R = V: one trip up, then one down).
#include <cstddef>
#include <string>

namespace oocfft::engine {

struct LinkBandwidth {
  double h2d = 0;              // bytes/s, one direction alone
  double d2h = 0;
  double duplex_each_way = 0;  // bytes/s each way with both directions busy
};

// The rates a plan's floor is computed with, and where they came from (for
// describe()): a backend's measured link, or the reference figures.
struct LinkRates {
  LinkBandwidth bandwidth;
  std::string source;
};

// The reference machine's pinned figures (docs/ARCHITECTURE.md, "Measured ceilings",
// the H100 machine): 54.6 / 55.2 GB/s one way, 45.8 GB/s each way at once.
// Used only where no link can be measured: the host backend's emulated
// floor (it has no link), and a CUDA backend whose probe failed. A device
// backend measures its own link (ExecutionBackend::link_rates).
inline constexpr LinkBandwidth reference_link{54.6e9, 55.2e9, 45.8e9};

// What the host fed with four GPUs busy at once on the reference node
// (docs/ARCHITECTURE.md, "Measured ceilings", the four-H100 machine): 166.5
// GB/s up and 132.5 GB/s down in all, 83.2 GB/s each way in all duplex.
inline constexpr LinkBandwidth reference_node_ceiling{166.5e9, 132.5e9, 83.2e9};

// The rates of `devices` links of `one`'s rates busy at once: each at its
// own rate, all together no faster than reference_node_ceiling (two H200s
// measured 111 GB/s one way and 79 GB/s each way duplex together, near
// this model's 109-110 and 83). One device: `one`.
LinkBandwidth aggregate_link(const LinkBandwidth& one, unsigned devices);

// "54.6 / 55.2 GB/s one way, 45.8 GB/s each way duplex"
std::string describe_link(const LinkBandwidth& link);

double pcie_floor_seconds(unsigned passes, std::size_t volume_bytes, std::size_t resident_bytes,
                          const LinkBandwidth& link);

}  // namespace oocfft::engine
