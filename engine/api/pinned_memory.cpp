#include "engine/api/pinned_memory.hpp"

#include <memory>
#include <string>
#include <utility>

#include "core/format_bytes.hpp"
#include "engine/pipeline/execution_backend.hpp"
#include "oocfft/error.hpp"

namespace oocfft {

class PinnedMemory::Impl {
 public:
  Impl(std::unique_ptr<volume::PageLocker> locker, std::byte* data, std::string reason)
      : locker_(std::move(locker)), data_(data), reason_(std::move(reason)) {}
  ~Impl() {
    if (locked()) locker_->unlock(data_);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  bool locked() const { return locker_ != nullptr && data_ != nullptr; }
  const std::string& reason() const { return reason_; }

 private:
  std::unique_ptr<volume::PageLocker> locker_;  // set only when this handle locked the range
  std::byte* data_;
  std::string reason_;
};

PinnedMemory::PinnedMemory() noexcept = default;
PinnedMemory::PinnedMemory(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
PinnedMemory::~PinnedMemory() = default;
PinnedMemory::PinnedMemory(PinnedMemory&&) noexcept = default;
PinnedMemory& PinnedMemory::operator=(PinnedMemory&&) noexcept = default;
bool PinnedMemory::locked() const noexcept { return impl_ != nullptr && impl_->locked(); }
std::string PinnedMemory::reason() const { return impl_ == nullptr ? "nothing was pinned" : impl_->reason(); }

namespace engine {

PinnedMemory pin_for_device(void* data, std::size_t bytes, Backend backend) {
  if (data == nullptr) throw Error(ErrorKind::invalid_argument, "pin: data is a null pointer");
  if (bytes == 0) throw Error(ErrorKind::invalid_argument, "pin: 0 bytes");
  auto* begin = static_cast<std::byte*>(data);
  auto unlocked = [&](std::string reason) {
    return PinnedMemory(std::make_unique<PinnedMemory::Impl>(nullptr, begin, std::move(reason)));
  };
  if (backend == Backend::host) return unlocked("the host backend has no device to page-lock memory for");
  std::unique_ptr<volume::PageLocker> locker = make_device_page_locker();
  if (locker == nullptr) return unlocked("no CUDA device is usable");
  if (locker->is_locked(begin, bytes)) return unlocked("the memory is page-locked already");
  if (!locker->lock(begin, bytes))
    return unlocked("the system refused to page-lock " + format_bytes(double(bytes)) +
                    " (RLIMIT_MEMLOCK, an overlapping registration, or not enough memory)");
  return PinnedMemory(std::make_unique<PinnedMemory::Impl>(std::move(locker), begin, "page-locked by this handle"));
}

}  // namespace engine
}  // namespace oocfft
