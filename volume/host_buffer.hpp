#pragma once
// HostBuffer: host memory the library owns for a whole volume (a dataset
// read into RAM), mapped with transparent huge pages advised
// (huge_page_mapping.hpp). lock()
// page-locks it through the backend's PageLocker so bricks DMA straight
// from it; the destructor unlocks and unmaps. Move-only.
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
  // stays pageable and bricks stage). Call at most once.
  bool lock(const PageLocker& locker);
  bool locked() const { return locker_ != nullptr; }

 private:
  void release() noexcept;
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t mapped_ = 0;
  const PageLocker* locker_ = nullptr;
};

}  // namespace oocfft::volume
