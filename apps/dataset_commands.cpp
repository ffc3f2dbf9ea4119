#include "apps/dataset_commands.hpp"

#include <cstdio>
#include <fstream>

#include "apps/progress_reporter.hpp"
#include "apps/report_json.hpp"
#include "apps/run_summary.hpp"
#include "core/format_bytes.hpp"
#include "io/stored_element_names.hpp"

namespace oocfft::apps {

namespace {
std::string dims_text(const std::vector<std::size_t>& dims) {
  std::string out;
  for (std::size_t i = 0; i < dims.size(); ++i) out += (i ? " x " : "") + std::to_string(dims[i]);
  return out;
}
}  // namespace

void run_info_dataset(const CliOptions& cli) {
  const DatasetPath path = DatasetPath::parse(cli.info.dataset);
  const DatasetInfo info = inspect_dataset(path);
  std::printf("dataset   %s\n", info.path.to_string().c_str());
  std::printf("stored    %s, dtype %s (%s)\n", dims_text(info.dims).c_str(), info.dtype.c_str(),
              enum_name(info.element).data());
  std::printf("volume    %s complex, %s precision, %s\n", info.shape.to_string().c_str(), to_string(info.precision),
              format_bytes(static_cast<double>(info.complex_bytes())).c_str());
  std::printf("chunks    %s\n", info.chunks.empty() ? "contiguous" : dims_text(info.chunks).c_str());
  DatasetTransformOptions file_options;
  file_options.host_memory_budget = cli.host_memory;
  std::printf("%s", describe_dataset_transform(path, cli.options, file_options).c_str());
}

void run_fft(const CliOptions& cli, const std::atomic<bool>& interrupted) {
  const DatasetPath input = DatasetPath::parse(cli.fft.input);
  const DatasetPath output = cli.fft.output.empty() ? input : DatasetPath::parse(cli.fft.output);
  // Opened before the transform, so an unwritable report path fails in a
  // second, not after an hour of work.
  std::ofstream json;
  if (!cli.fft.json.empty()) {
    json.open(cli.fft.json);
    if (!json) throw Error(ErrorKind::io, "cannot write the JSON report '" + cli.fft.json + "'");
  }

  ProgressReporter progress(stderr, progress_style_for(stderr));
  Options options = cli.options;
  options.progress = [&progress](const Progress& p) { progress.update(p); };
  options.cancel = [&interrupted] { return interrupted.load(std::memory_order_relaxed); };
  DatasetTransformOptions file_options;
  file_options.in_place = cli.fft.in_place;
  file_options.host_memory_budget = cli.host_memory;

  DatasetTransformReport report;
  progress.begin();
  try {
    report = transform_dataset(input, output, cli.fft.direction, options, file_options);
  } catch (...) {
    progress.finish();
    throw;
  }
  progress.finish();
  std::printf("%s -> %s (%s)\n", input.to_string().c_str(), report.output.to_string().c_str(),
              to_string(cli.fft.direction));
  std::printf("%s\n", run_summary(report.seconds, report.input.complex_bytes(), report.run,
                                  report.in_memory ? "in memory" : "streamed")
                          .c_str());
  if (json.is_open()) {
    json << report_json(report);
    json.close();
    if (!json) throw Error(ErrorKind::io, "cannot write the JSON report '" + cli.fft.json + "'");
  }
}

}  // namespace oocfft::apps
