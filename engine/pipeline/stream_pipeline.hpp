#pragma once
// The streaming pipeline shared by every backend: for each pass, the bricks
// of the pass are handed out in order to one thread per lane (a stream of
// a device), each lane taking only the bricks the plan gave its device
// (PassPlan::device_of). Each lane (a BrickLane) takes its brick through
// gather -> upload -> transform -> download -> scatter and asks for the
// next. Host copies of one lane therefore overlap the transfers and
// kernels of the others, as in oneTBB's parallel_pipeline with one token
// per staging buffer. A pass ends when all its bricks are written back
// (the next pass reads what it wrote).
// Progress is reported after each brick and cancellation polled before
// each brick, one call of either at a time; the first error (a brick's, or
// an exception from either callback) stops every lane after its brick in
// flight and is rethrown; on several devices, a brick's oocfft::Error is
// rethrown with the brick, its pass and its device added to the message.
#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

#include "engine/planning/pass_planner.hpp"
#include "oocfft/options.hpp"
#include "oocfft/run_report.hpp"
#include "volume/volume_store.hpp"

namespace oocfft::engine {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct BrickJob {
  unsigned pass = 0;
  std::size_t index = 0;  // brick within the pass
  Box box;
  const PassSpec* spec = nullptr;
  bool last_pass = false;  // the pass that applies the normalisation
  unsigned device = 0;     // the lane's device: an index into PassPlan::devices
};

// One stream's resources. process() runs a whole brick and returns when the
// brick is back in the volume (or, in pass 1 of a carry-over plan, kept on
// the device); it fills the stages of `timing` it performs and returns the
// bytes it read from and wrote to the volume.
class BrickLane {
 public:
  virtual ~BrickLane() = default;
  virtual std::size_t process(const BrickJob& job, BrickTiming& timing) = 0;
};

struct PipelineHooks {
  const std::function<void(const Progress&)>* progress = nullptr;
  const std::function<bool()>* cancel = nullptr;
  std::vector<BrickTiming>* timeline = nullptr;  // null: not recorded

  // The options' callbacks, and the report's timeline when it asks for one.
  static PipelineHooks of(const Options& options, RunReport* report) {
    PipelineHooks hooks;
    hooks.progress = &options.progress;
    hooks.cancel = &options.cancel;
    if (report != nullptr && report->record_timeline) hooks.timeline = &report->timeline;
    return hooks;
  }
};

struct PipelineTotals {
  std::size_t bricks = 0;
  std::size_t bytes_moved = 0;
};

// Runs every pass of `plan` over `store`, telling the store when each pass
// has been written back. `lanes` holds plan.lanes() lanes: lane l is stream
// l % plan.streams of device l / plan.streams. Throws Error(cancelled) when
// the cancel hook asked to stop.
PipelineTotals run_pipeline(const PassPlan& plan, volume::VolumeStore& store, const std::vector<BrickLane*>& lanes,
                            const PipelineHooks& hooks);

}  // namespace oocfft::engine
