#include "apps/asm_command.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "apps/progress_reporter.hpp"
#include "apps/value_parsers.hpp"
#include "core/format_bytes.hpp"

namespace oocfft::apps {

namespace {

std::vector<double> distances_of(const AsmArgs& a) {
  if (a.distances_file.empty()) return a.distances;
  std::ifstream file(a.distances_file);
  if (!file) throw Error(ErrorKind::io, "cannot read the distances file '" + a.distances_file + "'");
  std::stringstream text;
  text << file.rdbuf();
  try {
    return parse_real_list(text.str());
  } catch (const std::invalid_argument& e) {
    throw Error(ErrorKind::invalid_argument, "distances file '" + a.distances_file + "': " + e.what());
  }
}

}  // namespace

void run_asm(const CliOptions& cli, const std::atomic<bool>& interrupted) {
  const AsmArgs& a = cli.asm_args;
  const DatasetPath input = DatasetPath::parse(a.input);
  const DatasetPath output = a.output.empty() ? input : DatasetPath::parse(a.output);
  const std::vector<double> distances = distances_of(a);

  ProgressReporter progress(stderr, progress_style_for(stderr), "planes");
  AsmOptions options = a.options;
  options.pitch_x = a.pitch.first;
  options.pitch_y = a.pitch.second;
  options.fft = cli.options;
  options.fft.progress = [&progress](const Progress& p) { progress.update(p); };
  options.fft.cancel = [&interrupted] { return interrupted.load(std::memory_order_relaxed); };
  DatasetTransformOptions file_options;
  file_options.in_place = a.in_place;
  file_options.host_memory_budget = cli.host_memory;

  AsmDatasetReport report;
  progress.begin();
  try {
    report = propagate_dataset(input, output, a.mode, distances, options, file_options);
  } catch (...) {
    progress.finish();
    throw;
  }
  progress.finish();
  std::printf("%s -> %s (asm %s, %zu distance%s)\n", input.to_string().c_str(), report.output.to_string().c_str(),
              to_string(a.mode), distances.size(), distances.size() == 1 ? "" : "s");
  std::printf("done in %.3f s (read %.3f s, propagate with streamed planes %.3f s, write %.3f s), %s -> %s complex %s\n",
              report.seconds, report.read_seconds, report.propagate_seconds, report.write_seconds,
              report.input.shape.to_string().c_str(), report.output_shape.to_string().c_str(),
              to_string(report.input.precision));
}

}  // namespace oocfft::apps
