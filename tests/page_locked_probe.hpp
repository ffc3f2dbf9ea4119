#pragma once
// Whether host memory is page-locked, as the CUDA runtime sees it: the
// engine suites check that no page of a caller's array stays locked after
// a run, a failure or a cancel.
#include <cuda_runtime_api.h>

namespace oocfft::test {

// Whether `p` lies in page-locked (registered or pinned) host memory.
inline bool page_locked(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

}  // namespace oocfft::test
