#pragma once
// StagingBuffer: one stream's host buffer between the volume and the device.
// Page-locked through the backend's PageLocker when one is given, so
// cudaMemcpyAsync runs at full PCIe speed and truly asynchronously; plain
// page-aligned memory otherwise (the host backend).
// StagingPool keeps buffers alive between executions of a plan, because
// page-locking costs about as much per GiB as the copies it speeds up.
#include <cstddef>
#include <mutex>
#include <vector>

#include "volume/page_locker.hpp"

namespace oocfft::volume {

class StagingBuffer {
 public:
  // Throws std::bad_alloc when the memory cannot be had or locked.
  StagingBuffer(std::size_t bytes, const PageLocker* locker);
  ~StagingBuffer();
  StagingBuffer(StagingBuffer&& other) noexcept;
  StagingBuffer& operator=(StagingBuffer&& other) noexcept;
  StagingBuffer(const StagingBuffer&) = delete;
  StagingBuffer& operator=(const StagingBuffer&) = delete;

  std::byte* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  bool page_locked() const { return locker_ != nullptr; }

 private:
  void release() noexcept;
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
  const PageLocker* locker_ = nullptr;  // set while the buffer is locked
};

class StagingPool {
 public:
  // Makes sure `count` buffers of at least `bytes`, page-locked through
  // `locker` (null: pageable), exist and returns them; buffers already held
  // are reused when large enough and locked the same way.
  // Not thread-safe by itself: the caller holds mutex() while it uses them.
  std::vector<StagingBuffer>& acquire(std::size_t count, std::size_t bytes, const PageLocker* locker);
  std::size_t held_bytes() const;
  std::mutex& mutex() { return mutex_; }

 private:
  std::mutex mutex_;
  std::vector<StagingBuffer> buffers_;
};

}  // namespace oocfft::volume
