#include "apps/cli_options.hpp"

#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "apps/value_parsers.hpp"
#include "core/enum_names.hpp"
#include "optics/asm_names.hpp"

namespace oocfft::apps {

namespace {

template <class E>
using Choices = std::vector<std::pair<std::string, E>>;

// An option taking one of `choices` by name, one spelling each. The names
// are checked by CLI::IsMember (whose message lists them and which writes
// them into the help); CLI::CheckedTransformer would also take each enum's
// underlying integer ("--backend 1"), a second spelling nobody should learn.
template <class E>
CLI::Option* add_choice(CLI::App& app, const std::string& name, E& target, const Choices<E>& choices,
                        const std::string& help) {
  std::vector<std::string> names;
  std::string default_name;
  for (const auto& [text, value] : choices) {
    names.push_back(text);
    if (value == target) default_name = text;
  }
  CLI::Option* option = app.add_option_function<std::string>(
      name,
      [&target, choices](const std::string& text) {
        for (const auto& [choice, value] : choices)
          if (choice == text) target = value;
      },
      help);
  return option->check(CLI::IsMember(names))->default_str(default_name);
}

// An enum option spelled as the one table of enum names spells it for the
// command line (core/enum_names.hpp).
template <class E>
CLI::Option* add_choice(CLI::App& app, const std::string& name, E& target, const std::string& help) {
  Choices<E> choices;
  for (const EnumName<E>& row : EnumTable<E>::rows) choices.emplace_back(std::string(row.cli), row.value);
  return add_choice(app, name, target, choices, help);
}

// The value of `name` through one of the strict parsers, its error message
// prefixed with the option's name.
template <class Parse, class Target>
CLI::Option* add_parsed(CLI::App& app, const std::string& name, Target& target, Parse parse, const std::string& help,
                        const std::string& type_name) {
  return app
      .add_option_function<std::string>(
          name,
          [&target, parse, name](const std::string& text) {
            try {
              target = parse(text);
            } catch (const std::invalid_argument& e) {
              throw CLI::ValidationError(name, e.what());
            }
          },
          help)
      ->type_name(type_name);
}

// An integer in [lo, hi], parsed at 64 bits first so that 4294967297 is
// refused rather than truncated into an unsigned.
template <class Target>
CLI::Option* add_count(CLI::App& app, const std::string& name, Target& target, std::uint64_t lo, std::uint64_t hi,
                       const std::string& help) {
  auto parse = [lo, hi](const std::string& text) {
    const std::uint64_t v = parse_decimal(text);
    if (v < lo || v > hi)
      throw std::invalid_argument("'" + text + "' is not in " + std::to_string(lo) + ".." + std::to_string(hi));
    return static_cast<Target>(v);
  };
  return add_parsed(app, name, target, parse, help, "N")->default_str(std::to_string(target));
}

void add_plan_options(CLI::App& app, Options& o) {
  add_choice(app, "--backend", o.backend, "auto: CUDA when this build has it and a GPU is present");
  add_choice(app, "--norm", o.norm, "numpy's norm: which direction is scaled");
  add_choice(app, "--strategy", o.strategy,
             "passes over the volume; auto: the fewest that fit the budgets");
  add_choice(app, "--register", o.register_host_memory,
             "DMA bricks straight from page-locked host memory (on: locked in chunks during "
             "the run) or stage them; auto: direct only where already page-locked");
  add_parsed(app, "--device-memory", o.device_memory_budget, parse_size,
             "device memory the plan may use (e.g. 4GiB); default: free memory less a margin", "SIZE");
  add_parsed(app, "--staging-memory", o.host_staging_budget, parse_size,
             "pinned host staging for all streams together; default (CUDA): a ring of 32 MiB per stream", "SIZE");
  app.add_option_function<std::string>(
         "--kernel-cache", [&o](const std::string& dir) { o.kernel_cache_directory = dir; },
         "CUDA: where kernels compiled at plan time (lengths the build lacks) are cached; "
         "default: $XDG_CACHE_HOME/oocfft, else $HOME/.cache/oocfft")
      ->type_name("DIR");
  add_count(app, "--streams", o.streams, 1, 64, "bricks in flight on each device, each with its own buffers");
  add_parsed(app, "--devices", o.devices, parse_devices,
             "the devices to run on: all, or ordinals such as 0,1 (the host backend emulates as many); "
             "default: the current device alone",
             "0,1|all")
      ->default_str(o.devices.to_string());
  // TBB and the engine take an unsigned; no machine has more hardware threads.
  add_count(app, "--threads", o.threads, 0, 4096, "host threads, 0 = all cores");
}

void add_volume_options(CLI::App& app, Shape& shape, Precision& precision) {
  add_parsed(app, "--shape", shape, parse_shape, "volume shape, x fastest", "NZxNYxNX")
      ->default_str(std::to_string(shape.nz) + "x" + std::to_string(shape.ny) + "x" + std::to_string(shape.nx));
  add_choice(app, "--precision", precision, "complex64 or complex128");
}

// 0 is refused rather than read as the library's "default": a budget of
// nothing is a mistake, and leaving the option out gives the default.
std::size_t parse_host_memory(std::string_view text) {
  const std::size_t bytes = parse_size(text);
  if (bytes == 0)
    throw std::invalid_argument("'" + std::string(text) +
                                "' is no memory; leave --host-memory out for the default (80% of MemAvailable)");
  return bytes;
}

void add_host_memory(CLI::App& app, std::size_t& bytes) {
  add_parsed(app, "--host-memory", bytes, parse_host_memory,
             "host memory the whole process may hold (peak RSS within 1.25x it plus the process's baseline); a "
             "volume that fits is read whole, a larger one streamed; a budget too small to make progress is "
             "refused with the smallest that works; not 0; default (option left out): 80% of the host's "
             "available memory (MemAvailable)",
             "SIZE");
}

// DatasetPath::parse's refusal of a malformed "FILE:/DATASET" is a usage
// error; anything else it throws is left to the command's run.
void check_dataset_path(const std::string& option, const std::string& text) {
  try {
    (void)DatasetPath::parse(text);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::invalid_argument) throw CLI::ValidationError(option, e.what());
    throw;
  }
}

}  // namespace

void configure(CLI::App& app, CliOptions& cli) {
  app.require_subcommand(1);
  app.footer("Sizes take KiB, MiB, GiB or TiB. Run `oocfft COMMAND --help` for a command's options.");

  CLI::App* demo = app.add_subcommand("demo", "transform a generated volume forward and back, check it, time it");
  demo->footer(
      "Generates a seeded random volume in host memory (default 256x256x256 complex64), transforms it forward,\n"
      "checks it against a direct long-double DFT at --bins bins and by the marginal self-test, transforms it\n"
      "back and checks the round trip; prints times, GFLOP/s, errors and PASS (exit 0) or FAIL (exit 1).\n"
      "Host memory: the volume's bytes (the checks regenerate the input from the seed) plus staging.");
  demo->callback([&cli] { cli.command = Command::demo; });
  add_volume_options(*demo, cli.demo.shape, cli.demo.precision);
  add_count(*demo, "--seed", cli.demo.seed, 0, std::numeric_limits<std::uint64_t>::max(),
            "seed of the generated volume");
  add_count(*demo, "--bins", cli.demo.bins, 1, 4096, "bins of the direct-DFT spot check");
  add_plan_options(*demo, cli.options);

  CLI::App* info = app.add_subcommand("info", "print the plan for a shape or an HDF5 dataset");
  info->footer(
      "With DATASET: its stored shape, dtype, element kind and chunking, then what `oocfft fft` would do:\n"
      "the memory path (in memory or streamed), the plan, the memory it needs.");
  info->callback([&cli] {
    cli.command = Command::info;
    if (!cli.info.dataset.empty()) check_dataset_path("DATASET", cli.info.dataset);
  });
  CLI::Option* dataset = info->add_option("DATASET", cli.info.dataset, "an HDF5 dataset, FILE:/GROUP/DATASET");
  add_volume_options(*info, cli.info.shape, cli.info.precision);
  for (const char* name : {"--shape", "--precision"}) info->get_option(name)->excludes(dataset);
  add_host_memory(*info, cli.host_memory);
  add_plan_options(*info, cli.options);

  CLI::App* fft = app.add_subcommand("fft", "transform an HDF5 dataset into a new dataset");
  fft->footer(
      "Writes OUTPUT as h5py's complex {r, i} in the input's precision, under a temporary name first. The input\n"
      "is never modified, except with --in-place, and then only once the result is complete. Ctrl-C stops after\n"
      "the bricks in flight and leaves the input as it was (exit 130); a second Ctrl-C ends at once.");
  fft->callback([&cli] {
    cli.command = Command::fft;
    if (cli.fft.output.empty() && !cli.fft.in_place)
      throw CLI::RequiredError("OUTPUT (or --in-place, which writes the result over INPUT)");
    if (cli.fft.in_place && !cli.fft.output.empty() && cli.fft.output != cli.fft.input)
      throw CLI::ValidationError("--in-place", "writes the result over INPUT: give no OUTPUT, or OUTPUT = INPUT");
    check_dataset_path("INPUT", cli.fft.input);
    if (!cli.fft.output.empty()) check_dataset_path("OUTPUT", cli.fft.output);
  });
  fft->add_option("INPUT", cli.fft.input, "the dataset to transform, FILE:/GROUP/DATASET")->required();
  fft->add_option("OUTPUT", cli.fft.output, "the new dataset, FILE:/GROUP/DATASET (same file or another)");
  fft->add_flag_callback(
      "--inverse", [&cli] { cli.fft.direction = Direction::inverse; }, "inverse transform (exponent sign +)");
  fft->add_flag("--in-place", cli.fft.in_place, "replace INPUT by the result once it is complete");
  fft->add_flag("--shift", cli.options.shift,
                "centred data, as numpy's fftshift(fftn(ifftshift(x))) (ifftn with --inverse): folded into the "
                "transform, no extra pass");
  fft->add_option("--json", cli.fft.json, "write the run's report to this file as JSON")->type_name("REPORT.json");
  add_host_memory(*fft, cli.host_memory);
  add_plan_options(*fft, cli.options);

  // rfft and irfft: one set of options, the direction set by the name.
  RealFftArgs& r = cli.real_fft;
  for (const Direction direction : {Direction::forward, Direction::inverse}) {
    const bool forward = direction == Direction::forward;
    CLI::App* real = app.add_subcommand(
        forward ? "rfft" : "irfft", forward ? "real FFT of a float32/float64 HDF5 dataset: its half spectrum"
                                            : "inverse real FFT of a half spectrum: the real dataset");
    real->footer(
        forward
            ? "numpy's rfftn over every axis: a real (..., nx) float32/float64 dataset becomes its half spectrum\n"
              "(..., nx/2+1), h5py's complex {r, i} of the same precision, with the attributes oocfft_real_shape\n"
              "(the real dims), transform, direction and norm. `oocfft fft` of a real dataset writes the full\n"
              "spectrum (numpy's fftn) instead. Volumes larger than --host-memory stream through the bricks.\n"
              "OUTPUT is written under a temporary name first; the input is never modified. Ctrl-C stops after\n"
              "the bricks in flight and leaves the input as it was (exit 130)."
            : "numpy's irfftn over every axis: a half spectrum (..., nx/2+1) becomes the real (..., nx) dataset\n"
              "(float32 from complex64, float64 from complex128). nx is --nx, else the input's oocfft_real_shape\n"
              "attribute (written by rfft); nx/2+1 must be the stored last axis. A streamed inverse keeps the\n"
              "half spectrum between its passes in host memory when it fits half of --host-memory, else in a\n"
              "temporary dataset in OUTPUT's file, removed at the end. OUTPUT is written under a temporary name\n"
              "first; the input is never modified. Ctrl-C stops after the bricks in flight (exit 130).");
    real->callback([&cli, &r, direction] {
      cli.command = Command::real_fft;
      r.direction = direction;
      check_dataset_path("INPUT", r.input);
      check_dataset_path("OUTPUT", r.output);
    });
    real->add_option("INPUT", r.input,
                     forward ? "the real dataset, FILE:/GROUP/DATASET" : "the half spectrum, FILE:/GROUP/DATASET")
        ->required();
    real->add_option("OUTPUT", r.output, "the new dataset, FILE:/GROUP/DATASET (same file or another)")->required();
    if (!forward)
      add_count(*real, "--nx", r.nx, 1, std::numeric_limits<std::uint32_t>::max(),
                "the real length of the last axis (numpy's s[-1]); default: the input's oocfft_real_shape")
          ->default_str("from the input");
    real->add_option("--json", r.json, "write the run's report to this file as JSON")->type_name("REPORT.json");
    add_host_memory(*real, cli.host_memory);
    add_plan_options(*real, cli.options);
  }

  // dct and dst: one set of options, the transform set by the name.
  TrigArgs& t = cli.trig;
  for (const bool cosine : {true, false}) {
    const std::string name = cosine ? "dct" : "dst";
    CLI::App* trig = app.add_subcommand(
        name, std::string("discrete ") + (cosine ? "cosine" : "sine") +
                  " transform of a float32/float64 HDF5 dataset, scipy's " + name + "n / i" + name + "n");
    const std::string call = name + "n";
    trig->footer("scipy.fft's " + call + "(x, type) over every axis; with --inverse, i" + call +
                 ", which undoes it (the inverse of type 2\n"
                 "is type 3 and the reverse); --norm as scipy's norm=. A real float32/float64 dataset of 1 to 3 axes\n"
                 "becomes a real dataset of the same dtype and dims, with the attributes transform (" + call + " or i" +
                 call + "), type and norm.\n"
                 "Volumes larger than --host-memory stream through the bricks. OUTPUT is written under a temporary\n"
                 "name first; the input is never modified, except with --in-place, and then only once the result is\n"
                 "complete. Ctrl-C stops after the bricks in flight and leaves the input as it was (exit 130).");
    trig->callback([&cli, &t, cosine] {
      cli.command = Command::trig;
      t.cosine = cosine;
      if (t.output.empty() && !t.in_place)
        throw CLI::RequiredError("OUTPUT (or --in-place, which writes the result over INPUT)");
      if (t.in_place && !t.output.empty() && t.output != t.input)
        throw CLI::ValidationError("--in-place", "writes the result over INPUT: give no OUTPUT, or OUTPUT = INPUT");
      check_dataset_path("INPUT", t.input);
      if (!t.output.empty()) check_dataset_path("OUTPUT", t.output);
    });
    trig->add_option("INPUT", t.input, "the real dataset, FILE:/GROUP/DATASET")->required();
    trig->add_option("OUTPUT", t.output, "the new dataset, FILE:/GROUP/DATASET (same file or another)");
    add_choice<int>(*trig, "--type", t.type, {{"2", 2}, {"3", 3}}, "scipy's type of the " + name + " (types 2 and 3)");
    trig->add_flag_callback(
        "--inverse", [&t] { t.direction = Direction::inverse; },
        "i" + call + ": the transform that undoes " + call + " of the same --type and --norm");
    trig->add_flag("--in-place", t.in_place, "replace INPUT by the result once it is complete");
    trig->add_option("--json", t.json, "write the run's report to this file as JSON")->type_name("REPORT.json");
    add_host_memory(*trig, cli.host_memory);
    add_plan_options(*trig, cli.options);
  }

  AsmArgs& a = cli.asm_args;
  CLI::App* asm_command = app.add_subcommand("asm", "angular-spectrum propagation of an HDF5 field or stack");
  asm_command->footer(
      "U(z) = IFFT2[FFT2[U0] H(z)], H = exp(i 2 pi z sqrt((n/lambda)^2 - fx^2 - fy^2)) on numpy's fftfreq grid.\n"
      "propagate: a field (ny, nx) or a stack (nz, ny, nx), one distance or one per plane, same shape out.\n"
      "refocus: a field to (count of distances, ny, nx). layer-sum: layers (nz, ny, nx), one distance each, to\n"
      "the hologram (ny, nx). Planes stream through the bricks, so stacks may exceed host memory: propagate\n"
      "holds the bricks, refocus the field and its padded spectrum, layer-sum a padded plane and the hologram\n"
      "(--host-memory bounds them). OUTPUT is written under a temporary name first and the input is never\n"
      "modified, except by propagate --in-place once the result is complete. Ctrl-C stops between bricks of\n"
      "planes and leaves the input as it was (exit 130).");
  asm_command->add_option("INPUT", a.input, "the field, stack or layers, FILE:/GROUP/DATASET")->required();
  asm_command->add_option("OUTPUT", a.output, "the new dataset, FILE:/GROUP/DATASET (same file or another)");
  add_parsed(*asm_command, "--wavelength", a.options.wavelength, parse_real, "vacuum wavelength in metres", "METRES")
      ->required();
  add_parsed(*asm_command, "--pitch", a.pitch, parse_pitch, "sample pitch in metres, X or X,Y", "X[,Y]")->required();
  CLI::Option* distance = add_parsed(
      *asm_command, "--distance", a.distances,
      [](const std::string& text) { return std::vector<double>{parse_real(text)}; },
      "one propagation distance in metres (negative: back)", "METRES");
  CLI::Option* distances = asm_command
                               ->add_option("--distances", a.distances_file,
                                            "a text file of distances in metres (one per plane, or per refocus "
                                            "plane), separated by spaces, commas or newlines")
                               ->type_name("FILE");
  CLI::Option* range = add_parsed(*asm_command, "--range", a.distances, parse_range,
                                  "COUNT distances from START to STOP inclusive, in metres", "START:STOP:COUNT");
  distance->excludes(distances)->excludes(range);
  distances->excludes(range);
  asm_command->callback([&cli, &a, distance, distances, range] {
    cli.command = Command::asm_propagation;
    if (distance->count() + distances->count() + range->count() == 0)
      throw CLI::RequiredError("--distance, --distances or --range");
    if (a.output.empty() && !a.in_place)
      throw CLI::RequiredError("OUTPUT (or --in-place, which writes the result over INPUT)");
    if (a.in_place && !a.output.empty() && a.output != a.input)
      throw CLI::ValidationError("--in-place", "writes the result over INPUT: give no OUTPUT, or OUTPUT = INPUT");
    check_dataset_path("INPUT", a.input);
    if (!a.output.empty()) check_dataset_path("OUTPUT", a.output);
  });
  add_choice(*asm_command, "--mode", a.mode, "what to compute");
  add_choice<bool>(*asm_command, "--band-limit", a.options.band_limit, {{"on", true}, {"off", false}},
                   "Matsushima's band limit of H against aliasing");
  add_count(*asm_command, "--pad", a.options.pad, 1, 2, "1: periodic field; 2: zero padding, linear convolution");
  add_choice(*asm_command, "--evanescent", a.options.evanescent,
             "evanescent components decay with z or are removed");
  add_parsed(*asm_command, "--index", a.options.index, parse_real, "refractive index of the medium", "N")
      ->default_str("1");
  asm_command->add_flag("--in-place", a.in_place, "propagate only: replace INPUT by the result once complete");
  add_host_memory(*asm_command, cli.host_memory);
  add_plan_options(*asm_command, cli.options);
  // The FFT2s are always unnormalised forward and 1/N inverse: U(0) stays U.
  asm_command->remove_option(asm_command->get_option("--norm"));
}

}  // namespace oocfft::apps
