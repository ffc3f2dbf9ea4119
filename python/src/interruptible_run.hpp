#pragma once
// A run of the library from Python: the GIL released while it works,
// Ctrl-C turned into the library's cancel, and progress reported to a
// Python callable.
//
// The library polls Options::cancel and calls Options::progress from its
// own threads, and a plan keeps the Options it was built with. So a plan
// built for Python gets hooks (RunHooks::wire) that forward to whatever run
// is in progress on it. RunHooks::run() starts the work in a worker thread
// and, on the calling thread, with the GIL released between polls, checks
// every 50 ms for a pending signal (PyErr_CheckSignals: a Ctrl-C raises
// KeyboardInterrupt there, in the main thread only). When one is pending,
// or the progress callable raised, the next cancel poll returns true: the
// engine finishes the bricks in flight and stops (within one brick), and
// run() raises the KeyboardInterrupt (or the callable's exception) in the
// caller once the worker has returned, so no page stays locked and no
// buffer is in use when Python sees the exception.
#include <pybind11/pybind11.h>

#include <oocfft/options.hpp>

#include <functional>
#include <memory>

namespace oocfft::python {

class RunHooks {
 public:
  RunHooks();
  // `options` with cancel and progress forwarding to the run in progress
  // (no-ops between runs).
  Options wire(Options options) const;
  // Runs `work` as described above; `progress` is None or a callable
  // taking (bricks_done, bricks_total). One run at a time per RunHooks: a
  // second caller waits for the first.
  void run(const pybind11::object& progress, const std::function<void()>& work) const;

  struct Slot;

 private:
  std::shared_ptr<Slot> slot_;
};

}  // namespace oocfft::python
