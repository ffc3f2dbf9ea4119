#pragma once
// PageLocker: page-locks host memory so that a device's copy engines can
// DMA to and from it. The volume stores and staging buffers take one from
// the backend that runs them (the CUDA backend's uses cudaHostRegister);
// a null PageLocker means plain pageable memory (the host backend), so
// nothing under volume/ depends on CUDA.
#include <cstddef>

namespace oocfft::volume {

class PageLocker {
 public:
  virtual ~PageLocker() = default;
  // Page-locks [data, data + bytes); false when the system refuses
  // (RLIMIT_MEMLOCK, an overlapping registration, no memory).
  virtual bool lock(std::byte* data, std::size_t bytes) const noexcept = 0;
  // Undoes lock(data, ...).
  virtual void unlock(std::byte* data) const noexcept = 0;
  // True when all of [data, data + bytes) is page-locked already (the
  // caller locked it): its first and its last byte are.
  virtual bool is_locked(const std::byte* data, std::size_t bytes) const noexcept = 0;
};

}  // namespace oocfft::volume
