#pragma once
// What the current device allows: shared memory per block (the opt-in
// maximum, above the default 48 KB), multiprocessor count. Read from the
// device, never assumed.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "kernels/cuda/cuda_check.hpp"

namespace oocfft::kernels::cuda {

struct DeviceLimits {
  int device = 0;
  int multiprocessors = 0;
  std::size_t shared_per_block_optin = 0;  // cudaDevAttrMaxSharedMemoryPerBlockOptin
  std::size_t shared_per_multiprocessor = 0;

  static DeviceLimits current() {
    DeviceLimits d;
    check_cuda(cudaGetDevice(&d.device), "cudaGetDevice");
    int value = 0;
    check_cuda(cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, d.device), "cudaDeviceGetAttribute");
    d.multiprocessors = value;
    check_cuda(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlockOptin, d.device),
               "cudaDeviceGetAttribute");
    d.shared_per_block_optin = static_cast<std::size_t>(value);
    check_cuda(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerMultiprocessor, d.device),
               "cudaDeviceGetAttribute");
    d.shared_per_multiprocessor = static_cast<std::size_t>(value);
    return d;
  }
};

}  // namespace oocfft::kernels::cuda
