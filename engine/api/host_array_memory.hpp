#pragma once
// The memory behind oocfft::HostArray with the PageLocker passed in, so a
// test can hand it one that refuses.
#include <cstddef>

#include "oocfft/host_array.hpp"
#include "volume/page_locker.hpp"

namespace oocfft::engine {

// `locker` null: plain memory (no device).
detail::PinnedAllocation allocate_pinned(std::size_t bytes, const volume::PageLocker* locker);
void deallocate_pinned(void* data, std::size_t bytes, const volume::PageLocker* locker) noexcept;

}  // namespace oocfft::engine
