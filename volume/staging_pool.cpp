#include "volume/staging_pool.hpp"

#include <new>

namespace oocfft::volume {

std::vector<HostBuffer>& StagingPool::acquire(std::size_t count, std::size_t bytes, const PageLocker* locker) {
  bool reusable = buffers_.size() >= count;
  for (std::size_t i = 0; reusable && i < count; ++i)
    reusable = buffers_[i].bytes() >= bytes && buffers_[i].page_locked() == (locker != nullptr);
  if (!reusable) {
    buffers_.clear();  // free first: the old and new sets need not fit together
    buffers_.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
      HostBuffer& b = buffers_.emplace_back(bytes, "staging buffer");
      if (locker != nullptr && !b.lock(*locker)) {
        buffers_.clear();
        throw std::bad_alloc();
      }
    }
  }
  return buffers_;
}

std::size_t StagingPool::held_bytes() const {
  std::size_t total = 0;
  for (const HostBuffer& b : buffers_) total += b.bytes();
  return total;
}

}  // namespace oocfft::volume
