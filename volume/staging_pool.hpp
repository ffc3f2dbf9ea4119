#pragma once
// StagingPool: the streams' staging buffers (HostBuffer, one per stream),
// kept alive between executions of a plan, because page-locking costs about
// as much per GiB as the copies it speeds up.
#include <cstddef>
#include <mutex>
#include <vector>

#include "volume/host_buffer.hpp"
#include "volume/page_locker.hpp"

namespace oocfft::volume {

class StagingPool {
 public:
  // Makes sure `count` buffers of at least `bytes`, page-locked through
  // `locker` (null: pageable), exist and returns them; buffers already held
  // are reused when large enough and locked the same way. Throws
  // std::bad_alloc when the system refuses to page-lock them (the caller
  // says what the run needed), Error(out_of_memory) when they cannot be
  // mapped. Not thread-safe by itself: the caller holds mutex() while it
  // uses them.
  std::vector<HostBuffer>& acquire(std::size_t count, std::size_t bytes, const PageLocker* locker);
  std::size_t held_bytes() const;
  std::mutex& mutex() { return mutex_; }

 private:
  std::mutex mutex_;
  std::vector<HostBuffer> buffers_;
};

}  // namespace oocfft::volume
