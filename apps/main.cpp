// oocfft: the command line. `oocfft demo` is the main job on a generated
// volume; `oocfft info` explains a plan; `oocfft fft` transforms an HDF5
// dataset, `oocfft rfft` / `irfft` a real one to its half spectrum and
// back, `oocfft dct` / `dst` a real one by scipy's dctn / dstn; `oocfft
// asm` propagates one by the angular spectrum method.
//
// Exit status: 0 success, 1 a failure at run time (bad file, out of memory,
// a full disk, a file-size limit, a demo check that failed, a run cancelled
// by SIGTERM or SIGHUP), 2 a bad command line (with usage text), 130
// interrupted by Ctrl-C (the shell's 128 + SIGINT).
#include <malloc.h>
#include <tbb/global_control.h>

#include <signal.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <new>

#include "apps/asm_command.hpp"
#include "apps/cli_options.hpp"
#include "apps/dataset_commands.hpp"
#include "apps/demo.hpp"
#include "apps/interrupt_guard.hpp"

namespace {

using namespace oocfft;

constexpr int exit_runtime_failure = 1;
constexpr int exit_usage = 2;
constexpr int exit_interrupted = 130;

// The help of the subcommand the user was typing, else the program's.
std::string usage_for(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands()) return sub->help();
  return app.help();
}

int run(const apps::CliOptions& cli) {
  // --threads bounds the demo's checks as well as the library's own pools.
  std::unique_ptr<tbb::global_control> threads;
  if (cli.options.threads > 0)
    threads = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, cli.options.threads);
  std::atomic<bool> interrupted{false};
  switch (cli.command) {
    case apps::Command::demo: {
      const apps::InterruptGuard guard(interrupted);
      return apps::run_demo(cli.demo, cli.options, interrupted);
    }
    case apps::Command::info:
      if (cli.info.dataset.empty())
        std::printf("%s", Plan(cli.info.shape, cli.info.precision, cli.options).describe().c_str());
      else
        apps::run_info_dataset(cli);
      return 0;
    case apps::Command::fft: {
      const apps::InterruptGuard guard(interrupted);
      apps::run_fft(cli, interrupted);
      return 0;
    }
    case apps::Command::real_fft: {
      const apps::InterruptGuard guard(interrupted);
      apps::run_real_fft(cli, interrupted);
      return 0;
    }
    case apps::Command::trig: {
      const apps::InterruptGuard guard(interrupted);
      apps::run_trig(cli, interrupted);
      return 0;
    }
    case apps::Command::asm_propagation: {
      const apps::InterruptGuard guard(interrupted);
      apps::run_asm(cli, interrupted);
      return 0;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) would kill the process with SIGXFSZ in
  // the middle of a write; ignored, the write fails with EFBIG and the run
  // ends as on a full disk: its temporaries removed, exit 1 with a message.
  ::signal(SIGXFSZ, SIG_IGN);
  // --host-memory bounds the whole process (README, "Memory"): a fixed
  // mmap threshold sends every allocation of 4 MiB or more (a brick's
  // scratch, a padded plane) to its own mapping, given back to the system
  // when freed. glibc's default raises the threshold to the largest block
  // freed so far (up to 32 MiB), after which such blocks come from the
  // per-thread arenas and stay resident there after they are freed.
  (void)mallopt(M_MMAP_THRESHOLD, 4 << 20);
  CLI::App app("oocfft: 3D FFTs of volumes larger than GPU memory", "oocfft");
  apps::CliOptions cli;
  try {
    apps::configure(app, cli);
    if (argc <= 1) {
      // No command is a usage error; `oocfft --help` is the way to ask.
      std::fprintf(stderr, "%s", app.help().c_str());
      return exit_usage;
    }
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      std::printf("%s", usage_for(app).c_str());
      return 0;
    } catch (const CLI::CallForAllHelp&) {
      std::printf("%s", app.help("", CLI::AppFormatMode::All).c_str());
      return 0;
    } catch (const CLI::ParseError& e) {
      std::fprintf(stderr, "oocfft: %s\n\n%s", e.what(), usage_for(app).c_str());
      return exit_usage;
    }
    return run(cli);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::cancelled) {
      std::fprintf(stderr, "%s\n", e.what());
      const int signal = apps::InterruptGuard::received();
      return signal == SIGTERM || signal == SIGHUP ? exit_runtime_failure : exit_interrupted;
    }
    std::fprintf(stderr, "%s\n", e.what());  // Error's message starts "oocfft: KIND:"
  } catch (const std::bad_alloc& e) {
    std::fprintf(stderr, "oocfft: out of memory: %s (try a smaller volume or smaller budgets)\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "oocfft: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "oocfft: unknown failure\n");
  }
  return exit_runtime_failure;
}
