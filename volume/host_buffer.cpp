#include "volume/host_buffer.hpp"

#include <utility>

#include "volume/huge_page_mapping.hpp"

namespace oocfft::volume {

HostBuffer::HostBuffer(std::size_t bytes, const char* what) : bytes_(bytes) {
  if (bytes == 0) return;
  const HugePageMapping m = map_huge_page_advised(bytes, what);
  data_ = m.data;
  mapped_ = m.mapped;
}

HostBuffer::~HostBuffer() { release(); }

void HostBuffer::release() noexcept {
  if (data_ == nullptr) return;
  if (locker_ != nullptr) locker_->unlock(data_);
  unmap_huge_page_advised(data_, bytes_);
  data_ = nullptr;
  locker_ = nullptr;
}

HostBuffer::HostBuffer(HostBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      mapped_(std::exchange(other.mapped_, 0)),
      locker_(std::exchange(other.locker_, nullptr)) {}

HostBuffer& HostBuffer::operator=(HostBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    mapped_ = std::exchange(other.mapped_, 0);
    locker_ = std::exchange(other.locker_, nullptr);
  }
  return *this;
}

bool HostBuffer::lock(const PageLocker& locker) {
  if (locker_ != nullptr) return true;
  // An empty buffer has no pages: locking it is trivially done, and the
  // locker is never called (a zero-byte cudaHostRegister is an error), nor
  // unlocked later (release() stops at the null data).
  if (data_ != nullptr && !locker.lock(data_, mapped_)) return false;
  locker_ = &locker;
  return true;
}

}  // namespace oocfft::volume
