#include "engine/pipeline/stream_pipeline.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "oocfft/error.hpp"

namespace oocfft::engine {

PipelineTotals run_pipeline(const PassPlan& plan, volume::VolumeStore& store, const std::vector<BrickLane*>& lanes,
                            const PipelineHooks& hooks) {
  const Shape volume = store.shape();
  const unsigned passes = static_cast<unsigned>(plan.passes.size());
  const std::size_t total = plan.total_bricks();
  std::atomic<bool> stop{false};
  bool cancelled = false;
  std::exception_ptr failure;
  std::mutex report_mutex;  // progress calls, totals, timeline, failure
  PipelineTotals totals;

  const unsigned devices = static_cast<unsigned>(plan.devices.size());
  if (lanes.size() != plan.lanes())  // a backend's mistake, not the caller's
    throw std::logic_error(std::to_string(lanes.size()) + " lanes for a plan of " + std::to_string(plan.lanes()) +
                           " (devices x streams)");
  for (unsigned pass = 0; pass < passes && !stop.load(); ++pass) {
    const PassSpec& spec = plan.passes[pass];
    // Each device's bricks of the pass, in order: its lanes take only these.
    std::vector<std::vector<std::size_t>> queue(devices);
    for (std::size_t i = 0; i < spec.bricks; ++i) queue[plan.device_of(pass, i)].push_back(i);
    std::vector<std::atomic<std::size_t>> next(devices);  // each device's next brick, from 0 (C++20)
    auto stream_loop = [&](unsigned lane_index) {
      BrickLane& lane = *lanes[lane_index];
      const unsigned device = lane_index / plan.streams, stream = lane_index % plan.streams;
      const std::vector<std::size_t>& bricks = queue[device];
      for (;;) {
        if (stop.load()) return;
        if (hooks.cancel != nullptr && *hooks.cancel) {
          // One call at a time, never beside a progress call: the callback
          // needs no locking of its own. An exception from it stops the run
          // like a cancel and reaches the caller as it was thrown.
          std::lock_guard<std::mutex> lock(report_mutex);
          bool stop_now = false;
          try {
            stop_now = (*hooks.cancel)();
          } catch (...) {
            if (!failure) failure = std::current_exception();
            stop.store(true);
            return;
          }
          if (stop_now) {
            cancelled = true;
            stop.store(true);
            return;
          }
        }
        const std::size_t taken = next[device].fetch_add(1);
        if (taken >= bricks.size()) return;
        const std::size_t index = bricks[taken];
        BrickJob job;
        job.pass = pass;
        job.index = index;
        job.device = device;
        job.box = spec.box(volume, index);
        job.spec = &spec;
        job.last_pass = pass + 1 == passes;
        BrickTiming timing;
        timing.pass = pass;
        timing.brick = index;
        timing.stream = stream;
        timing.device = static_cast<unsigned>(plan.devices[device].ordinal);
        timing.bytes = job.box.elements() * plan.element_bytes;
        std::size_t moved = 0;
        try {
          try {
            moved = lane.process(job, timing);
          } catch (const Error& error) {
            // On several devices the message says which one ran the brick.
            if (devices == 1) throw;
            throw Error(error.kind(), std::string(error.what()) + " (brick " + std::to_string(index) + " of pass " +
                                          std::to_string(pass + 1) + ", on device " +
                                          std::to_string(plan.devices[device].ordinal) + ")");
          }
        } catch (...) {
          std::lock_guard<std::mutex> lock(report_mutex);
          if (!failure) failure = std::current_exception();
          stop.store(true);
          return;
        }
        std::lock_guard<std::mutex> lock(report_mutex);
        ++totals.bricks;
        totals.bytes_moved += moved;
        if (hooks.timeline != nullptr) hooks.timeline->push_back(timing);
        if (hooks.progress != nullptr && *hooks.progress) {
          Progress p;
          p.bricks_done = totals.bricks;
          p.bricks_total = total;
          p.bytes_moved = totals.bytes_moved;
          p.pass = pass;
          p.passes = passes;
          try {
            (*hooks.progress)(p);
          } catch (...) {
            if (!failure) failure = std::current_exception();
            stop.store(true);
            return;
          }
        }
      }
    };
    // The lanes with a brick to take: up to `streams` of each device.
    std::vector<unsigned> busy;
    for (unsigned d = 0; d < devices; ++d)
      for (unsigned s = 0; s < std::min<std::size_t>(plan.streams, queue[d].size()); ++s)
        busy.push_back(d * plan.streams + s);
    if (busy.size() == 1) {
      stream_loop(busy[0]);
    } else if (!busy.empty()) {
      // Stream threads mostly wait on copies and events; the parallel work
      // inside a brick runs in the plan's TBB arena.
      std::vector<std::thread> threads;
      threads.reserve(busy.size() - 1);
      for (std::size_t b = 1; b < busy.size(); ++b) threads.emplace_back(stream_loop, busy[b]);
      stream_loop(busy[0]);
      for (std::thread& t : threads) t.join();
    }
    if (!stop.load()) store.pass_finished(pass);
  }
  if (failure) std::rethrow_exception(failure);
  if (cancelled)
    throw Error(ErrorKind::cancelled, "cancelled after " + std::to_string(totals.bricks) + " of " +
                                          std::to_string(total) + " bricks" +
                                          (totals.bricks == 0 ? "; the array is untouched"
                                                              : "; the array holds a partly transformed volume"));
  return totals;
}

}  // namespace oocfft::engine
