#include "transpose/staging_buffer.hpp"

#include <cstdlib>
#include <new>
#include <utility>

#if OOCFFT_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace oocfft::transpose {

namespace {
constexpr std::size_t alignment = 4096;  // a page: DMA and vector loads both like it
}

bool pinning_available() noexcept { return OOCFFT_HAVE_CUDA != 0; }

StagingBuffer::StagingBuffer(std::size_t bytes, Pinning pinning) : bytes_(bytes), pinning_(pinning) {
  if (bytes == 0) return;
  if (pinning == Pinning::pinned) {
#if OOCFFT_HAVE_CUDA
    void* p = nullptr;
    if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
      cudaGetLastError();  // clear the error so the caller's next CUDA call starts clean
      throw std::bad_alloc();
    }
    data_ = static_cast<std::byte*>(p);
    return;
#else
    pinning_ = Pinning::pageable;  // nothing to pin with: plain memory serves the host backend
#endif
  }
  const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  data_ = static_cast<std::byte*>(std::aligned_alloc(alignment, rounded));
  if (data_ == nullptr) throw std::bad_alloc();
}

void StagingBuffer::release() noexcept {
  if (data_ == nullptr) return;
#if OOCFFT_HAVE_CUDA
  if (pinning_ == Pinning::pinned) {
    cudaFreeHost(data_);
    data_ = nullptr;
    return;
  }
#endif
  std::free(data_);
  data_ = nullptr;
}

StagingBuffer::~StagingBuffer() { release(); }

StagingBuffer::StagingBuffer(StagingBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)), pinning_(other.pinning_) {}

StagingBuffer& StagingBuffer::operator=(StagingBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    pinning_ = other.pinning_;
  }
  return *this;
}

std::vector<StagingBuffer>& StagingPool::acquire(std::size_t count, std::size_t bytes, Pinning pinning) {
  if (!pinning_available()) pinning = Pinning::pageable;
  bool reusable = buffers_.size() >= count;
  for (std::size_t i = 0; reusable && i < count; ++i)
    reusable = buffers_[i].bytes() >= bytes && buffers_[i].pinning() == pinning;
  if (!reusable) {
    buffers_.clear();  // free first: the old and new sets need not fit together
    buffers_.reserve(count);
    for (std::size_t i = 0; i < count; ++i) buffers_.emplace_back(bytes, pinning);
  }
  return buffers_;
}

std::size_t StagingPool::held_bytes() const {
  std::size_t total = 0;
  for (const StagingBuffer& b : buffers_) total += b.bytes();
  return total;
}

}  // namespace oocfft::transpose
