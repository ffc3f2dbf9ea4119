#pragma once
// Ctrl-C during a transform: the first SIGINT sets a flag that the caller
// hands to Options::cancel, so the engine finishes the bricks in flight and
// throws Error(cancelled), leaving an HDF5 input as it was; the second
// SIGINT gets the default action and ends the process at once.
#include <signal.h>

#include <atomic>

namespace oocfft::apps {

class InterruptGuard {
 public:
  // Installs the handler, which sets `flag` (owned by the caller, who must
  // keep it alive while the guard lives). Restores the previous action on
  // destruction.
  explicit InterruptGuard(std::atomic<bool>& flag);
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction previous_ {};
};

}  // namespace oocfft::apps
