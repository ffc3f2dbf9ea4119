#include "apps/asm_command.hpp"

#include <cstdio>
#include <fstream>
#include <string>

#include "apps/progress_reporter.hpp"
#include "apps/value_parsers.hpp"
#include "core/format_bytes.hpp"

namespace oocfft::apps {

namespace {

// A distances file is read whole, so its size is bounded: 64 MiB holds
// millions of distances (a stack has one a plane), and a device such as
// /dev/zero or a wrong file is refused instead of read until memory runs
// out. The values are bounded as --range bounds its count.
constexpr std::size_t most_distance_file_bytes = std::size_t{64} << 20;
constexpr std::size_t most_distances = std::size_t{1} << 24;

std::vector<double> distances_of(const AsmArgs& a) {
  if (a.distances_file.empty()) return a.distances;
  std::ifstream file(a.distances_file, std::ios::binary);
  if (!file) throw Error(ErrorKind::io, "cannot read the distances file '" + a.distances_file + "'");
  std::string text(most_distance_file_bytes + 1, '\0');
  file.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(file.gcount()));
  if (text.size() > most_distance_file_bytes)
    throw Error(ErrorKind::invalid_argument, "distances file '" + a.distances_file + "' is larger than " +
                                                 format_bytes(double(most_distance_file_bytes)) +
                                                 ": not a list of distances (one per plane)");
  try {
    std::vector<double> values = parse_real_list(text);
    if (values.size() > most_distances)
      throw Error(ErrorKind::invalid_argument, "distances file '" + a.distances_file + "' holds " +
                                                   std::to_string(values.size()) + " distances; at most " +
                                                   std::to_string(most_distances) + " (2^24)");
    return values;
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
