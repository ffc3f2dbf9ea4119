#pragma once
// Ctrl-C during a transform: the first SIGINT sets a flag that the caller
// hands to Options::cancel, so the engine finishes the bricks in flight and
// throws Error(cancelled), leaving an HDF5 input as it was and nothing
// under the output's name; the second SIGINT gets the default action and
// ends the process at once (a new output file is still only under its
// temporary name then). SIGTERM (kill, a batch system's time limit) and
// SIGHUP (the terminal closed) are handled the same way.
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

  // The signal that set the flag (SIGINT, SIGTERM or SIGHUP), 0 when none
  // has; still answers after the guard is gone.
  static int received() noexcept;

 private:
  struct sigaction previous_[3] {};
};

}  // namespace oocfft::apps
