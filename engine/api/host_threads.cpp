#include "engine/api/host_threads.hpp"

#include "oocfft/error.hpp"

namespace oocfft {

HostThreads::HostThreads(unsigned threads) {
  if (threads == 0) throw Error(ErrorKind::invalid_argument, "HostThreads: 0 threads");
  impl_ = std::make_shared<Impl>(threads);
}

unsigned HostThreads::threads() const noexcept { return impl_ == nullptr ? 0 : impl_->threads(); }

namespace engine {

std::shared_ptr<tbb::task_arena> make_arena(const Options& options) {
  if (!options.host_threads.empty()) {
    const std::shared_ptr<HostThreads::Impl>& shared = options.host_threads.impl();
    return std::shared_ptr<tbb::task_arena>(shared, &shared->arena());  // keeps the threads alive
  }
  if (options.threads == 0) return std::make_shared<tbb::task_arena>(tbb::task_arena::attach());
  return std::make_shared<tbb::task_arena>(static_cast<int>(options.threads));
}

}  // namespace engine
}  // namespace oocfft
