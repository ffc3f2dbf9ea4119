#pragma once
// A distributed run's controls (Options::progress and Options::cancel)
// over the whole job rather than one rank's part of it. Progress: rank 0
// alone reports, after each agreed step (every rank has finished it) and
// after the last exchange (rank 0 then has all it receives); the local
// plans' per-brick progress, one rank's, is not passed on. Cancel: the
// engine polls it before each brick of a rank's local transforms, and the
// plan polls it before the z lines too, since a rank with no y-slab or no
// pencils runs none.
#include <functional>
#include <string>

#include "oocfft/error.hpp"
#include "oocfft/options.hpp"

namespace oocfft::distributed {

class RunControls {
 public:
  // A run of `steps` reported steps, on rank `rank`.
  RunControls(const Options& options, int rank, unsigned steps)
      : progress_(options.progress), cancel_(options.cancel), rank_(rank), steps_(steps) {}

  // Step `step` (0-based) done: rank 0 reports it as bricks and passes.
  void step_done(unsigned step) const {
    if (rank_ == 0 && progress_) progress_(Progress{step + 1, steps_, 0, step, steps_});
  }

  // Throws Error(cancelled) naming the rank and `what` comes next when
  // the run was cancelled.
  void poll_cancel(const std::string& before) const {
    if (cancel_ && cancel_())
      throw Error(ErrorKind::cancelled, "rank " + std::to_string(rank_) + ": cancelled before " + before);
  }

 private:
  std::function<void(const Progress&)> progress_;
  std::function<bool()> cancel_;
  int rank_ = 0;
  unsigned steps_ = 0;
};

}  // namespace oocfft::distributed
