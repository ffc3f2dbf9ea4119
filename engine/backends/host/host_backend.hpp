#pragma once
// The host backend: each stream's "device" is a plain host brick buffer and
// its kernel is the host executor. Everything else (planning, bricks,
// stores, threads, progress, cancellation) is the code the CUDA backend
// runs, so CI covers every strategy with small budgets. It owns the
// long-double-built line plans of the three axes (AxisPlans), which only it
// uses.
#include <memory>

#include "engine/pipeline/execution_backend.hpp"

namespace oocfft::engine {

std::unique_ptr<ExecutionBackend> make_host_backend(const Shape& shape, Precision precision,
                                                   const kernels::VolumeTransform& transform = {});

}  // namespace oocfft::engine
