#pragma once
// RunReport: what one execution of a plan did, for benchmarks and tools:
// the strategy that ran, memory held, bytes moved, and optionally a
// per-brick timeline of the streaming pipeline.
#include <cstddef>
#include <string>
#include <vector>

#include "oocfft/options.hpp"

namespace oocfft {

// One brick's trip through the pipeline. Times are seconds since the start
// of the execution; a stage that did not happen (no staging copy when the
// array is registered; no H2D/D2H on the host backend) has start == end == 0.
struct BrickTiming {
  unsigned pass = 0;
  std::size_t brick = 0;
  unsigned stream = 0;
  std::size_t bytes = 0;
  double gather_start = 0, gather_end = 0;    // host copy volume -> staging
  double h2d_start = 0, h2d_end = 0;          // host -> device
  double kernel_start = 0, kernel_end = 0;    // transform
  double d2h_start = 0, d2h_end = 0;          // device -> host
  double scatter_start = 0, scatter_end = 0;  // host copy staging -> volume
  unsigned device = 0;  // the device that ran it (Options::devices; the emulated device on the host backend)
};

struct RunReport {
  Strategy strategy = Strategy::in_core;
  Backend backend = Backend::host;
  unsigned passes = 0;
  unsigned streams = 0;
  bool registered = false;  // some bricks DMA'd straight from the caller's array
  std::size_t direct_bricks = 0;  // how many; the others went through staging
  std::size_t bricks = 0;
  std::size_t bytes_moved = 0;         // volume bytes read plus written
  // Bytes pass 1 kept on the device for pass 2 (carry-over, and the whole
  // volume for a resident in-core plan): neither written back by pass 1
  // nor read again by pass 2.
  std::size_t resident_bytes = 0;
  std::size_t staging_bytes = 0;       // pinned (or host) staging held
  std::size_t device_bytes = 0;        // device memory held by the engine
  std::size_t host_scratch_bytes = 0;  // host memory the run allocated beside the arrays (a real inverse's intermediate)
  std::size_t brick_bytes = 0;         // the largest brick of the plan that ran
  std::size_t device_budget = 0;       // the device budget that plan was fitted to
  // Plans given up before one ran: the device could not hold their buffers
  // (out of memory at execution), so the engine fitted the plan to half the
  // memory and tried again, before any data moved. Every field of this
  // report describes the plan that ran, and so does Plan::describe() after
  // the run: later executions start from that plan.
  unsigned replans = 0;
  double seconds = 0;                  // wall time of the execution
  // Page-locking the caller's array: cudaHostRegister (in a thread beside
  // the pipeline, so mostly overlapped) plus cudaHostUnregister (after it).
  double register_seconds = 0;
  // Filled only when the caller sets `record_timeline` before executing.
  bool record_timeline = false;
  std::vector<BrickTiming> timeline;
  // The devices the plan ran on (Options::devices; emulated on the host
  // backend with several), and the bytes of resident planes the y-slab
  // pass copied from the device that kept them to another (the exchange).
  unsigned devices = 1;
  std::size_t exchanged_bytes = 0;
};

}  // namespace oocfft
