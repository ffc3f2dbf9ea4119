#include "apps/distributed_fft_command.hpp"

#include <cstdio>
#include <memory>

#include "apps/json_report_file.hpp"
#include "apps/progress_reporter.hpp"
#include "core/format_bytes.hpp"
#include "oocfft/distributed.hpp"
#include "oocfft/distributed_hdf5.hpp"

namespace oocfft::apps {

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

  Options options = cli.options;
  options.cancel = [&interrupted] { return interrupted.load(std::memory_order_relaxed); };
  std::unique_ptr<ProgressReporter> progress;
  if (rank == 0) {
    progress = std::make_unique<ProgressReporter>(stderr, progress_style_for(stderr), "steps");
    options.progress = [&progress](const Progress& p) { progress->update(p); };
    progress->begin();
  }
  DatasetTransformReport report;
  try {
    report = transform_dataset(comm, input, output, cli.fft.direction, options, file_options);
  } catch (...) {
    if (progress) progress->finish();
    throw;
  }
  if (rank != 0) return;
  progress->finish();
  std::printf("%s -> %s (%s, %d rank%s)\n", input.to_string().c_str(), report.output.to_string().c_str(),
              to_string(cli.fft.direction), ranks, ranks == 1 ? "" : "s");
  std::printf("%s %s in %.3f s: read %.3f s, transform %.3f s, write %.3f s (each rank its slabs, in memory)\n",
              report.input.shape.to_string().c_str(),
              format_bytes(static_cast<double>(report.input.complex_bytes())).c_str(), report.seconds,
              report.read_seconds, report.transform_seconds, report.write_seconds);
  finish_json(json, report);
}

}  // namespace oocfft::apps
