#pragma once
// Checked CUDA calls: every runtime call and every launch goes through one of
// these, and a failure becomes oocfft::Error(ErrorKind::cuda) naming the call
// ("cudaMemcpyAsync: invalid argument"), as heFFTe's check_error does; a
// call that ran out of memory (a stream, an event, a module as well as a
// buffer) becomes ErrorKind::out_of_memory, which callers can act on.
#include <cuda_runtime_api.h>

#include <string>

#include "oocfft/error.hpp"

namespace oocfft::kernels::cuda {

inline void check_cuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    // Clear a non-sticky error so that the next call starts clean.
    (void)cudaGetLastError();
    const ErrorKind kind = status == cudaErrorMemoryAllocation ? ErrorKind::out_of_memory : ErrorKind::cuda;
    throw Error(kind, std::string(call) + ": " + cudaGetErrorString(status));
  }
}

// After a <<<...>>> launch: configuration errors show in cudaGetLastError;
// faults inside the kernel show at the next synchronising call.
inline void check_launch(const char* kernel) { check_cuda(cudaGetLastError(), kernel); }

}  // namespace oocfft::kernels::cuda
