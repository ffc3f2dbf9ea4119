#include "engine/chunked_registration.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <utility>

namespace oocfft::engine {

ChunkedRegistration::ChunkedRegistration(std::byte* array, transpose::HostChunks chunks, int device)
    : array_(array), chunks_(std::move(chunks)) {
  thread_ = std::thread([this, device] { lock_all(device); });
}

ChunkedRegistration::~ChunkedRegistration() { (void)unlock(); }

void ChunkedRegistration::lock_all(int device) {
  const auto t0 = std::chrono::steady_clock::now();
  if (cudaSetDevice(device) == cudaSuccess) {
    for (std::size_t c = 0; c < chunks_.count() && !stop_.load(); ++c) {
      const cudaError_t status =
          cudaHostRegister(array_ + chunks_.begin(c), chunks_.end(c) - chunks_.begin(c), cudaHostRegisterDefault);
      if (status != cudaSuccess) {
        (void)cudaGetLastError();  // this thread's error state only
        break;
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        locked_.store(c + 1, std::memory_order_release);
      }
      changed_.notify_all();
    }
  } else {
    (void)cudaGetLastError();
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
  // Unlocking needs no particular device: a registration belongs to the
  // process's primary context of the device it was made on.
  for (std::size_t c = 0; c < locked_.load(); ++c)
    if (cudaHostUnregister(array_ + chunks_.begin(c)) != cudaSuccess) (void)cudaGetLastError();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace oocfft::engine
