// propagate_dataset (include/oocfft/asm.hpp): a dataset read whole into
// host memory, propagated by the operations of asm_operations.cpp, and
// written through io::DatasetTransfer (temporary name, commit); a refocused
// stack streams into the output dataset as its planes are done.
#include <cstdio>
#include <optional>
#include <string>

#include "core/format_bytes.hpp"
#include "engine/host_memory.hpp"
#include "engine/stream_pipeline.hpp"
#include "io/dataset_transfer.hpp"
#include "oocfft/asm.hpp"
#include "oocfft/error.hpp"
#include "optics/angular_spectrum.hpp"
#include "volume/host_buffer.hpp"

namespace oocfft {

namespace {

using engine::Clock;
using engine::seconds_since;

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// The output's dims for `mode` on a volume of `shape`; refuses a mode the
// input's shape or the distances do not fit, naming both.
std::vector<std::size_t> output_dims(AsmMode mode, const DatasetInfo& in, std::span<const double> distances) {
  const Shape& s = in.shape;
  const std::string where = in.path.to_string() + " (" + s.to_string() + ")";
  switch (mode) {
    case AsmMode::propagate:
      optics::require(distances.size() == 1 || distances.size() == s.nz,
                      std::to_string(distances.size()) + " distances for the " + std::to_string(s.nz) +
                          " planes of " + where + ": give one per plane or one for all");
      return {};
    case AsmMode::refocus:
      optics::require(s.nz == 1, "refocus takes one field (ny, nx); " + where + " has " + std::to_string(s.nz) +
                                     " planes");
      return {distances.size(), s.ny, s.nx};
    case AsmMode::layer_sum:
      optics::require(distances.size() == s.nz, std::to_string(distances.size()) + " distances for the " +
                                                    std::to_string(s.nz) + " layers of " + where +
                                                    ": give one per layer");
      return {s.ny, s.nx};
  }
  optics::require(false, "mode is " + std::to_string(static_cast<int>(mode)) + ", not one of AsmMode");
  return {};
}

io::OutputRecord asm_record(AsmMode mode, std::vector<std::size_t> dims, std::span<const double> distances,
                            const AsmOptions& o) {
  std::string list;
  for (std::size_t j = 0; j < distances.size(); ++j) {
    if (j > 0) list += ',';
    list += number(distances[j]);
  }
  io::OutputRecord r;
  r.dims = std::move(dims);
  r.attributes = {{"asm_mode", to_string(mode)},
                  {"distances_m", list},
                  {"wavelength_m", number(o.wavelength)},
                  {"pitch_x_m", number(o.pitch_x)},
                  {"pitch_y_m", number(o.pitch_y > 0 ? o.pitch_y : o.pitch_x)},
                  {"index", number(o.index)},
                  {"band_limit", o.band_limit ? "on" : "off"},
                  {"evanescent", o.evanescent == Evanescent::decay ? "decay" : "zero"},
                  {"pad", std::to_string(o.pad)}};
  return r;
}

// The modes held in host memory (refocus streams; see propagate_dataset).
template <class T>
void run(AsmMode mode, const Shape& in, std::span<const double> distances, const AsmOptions& o,
         std::complex<T>* input, std::complex<T>* output) {
  if (mode == AsmMode::propagate) {
    propagate_stack(input, in, distances, o);
  } else {
    layer_sum(input, in, distances, output, o);
  }
}

}  // namespace

AsmDatasetReport propagate_dataset(const DatasetPath& input, const DatasetPath& output, AsmMode mode,
                                   std::span<const double> distances, const AsmOptions& options,
                                   const DatasetTransformOptions& file_options) {
  const Clock::time_point start = Clock::now();
  optics::check_asm_options(options);
  optics::check_distances(distances);
  optics::require(!file_options.in_place || mode == AsmMode::propagate,
                  std::string("in place only for propagate: ") + to_string(mode) + " changes the shape");

  const DatasetInfo info = inspect_dataset(input);  // read-only, before anything is created
  std::vector<std::size_t> dims = output_dims(mode, info, distances);
  const std::size_t budget = file_options.host_memory_budget != 0 ? file_options.host_memory_budget
                                                                  : engine::default_host_memory_budget();
  io::DatasetTransfer transfer(input, output, file_options.in_place, asm_record(mode, dims, distances, options));
  const Shape out_shape = transfer.output_shape();
  const std::size_t e = transfer.element_bytes();
  const std::size_t in_bytes = info.complex_bytes();
  // A refocused stack streams to the output plane by plane; host memory
  // holds the field and its padded spectrum only. The other modes hold the
  // input and the result (in place for propagate).
  const bool streamed = mode == AsmMode::refocus;
  const std::size_t spectrum_bytes = streamed ? in_bytes * options.pad * options.pad : 0;
  const std::size_t out_bytes = mode == AsmMode::layer_sum ? out_shape.bytes(e) : 0;
  if (in_bytes + spectrum_bytes + out_bytes > budget)
    throw Error(ErrorKind::out_of_memory,
                std::string("asm ") + to_string(mode) + " on " + input.to_string() + " holds the input (" +
                    format_bytes(double(in_bytes)) + ")" +
                    (streamed ? " and its padded spectrum (" + format_bytes(double(spectrum_bytes)) + ")"
                              : " and the result (" +
                                    format_bytes(double(mode == AsmMode::propagate ? in_bytes : out_bytes)) +
                                    (mode == AsmMode::propagate ? ", in place" : "") + ")") +
                    " in host memory, more than the budget of " + format_bytes(double(budget)));

  const io::DatasetTransfer::SlabHook poll_cancel = io::DatasetTransfer::polling_cancel(options.fft);
  AsmDatasetReport report;
  report.input = info;
  report.output = output;
  report.output_shape = out_shape;
  volume::HostBuffer in_buffer(in_bytes, ("dataset " + input.to_string()).c_str());
  Clock::time_point t = Clock::now();
  transfer.read_input(in_buffer.data(), poll_cancel);
  report.read_seconds = seconds_since(t);
  std::optional<volume::HostBuffer> out_buffer;
  if (out_bytes > 0) out_buffer.emplace(out_bytes, ("the result " + output.to_string()).c_str());
  t = Clock::now();
  if (streamed) {
    // Bricks of whole planes reach the file as they come; the chunk cache
    // holds about one brick.
    volume::VolumeStore& out = transfer.output_store(std::min<std::size_t>(out_shape.bytes(e), std::size_t{1} << 30));
    if (info.precision == Precision::single) {
      optics::AngularSpectrum<float>(info.shape.ny, info.shape.nx, options)
          .refocus(reinterpret_cast<const std::complex<float>*>(in_buffer.data()), distances, out);
    } else {
      optics::AngularSpectrum<double>(info.shape.ny, info.shape.nx, options)
          .refocus(reinterpret_cast<const std::complex<double>*>(in_buffer.data()), distances, out);
    }
    report.propagate_seconds = seconds_since(t);
    transfer.commit();
    report.seconds = seconds_since(start);
    return report;
  }
  if (info.precision == Precision::single) {
    run<float>(mode, info.shape, distances, options, reinterpret_cast<std::complex<float>*>(in_buffer.data()),
               out_buffer ? reinterpret_cast<std::complex<float>*>(out_buffer->data()) : nullptr);
  } else {
    run<double>(mode, info.shape, distances, options, reinterpret_cast<std::complex<double>*>(in_buffer.data()),
                out_buffer ? reinterpret_cast<std::complex<double>*>(out_buffer->data()) : nullptr);
  }
  report.propagate_seconds = seconds_since(t);
  t = Clock::now();
  transfer.write_output(out_buffer ? out_buffer->data() : in_buffer.data(), poll_cancel);
  report.write_seconds = seconds_since(t);
  transfer.commit();
  report.seconds = seconds_since(start);
  return report;
}

}  // namespace oocfft
