#pragma once
// Command-line options of the `oocfft` program and their parsing.
#include <optional>
#include <string>
#include <vector>

#include <oocfft/oocfft.hpp>

namespace oocfft::apps {

enum class Command { demo, info, help };

struct CliOptions {
  Command command = Command::demo;
  // The embedded default volume of the demo: 256^3 complex64 (128 MiB).
  Shape shape{256, 256, 256};
  Precision precision = Precision::single;
  Options options;
  std::size_t spot_bins = 16;
  std::uint64_t seed = 2026;
};

// Parses argv; throws oocfft::Error(invalid_argument) naming the bad flag.
CliOptions parse_cli(const std::vector<std::string>& args);
Shape parse_shape(const std::string& text);  // "NZxNYxNX", "NYxNX" or "NX"
std::string usage();

}  // namespace oocfft::apps
