#pragma once
// What a plan may take of the current device: its free memory minus a
// margin for the CUDA context's own allocations and other users,
// max(512 MiB, 5% of the device). The engine's default device budget and
// the distributed plan's steps on the node's GPUs both size themselves so.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <string>

#include "core/format_bytes.hpp"
#include "kernels/cuda/cuda_check.hpp"

namespace oocfft::kernels::cuda {

// Throws Error(out_of_memory) when the free memory is no more than the margin.
inline std::size_t free_device_memory_budget() {
  std::size_t free_bytes = 0, total_bytes = 0;
  check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  const std::size_t margin = std::max<std::size_t>(std::size_t{512} << 20, total_bytes / 20);
  if (free_bytes <= margin)
    throw Error(ErrorKind::out_of_memory, "the device has " + format_bytes(double(free_bytes)) +
                                              " free, less than the safety margin of " +
                                              format_bytes(double(margin)));
  return free_bytes - margin;
}

}  // namespace oocfft::kernels::cuda
