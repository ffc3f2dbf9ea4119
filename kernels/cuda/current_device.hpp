#pragma once
// CurrentDevice: makes a CUDA device current for its lifetime and then
// restores the caller's current device. Code that runs on a caller's
// thread (a probe, a distributed step) uses its own device, and that
// thread's later runtime calls must still go where they went before.
#include <cuda_runtime_api.h>

#include "kernels/cuda/cuda_check.hpp"

namespace oocfft::kernels::cuda {

class CurrentDevice {
 public:
  explicit CurrentDevice(int device) {
    check_cuda(cudaGetDevice(&previous_), "cudaGetDevice");
    check_cuda(cudaSetDevice(device), "cudaSetDevice");
  }
  ~CurrentDevice() {
    if (cudaSetDevice(previous_) != cudaSuccess) (void)cudaGetLastError();  // a destructor cannot throw
  }
  CurrentDevice(const CurrentDevice&) = delete;
  CurrentDevice& operator=(const CurrentDevice&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace oocfft::kernels::cuda
