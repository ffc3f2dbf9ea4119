#include "interruptible_run.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

namespace py = pybind11;

namespace oocfft::python {

namespace {

// One run: what stops it and what it reports to.
struct RunState {
  std::atomic<bool> stop{false};
  py::object progress;                              // None or a callable; touched under the GIL only
  std::optional<py::error_already_set> raised;      // by the progress callable, under the GIL
  std::optional<py::error_already_set> interrupted;  // a signal's exception, on the calling thread
};

}  // namespace

struct RunHooks::Slot {
  std::mutex current_mutex;
  RunState* current = nullptr;
  std::mutex busy;  // one run at a time

  RunState* state() {
    std::lock_guard<std::mutex> lock(current_mutex);
    return current;
  }
};

RunHooks::RunHooks() : slot_(std::make_shared<Slot>()) {}

Options RunHooks::wire(Options options) const {
  std::shared_ptr<Slot> slot = slot_;
  options.cancel = [slot] {
    RunState* s = slot->state();
    return s != nullptr && s->stop.load();
  };
  options.progress = [slot](const Progress& p) {
    RunState* s = slot->state();
    if (s == nullptr) return;
    py::gil_scoped_acquire gil;
    if (s->progress.is_none() || s->raised) return;
    try {
      s->progress(p.bricks_done, p.bricks_total);
    } catch (py::error_already_set& e) {
      s->raised.emplace(std::move(e));
      s->stop = true;
    }
  };
  return options;
}

void RunHooks::run(const py::object& progress, const std::function<void()>& work) const {
  RunState state;
  state.progress = progress;
  std::exception_ptr failure;
  {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> busy(slot_->busy);
    {
      std::lock_guard<std::mutex> lock(slot_->current_mutex);
      slot_->current = &state;
    }
    std::mutex done_mutex;
    std::condition_variable done_signal;
    bool done = false;
    std::thread worker([&] {
      try {
        work();
      } catch (...) {
        failure = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(done_mutex);
      done = true;
      done_signal.notify_one();
    });
    std::unique_lock<std::mutex> lock(done_mutex);
    while (!done_signal.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) {
      lock.unlock();
      {
        py::gil_scoped_acquire gil;
        if (!state.interrupted && PyErr_CheckSignals() != 0) {
          state.interrupted.emplace();  // fetches the pending exception (KeyboardInterrupt)
          state.stop = true;
        }
      }
      lock.lock();
    }
    lock.unlock();
    worker.join();
    std::lock_guard<std::mutex> current(slot_->current_mutex);
    slot_->current = nullptr;
  }
  // The GIL is held again here.
  if (state.interrupted) throw *state.interrupted;
  if (state.raised) throw *state.raised;
  if (failure) std::rethrow_exception(failure);
}

}  // namespace oocfft::python
