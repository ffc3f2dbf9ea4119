#include "volume/chunked_registration.hpp"

#include <chrono>
#include <utility>

namespace oocfft::volume {

ChunkedRegistration::ChunkedRegistration(std::byte* array, HostChunks chunks, const PageLocker& locker)
    : array_(array), locker_(locker), chunks_(std::move(chunks)) {
  thread_ = std::thread([this] { lock_all(); });
}

ChunkedRegistration::~ChunkedRegistration() { (void)unlock(); }

void ChunkedRegistration::lock_all() {
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t c = 0; c < chunks_.count() && !stop_.load(); ++c) {
    if (!locker_.lock(array_ + chunks_.begin(c), chunks_.end(c) - chunks_.begin(c))) break;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      locked_.store(c + 1, std::memory_order_release);
    }
    changed_.notify_all();
  }
  lock_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    finished_ = true;
  }
  changed_.notify_all();
}

bool ChunkedRegistration::wait_ready(std::size_t c) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return ready(c) || finished_; });
  return ready(c);
}

double ChunkedRegistration::unlock() {
  if (unlocked_) return 0;
  unlocked_ = true;
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t c = 0; c < locked_.load(); ++c) locker_.unlock(array_ + chunks_.begin(c));
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace oocfft::volume
