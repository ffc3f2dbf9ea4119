#include "apps/interrupt_guard.hpp"

#include <signal.h>
#include <unistd.h>

namespace oocfft::apps {

namespace {
// A signal handler receives only the signal number, so the one thing it may
// touch has to be reachable without arguments: this pointer to the caller's
// flag is the only static state of the program. It is a lock-free atomic,
// which is what the standard allows a handler to access ([support.signal]).
std::atomic<std::atomic<bool>*> interrupt_flag{nullptr};
static_assert(std::atomic<std::atomic<bool>*>::is_always_lock_free);
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_sigint(int) {
  if (std::atomic<bool>* flag = interrupt_flag.load()) flag->store(true);
  // write(2) is async-signal-safe; stdio is not.
  static const char message[] =
      "\ninterrupted: finishing the bricks in flight, input left unchanged (Ctrl-C again to stop at once)\n";
  [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, message, sizeof message - 1);
}
}  // namespace

InterruptGuard::InterruptGuard(std::atomic<bool>& flag) {
  interrupt_flag.store(&flag);
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: the handler runs once, then SIGINT has its default action
  // again, so a second Ctrl-C ends a run that does not stop soon enough.
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &action, &previous_);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &previous_, nullptr);
  interrupt_flag.store(nullptr);
}

}  // namespace oocfft::apps
