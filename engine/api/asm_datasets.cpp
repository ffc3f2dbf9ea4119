// propagate_dataset (include/oocfft/asm.hpp): the operations of
// AngularSpectrum between datasets, through io::DatasetTransfer (temporary
// name, commit), the planes streamed through the engine's bricks so that a
// stack may be larger than host memory.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/format_bytes.hpp"
#include "engine/planning/host_memory.hpp"
#include "engine/pipeline/execution_backend.hpp"
#include "engine/planning/pass_planner.hpp"
#include "engine/pipeline/stream_pipeline.hpp"
#include "io/dataset_transfer.hpp"
#include "oocfft/asm.hpp"
#include "oocfft/error.hpp"
#include "engine/api/angular_spectrum.hpp"
#include "optics/asm_names.hpp"
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
                  {"evanescent", std::string(enum_name(o.evanescent))},
                  {"pad", std::to_string(o.pad)}};
  return r;
}

// How the host budget of a dataset operation is shared, after what the
// mode holds (the field and its spectrum, or a plane and the hologram):
// half of the rest for the bricks (on the host backend the brick buffers
// are the "device", so the device budget is that half too), a quarter for
// each of the two datasets' chunk caches (chunk_cache_for: at most twice
// the brick it is sized for, so bricks of an eighth). With pad 2 the
// store's gather and scatter each hold the field part of a brick (a
// quarter of it) while they copy it: the bricks then take a third of the
// half, the rest left to those copies.
struct BudgetShare {
  std::size_t bricks = 0;
  std::size_t cache_brick = 0;
};

BudgetShare share_budget(std::size_t rest, unsigned pad) {
  BudgetShare s;
  s.bricks = pad == 2 ? rest / 3 : rest / 2;
  s.cache_brick = rest / 8;
  return s;
}

// Runs `mode` between the datasets of `transfer`, streaming: propagate
// reads the input's planes and writes the output's as bricks need them;
// refocus holds the field and streams the stack out; layer_sum streams the
// layers in and holds one padded plane and the hologram.
template <class T>
void run_streamed(AsmMode mode, const DatasetInfo& info, std::span<const double> distances, const AsmOptions& o,
                  std::size_t cache_brick_bytes, io::DatasetTransfer& transfer,
                  const io::DatasetTransfer::SlabHook& poll_cancel, AsmDatasetReport& report) {
  using C = std::complex<T>;
  const Shape& s = info.shape;
  const optics::AngularSpectrum<T> asm_plan(s.ny, s.nx, o);
  switch (mode) {
    case AsmMode::propagate: {
      volume::VolumeStore& store = transfer.streamed_store(cache_brick_bytes);
      asm_plan.propagate(store, store, s.nz, distances);
      return;
    }
    case AsmMode::refocus: {
      volume::HostBuffer field(info.complex_bytes(), ("dataset " + info.path.to_string()).c_str());
      const Clock::time_point t = Clock::now();
      transfer.read_input(field.data(), poll_cancel);
      report.read_seconds = seconds_since(t);
      asm_plan.refocus(reinterpret_cast<const C*>(field.data()), distances, transfer.output_store(cache_brick_bytes));
      return;
    }
    case AsmMode::layer_sum: {
      std::vector<C> hologram = optics::padded_buffer<T>(s.ny * s.nx);
      asm_plan.layer_sum(transfer.input_store(cache_brick_bytes), s.nz, distances, hologram.data());
      const Clock::time_point t = Clock::now();
      transfer.write_output(reinterpret_cast<const std::byte*>(hologram.data()), poll_cancel);
      report.write_seconds = seconds_since(t);
      return;
    }
  }
}

}  // namespace

namespace {

AsmDatasetReport propagate(const DatasetPath& input, const DatasetPath& output, AsmMode mode,
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
  // What each mode holds in host memory besides the engine's staging.
  const std::size_t padded_plane = info.shape.ny * info.shape.nx * options.pad * options.pad * e;
  const std::size_t plane = info.shape.ny * info.shape.nx * e;
  const std::size_t planes_held = mode == AsmMode::propagate ? 0 : plane + padded_plane;
  if (planes_held > budget)
    throw Error(ErrorKind::out_of_memory,
                std::string("asm ") + to_string(mode) + " on " + input.to_string() + " holds " +
                    (mode == AsmMode::refocus ? "the field and its padded spectrum"
                                              : "a padded plane and the hologram") +
                    " (" + format_bytes(double(planes_held)) + ") in host memory, more than the budget of " +
                    format_bytes(double(budget)));
  // A padded plane larger than the bricks' share (or rows and columns on
  // request) runs plane by plane through a padded scratch plane
  // (AngularSpectrum::run_plane_by_plane): that is held too. (Uncounted, a
  // refocus through 72 MiB peaked at 111 MiB.)
  auto held_for = [&](std::size_t host_budget) {
    const bool plane_by_plane =
        options.fft.strategy == Strategy::three_pass ||
        padded_plane > share_budget(host_budget - std::min(host_budget, planes_held), options.pad).bricks;
    return planes_held + (plane_by_plane ? padded_plane : 0);
  };
  const std::size_t held = std::min(budget, held_for(budget));

  // The engine's staging (the host backend's brick buffers, its "device")
  // and the chunk caches share the rest.
  const Backend backend = engine::resolve_backend(options.fft.backend);
  auto options_for = [&](std::size_t host_budget) {
    AsmOptions o = options;
    const BudgetShare share = share_budget(host_budget - std::min(host_budget, held_for(host_budget)), options.pad);
    o.fft.host_staging_budget =
        o.fft.host_staging_budget == 0 ? share.bricks : std::min(o.fft.host_staging_budget, share.bricks);
    if (backend == Backend::host)
      o.fft.device_memory_budget = o.fft.device_memory_budget == 0
                                       ? o.fft.host_staging_budget
                                       : std::min(o.fft.device_memory_budget, o.fft.host_staging_budget);
    return o;
  };
  // A budget too small to make progress is refused with the smallest that
  // works (one whose bricks hold the whole padded stack always does).
  const std::size_t planes = mode == AsmMode::refocus ? distances.size() : info.shape.nz;
  const Shape padded{planes, info.shape.ny * options.pad, info.shape.nx * options.pad};
  engine::check_streaming_budget(
      budget, planes_held + padded_plane + 4 * padded.bytes(e),
      std::string("asm ") + to_string(mode) + " on " + input.to_string() + " (" + format_bytes(double(info.complex_bytes())) + ")",
      [&](std::size_t host_budget) -> std::size_t {
        if (host_budget <= held_for(host_budget)) return SIZE_MAX;
        const AsmOptions o = options_for(host_budget);
        if (o.fft.host_staging_budget == 0) return SIZE_MAX;  // 0 would mean "no limit"
        engine::PlannerInput in;
        in.volume = padded;
        in.element_bytes = e;
        in.staging_budget = o.fft.host_staging_budget;
        in.device_budget = o.fft.device_memory_budget == 0 ? SIZE_MAX / 4 : o.fft.device_memory_budget;
        in.streams = o.fft.streams;
        in.requested = o.fft.strategy;
        in.host_backend = backend == Backend::host;
        in.host_available = engine::available_host_memory();
        in.workspace_ratio = 0;
        in.plane_program = {engine::Stage::forward, engine::Stage::multiply, engine::Stage::inverse};
        try {
          // Only the first pass reads the file and the last writes it; a
          // plane split into rows and columns keeps the planes between
          // them in memory.
          const engine::PassPlan plan = engine::plan_passes(in);
          return plan.passes.front().bricks + (plan.passes.size() > 1 ? plan.passes.back().bricks : 0);
        } catch (const Error&) {
          return SIZE_MAX;
        }
      });
  const AsmOptions o = options_for(budget);

  const io::DatasetTransfer::SlabHook poll_cancel = io::DatasetTransfer::polling_cancel(options.fft);
  AsmDatasetReport report;
  report.input = info;
  report.output = output;
  report.output_shape = out_shape;
  const Clock::time_point t = Clock::now();
  if (info.precision == Precision::single) {
    run_streamed<float>(mode, info, distances, o, share_budget(budget - held, options.pad).cache_brick, transfer, poll_cancel, report);
  } else {
    run_streamed<double>(mode, info, distances, o, share_budget(budget - held, options.pad).cache_brick, transfer, poll_cancel, report);
  }
  report.propagate_seconds = seconds_since(t) - report.read_seconds - report.write_seconds;
  transfer.commit();
  report.seconds = seconds_since(start);
  return report;
}

}  // namespace

AsmDatasetReport propagate_dataset(const DatasetPath& input, const DatasetPath& output, AsmMode mode,
                                   std::span<const double> distances, const AsmOptions& options,
                                   const DatasetTransformOptions& file_options) {
  return io::nothing_committed_on_cancel(
      input, output, [&] { return propagate(input, output, mode, distances, options, file_options); });
}

}  // namespace oocfft
