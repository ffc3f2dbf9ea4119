#include "apps/distributed_fft_command.hpp"

#include <cstdio>
#include <memory>

#include "apps/json_report_file.hpp"
#include "apps/progress_reporter.hpp"
#include "core/format_bytes.hpp"
#include "oocfft/distributed.hpp"
#include "oocfft/distributed_hdf5.hpp"

namespace oocfft::apps {

namespace {

// The library call of one distributed dataset command, with every rank's
// Options (the interrupt as cancel; progress on rank 0), and the summary
// rank 0 prints after it.
template <class Transform>
DatasetTransformReport run_with_progress(const CliOptions& cli, const std::atomic<bool>& interrupted, int rank,
                                         Transform transform) {
  Options options = cli.options;
  options.cancel = [&interrupted] { return interrupted.load(std::memory_order_relaxed); };
  std::unique_ptr<ProgressReporter> progress;
  if (rank == 0) {
    progress = std::make_unique<ProgressReporter>(stderr, progress_style_for(stderr), "steps");
    options.progress = [&progress](const Progress& p) { progress->update(p); };
    progress->begin();
  }
  try {
    DatasetTransformReport report = transform(options);
    if (progress) progress->finish();
    return report;
  } catch (...) {
    if (progress) progress->finish();
    throw;
  }
}

void print_times(const DatasetTransformReport& report, std::size_t bytes) {
  std::printf("%s %s in %.3f s: read %.3f s, transform %.3f s, write %.3f s (each rank its slabs, in memory)\n",
              report.input.shape.to_string().c_str(), format_bytes(static_cast<double>(bytes)).c_str(),
              report.seconds, report.read_seconds, report.transform_seconds, report.write_seconds);
}

}  // namespace

void run_distributed_fft(const CliOptions& cli, const std::atomic<bool>& interrupted, MPI_Comm comm, int rank) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  DatasetPath input, output;
  JsonReport json;
  // The command's own checks fail every rank or none, before the job's
  // first collective.
  agree_on_step(comm, [&] {
    input = DatasetPath::parse(cli.fft.input);
    output = cli.fft.output.empty() ? input : DatasetPath::parse(cli.fft.output);
    json = open_json(cli.fft.json, input, output);
  });
  DatasetTransformOptions file_options;
  file_options.in_place = cli.fft.in_place;
  file_options.host_memory_budget = cli.host_memory;
  const DatasetTransformReport report = run_with_progress(cli, interrupted, rank, [&](const Options& options) {
    return transform_dataset(comm, input, output, cli.fft.direction, options, file_options);
  });
  if (rank != 0) return;
  std::printf("%s -> %s (%s, %d rank%s)\n", input.to_string().c_str(), report.output.to_string().c_str(),
              to_string(cli.fft.direction), ranks, ranks == 1 ? "" : "s");
  print_times(report, report.input.complex_bytes());
  finish_json(json, report);
}

void run_distributed_real_fft(const CliOptions& cli, const std::atomic<bool>& interrupted, MPI_Comm comm, int rank) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  const RealFftArgs& r = cli.real_fft;
  DatasetPath input, output;
  JsonReport json;
  agree_on_step(comm, [&] {
    input = DatasetPath::parse(r.input);
    output = DatasetPath::parse(r.output);
    json = open_json(r.json, input, output);
  });
  DatasetTransformOptions file_options;
  file_options.host_memory_budget = cli.host_memory;
  const DatasetTransformReport report = run_with_progress(cli, interrupted, rank, [&](const Options& options) {
    return transform_real_dataset(comm, input, output, r.direction, options, file_options, r.nx);
  });
  if (rank != 0) return;
  const bool forward = r.direction == Direction::forward;
  std::printf("%s -> %s (%s, %s -> %s, %d rank%s)\n", input.to_string().c_str(), report.output.to_string().c_str(),
              forward ? "rfftn" : "irfftn", report.input.shape.to_string().c_str(),
              report.output_shape.to_string().c_str(), ranks, ranks == 1 ? "" : "s");
  const Shape half = forward ? report.output_shape : report.input.shape;
  print_times(report, half.bytes(report.input.precision == Precision::single ? 8 : 16));
  finish_json(json, report);
}

}  // namespace oocfft::apps
