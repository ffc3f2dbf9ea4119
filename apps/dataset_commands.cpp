#include "apps/dataset_commands.hpp"

#include <cstdio>

#include "apps/json_report_file.hpp"
#include "apps/progress_reporter.hpp"
#include "apps/run_summary.hpp"
#include "core/format_bytes.hpp"
#include "io/stored_element_names.hpp"

namespace oocfft::apps {

namespace {
std::size_t complex_value_bytes(Precision p) { return p == Precision::single ? 8 : 16; }

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
  std::string filters;
  for (const std::string& f : info.filters) filters += (filters.empty() ? "" : ", ") + f;
  std::printf("filters   %s\n", filters.empty() ? "none" : filters.c_str());
  std::printf("in file   %s allocated", format_bytes(static_cast<double>(info.allocated_bytes)).c_str());
  if (!info.chunks.empty())
    std::printf(", %zu of %zu chunks written%s", info.chunks_written, info.chunks_in_all,
                info.fully_allocated ? "" : " (the others read as the fill value)");
  else if (!info.fully_allocated)
    std::printf(" (never written: it reads as the fill value)");
  std::printf("\n");
  for (const std::string& f : info.unavailable_filters)
    std::printf("UNREADABLE: the filter %s is unavailable: no plugin for it is installed (HDF5_PLUGIN_PATH)\n",
                f.c_str());
  DatasetTransformOptions file_options;
  file_options.host_memory_budget = cli.host_memory;
  std::printf("%s", describe_dataset_transform(path, cli.options, file_options).c_str());
}

namespace {

// Runs `transform` with progress on stderr and Ctrl-C as the cancel hook.
template <class Transform>
DatasetTransformReport with_progress(const CliOptions& cli, const std::atomic<bool>& interrupted,
                                     Transform transform) {
  ProgressReporter progress(stderr, progress_style_for(stderr));
  Options options = cli.options;
  options.progress = [&progress](const Progress& p) { progress.update(p); };
  options.cancel = [&interrupted] { return interrupted.load(std::memory_order_relaxed); };
  progress.begin();
  try {
    DatasetTransformReport report = transform(options);
    progress.finish();
    return report;
  } catch (...) {
    progress.finish();
    throw;
  }
}

}  // namespace

void run_fft(const CliOptions& cli, const std::atomic<bool>& interrupted) {
  const DatasetPath input = DatasetPath::parse(cli.fft.input);
  const DatasetPath output = cli.fft.output.empty() ? input : DatasetPath::parse(cli.fft.output);
  const JsonReport json = open_json(cli.fft.json, input, output);
  DatasetTransformOptions file_options;
  file_options.in_place = cli.fft.in_place;
  file_options.host_memory_budget = cli.host_memory;
  const DatasetTransformReport report = with_progress(cli, interrupted, [&](const Options& options) {
    return transform_dataset(input, output, cli.fft.direction, options, file_options);
  });
  std::printf("%s -> %s (%s)\n", input.to_string().c_str(), report.output.to_string().c_str(),
              to_string(cli.fft.direction));
  std::printf("%s\n", run_summary(report.seconds, report.input.complex_bytes(), report.run,
                                  report.in_memory ? "in memory" : "streamed")
                          .c_str());
  finish_json(json, report);
}

void run_real_fft(const CliOptions& cli, const std::atomic<bool>& interrupted) {
  const RealFftArgs& r = cli.real_fft;
  const DatasetPath input = DatasetPath::parse(r.input);
  const DatasetPath output = DatasetPath::parse(r.output);
  const JsonReport json = open_json(r.json, input, output);
  DatasetTransformOptions file_options;
  file_options.host_memory_budget = cli.host_memory;
  const DatasetTransformReport report = with_progress(cli, interrupted, [&](const Options& options) {
    return transform_real_dataset(input, output, r.direction, options, file_options, r.nx);
  });
  const bool forward = r.direction == Direction::forward;
  std::printf("%s -> %s (%s, %s -> %s)\n", input.to_string().c_str(), report.output.to_string().c_str(),
              forward ? "rfftn" : "irfftn", report.input.shape.to_string().c_str(),
              report.output_shape.to_string().c_str());
  // The half spectrum is the volume the passes stream.
  const Shape half = forward ? report.output_shape : report.input.shape;
  std::string where = report.in_memory ? "in memory" : "streamed";
  if (report.intermediate == IntermediateSpectrum::output_file)
    where += ", half spectrum between the passes in a temporary dataset";
  std::printf("%s\n", run_summary(report.seconds, half.bytes(complex_value_bytes(report.input.precision)), report.run,
                                  where)
                          .c_str());
  finish_json(json, report);
}

void run_trig(const CliOptions& cli, const std::atomic<bool>& interrupted) {
  const TrigArgs& t = cli.trig;
  const DatasetPath input = DatasetPath::parse(t.input);
  const DatasetPath output = t.output.empty() ? input : DatasetPath::parse(t.output);
  const JsonReport json = open_json(t.json, input, output);
  DatasetTransformOptions file_options;
  file_options.in_place = t.in_place;
  file_options.host_memory_budget = cli.host_memory;
  const DatasetTransformReport report = with_progress(cli, interrupted, [&](const Options& options) {
    return transform_trig_dataset(input, output, t.transform(), t.direction, options, file_options);
  });
  const std::string call = std::string(t.direction == Direction::inverse ? "i" : "") + (t.cosine ? "dctn" : "dstn");
  std::printf("%s -> %s (%s, type %d, norm %s)\n", input.to_string().c_str(), report.output.to_string().c_str(),
              call.c_str(), t.type, to_string(cli.options.norm));
  const std::size_t value_bytes = report.input.precision == Precision::single ? 4 : 8;
  std::printf("%s\n", run_summary(report.seconds, report.input.shape.bytes(value_bytes), report.run,
                                  report.in_memory ? "in memory" : "streamed")
                          .c_str());
  finish_json(json, report);
}

}  // namespace oocfft::apps
