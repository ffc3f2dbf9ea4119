// HostArray's memory (include/oocfft/host_array.hpp): a huge-page mapping
// (volume/huge_page_mapping.hpp), first touched in parallel, page-locked
// through the CUDA device's PageLocker when one is usable.
#include "engine/api/host_array_memory.hpp"

#include <memory>

#include "core/format_bytes.hpp"
#include "engine/pipeline/execution_backend.hpp"
#include "volume/huge_page_mapping.hpp"

namespace oocfft {

namespace engine {

detail::PinnedAllocation allocate_pinned(std::size_t bytes, const volume::PageLocker* locker) {
  if (bytes == 0) throw Error(ErrorKind::invalid_argument, "HostArray: 0 bytes requested");
  const volume::HugePageMapping m = volume::map_huge_page_advised(bytes, "a HostArray");
  detail::PinnedAllocation a;
  a.data = m.data;
  a.huge_pages_advised = m.huge_pages_advised;
  try {
    volume::first_touch(m.data, bytes);
  } catch (...) {
    volume::unmap_huge_page_advised(m.data, bytes);
    throw;
  }
  if (locker == nullptr) {
    a.lock_failure = "no CUDA device is usable: plain pageable memory";
  } else if (locker->lock(m.data, m.mapped)) {
    a.page_locked = true;
  } else {
    a.lock_failure = "the system refused to page-lock " + format_bytes(double(m.mapped)) +
                     " (RLIMIT_MEMLOCK, or not enough memory): plain pageable memory";
  }
  return a;
}

void deallocate_pinned(void* data, std::size_t bytes, const volume::PageLocker* locker) noexcept {
  if (data == nullptr) return;
  if (locker != nullptr) locker->unlock(static_cast<std::byte*>(data));
  volume::unmap_huge_page_advised(static_cast<std::byte*>(data), bytes);
}

}  // namespace engine

namespace detail {

PinnedAllocation allocate_pinned(std::size_t bytes, bool lock) {
  if (!lock) {
    PinnedAllocation a = engine::allocate_pinned(bytes, nullptr);
    a.lock_failure = "pageable, as asked (PageLocking::pageable)";
    return a;
  }
  const std::unique_ptr<volume::PageLocker> locker = engine::make_device_page_locker();
  return engine::allocate_pinned(bytes, locker.get());
}

void deallocate_pinned(void* data, std::size_t bytes, bool page_locked) noexcept {
  std::unique_ptr<volume::PageLocker> locker;
  if (page_locked) {
    try {
      locker = engine::make_device_page_locker();
    } catch (...) {
      // No device any more: nothing can be unlocked; the mapping still goes.
    }
  }
  engine::deallocate_pinned(data, bytes, locker.get());
}

}  // namespace detail
}  // namespace oocfft
