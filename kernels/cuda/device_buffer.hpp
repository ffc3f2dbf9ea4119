#pragma once
// RAII owners of device memory and of page-locked host memory (UniqueHandle
// and the size). Move-only;
// the destructor frees (and never throws). Allocation failures become
// Error(out_of_memory) naming the byte count and what the bytes are for.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/unique_handle.hpp"

namespace oocfft::kernels::cuda {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  // `what` names the buffer in the error message ("volume", "workspace").
  explicit DeviceBuffer(std::size_t bytes, const char* what = "device buffer") : bytes_(bytes) {
    if (bytes == 0) return;
    // Adopted only on success: a failed call's pointer is not ours to free.
    void* allocated = nullptr;
    const cudaError_t status = cudaMalloc(&allocated, bytes);
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      throw Error(ErrorKind::out_of_memory,
                  std::string("cudaMalloc of ") + std::to_string(bytes) + " bytes for the " + what + " failed");
    }
    check_cuda(status, "cudaMalloc");
    ptr_.reset(allocated);
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept : ptr_(std::move(other.ptr_)), bytes_(std::exchange(other.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      ptr_ = std::move(other.ptr_);
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const noexcept { return ptr_.get(); }
  template <class U>
  U* as() const noexcept {
    return static_cast<U*>(ptr_.get());
  }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  UniqueHandle<void*, cudaFree> ptr_;
  std::size_t bytes_ = 0;
};

// Page-locked host memory (cudaMallocHost): the staging buffers of the
// streaming pipeline, so that cudaMemcpyAsync is a real DMA.
class PinnedHostBuffer {
 public:
  PinnedHostBuffer() = default;
  explicit PinnedHostBuffer(std::size_t bytes, const char* what = "pinned staging buffer") : bytes_(bytes) {
    if (bytes == 0) return;
    // Adopted only on success: a failed call's pointer is not ours to free.
    void* allocated = nullptr;
    const cudaError_t status = cudaMallocHost(&allocated, bytes);
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      throw Error(ErrorKind::out_of_memory,
                  std::string("cudaMallocHost of ") + std::to_string(bytes) + " bytes for the " + what + " failed");
    }
    check_cuda(status, "cudaMallocHost");
    ptr_.reset(allocated);
  }
  PinnedHostBuffer(PinnedHostBuffer&& other) noexcept : ptr_(std::move(other.ptr_)), bytes_(std::exchange(other.bytes_, 0)) {}
  PinnedHostBuffer& operator=(PinnedHostBuffer&& other) noexcept {
    if (this != &other) {
      ptr_ = std::move(other.ptr_);
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  PinnedHostBuffer(const PinnedHostBuffer&) = delete;
  PinnedHostBuffer& operator=(const PinnedHostBuffer&) = delete;

  void* get() const noexcept { return ptr_.get(); }
  template <class U>
  U* as() const noexcept {
    return static_cast<U*>(ptr_.get());
  }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  UniqueHandle<void*, cudaFreeHost> ptr_;
  std::size_t bytes_ = 0;
};

}  // namespace oocfft::kernels::cuda
