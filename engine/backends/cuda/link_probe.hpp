#pragma once
// The PCIe rates of a device's link, measured rather than assumed, so that
// an H200, a Gen4 slot or a shared switch gets a floor from its own numbers
// (docs/ARCHITECTURE.md lists the H100 machine's only as a reference).
//
// One cache per process, one entry per device. The rates are a property of
// the machine, as cudaGetDeviceProperties' answers are (and the runtime
// caches those per process too): every plan on a device would measure the
// same link, so the measurement is not per-plan state. Kept per plan, it
// cost each plan 128 MiB of pinned and 128 MiB of device memory outside its
// budget, fourteen copies of 64 MiB and a device synchronisation; a suite
// that describes hundreds of plans paid that hundreds of times. Here the
// first request for a device measures (two warm-ups, then three rounds of
// up, down and both at once) and every later one, from any plan or thread,
// reads the figures; a process that never asks for a floor never measures.
// A probe that cannot run (no memory for its buffers) leaves the reference
// figures in the entry, with the reason as their source, for the rest of
// the process: trying again would allocate again at some later, busier
// moment.
//
// A probe never overlaps a transform on its device. Its copies would
// compete with the transform's for the link (timing both wrongly) and its
// cudaFree waits for the whole device: each execution holds a
// DeviceExecution for its duration, taken before its clock starts; a
// request that finds one held answers the reference figures, labelled as
// not measured yet, and keeps nothing, so a later request measures; an
// execution that starts during a probe waits for the probe, outside its
// timed region. Compiled only when the library is built with CUDA.
#include "engine/planning/pcie_floor.hpp"

namespace oocfft::engine {

// The rates of `device`'s link with their source (thread-safe). Leaves the
// caller's current device as it was.
LinkRates device_link_rates(int device);

// Marks a transform in flight on a device while it lives (RAII, neither
// copied nor moved): no probe of that device starts meanwhile.
// Construction waits for a probe of that device in progress.
class DeviceExecution {
 public:
  explicit DeviceExecution(int device);
  ~DeviceExecution();
  DeviceExecution(const DeviceExecution&) = delete;
  DeviceExecution& operator=(const DeviceExecution&) = delete;

 private:
  int device_;
};

}  // namespace oocfft::engine
