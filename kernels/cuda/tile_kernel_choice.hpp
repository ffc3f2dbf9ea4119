#pragma once

namespace oocfft::kernels::cuda {

// Which shared-memory kernels may serve a plan's tile jobs: a compiled
// schedule (schedule_kernels.cuh) where this build has one for the length
// and layout, or the general run-time-length kernel everywhere (for
// comparisons in the benchmark, and as a fallback should a compiled kernel
// misbehave on a device). A field of the device plan, never an environment
// variable.
enum class TileKernels { compiled_where_available, general_only };

// The kernel one tile job runs on: choose_tile_kernel() (schedule_registry.hpp)
// decides, and the launcher follows it.
enum class TileKernel { compiled_schedule, general };

const char* to_string(TileKernels kernels) noexcept;
const char* to_string(TileKernel kernel) noexcept;

}  // namespace oocfft::kernels::cuda
