#pragma once
// What the current device allows: shared memory per block (the opt-in
// maximum, above the default 48 KB) and per multiprocessor, registers and
// threads per block and per multiprocessor, multiprocessor count. Read
// from the device (the fields of cudaDeviceProp, one attribute each),
// never assumed; and the check of the compile-time bounds the compiled
// tiles were shaped for (tile_resources.hpp) against them.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/tile_resources.hpp"

namespace oocfft::kernels::cuda {

struct DeviceLimits {
  int device = 0;
  int multiprocessors = 0;                 // multiProcessorCount
  std::size_t shared_per_block_optin = 0;  // sharedMemPerBlockOptin
  std::size_t shared_per_multiprocessor = 0;  // sharedMemPerMultiprocessor
  int registers_per_block = 0;                // regsPerBlock
  int registers_per_multiprocessor = 0;       // regsPerMultiprocessor
  int threads_per_block = 0;                  // maxThreadsPerBlock
  int threads_per_multiprocessor = 0;         // maxThreadsPerMultiProcessor

  static DeviceLimits current() {
    DeviceLimits d;
    check_cuda(cudaGetDevice(&d.device), "cudaGetDevice");
    auto attribute = [&](cudaDeviceAttr a) {
      int value = 0;
      check_cuda(cudaDeviceGetAttribute(&value, a, d.device), "cudaDeviceGetAttribute");
      return value;
    };
    d.multiprocessors = attribute(cudaDevAttrMultiProcessorCount);
    d.shared_per_block_optin = static_cast<std::size_t>(attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
    d.shared_per_multiprocessor = static_cast<std::size_t>(attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
    d.registers_per_block = attribute(cudaDevAttrMaxRegistersPerBlock);
    d.registers_per_multiprocessor = attribute(cudaDevAttrMaxRegistersPerMultiprocessor);
    d.threads_per_block = attribute(cudaDevAttrMaxThreadsPerBlock);
    d.threads_per_multiprocessor = attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
    return d;
  }

  // Why the compiled tiles cannot run here, or "" where they can. Their
  // shapes are constant expressions fixed when the library is built
  // (tile_resources.hpp: the largest tile's shared memory per block, the
  // SM's shared memory, registers and threads their occupancy rules count,
  // blocks of up to 1024 threads): a device with less than those bounds
  // would fail their launches or run them at occupancies the rules did not
  // plan, so its plans keep to the general kernel, which sizes its tiles
  // from these limits at plan time.
  std::string compiled_tiles_shortfall() const {
    std::string s;
    auto need = [&](bool holds, const char* what) {
      if (!holds) s += std::string(s.empty() ? "" : "; ") + what;
    };
    need(shared_per_block_optin >= max_schedule_shared_bytes, "less shared memory per block than the compiled tiles use");
    need(shared_per_multiprocessor >= sm_shared_bytes, "less shared memory per SM than the compiled tiles plan for");
    need(registers_per_multiprocessor >= sm_registers, "fewer registers per SM than the compiled tiles plan for");
    need(registers_per_block >= sm_registers, "fewer registers per block than the compiled tiles plan for");
    need(threads_per_multiprocessor >= sm_threads, "fewer threads per SM than the compiled tiles plan for");
    need(threads_per_block >= 1024, "blocks of fewer than 1024 threads");
    return s;
  }
};

}  // namespace oocfft::kernels::cuda
