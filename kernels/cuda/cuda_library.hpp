#pragma once
// CudaLibrary: RAII owner of a cudaLibrary_t, the runtime's handle of a
// cubin loaded from memory (cudaLibraryLoadData, CUDA 12+), and the lookup
// of a kernel in it. The library is context-independent: it is loaded into
// each device context that launches one of its kernels. Move-only; the
// destructor never throws.
#include <cuda_runtime_api.h>

#include <string>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/unique_handle.hpp"

namespace oocfft::kernels::cuda {

class CudaLibrary {
 public:
  // Loads `image` (a cubin); throws Error(cuda) naming `what` on failure
  // (a damaged image, or one for another architecture).
  CudaLibrary(const void* image, const std::string& what) {
    cudaLibrary_t loaded = nullptr;  // adopted only once the load has succeeded
    const cudaError_t status = cudaLibraryLoadData(&loaded, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
    if (status != cudaSuccess) check_cuda(status, ("cudaLibraryLoadData (" + what + ")").c_str());
    library_.reset(loaded);
  }

  // The kernel of that (mangled) name; throws Error(cuda) when absent.
  cudaKernel_t kernel(const std::string& name) const {
    cudaKernel_t k = nullptr;
    check_cuda(cudaLibraryGetKernel(&k, library_.get(), name.c_str()), ("cudaLibraryGetKernel (" + name + ")").c_str());
    return k;
  }

 private:
  UniqueHandle<cudaLibrary_t, cudaLibraryUnload> library_;
};

}  // namespace oocfft::kernels::cuda
