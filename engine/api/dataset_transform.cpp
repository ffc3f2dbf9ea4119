// transform_dataset and describe_dataset_transform (include/oocfft/hdf5.hpp):
// the engine over an HDF5 input and output.
//
// Two paths, chosen by the host memory budget (choose_path):
//   in memory  the volume fits the budget: it is read whole into a HostBuffer
//              the library owns, page-locked on the CUDA backend so that
//              every brick DMAs straight from it (no staging copies: the
//              engine's fastest path), transformed, and written whole;
//   streamed   it does not: the passes read bricks from the file into the
//              staging buffers and write them to the output dataset, and the
//              next pass reads the output (io::DatasetTransfer's store).
//              Host memory stays within the budget: half for the staging
//              buffers, the other half for the chunk caches of the two
//              datasets.
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <optional>

#include "engine/planning/host_memory.hpp"
#include "engine/api/host_threads.hpp"
#include "engine/planning/normalization.hpp"
#include "engine/planning/options_check.hpp"
#include "engine/pipeline/stream_pipeline.hpp"
#include "engine/pipeline/streaming_engine.hpp"
#include "engine/api/call_guards.hpp"
#include "io/dataset_transfer.hpp"
#include "io/stored_type.hpp"
#include "oocfft/error.hpp"
#include "oocfft/hdf5.hpp"
#include "volume/host_buffer.hpp"
#include "volume/host_volume.hpp"

namespace oocfft {

namespace {

using engine::Clock;
using engine::seconds_since;

// The plan's options for one path, and why the path was chosen.
struct TransformPath {
  bool in_memory = false;
  Backend backend = Backend::host;  // resolved once, never automatic
  std::size_t host_budget = 0;
  Options options;
  std::string reason;
};

TransformPath choose_path(const DatasetInfo& info, const Options& options,
                          const DatasetTransformOptions& file_options) {
  TransformPath path;
  path.host_budget = file_options.host_memory_budget != 0 ? file_options.host_memory_budget
                                                          : engine::default_host_memory_budget();
  path.options = options;
  path.backend = engine::resolve_backend(options.backend);
  const std::size_t volume = info.complex_bytes();
  const std::string budget = format_bytes(double(path.host_budget)) +
                             (file_options.host_memory_budget != 0 ? "" : " (80% of MemAvailable)");
  if (volume <= path.host_budget) {
    path.in_memory = true;
    path.reason = "in memory: the volume (" + format_bytes(double(volume)) + ") fits the host memory budget of " +
                  budget + "; read whole into page-locked memory, bricks DMA'd from it";
    return path;
  }
  // Streamed: the staging buffers (all streams) take at most half the
  // budget; on the host backend its brick buffers are the staging, and the
  // device budget bounds them the same way so the plan never goes in place.
  const std::size_t staging = path.host_budget / 2;
  Options& o = path.options;
  o.host_staging_budget = o.host_staging_budget == 0 ? staging : std::min(o.host_staging_budget, staging);
  if (path.backend == Backend::host)
    o.device_memory_budget =
        o.device_memory_budget == 0 ? o.host_staging_budget : std::min(o.device_memory_budget, o.host_staging_budget);
  path.reason = "streamed file -> device -> file: the volume (" + format_bytes(double(volume)) +
                ") exceeds the host memory budget of " + budget + "; staging at most " +
                format_bytes(double(o.host_staging_budget));
  // A budget too small to make progress is refused with the smallest that
  // works (a budget of the volume always does: in memory).
  engine::check_streaming_budget(path.host_budget, volume,
                                 "streaming " + info.path.to_string() + " (" + format_bytes(double(volume)) + ")",
                                 [&](std::size_t host_budget) -> std::size_t {
                                   if (host_budget >= volume) return 0;  // in memory
                                   return engine::streamed_bricks(info.shape, info.precision == Precision::single ? 8 : 16,
                                                                  options, path.backend, host_budget / 2);
                                 });
  return path;
}

// Plans (so a plan that cannot be made fails before the volume is read),
// reads the whole volume, page-locks it when the backend can, transforms it
// and writes it.
void transform_in_memory(io::DatasetTransfer& transfer, const TransformPath& path, Direction direction,
                         tbb::task_arena& arena, DatasetTransformReport& report) {
  const DatasetInfo& info = transfer.input();
  std::optional<engine::StreamingEngine> engine;
  engine.emplace(info.shape, info.precision, path.options, path.backend);
  volume::HostBuffer buffer(info.complex_bytes(), ("dataset " + info.path.to_string()).c_str());
  // The whole-volume read and write take seconds per 10 GiB: the cancel
  // hook is polled between their slabs too.
  const io::DatasetTransfer::SlabHook poll_cancel = io::DatasetTransfer::polling_cancel(path.options);
  Clock::time_point t = Clock::now();
  transfer.read_input(buffer.data(), poll_cancel);
  report.read_seconds = seconds_since(t);

  const volume::PageLocker* locker = engine->page_locker();
  if (locker != nullptr && !buffer.lock(*locker)) {
    // Not lockable (RLIMIT_MEMLOCK, no memory): bricks stage, within what is
    // left of the budget.
    Options staged = path.options;
    const std::size_t left = path.host_budget - std::min(path.host_budget, info.complex_bytes());
    staged.host_staging_budget = std::max<std::size_t>(left, std::size_t{64} << 20);
    engine.emplace(info.shape, info.precision, staged, path.backend);
  }
  const bool inverse = direction == Direction::inverse;
  const double scale = engine::norm_scale(path.options.norm, direction, info.shape.elements());
  t = Clock::now();
  if (engine->host_in_place()) {
    engine->execute_in_place(buffer.data(), inverse, scale, arena, &report.run);
  } else {
    volume::HostVolume store(buffer.data(), {info.shape.nz, info.shape.ny, info.shape.nx}, transfer.element_bytes());
    engine->execute(store, inverse, scale, arena, &report.run);
  }
  report.transform_seconds = seconds_since(t);
  t = Clock::now();
  transfer.write_output(buffer.data(), poll_cancel);
  report.write_seconds = seconds_since(t);
}

void transform_streamed(io::DatasetTransfer& transfer, const TransformPath& path, Direction direction,
                        tbb::task_arena& arena, DatasetTransformReport& report) {
  const DatasetInfo& info = transfer.input();
  const engine::StreamingEngine engine(info.shape, info.precision, path.options, path.backend);
  const engine::PassPlan& plan = engine.plan();
  // The two datasets' chunk caches (each at most twice the brick it is
  // sized for: io/chunk_geometry.cpp) share the half of the budget the
  // staging leaves: bricks of an eighth of the budget for the caches.
  const std::size_t cache_brick = std::min({plan.brick_bytes, plan.staging_bytes, path.host_budget / 8});
  volume::VolumeStore& store = transfer.streamed_store(cache_brick);
  const Clock::time_point t = Clock::now();
  engine.execute(store, direction == Direction::inverse,
                 engine::norm_scale(path.options.norm, direction, info.shape.elements()), arena, &report.run);
  report.transform_seconds = seconds_since(t);
}

}  // namespace

namespace {

DatasetTransformReport transform(const DatasetPath& input, const DatasetPath& output, Direction direction,
                                 const Options& options, const DatasetTransformOptions& file_options) {
  const Clock::time_point start = Clock::now();
  engine::check_options(options);
  engine::check_direction(direction);
  // Checks both datasets and creates the output under a temporary name;
  // without commit() its destructor removes it again.
  io::DatasetTransfer transfer(input, output, file_options.in_place,
                               io::transform_record(direction, options.norm, options.shift));
  const TransformPath path = choose_path(transfer.input(), options, file_options);
  DatasetTransformReport report;
  report.input = transfer.input();
  report.output = output;
  report.output_shape = transfer.output_shape();
  report.in_memory = path.in_memory;
  report.host_memory_budget = path.host_budget;
  const std::shared_ptr<tbb::task_arena> arena = engine::make_arena(options);
  if (path.in_memory) {
    transform_in_memory(transfer, path, direction, *arena, report);
  } else {
    transform_streamed(transfer, path, direction, *arena, report);
  }
  transfer.commit();
  report.seconds = seconds_since(start);
  return report;
}

}  // namespace

DatasetTransformReport transform_dataset(const DatasetPath& input, const DatasetPath& output, Direction direction,
                                         const Options& options, const DatasetTransformOptions& file_options) {
  // Every allocation failure reaches the caller as Error(out_of_memory);
  // the transfer's destructor has removed the partial output by then.
  return engine::out_of_memory_as_error("transforming " + input.to_string(), [&] {
    return io::nothing_committed_on_cancel(input, output,
                                           [&] { return transform(input, output, direction, options, file_options); });
  });
}

std::string describe_dataset_transform(const DatasetPath& input, const Options& options,
                                       const DatasetTransformOptions& file_options) {
  engine::check_options(options);
  const DatasetInfo info = inspect_dataset(input);
  io::check_transformable(info);  // what transform_dataset would refuse
  const TransformPath path = choose_path(info, options, file_options);
  const engine::StreamingEngine engine(info.shape, info.precision, path.options, path.backend);
  std::string s = "oocfft dataset transform: " + input.to_string() + ", stored " + info.dtype + ", volume " +
                  info.shape.to_string() + " complex " + to_string(info.precision) + " (" +
                  format_bytes(double(info.complex_bytes())) + ")\n";
  s += "  " + path.reason + "\n";
  s += engine.describe();
  return s;
}

}  // namespace oocfft
