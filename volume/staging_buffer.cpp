#include "volume/staging_buffer.hpp"

#include <cstdlib>
#include <new>
#include <utility>

namespace oocfft::volume {

namespace {
constexpr std::size_t alignment = 4096;  // a page: DMA, page-locking and vector loads all like it
}

StagingBuffer::StagingBuffer(std::size_t bytes, const PageLocker* locker) : bytes_(bytes) {
  if (bytes == 0) return;
  const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  data_ = static_cast<std::byte*>(std::aligned_alloc(alignment, rounded));
  if (data_ == nullptr) throw std::bad_alloc();
  if (locker != nullptr) {
    if (!locker->lock(data_, rounded)) {
      std::free(data_);
      data_ = nullptr;
      throw std::bad_alloc();
    }
    locker_ = locker;
  }
}

void StagingBuffer::release() noexcept {
  if (data_ == nullptr) return;
  if (locker_ != nullptr) locker_->unlock(data_);
  std::free(data_);
  data_ = nullptr;
  locker_ = nullptr;
}

StagingBuffer::~StagingBuffer() { release(); }

StagingBuffer::StagingBuffer(StagingBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      locker_(std::exchange(other.locker_, nullptr)) {}

StagingBuffer& StagingBuffer::operator=(StagingBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    locker_ = std::exchange(other.locker_, nullptr);
  }
  return *this;
}

std::vector<StagingBuffer>& StagingPool::acquire(std::size_t count, std::size_t bytes, const PageLocker* locker) {
  bool reusable = buffers_.size() >= count;
  for (std::size_t i = 0; reusable && i < count; ++i)
    reusable = buffers_[i].bytes() >= bytes && buffers_[i].page_locked() == (locker != nullptr);
  if (!reusable) {
    buffers_.clear();  // free first: the old and new sets need not fit together
    buffers_.reserve(count);
    for (std::size_t i = 0; i < count; ++i) buffers_.emplace_back(bytes, locker);
  }
  return buffers_;
}

std::size_t StagingPool::held_bytes() const {
  std::size_t total = 0;
  for (const StagingBuffer& b : buffers_) total += b.bytes();
  return total;
}

}  // namespace oocfft::volume
