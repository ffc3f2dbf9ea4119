#include "volume/host_buffer.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "core/format_bytes.hpp"
#include "oocfft/error.hpp"

namespace oocfft::volume {

namespace {
constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;
}

HostBuffer::HostBuffer(std::size_t bytes, const char* what) : bytes_(bytes) {
  if (bytes == 0) return;
  mapped_ = (bytes + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes;
  void* p = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw Error(ErrorKind::out_of_memory, std::string("could not map ") + format_bytes(double(bytes)) + " for " +
                                              what + ": " + std::strerror(errno));
  // Advice only: where transparent huge pages are off, 4 KiB pages serve.
  (void)::madvise(p, mapped_, MADV_HUGEPAGE);
  data_ = static_cast<std::byte*>(p);
}

HostBuffer::~HostBuffer() { release(); }

void HostBuffer::release() noexcept {
  if (data_ == nullptr) return;
  if (locker_ != nullptr) locker_->unlock(data_);
  ::munmap(data_, mapped_);
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
  if (data_ == nullptr || locker_ != nullptr) return locker_ != nullptr;
  if (!locker.lock(data_, mapped_)) return false;
  locker_ = &locker;
  return true;
}

}  // namespace oocfft::volume
