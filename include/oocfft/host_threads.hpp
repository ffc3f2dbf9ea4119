#pragma once
// HostThreads: host threads that plans and one-shot calls share, made once
// by the caller and handed to them in Options::host_threads. Without it,
// a plan with a thread count makes a TBB arena of its own, and oneTBB keeps
// memory for every arena it ever made: a loop of fft3d calls with
// threads = 2 grew by about 7 KiB a call. With one HostThreads the loop
// stays flat. Copies share the same threads; the threads go with the last
// copy (plans hold one). Safe to use from several threads at once.
#include <memory>

namespace oocfft {

class HostThreads {
 public:
  HostThreads() = default;  // none: plans use Options::threads
  // Throws Error(invalid_argument) for 0.
  explicit HostThreads(unsigned threads);

  bool empty() const noexcept { return impl_ == nullptr; }
  unsigned threads() const noexcept;

  class Impl;
  const std::shared_ptr<Impl>& impl() const noexcept { return impl_; }

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace oocfft
