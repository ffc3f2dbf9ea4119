#pragma once
// The host backend: each stream's "device" is a plain host brick buffer and
// its kernel is the host executor. Everything else (planning, bricks,
// stores, threads, progress, cancellation) is the code the CUDA backend
// runs, so CI covers every strategy with small budgets. Several devices
// (Options::devices, a list) are emulated: each its own budget, lanes and
// carry-over in host memory, with an explicit exchange between them
// (emulated_devices.hpp). It owns the long-double-built line plans of the
// three axes (AxisPlans), which only it uses.
#include <memory>

#include "engine/pipeline/execution_backend.hpp"

namespace oocfft::engine {

// `devices`: current and all are one emulated device; a list, that many.
std::unique_ptr<ExecutionBackend> make_host_backend(const Shape& shape, Precision precision,
                                                   const kernels::VolumeTransform& transform = {},
                                                   const Devices& devices = {});

}  // namespace oocfft::engine
