// transform_real_dataset and describe_real_dataset_transform
// (include/oocfft/hdf5.hpp): numpy's rfftn / irfftn of HDF5 datasets, with
// the file safety of transform_dataset (io::DatasetTransfer: the output
// under a temporary name, linked only when complete).
//
// Everything that can be refused is refused before the transfer opens the
// output (check_real_job): the kind of data for the direction, the real length
// of the last axis, in place, shift.
//
// Two paths, chosen by the host memory budget (choose_path):
//   in memory  the real volume and the half spectrum fit (an inverse: two
//              half spectra, since RealPlan::inverse keeps one between its
//              passes): read whole, RealPlan out of place, written whole;
//   streamed   they do not: RealSpectrumStore over a real store of the real
//              dataset (io::RealDatasetVolume) and a half-spectrum store of
//              the complex one, driven by the engine like the complex path.
//              An inverse's half spectrum between its passes lives in host
//              memory when it fits half the budget, else in a scratch
//              dataset in the output's file that commit() removes.
#include <tbb/task_arena.h>

#include <algorithm>
#include <complex>
#include <new>
#include <optional>

#include "engine/api/host_threads.hpp"
#include "engine/api/real_dataset_job.hpp"
#include "engine/pipeline/stream_pipeline.hpp"
#include "engine/pipeline/streaming_engine.hpp"
#include "engine/planning/host_memory.hpp"
#include "engine/planning/normalization.hpp"
#include "engine/planning/options_check.hpp"
#include "io/dataset_attributes.hpp"
#include "engine/api/call_guards.hpp"
#include "io/dataset_transfer.hpp"
#include "io/stored_element_names.hpp"
#include "kernels/volume_transform.hpp"
#include "oocfft/error.hpp"
#include "oocfft/hdf5.hpp"
#include "oocfft/real.hpp"
#include "volume/host_buffer.hpp"
#include "volume/real_spectrum_store.hpp"

namespace oocfft {

namespace {

using engine::check_real_job;
using engine::Clock;
using engine::dims_text;
using engine::real_output_record;
using engine::real_transform_name;
using engine::RealJob;
using engine::seconds_since;

// The plan's options for one path, and why the path was chosen.
struct RealPath {
  bool in_memory = false;
  Backend backend = Backend::host;  // resolved once, never automatic
  std::size_t host_budget = 0;
  std::size_t cache_brick_limit = 0;  // streamed: each dataset's chunk cache is sized for bricks up to this
  IntermediateSpectrum intermediate = IntermediateSpectrum::none;
  Options options;
  std::string reason;
};

RealPath choose_path(const RealJob& job, const Options& options, const DatasetTransformOptions& file_options) {
  RealPath path;
  path.host_budget = file_options.host_memory_budget != 0 ? file_options.host_memory_budget
                                                          : engine::default_host_memory_budget();
  path.options = options;
  path.backend = engine::resolve_backend(options.backend);
  const std::string budget = format_bytes(double(path.host_budget)) +
                             (file_options.host_memory_budget != 0 ? "" : " (80% of MemAvailable)");
  const std::size_t spectrum = job.spectrum_bytes();
  const std::size_t whole = job.real_bytes() + spectrum + (job.forward() ? 0 : spectrum);
  const std::string sizes = "the real volume (" + format_bytes(double(job.real_bytes())) + ") and " +
                            (job.forward() ? "the half spectrum (" : "two half spectra (") +
                            format_bytes(double(job.forward() ? spectrum : 2 * spectrum)) + ")";
  if (whole <= path.host_budget) {
    path.in_memory = true;
    path.intermediate = job.forward() ? IntermediateSpectrum::none : IntermediateSpectrum::host_memory;
    path.reason = "in memory: " + sizes + " fit the host memory budget of " + budget +
                  "; read whole, transformed out of place, written whole";
    return path;
  }
  // Streamed. The staging buffers take at most half of what the budget
  // leaves after an inverse's intermediate in host memory; the chunk
  // caches (each at most twice the brick it is sized for:
  // io/chunk_geometry.cpp) share the other half between two datasets, or
  // three with a scratch dataset.
  std::size_t working = path.host_budget;
  std::size_t datasets = 2;
  if (!job.forward()) {
    if (spectrum <= path.host_budget / 2) {
      path.intermediate = IntermediateSpectrum::host_memory;
      working -= spectrum;
    } else {
      path.intermediate = IntermediateSpectrum::output_file;
      datasets = 3;
    }
  }
  path.cache_brick_limit = working / (4 * datasets);
  Options& o = path.options;
  const std::size_t staging = working / 2;
  o.host_staging_budget = o.host_staging_budget == 0 ? staging : std::min(o.host_staging_budget, staging);
  // On the host backend its brick buffers are the staging: the device
  // budget bounds them the same way, so the plan never goes in place.
  if (path.backend == Backend::host)
    o.device_memory_budget =
        o.device_memory_budget == 0 ? o.host_staging_budget : std::min(o.device_memory_budget, o.host_staging_budget);
  path.reason = "streamed file -> device -> file: " + sizes + " exceed the host memory budget of " + budget +
                "; staging at most " + format_bytes(double(o.host_staging_budget));
  // A budget too small to make progress is refused with the smallest that
  // works (one that holds everything always does: in memory).
  engine::check_streaming_budget(
      path.host_budget, whole,
      "streaming " + job.input.path.to_string() + " (" + format_bytes(double(job.real_bytes())) + " real)",
      [&](std::size_t host_budget) -> std::size_t {
        if (host_budget >= whole) return 0;
        const bool intermediate_in_memory = !job.forward() && spectrum <= host_budget / 2;
        const std::size_t working = host_budget - (intermediate_in_memory ? spectrum : 0);
        return engine::streamed_bricks(job.spectrum_shape, 2 * job.value_bytes, options, path.backend, working / 2,
                                       true);
      });
  return path;
}

std::string intermediate_text(IntermediateSpectrum where, std::size_t bytes) {
  switch (where) {
    case IntermediateSpectrum::none: return "";
    case IntermediateSpectrum::host_memory:
      return "  the inverse keeps the half spectrum between its passes in host memory (" +
             format_bytes(double(bytes)) + ")\n";
    case IntermediateSpectrum::output_file:
      return "  the inverse keeps the half spectrum between its passes in a temporary dataset in the output's "
             "file (" + format_bytes(double(bytes)) + "), removed at the end\n";
  }
  return "";
}

engine::StreamingEngine make_engine(const RealJob& job, const RealPath& path) {
  return engine::StreamingEngine(job.spectrum_shape, job.input.precision, path.options, path.backend,
                                 kernels::VolumeTransform{kernels::TransformKind::real, job.real_shape.nx});
}

template <class T>
void run_real_plan(const RealPlan& plan, bool forward, std::byte* real, std::byte* spectrum, RunReport* report) {
  if (forward) {
    plan.forward(reinterpret_cast<const T*>(real), reinterpret_cast<std::complex<T>*>(spectrum), report);
  } else {
    plan.inverse(reinterpret_cast<const std::complex<T>*>(spectrum), reinterpret_cast<T*>(real), report);
  }
}

// Plans first (a plan that cannot be made fails before the volume is
// read), reads the input whole, transforms out of place, writes.
void transform_in_memory(io::DatasetTransfer& transfer, const RealJob& job, const RealPath& path,
                         DatasetTransformReport& report) {
  const RealPlan plan(job.real_shape, job.input.precision, path.options);
  volume::HostBuffer real(job.real_bytes(), ("the real volume of " + job.input.path.to_string()).c_str());
  volume::HostBuffer spectrum(job.spectrum_bytes(), ("the half spectrum of " + job.input.path.to_string()).c_str());
  const io::DatasetTransfer::SlabHook poll_cancel = io::DatasetTransfer::polling_cancel(path.options);
  Clock::time_point t = Clock::now();
  if (job.forward()) {
    transfer.read_input_real(real.data(), poll_cancel);
  } else {
    transfer.read_input(spectrum.data(), poll_cancel);
  }
  report.read_seconds = seconds_since(t);
  // Page-locked for the CUDA backend's direct DMA where the system allows;
  // otherwise the bricks stage (a no-op on the host backend).
  const PinnedMemory pinned_real = plan.pin(real.data(), real.bytes());
  const PinnedMemory pinned_spectrum = plan.pin(spectrum.data(), spectrum.bytes());
  t = Clock::now();
  if (job.input.precision == Precision::single) {
    run_real_plan<float>(plan, job.forward(), real.data(), spectrum.data(), &report.run);
  } else {
    run_real_plan<double>(plan, job.forward(), real.data(), spectrum.data(), &report.run);
  }
  report.transform_seconds = seconds_since(t);
  t = Clock::now();
  transfer.write_output(job.forward() ? spectrum.data() : real.data(), poll_cancel);
  report.write_seconds = seconds_since(t);
}

void transform_streamed(io::DatasetTransfer& transfer, const RealJob& job, const RealPath& path,
                        tbb::task_arena& arena, DatasetTransformReport& report) {
  const engine::StreamingEngine engine = make_engine(job, path);
  const engine::PassPlan plan = engine.plan();
  const std::size_t cache_brick = std::min({plan.brick_bytes, plan.staging_bytes, path.cache_brick_limit});
  const double scale = engine::norm_scale(path.options.norm, job.direction, job.real_shape.elements());
  const Clock::time_point t = Clock::now();
  if (job.forward()) {
    volume::VolumeStore& real = transfer.real_store(cache_brick);
    volume::VolumeStore& spectrum = transfer.output_store(cache_brick);
    volume::RealSpectrumStore store(real, spectrum);
    engine.execute(store, false, scale, arena, &report.run);
  } else {
    volume::VolumeStore& input = transfer.input_store(cache_brick);
    volume::VolumeStore& real = transfer.real_store(cache_brick);
    if (!plan.writes_between_passes()) report.intermediate = IntermediateSpectrum::none;
    volume::VolumeStore* between = report.intermediate == IntermediateSpectrum::output_file
                                       ? &transfer.scratch_store(job.spectrum_shape, cache_brick)
                                       : nullptr;
    volume::RealSpectrumStore store(input, real, between);
    engine.execute(store, true, scale, arena, &report.run);
    report.run.host_scratch_bytes = store.scratch_bytes();
  }
  report.transform_seconds = seconds_since(t);
}

DatasetTransformReport transform(const DatasetPath& input, const DatasetPath& output, Direction direction,
                                 const Options& options, const DatasetTransformOptions& file_options,
                                 std::size_t real_nx) {
  const Clock::time_point start = Clock::now();
  const RealJob job = check_real_job(input, direction, options, file_options, real_nx);
  // Creates the output under a temporary name; without commit() its
  // destructor removes it (and a scratch dataset) again.
  io::DatasetTransfer transfer(input, output, false, real_output_record(job, options.norm));
  if (transfer.input().dims != job.input.dims || transfer.input().element != job.input.element)
    throw Error(ErrorKind::io, input.to_string() + " changed while it was being opened");
  const RealPath path = choose_path(job, options, file_options);
  DatasetTransformReport report;
  report.input = transfer.input();
  report.output = output;
  report.output_shape = job.forward() ? job.spectrum_shape : job.real_shape;
  report.in_memory = path.in_memory;
  report.intermediate = path.intermediate;
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

DatasetTransformReport transform_real_dataset(const DatasetPath& input, const DatasetPath& output,
                                              Direction direction, const Options& options,
                                              const DatasetTransformOptions& file_options, std::size_t real_nx) {
  // Every allocation failure reaches the caller as Error(out_of_memory);
  // the transfer's destructor has removed the partial output by then.
  return engine::out_of_memory_as_error(std::string(real_transform_name(direction)) + " of " + input.to_string(), [&] {
    return io::nothing_committed_on_cancel(
        input, output, [&] { return transform(input, output, direction, options, file_options, real_nx); });
  });
}

std::string describe_real_dataset_transform(const DatasetPath& input, Direction direction, const Options& options,
                                            const DatasetTransformOptions& file_options, std::size_t real_nx) {
  const RealJob job = check_real_job(input, direction, options, file_options, real_nx);
  const RealPath path = choose_path(job, options, file_options);
  const Precision p = job.input.precision;
  const bool single = p == Precision::single;
  std::string s = std::string("oocfft real dataset transform (") + real_transform_name(direction) + "): " +
                  input.to_string() + ", stored " + job.input.dtype + " " + dims_text(job.input.dims) + "\n";
  const std::string real = "real " + dims_text(job.real_dims) + (single ? " float32" : " float64");
  const std::string half = "half spectrum " + dims_text(job.spectrum_dims) + (single ? " complex64" : " complex128");
  s += "  " + (job.forward() ? real + " -> " + half : half + " -> " + real) + "\n";
  s += "  " + path.reason + "\n";
  if (path.in_memory) {
    s += intermediate_text(path.intermediate, job.spectrum_bytes());
    s += RealPlan(job.real_shape, p, path.options).describe();
    return s;
  }
  const engine::StreamingEngine engine = make_engine(job, path);
  const IntermediateSpectrum where =
      engine.plan().writes_between_passes() ? path.intermediate : IntermediateSpectrum::none;
  s += intermediate_text(where, job.spectrum_bytes());
  s += engine.describe();
  return s;
}

}  // namespace oocfft
