#pragma once
// The `oocfft` command line: its subcommands and their options, declared to
// CLI11 (which parses, checks choices and writes the help text) and bound
// to one CliOptions value.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <oocfft/oocfft.hpp>

namespace oocfft::apps {

enum class Command { demo, info, fft, real_fft, trig, asm_propagation };

struct DemoArgs {
  // The embedded default volume: 256^3 complex64 (128 MiB), generated from the seed.
  Shape shape{256, 256, 256};
  Precision precision = Precision::single;
  std::uint64_t seed = 2026;
  std::size_t bins = 16;  // of the direct-DFT spot check
};

struct InfoArgs {
  std::string dataset;  // "FILE:/DATASET", or empty: describe a plan for `shape`
  Shape shape{256, 256, 256};
  Precision precision = Precision::single;
};

struct FftArgs {
  std::string input;
  std::string output;  // empty with --in-place: the input
  Direction direction = Direction::forward;
  bool in_place = false;
  std::string json;  // report file, or empty
};

// `rfft` and `irfft`: numpy's rfftn / irfftn of a dataset.
struct RealFftArgs {
  std::string input;
  std::string output;
  Direction direction = Direction::forward;  // irfft: inverse
  std::size_t nx = 0;  // irfft --nx: the real last axis; 0: the input's oocfft_real_shape
  std::string json;    // report file, or empty
};

// `dct` and `dst`: scipy's dctn / dstn (idctn / idstn with --inverse) of a
// dataset.
struct TrigArgs {
  std::string input;
  std::string output;  // empty with --in-place: the input
  bool cosine = true;  // dct; false: dst
  int type = 2;        // scipy's type=, 2 or 3
  Direction direction = Direction::forward;
  bool in_place = false;
  std::string json;  // report file, or empty
  TrigTransform transform() const {
    if (cosine) return type == 2 ? TrigTransform::dct2 : TrigTransform::dct3;
    return type == 2 ? TrigTransform::dst2 : TrigTransform::dst3;
  }
};

struct AsmArgs {
  std::string input;
  std::string output;  // empty with --in-place: the input
  AsmMode mode = AsmMode::propagate;
  AsmOptions options;  // pitch and options.fft are filled in when run
  std::pair<double, double> pitch{0, 0};  // x, y
  std::vector<double> distances;  // from --distance, --distances FILE or --range
  std::string distances_file;
  bool in_place = false;
};

struct CliOptions {
  Command command = Command::demo;
  Options options;  // the plan's options, shared by every command
  std::size_t host_memory = 0;  // DatasetTransformOptions::host_memory_budget
  DemoArgs demo;
  InfoArgs info;
  FftArgs fft;
  RealFftArgs real_fft;
  TrigArgs trig;
  AsmArgs asm_args;
};

// Declares the subcommands and options on `app`, bound to `cli`, which must
// outlive app.parse(). Checks that need the whole command line (fft's
// OUTPUT or --in-place) run as part of parse() and throw CLI::ParseError.
void configure(CLI::App& app, CliOptions& cli);

}  // namespace oocfft::apps
