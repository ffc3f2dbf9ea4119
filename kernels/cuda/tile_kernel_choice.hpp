#pragma once

namespace oocfft::kernels::cuda {

// Which shared-memory kernels serve a tile job: the compile-time-length
// kernels where one exists for the length (fixed_tile_kernels.cuh), or
// the general run-time-length kernel everywhere (for comparisons in the
// benchmark, and as a fallback should a fixed kernel misbehave on a
// device). A field of the device plan, never an environment variable.
enum class TileKernels { fixed_where_available, general_only };

const char* to_string(TileKernels kernels) noexcept;

}  // namespace oocfft::kernels::cuda
