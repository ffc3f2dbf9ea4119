#pragma once
// StagingBuffer: one stream's host buffer between the volume and the device.
// Page-locked (cudaHostAlloc) when this build has the CUDA runtime and the
// caller asks for it, so cudaMemcpyAsync runs at full PCIe speed and truly
// asynchronously; plain 4 KiB-aligned memory otherwise (the host backend).
// StagingPool keeps buffers alive between executions of a plan, because
// page-locking costs about as much per GiB as the copies it speeds up.
#include <cstddef>
#include <mutex>
#include <vector>

namespace oocfft::transpose {

enum class Pinning { pageable, pinned };

class StagingBuffer {
 public:
  // Throws std::bad_alloc when the memory cannot be had.
  StagingBuffer(std::size_t bytes, Pinning pinning);
  ~StagingBuffer();
  StagingBuffer(StagingBuffer&& other) noexcept;
  StagingBuffer& operator=(StagingBuffer&& other) noexcept;
  StagingBuffer(const StagingBuffer&) = delete;
  StagingBuffer& operator=(const StagingBuffer&) = delete;

  std::byte* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  Pinning pinning() const { return pinning_; }

 private:
  void release() noexcept;
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
  Pinning pinning_ = Pinning::pageable;
};

// True when this build can page-lock memory (has the CUDA runtime).
bool pinning_available() noexcept;

class StagingPool {
 public:
  // Makes sure `count` buffers of at least `bytes` with `pinning` exist and
  // returns them; buffers already held are reused when large enough.
  // Not thread-safe by itself: the caller holds lock() while it uses them.
  std::vector<StagingBuffer>& acquire(std::size_t count, std::size_t bytes, Pinning pinning);
  std::size_t held_bytes() const;
  std::mutex& mutex() { return mutex_; }

 private:
  std::mutex mutex_;
  std::vector<StagingBuffer> buffers_;
};

}  // namespace oocfft::transpose
