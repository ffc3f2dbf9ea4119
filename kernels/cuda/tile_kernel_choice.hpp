#pragma once

namespace oocfft::kernels::cuda {

// Which shared-memory kernels may serve a plan's tile jobs. A field of the
// device plan, never an environment variable.
//   compiled_where_available  a compiled schedule (compiled_schedule_kernels.cuh):
//                             the one this build compiled ahead of time
//                             (OOCFFT_KERNEL_SET), else one compiled at plan
//                             time by NVRTC (PlanTimeSchedules); the general
//                             run-time-length kernel where neither serves;
//   ahead_of_time_only        the build's compiled schedules, else the
//                             general kernel: no plan-time compilation (no
//                             NVRTC cost, no cache directory);
//   general_only              the general kernel everywhere (for comparisons
//                             in the benchmark, and as a fallback should a
//                             compiled kernel misbehave on a device).
enum class TileKernels { compiled_where_available, ahead_of_time_only, general_only };

// The kernel one tile job runs on: choose_tile_kernel() (schedule_registry.hpp)
// decides, and the launcher follows it.
enum class TileKernel { ahead_of_time, plan_time, general };

const char* to_string(TileKernels kernels) noexcept;
const char* to_string(TileKernel kernel) noexcept;

}  // namespace oocfft::kernels::cuda
