// transform_trig_dataset (include/oocfft/hdf5.hpp): scipy's dctn / idctn /
// dstn / idstn of types 2 and 3 over all axes of a real HDF5 dataset, with
// the file safety of transform_dataset (io::DatasetTransfer: the output
// under a temporary name, linked only when complete; in place, the input
// replaced only then).
//
// Everything that can be refused is refused before the transfer opens the
// output (check_job): a transform that is not one of the four, shift, a
// missing dataset, complex data.
//
// Two paths, chosen by the host memory budget (choose_path), as the
// complex transform's:
//   in memory  the real volume fits: read whole, TrigPlan in place on the
//              buffer (page-locked for the CUDA backend's direct DMA where
//              the system allows), written whole;
//   streamed   it does not: the trig engine (its volume the real volume,
//              elements of sizeof(T)) streams the transfer's store of real
//              values, which reads the input in pass 0 and the output in
//              the later passes, and always writes the output. Half the
//              budget for the staging, the other half for the chunk caches
//              of the two datasets.
#include <tbb/task_arena.h>

#include <algorithm>
#include <new>

#include "engine/api/host_threads.hpp"
#include "engine/api/trig_volume.hpp"
#include "engine/pipeline/stream_pipeline.hpp"
#include "engine/pipeline/streaming_engine.hpp"
#include "engine/planning/host_memory.hpp"
#include "engine/planning/options_check.hpp"
#include "engine/api/call_guards.hpp"
#include "io/dataset_transfer.hpp"
#include "oocfft/error.hpp"
#include "oocfft/hdf5.hpp"
#include "oocfft/trig.hpp"
#include "volume/host_buffer.hpp"

namespace oocfft {

namespace {

using engine::Clock;
using engine::seconds_since;

bool cosine(TrigTransform t) { return t == TrigTransform::dct2 || t == TrigTransform::dct3; }
int scipy_type(TrigTransform t) { return t == TrigTransform::dct2 || t == TrigTransform::dst2 ? 2 : 3; }

// scipy's name of the call: dctn, idctn, dstn, idstn.
std::string call_name(TrigTransform t, Direction direction) {
  return std::string(direction == Direction::inverse ? "i" : "") + (cosine(t) ? "dctn" : "dstn");
}

// "idctn (type 2)", for messages.
std::string call_text(TrigTransform t, Direction direction) {
  return call_name(t, direction) + " (type " + std::to_string(scipy_type(t)) + ")";
}

// One trigonometric transform of one dataset, checked before anything is
// written.
struct TrigJob {
  DatasetInfo input;
  TrigTransform transform = TrigTransform::dct2;
  Direction direction = Direction::forward;
  std::size_t value_bytes = 4;  // one real value

  std::size_t volume_bytes() const { return input.shape.bytes(value_bytes); }
  // The dataset's own axes: scipy's dctn of a 1D or 2D dataset has no
  // factor for the leading axes the volume adds (TrigPlan's rank).
  unsigned rank() const {
    return static_cast<unsigned>(std::min<std::size_t>(3, std::max<std::size_t>(1, input.dims.size())));
  }
};

TrigJob check_job(const DatasetPath& input, TrigTransform transform, Direction direction, const Options& options) {
  engine::check_options(options);
  engine::check_direction(direction);
  const std::string where = input.to_string();
  switch (transform) {
    case TrigTransform::dct2:
    case TrigTransform::dct3:
    case TrigTransform::dst2:
    case TrigTransform::dst3: break;
    default:
      throw Error(ErrorKind::invalid_argument,
                  "transforming " + where + ": TrigTransform " + std::to_string(static_cast<int>(transform)) +
                      " is none of dct2, dct3, dst2, dst3 (scipy's types 2 and 3 of the DCT and DST)");
  }
  if (options.shift)
    throw Error(ErrorKind::unsupported, call_text(transform, direction) + " of " + where +
                                            ": shift (fftshift) has no meaning for the DCT and DST");
  TrigJob job;
  job.transform = transform;
  job.direction = direction;
  job.input = inspect_dataset(input);
  if (job.input.element != StoredElement::real)
    throw Error(ErrorKind::invalid_argument,
                where + ": holds complex values (" + job.input.dtype + "); " + call_text(transform, direction) +
                    " takes real float32 or float64 data (scipy transforms the real and imaginary parts apart: "
                    "store them as two real datasets)");
  job.value_bytes = job.input.precision == Precision::single ? 4 : 8;
  return job;
}

// The plan's options for one path, and why the path was chosen.
struct TrigPath {
  bool in_memory = false;
  Backend backend = Backend::host;  // resolved once, never automatic
  std::size_t host_budget = 0;
  Options options;
  std::string reason;
};

TrigPath choose_path(const TrigJob& job, const Options& options, const DatasetTransformOptions& file_options) {
  TrigPath path;
  path.host_budget = file_options.host_memory_budget != 0 ? file_options.host_memory_budget
                                                          : engine::default_host_memory_budget();
  path.options = options;
  path.backend = engine::resolve_backend(options.backend);
  const std::size_t volume = job.volume_bytes();
  const std::string budget = format_bytes(double(path.host_budget)) +
                             (file_options.host_memory_budget != 0 ? "" : " (80% of MemAvailable)");
  if (volume <= path.host_budget) {
    path.in_memory = true;
    path.reason = "in memory: the real volume (" + format_bytes(double(volume)) +
                  ") fits the host memory budget of " + budget + "; read whole, transformed in place, written whole";
    return path;
  }
  // Streamed, as the complex transform: the staging buffers (all streams)
  // take at most half the budget; on the host backend its brick buffers
  // are the staging, and the device budget bounds them the same way so the
  // plan never goes in place.
  const std::size_t staging = path.host_budget / 2;
  Options& o = path.options;
  o.host_staging_budget = o.host_staging_budget == 0 ? staging : std::min(o.host_staging_budget, staging);
  if (path.backend == Backend::host)
    o.device_memory_budget =
        o.device_memory_budget == 0 ? o.host_staging_budget : std::min(o.device_memory_budget, o.host_staging_budget);
  path.reason = "streamed file -> device -> file: the real volume (" + format_bytes(double(volume)) +
                ") exceeds the host memory budget of " + budget + "; staging at most " +
                format_bytes(double(o.host_staging_budget));
  // A budget too small to make progress is refused with the smallest that
  // works (a budget of the volume always does: in memory).
  engine::check_streaming_budget(path.host_budget, volume,
                                 "streaming " + job.input.path.to_string() + " (" + format_bytes(double(volume)) + ")",
                                 [&](std::size_t host_budget) -> std::size_t {
                                   if (host_budget >= volume) return 0;
                                   return engine::streamed_bricks(job.input.shape, job.value_bytes, options,
                                                                  path.backend, host_budget / 2);
                                 });
  return path;
}

template <class T>
void execute_plan(const TrigPlan& plan, std::byte* data, Direction direction, RunReport* report) {
  plan.execute(reinterpret_cast<T*>(data), direction, report);
}

// Plans first (a plan that cannot be made fails before the volume is
// read), reads the input whole, transforms in place, writes.
void transform_in_memory(io::DatasetTransfer& transfer, const TrigJob& job, const TrigPath& path,
                         DatasetTransformReport& report) {
  const TrigPlan plan(job.input.shape, job.input.precision, job.transform, job.rank(), path.options);
  volume::HostBuffer buffer(job.volume_bytes(), ("dataset " + job.input.path.to_string()).c_str());
  const io::DatasetTransfer::SlabHook poll_cancel = io::DatasetTransfer::polling_cancel(path.options);
  Clock::time_point t = Clock::now();
  transfer.read_input_real(buffer.data(), poll_cancel);
  report.read_seconds = seconds_since(t);
  // Page-locked for the CUDA backend's direct DMA where the system allows;
  // otherwise the bricks stage (a no-op on the host backend).
  const PinnedMemory pinned = plan.pin(buffer.data(), buffer.bytes());
  t = Clock::now();
  if (job.input.precision == Precision::single) {
    execute_plan<float>(plan, buffer.data(), job.direction, &report.run);
  } else {
    execute_plan<double>(plan, buffer.data(), job.direction, &report.run);
  }
  report.transform_seconds = seconds_since(t);
  t = Clock::now();
  transfer.write_output(buffer.data(), poll_cancel);
  report.write_seconds = seconds_since(t);
}

void transform_streamed(io::DatasetTransfer& transfer, const TrigJob& job, const TrigPath& path,
                        tbb::task_arena& arena, DatasetTransformReport& report) {
  const engine::StreamingEngine engine(job.input.shape, job.input.precision, path.options, path.backend,
                                       engine::trig_volume_transform(job.transform, path.options.norm));
  const engine::PassPlan plan = engine.plan();
  // The two datasets' chunk caches (each at most twice the brick it is
  // sized for: io/chunk_geometry.cpp) share the half of the budget the
  // staging leaves: bricks of an eighth of the budget for the caches.
  const std::size_t cache_brick = std::min({plan.brick_bytes, plan.staging_bytes, path.host_budget / 8});
  volume::VolumeStore& store = transfer.streamed_store(cache_brick);
  if (store.element_bytes() != job.value_bytes)
    throw Error(ErrorKind::invalid_argument, "internal: the store of " + job.input.path.to_string() +
                                                 " does not hold real values");
  const Clock::time_point t = Clock::now();
  engine.execute(store, job.direction == Direction::inverse,
                 engine::trig_scale(job.transform, path.options.norm, job.input.shape, job.direction, job.rank()),
                 arena,
                 &report.run);
  report.transform_seconds = seconds_since(t);
}

io::OutputRecord output_record(const TrigJob& job, Norm norm) {
  io::OutputRecord record;
  record.element = StoredElement::real;
  record.attributes = {{"transform", call_name(job.transform, job.direction)},
                       {"type", std::to_string(scipy_type(job.transform))},
                       {"norm", to_string(norm)}};
  return record;
}

DatasetTransformReport run_transform(const DatasetPath& input, const DatasetPath& output, TrigTransform transform,
                                     Direction direction, const Options& options,
                                     const DatasetTransformOptions& file_options) {
  const Clock::time_point start = Clock::now();
  const TrigJob job = check_job(input, transform, direction, options);
  // Checks both datasets and creates the output under a temporary name;
  // without commit() its destructor removes it again.
  io::DatasetTransfer transfer(input, output, file_options.in_place, output_record(job, options.norm));
  if (transfer.input().dims != job.input.dims || transfer.input().element != job.input.element)
    throw Error(ErrorKind::io, input.to_string() + " changed while it was being opened");
  const TrigPath path = choose_path(job, options, file_options);
  DatasetTransformReport report;
  report.input = transfer.input();
  report.output = output;
  report.output_shape = job.input.shape;
  report.in_memory = path.in_memory;
  report.host_memory_budget = path.host_budget;
  if (path.in_memory) {
    transform_in_memory(transfer, job, path, report);
  } else {
    const std::shared_ptr<tbb::task_arena> arena = engine::make_arena(options);
    transform_streamed(transfer, job, path, *arena, report);
  }
  transfer.commit();
  report.seconds = seconds_since(start);
  return report;
}

}  // namespace

DatasetTransformReport transform_trig_dataset(const DatasetPath& input, const DatasetPath& output,
                                              TrigTransform transform, Direction direction, const Options& options,
                                              const DatasetTransformOptions& file_options) {
  // Every allocation failure reaches the caller as Error(out_of_memory);
  // the transfer's destructor has removed the partial output by then.
  return engine::out_of_memory_as_error("the " + std::string(to_string(transform)) + " of " + input.to_string(), [&] {
    return io::nothing_committed_on_cancel(input, output, [&] {
      return run_transform(input, output, transform, direction, options, file_options);
    });
  });
}

}  // namespace oocfft
