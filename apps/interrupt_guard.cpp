#include "apps/interrupt_guard.hpp"

#include <signal.h>
#include <unistd.h>

#include <iterator>

namespace oocfft::apps {

namespace {
// A signal handler receives only the signal number, so the one thing it may
// touch has to be reachable without arguments: this pointer to the caller's
// flag is the only static state of the program. It is a lock-free atomic,
// which is what the standard allows a handler to access ([support.signal]).
// The signal received is kept beside it, for the exit status.
std::atomic<std::atomic<bool>*> interrupt_flag{nullptr};
std::atomic<int> received_signal{0};
static_assert(std::atomic<std::atomic<bool>*>::is_always_lock_free);
static_assert(std::atomic<bool>::is_always_lock_free);
static_assert(std::atomic<int>::is_always_lock_free);

constexpr int handled[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void on_signal(int signal) {
  if (std::atomic<bool>* flag = interrupt_flag.load()) flag->store(true);
  int none = 0;
  (void)received_signal.compare_exchange_strong(none, signal);
  // write(2) is async-signal-safe; stdio is not. Nothing is committed
  // before the run ends, so the input and the output's name are as they were.
  static const char interrupted[] =
      "\ninterrupted: finishing the bricks in flight; the input stays as it was and nothing is written under the "
      "output's name (Ctrl-C again to stop at once)\n";
  static const char terminated[] =
      "\nterminated (SIGTERM): finishing the bricks in flight; the input stays as it was and nothing is written "
      "under the output's name (a second SIGTERM stops at once)\n";
  static const char hung_up[] =
      "\nhung up (SIGHUP): finishing the bricks in flight; the input stays as it was and nothing is written under "
      "the output's name\n";
  const char* message = signal == SIGINT ? interrupted : signal == SIGTERM ? terminated : hung_up;
  const std::size_t length = signal == SIGINT    ? sizeof interrupted - 1
                             : signal == SIGTERM ? sizeof terminated - 1
                                                 : sizeof hung_up - 1;
  [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, message, length);
}
}  // namespace

InterruptGuard::InterruptGuard(std::atomic<bool>& flag) {
  interrupt_flag.store(&flag);
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: the handler runs once, then the signal has its default
  // action again, so a second one ends a run that does not stop soon enough.
  action.sa_flags = SA_RESETHAND;
  for (std::size_t i = 0; i < std::size(handled); ++i) sigaction(handled[i], &action, &previous_[i]);
}

InterruptGuard::~InterruptGuard() {
  for (std::size_t i = 0; i < std::size(handled); ++i) sigaction(handled[i], &previous_[i], nullptr);
  interrupt_flag.store(nullptr);
}

int InterruptGuard::received() noexcept { return received_signal.load(); }

}  // namespace oocfft::apps
