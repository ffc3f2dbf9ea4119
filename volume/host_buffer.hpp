#pragma once
// HostBuffer: host memory the library owns, the one owned-memory type of the
// volume layer: a whole volume (a dataset read into RAM, the planes kept
// between two passes) or one stream's staging between the volume and the
// device (StagingPool). Mapped in whole 2 MiB pages with transparent huge
// pages advised (huge_page_mapping.hpp), page-aligned as DMA and vector
// loads like it. Page-locked or not is a property: lock() page-locks it
// through the backend's PageLocker, so cudaMemcpyAsync runs at full PCIe
// speed and truly asynchronously, and huge pages halve the cost of locking;
// the host backend leaves it pageable. The destructor unlocks and unmaps.
// Move-only.
#include <cstddef>

#include "volume/page_locker.hpp"

namespace oocfft::volume {

class HostBuffer {
 public:
  // Throws Error(out_of_memory) naming `what` when the memory cannot be mapped.
  HostBuffer(std::size_t bytes, const char* what);
  ~HostBuffer();
  HostBuffer(HostBuffer&& other) noexcept;
  HostBuffer& operator=(HostBuffer&& other) noexcept;
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  std::byte* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  // Page-locks the buffer; false when the system refuses (the buffer then
  // stays pageable and bricks stage). True at once when already locked, and
  // for an empty buffer (nothing to lock; the locker is not called).
  bool lock(const PageLocker& locker);
  bool page_locked() const { return locker_ != nullptr; }

 private:
  void release() noexcept;
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t mapped_ = 0;
  const PageLocker* locker_ = nullptr;  // set while the buffer is locked
};

}  // namespace oocfft::volume
