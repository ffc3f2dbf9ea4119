#pragma once
// LinkProbe: the PCIe rates of one device's link, measured rather than
// assumed, so that an H200, a Gen4 slot or a shared switch gets a floor
// from its own numbers (docs/ARCHITECTURE.md lists the H100 machine's only as a
// reference). One probe per CUDA backend object, run on the first request
// and kept: fourteen pinned copies of 64 MiB (two warm-ups, then three
// rounds of up, down and both at once) and the buffers for them; a plan
// that never asks for its floor never pays for them. If the probe cannot
// run (no memory for its buffers), the reference figures are used and the
// source says why. Compiled only when the library is built with CUDA.
#include <mutex>

#include "engine/planning/pcie_floor.hpp"

namespace oocfft::engine {

class LinkProbe {
 public:
  explicit LinkProbe(int device) : device_(device) {}
  LinkProbe(const LinkProbe&) = delete;
  LinkProbe& operator=(const LinkProbe&) = delete;

  // The measured rates (thread-safe; measured once).
  const LinkRates& rates() const;

 private:
  int device_;
  mutable std::once_flag once_;
  mutable LinkRates rates_;
};

}  // namespace oocfft::engine
