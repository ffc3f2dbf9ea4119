#include "apps/cli_options.hpp"

#include <initializer_list>
#include <cstdint>
#include <sstream>
#include <utility>

namespace oocfft::apps {

namespace {
std::size_t parse_count(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || text[0] == '-')
    throw Error(ErrorKind::invalid_argument, what + ": '" + text + "' is not a non-negative integer");
  return static_cast<std::size_t>(v);
}
// "512MiB", "4GiB", "1000000" (bytes); binary suffixes KiB, MiB, GiB, TiB.
std::size_t parse_bytes(const std::string& text, const std::string& flag) {
  static const std::pair<const char*, std::size_t> units[] = {
      {"KiB", std::size_t{1} << 10}, {"MiB", std::size_t{1} << 20}, {"GiB", std::size_t{1} << 30},
      {"TiB", std::size_t{1} << 40}};
  for (const auto& [suffix, factor] : units) {
    const std::string s(suffix);
    if (text.size() > s.size() && text.compare(text.size() - s.size(), s.size(), s) == 0) {
      const std::size_t count = parse_count(text.substr(0, text.size() - s.size()), flag);
      if (count > SIZE_MAX / factor) throw Error(ErrorKind::invalid_argument, flag + ": '" + text + "' is too large");
      return count * factor;
    }
  }
  return parse_count(text, flag);
}

// The value named `text` among `choices`, or an error listing them.
template <class E>
E parse_choice(const std::string& flag, const std::string& text,
               std::initializer_list<std::pair<const char*, E>> choices) {
  std::string names;
  for (const auto& [name, value] : choices) {
    if (text == name) return value;
    names += (names.empty() ? "" : ", ") + std::string(name);
  }
  throw Error(ErrorKind::invalid_argument, flag + ": '" + text + "' is not one of " + names);
}
}  // namespace

Shape parse_shape(const std::string& text) {
  std::vector<std::size_t> dims;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, 'x')) dims.push_back(parse_count(part, "--shape"));
  if (dims.empty() || dims.size() > 3)
    throw Error(ErrorKind::invalid_argument, "--shape: '" + text + "' is not NZxNYxNX, NYxNX or NX");
  while (dims.size() < 3) dims.insert(dims.begin(), 1);
  return Shape{dims[0], dims[1], dims[2]};
}

CliOptions parse_cli(const std::vector<std::string>& args) {
  CliOptions o;
  std::size_t i = 0;
  if (i < args.size() && args[i].rfind("--", 0) != 0) {
    const std::string& c = args[i++];
    if (c == "demo") {
      o.command = Command::demo;
    } else if (c == "info") {
      o.command = Command::info;
    } else if (c == "help") {
      o.command = Command::help;
    } else {
      throw Error(ErrorKind::invalid_argument, "unknown command '" + c + "' (expected demo, info or help)");
    }
  }
  auto value = [&](const std::string& flag) -> const std::string& {
    if (i >= args.size()) throw Error(ErrorKind::invalid_argument, flag + " needs a value");
    return args[i++];
  };
  while (i < args.size()) {
    const std::string flag = args[i++];
    if (flag == "--shape") {
      o.shape = parse_shape(value(flag));
    } else if (flag == "--precision") {
      o.precision = parse_choice<Precision>(flag, value(flag),
                                            {{"single", Precision::single}, {"double", Precision::double_precision}});
    } else if (flag == "--backend") {
      o.options.backend = parse_choice<Backend>(
          flag, value(flag), {{"auto", Backend::automatic}, {"host", Backend::host}, {"cuda", Backend::cuda}});
    } else if (flag == "--norm") {
      o.options.norm = parse_choice<Norm>(
          flag, value(flag), {{"backward", Norm::backward}, {"ortho", Norm::ortho}, {"forward", Norm::forward}});
    } else if (flag == "--strategy") {
      o.options.strategy = parse_choice<Strategy>(flag, value(flag),
                                                  {{"auto", Strategy::automatic},
                                                   {"in_core", Strategy::in_core},
                                                   {"two_pass", Strategy::two_pass},
                                                   {"three_pass", Strategy::three_pass},
                                                   {"line_transpose", Strategy::line_transpose}});
    } else if (flag == "--register") {
      o.options.register_host_memory = parse_choice<HostRegistration>(flag, value(flag),
                                                                      {{"auto", HostRegistration::automatic},
                                                                       {"on", HostRegistration::on},
                                                                       {"off", HostRegistration::off}});
    } else if (flag == "--device-budget") {
      o.options.device_memory_budget = parse_bytes(value(flag), flag);
    } else if (flag == "--staging-budget") {
      o.options.host_staging_budget = parse_bytes(value(flag), flag);
    } else if (flag == "--streams") {
      o.options.streams = static_cast<unsigned>(parse_count(value(flag), flag));
    } else if (flag == "--threads") {
      o.options.threads = static_cast<unsigned>(parse_count(value(flag), flag));
    } else if (flag == "--bins") {
      o.spot_bins = parse_count(value(flag), flag);
    } else if (flag == "--seed") {
      o.seed = parse_count(value(flag), flag);
    } else if (flag == "--help" || flag == "-h") {
      o.command = Command::help;
    } else {
      throw Error(ErrorKind::invalid_argument, "unknown option '" + flag + "'");
    }
  }
  return o;
}

std::string usage() {
  return "usage: oocfft [demo|info|help] [options]\n"
         "  demo   generate a seeded random volume, transform it forward and back, check the\n"
         "         result against a direct long-double DFT at a few bins, print time and error\n"
         "  info   print the plan oocfft would use for the shape\n"
         "options:\n"
         "  --shape NZxNYxNX      volume shape (default 256x256x256)\n"
         "  --precision single|double   complex64 or complex128 (default single)\n"
         "  --backend auto|host|cuda    (default auto: CUDA when a GPU is present)\n"
         "  --norm backward|ortho|forward  numpy's norm (default backward)\n"
         "  --strategy auto|in_core|two_pass|three_pass|line_transpose  (default auto)\n"
         "  --register auto|on|off  DMA bricks straight from the page-locked volume (on: locked in\n"
         "                        chunks during the run) or stage them (default auto: staged)\n"
         "  --device-budget BYTES device memory the plan may use, e.g. 4GiB (default: free memory)\n"
         "  --staging-budget BYTES host staging for all streams (default: what the bricks need)\n"
         "  --streams N           bricks in flight (default 4)\n"
         "  --threads N           host threads, 0 = all (default 0)\n"
         "  --bins N              bins of the direct-DFT spot check (default 16)\n"
         "  --seed N              seed of the generated volume (default 2026)\n";
}

}  // namespace oocfft::apps
