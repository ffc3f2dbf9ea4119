// oocfft: the command line. `oocfft demo` is the main job on a generated
// volume; `oocfft info` explains a plan; `oocfft fft` transforms an HDF5
// dataset, `oocfft rfft` / `irfft` a real one to its half spectrum and
// back, `oocfft dct` / `dst` a real one by scipy's dctn / dstn; `oocfft
// asm` propagates one by the angular spectrum method. Started by an MPI
// launcher, in a build with the distributed file path, `oocfft fft`,
// `rfft` and `irfft` run over the ranks (main_under_mpi).
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
#include "apps/mpi_launch.hpp"
#if OOCFFT_HAVE_PARALLEL_HDF5
#include "apps/distributed_fft_command.hpp"
#include "apps/mpi_session.hpp"
#endif

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

// What parsing the command line decided: go on and run, or stop with
// `status` after printing `text` (help on stdout, a refusal on stderr).
// Kept rather than printed, so that under MPI one rank prints it.
constexpr int go_on = -1;
struct ParseOutcome {
  int status = go_on;
  std::string text;
  std::FILE* stream = stderr;
  void print() const { std::fprintf(stream, "%s", text.c_str()); }
};

ParseOutcome parse_command_line(CLI::App& app, apps::CliOptions& cli, int argc, char** argv) {
  apps::configure(app, cli);
  // No command is a usage error; `oocfft --help` is the way to ask.
  if (argc <= 1) return {exit_usage, app.help(), stderr};
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return {0, usage_for(app), stdout};
  } catch (const CLI::CallForAllHelp&) {
    return {0, app.help("", CLI::AppFormatMode::All), stdout};
  } catch (const CLI::ParseError& e) {
    return {exit_usage, std::string("oocfft: ") + e.what() + "\n\n" + usage_for(app), stderr};
  }
  return {};
}

// The failure in flight: printed (when `speak`), and the exit status.
// Called from a catch block.
int failure_status(bool speak) {
  try {
    throw;
  } catch (const Error& e) {
    if (speak) std::fprintf(stderr, "%s\n", e.what());  // Error's message starts "oocfft: KIND:"
    if (e.kind() == ErrorKind::cancelled) {
      const int signal = apps::InterruptGuard::received();
      return signal == SIGTERM || signal == SIGHUP ? exit_runtime_failure : exit_interrupted;
    }
  } catch (const std::bad_alloc& e) {
    if (speak) std::fprintf(stderr, "oocfft: out of memory: %s (try a smaller volume or smaller budgets)\n", e.what());
  } catch (const std::exception& e) {
    if (speak) std::fprintf(stderr, "oocfft: %s\n", e.what());
  } catch (...) {
    if (speak) std::fprintf(stderr, "oocfft: unknown failure\n");
  }
  return exit_runtime_failure;
}

// --threads bounds the demo's checks as well as the library's own pools.
std::unique_ptr<tbb::global_control> thread_limit(const apps::CliOptions& cli) {
  if (cli.options.threads == 0) return nullptr;
  return std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, cli.options.threads);
}

int run(const apps::CliOptions& cli) {
  const auto threads = thread_limit(cli);
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

#if OOCFFT_HAVE_PARALLEL_HDF5
// Started by an MPI launcher: MPI for the whole run, and `fft`, `rfft` or
// `irfft` over the ranks. Every decision that could stop one rank alone is
// agreed first, so that no rank waits for one that left: the command line
// (the first rank that refuses it prints why, every rank exits with the
// worst status) and the command itself (only those three run over several
// ranks). Rank 0 prints
// the job's progress, summary and errors; the library gives every rank
// the same Error.
int main_under_mpi(int argc, char** argv) {
  const apps::MpiSession mpi(&argc, &argv);
  const bool speak = mpi.rank() == 0;
  CLI::App app("oocfft: 3D FFTs of volumes larger than GPU memory", "oocfft");
  apps::CliOptions cli;
  ParseOutcome parsed;
  try {
    parsed = parse_command_line(app, cli, argc, argv);
  } catch (...) {
    parsed = {failure_status(false), "oocfft: the command line could not be read\n", stderr};
  }
  const int stopping_rank = parsed.status == go_on ? mpi.ranks() : mpi.rank();
  int first_stopping = mpi.ranks(), worst = go_on;
  MPI_Allreduce(&stopping_rank, &first_stopping, 1, MPI_INT, MPI_MIN, mpi.world());
  MPI_Allreduce(&parsed.status, &worst, 1, MPI_INT, MPI_MAX, mpi.world());
  if (worst != go_on) {
    if (mpi.rank() == first_stopping) parsed.print();
    return worst;
  }
  const int command = static_cast<int>(cli.command);
  int lowest = 0, highest = 0;
  MPI_Allreduce(&command, &lowest, 1, MPI_INT, MPI_MIN, mpi.world());
  MPI_Allreduce(&command, &highest, 1, MPI_INT, MPI_MAX, mpi.world());
  if (lowest != highest) {
    if (speak)
      std::fprintf(stderr,
                   "oocfft: the ranks were started with different commands; every rank runs the same command\n");
    return exit_usage;
  }
  const bool over_ranks = cli.command == apps::Command::fft || cli.command == apps::Command::real_fft;
  if (!over_ranks) {
    if (mpi.ranks() == 1) {
      try {
        return run(cli);
      } catch (...) {
        return failure_status(true);
      }
    }
    if (speak)
      std::fprintf(stderr,
                   "oocfft: `oocfft %s` under an MPI launcher with %d ranks: only `oocfft fft`, `rfft` and `irfft` "
                   "run over MPI ranks; start the other commands without mpirun\n",
                   app.get_subcommands().front()->get_name().c_str(), mpi.ranks());
    return exit_usage;
  }
  std::atomic<bool> interrupted{false};
  try {
    const auto threads = thread_limit(cli);
    const apps::InterruptGuard guard(interrupted);
    if (cli.command == apps::Command::fft)
      apps::run_distributed_fft(cli, interrupted, mpi.world(), mpi.rank());
    else
      apps::run_distributed_real_fft(cli, interrupted, mpi.world(), mpi.rank());
    return 0;
  } catch (...) {
    return failure_status(speak);
  }
}
#endif

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
  const apps::MpiLaunch launch = apps::mpi_launch_from_environment();
#if OOCFFT_HAVE_PARALLEL_HDF5
  if (launch.launched) return main_under_mpi(argc, argv);
#else
  if (launch.ranks > 1) {
    // Each process would run the whole command alone, every one writing
    // the same output.
    std::fprintf(stderr,
                 "oocfft: started by an MPI launcher with %d processes, but this oocfft was built without the "
                 "distributed file path (MPI and parallel HDF5, README \"Building by hand\"): run it without "
                 "mpirun\n",
                 launch.ranks);
    return exit_usage;
  }
#endif
  CLI::App app("oocfft: 3D FFTs of volumes larger than GPU memory", "oocfft");
  apps::CliOptions cli;
  try {
    const ParseOutcome parsed = parse_command_line(app, cli, argc, argv);
    if (parsed.status != go_on) {
      parsed.print();
      return parsed.status;
    }
    return run(cli);
  } catch (...) {
    return failure_status(true);
  }
}
