// The `oocfft` command against what destroys or loses a user's files
// (issue 46, part A), each case made to fail before its fix:
//   --json         never opened before the checks, replaced whole at the end;
//   temporaries    a user's dataset with an oocfft temporary's name is never
//                  touched; a leftover is named with how to remove it;
//   kills          SIGKILL leaves nothing at a new output's path; SIGTERM and
//                  SIGHUP cancel cleanly (exit 1);
//   file size      a file-size limit (as a full disk) ends in exit 1 with a
//                  message, not a signal or a crash in HDF5's close;
//   concurrency    a second writer of one output file is refused with
//                  HDF5's locking off;
//   durability     the output is fsynced before it is renamed into place
//                  (an LD_PRELOAD probe logs fsync and rename).
// Skips without a Python with h5py (the files are made and checked with it).
#include <gtest/gtest.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/scratch_root.hpp"

namespace {

namespace fs = std::filesystem;
using oocfft::test::ScratchRoot;

std::string slurp(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A fresh directory per test, under the program's scratch root (removed at
// exit unless a test failed).
fs::path scratch() {
  static const ScratchRoot root("oocfft_cli_safety_");
  return root.for_current_test();
}

#define REQUIRE_H5PY()                                                  \
  do {                                                                  \
    if (std::string(OOCFFT_TEST_H5PY_PYTHON).empty())                   \
      GTEST_SKIP() << "no Python interpreter with h5py and numpy was found at configure time"; \
  } while (0)

// Runs Python with h5py and numpy on `code`; true when it exits 0.
bool python(const fs::path& dir, const std::string& code) {
  const fs::path script = dir / "script.py";
  std::ofstream(script) << "import h5py, numpy as np, sys\n" << code;
  return std::system(("'" + std::string(OOCFFT_TEST_H5PY_PYTHON) + "' '" + script.string() + "'").c_str()) == 0;
}

// A complex128 volume (64, 96, 96) at `file`:/data, 9 MiB, seeded.
void make_volume(const fs::path& dir, const fs::path& file) {
  ASSERT_TRUE(python(dir, "r = np.random.default_rng(7)\n"
                          "h5py.File('" + file.string() + "', 'a')['data'] = "
                          "r.random((64, 96, 96)) - 0.5 + 1j * (r.random((64, 96, 96)) - 0.5)\n"));
}

struct Outcome {
  int status = 0;  // waitpid's
  std::string err;
  bool exited(int code) const { return WIFEXITED(status) && WEXITSTATUS(status) == code; }
};

struct Child {
  pid_t pid = -1;
  int err = -1;  // its stderr
  std::string text;
  // Reads stderr until a line holds `part`; false at its end.
  bool wait_for(const std::string& part) {
    char c;
    while (::read(err, &c, 1) == 1) {
      text += c;
      if (c == '\n' && contains(text, part)) return true;
    }
    return false;
  }
  Outcome finish() {
    char c;
    while (::read(err, &c, 1) == 1) text += c;
    ::close(err);
    Outcome r;
    ::waitpid(pid, &r.status, 0);
    r.err = text;
    return r;
  }
};

// Starts the command with `args`, `env` added to its environment and, when
// `file_size` > 0, a file-size limit of that many bytes.
Child start(const std::vector<std::string>& args, const std::vector<std::string>& env = {},
            rlim_t file_size = 0) {
  int pipe_fds[2];
  EXPECT_EQ(::pipe(pipe_fds), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(pipe_fds[1], 2);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 0);
    ::dup2(null, 1);
    for (const std::string& e : env) ::putenv(const_cast<char*>(e.c_str()));
    if (file_size > 0) {
      const rlimit limit{file_size, file_size};
      ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    std::vector<char*> argv{const_cast<char*>(OOCFFT_CLI_PATH)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(OOCFFT_CLI_PATH, argv.data());
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  return Child{pid, pipe_fds[0], {}};
}

Outcome run(const std::vector<std::string>& args, const std::vector<std::string>& env = {}, rlim_t file_size = 0) {
  return start(args, env, file_size).finish();
}

// A streamed run of many small bricks over the volume: slow enough to be
// caught mid-run (it is stopped with SIGSTOP while the test acts).
std::vector<std::string> slow_fft(const fs::path& input, const fs::path& output) {
  return {"fft", input.string() + ":/data", output.string() + ":/data", "--backend", "host", "--host-memory", "256KiB",
          "--strategy", "three_pass", "--streams", "2", "--threads", "1"};
}

// What is left in `dir` besides `keep`: temporaries, locks.
std::vector<std::string> others(const fs::path& dir, const std::vector<std::string>& keep) {
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name == "script.py") continue;
    bool kept = false;
    for (const std::string& k : keep) kept = kept || name == k;
    if (!kept) left.push_back(name);
  }
  return left;
}

// ---- 1: --json ----

TEST(CliFileSafety, JsonReportIsCheckedFirstAndReplacedWhole) {
  REQUIRE_H5PY();
  const fs::path dir = scratch();
  const fs::path a = dir / "a.h5";
  ASSERT_NO_FATAL_FAILURE(make_volume(dir, a));
  ASSERT_TRUE(python(dir, "f = h5py.File('" + a.string() + "', 'a'); f['done'] = np.zeros(3)\n"));
  const std::string before = slurp(a);

  // Refused (the output exists): the file named by --json is untouched.
  Outcome r = run({"fft", a.string() + ":/data", a.string() + ":/done", "--json", a.string(), "--backend", "host"});
  EXPECT_TRUE(r.exited(1)) << r.err;
  EXPECT_EQ(slurp(a), before) << "--json emptied the HDF5 file";
  // Not refused otherwise: the report would replace the input's file.
  r = run({"fft", a.string() + ":/data", a.string() + ":/new", "--json", a.string(), "--backend", "host"});
  EXPECT_TRUE(r.exited(1)) << r.err;
  EXPECT_TRUE(contains(r.err, "--json")) << r.err;
  EXPECT_EQ(slurp(a), before);

  // A run that fails keeps an existing report as it was.
  const fs::path report = dir / "report.json";
  std::ofstream(report) << "{\"earlier\": true}\n";
  r = run({"fft", (dir / "missing.h5").string() + ":/data", (dir / "o.h5").string() + ":/data", "--json",
           report.string(), "--backend", "host"});
  EXPECT_TRUE(r.exited(1)) << r.err;
  EXPECT_EQ(slurp(report), "{\"earlier\": true}\n");

  // A run that succeeds replaces it whole, leaving no temporary.
  r = run({"fft", a.string() + ":/data", (dir / "o.h5").string() + ":/data", "--json", report.string(), "--backend",
           "host"});
  ASSERT_TRUE(r.exited(0)) << r.err;
  EXPECT_TRUE(contains(slurp(report), "\"output\"")) << slurp(report);
  EXPECT_EQ(others(dir, {"a.h5", "o.h5", "report.json"}), std::vector<std::string>{});
}

// ---- 2: temporaries ----

TEST(CliFileSafety, DatasetsNamedLikeTemporariesAreNeverTouched) {
  REQUIRE_H5PY();
  const fs::path dir = scratch();
  const fs::path v = dir / "v.h5";
  ASSERT_TRUE(python(dir, "f = h5py.File('" + v.string() + "', 'w')\n"
                          "f['.oocfft-partial-o'] = np.arange(24.0).reshape(2, 3, 4) + 1j\n"
                          "f['x'] = np.ones((2, 3, 4), complex)\n"
                          "f['.oocfft-partial-keep'] = np.arange(5.0)\n"));
  // The input has the name of the output's temporary.
  Outcome r = run({"fft", v.string() + ":/.oocfft-partial-o", v.string() + ":/o", "--backend", "host"});
  EXPECT_TRUE(r.exited(1)) << r.err;
  EXPECT_TRUE(contains(r.err, v.string() + ":/.oocfft-partial-o")) << r.err;
  // A dataset of the user has the name of the temporary of /keep.
  r = run({"fft", v.string() + ":/x", v.string() + ":/keep", "--backend", "host"});
  EXPECT_TRUE(r.exited(1)) << r.err;
  EXPECT_TRUE(contains(r.err, "/.oocfft-partial-keep")) << r.err;
  EXPECT_TRUE(python(dir, "f = h5py.File('" + v.string() + "', 'r')\n"
                          "assert (f['.oocfft-partial-o'][...] == np.arange(24.0).reshape(2, 3, 4) + 1j).all()\n"
                          "assert (f['.oocfft-partial-keep'][...] == np.arange(5.0)).all()\n"
                          "assert 'o' not in f and 'keep' not in f, list(f)\n"));
}

// ---- 5: kills, SIGTERM, SIGHUP ----

// Killed while writing a new file: nothing at the output's path; the next
// run names the leftover and how to remove it, and runs once it is gone.
TEST(CliFileSafety, KilledRunLeavesNothingAtANewOutputPath) {
  REQUIRE_H5PY();
  const fs::path dir = scratch();
  const fs::path in = dir / "v.h5", out = dir / "o.h5";
  ASSERT_NO_FATAL_FAILURE(make_volume(dir, in));
  Child c = start(slow_fft(in, out));
  ASSERT_TRUE(c.wait_for("pass 1/3")) << c.text;
  ::kill(c.pid, SIGKILL);
  const Outcome killed = c.finish();
  ASSERT_TRUE(WIFSIGNALED(killed.status)) << killed.err;
  EXPECT_FALSE(fs::exists(out)) << "a killed run left a file at the output's path";
  Outcome again = run(slow_fft(in, out));
  EXPECT_TRUE(again.exited(1)) << again.err;
  EXPECT_TRUE(contains(again.err, out.string() + ".oocfft-partial")) << again.err;
  EXPECT_TRUE(contains(again.err, "rm '")) << again.err;
  fs::remove(out.string() + ".oocfft-partial");
  again = run(slow_fft(in, out));
  EXPECT_TRUE(again.exited(0)) << again.err << "the stale lock of the killed run is taken over";
  EXPECT_TRUE(python(dir, "assert h5py.File('" + out.string() + "', 'r')['data'].shape == (64, 96, 96)\n"));
  EXPECT_EQ(others(dir, {"v.h5", "o.h5"}), std::vector<std::string>{});
}

// SIGTERM and SIGHUP cancel as Ctrl-C does: exit 1 with a message, the
// input as it was, nothing at the output's path, no temporary, no lock.
TEST(CliFileSafety, TermAndHangUpCancelCleanly) {
  REQUIRE_H5PY();
  const fs::path dir = scratch();
  const fs::path in = dir / "v.h5";
  ASSERT_NO_FATAL_FAILURE(make_volume(dir, in));
  const std::string before = slurp(in);
  for (const int signal : {SIGTERM, SIGHUP}) {
    SCOPED_TRACE(signal == SIGTERM ? "SIGTERM" : "SIGHUP");
    const fs::path out = dir / "o.h5";
    Child c = start(slow_fft(in, out));
    ASSERT_TRUE(c.wait_for("pass 1/3")) << c.text;
    ::kill(c.pid, SIGSTOP);  // the signal arrives mid-run, whatever the machine's speed
    ::kill(c.pid, signal);
    ::kill(c.pid, SIGCONT);
    const Outcome r = c.finish();
    EXPECT_TRUE(r.exited(1)) << "status " << r.status << "\n" << r.err;
    EXPECT_TRUE(contains(r.err, "nothing was committed")) << r.err;
    EXPECT_FALSE(contains(r.err, "partly transformed")) << r.err;
    EXPECT_EQ(slurp(in), before);
    EXPECT_EQ(others(dir, {"v.h5"}), std::vector<std::string>{});
  }
}

// ---- 3: a file-size limit ----

TEST(CliFileSafety, FileSizeLimitEndsInAnErrorNotASignal) {
  REQUIRE_H5PY();
  const fs::path dir = scratch();
  const fs::path in = dir / "v.h5", out = dir / "o.h5";
  ASSERT_NO_FATAL_FAILURE(make_volume(dir, in));
  for (const bool streamed : {false, true}) {
    SCOPED_TRACE(streamed ? "streamed" : "in memory");
    std::vector<std::string> args{"fft", in.string() + ":/data", out.string() + ":/data", "--backend", "host"};
    if (streamed) args.insert(args.end(), {"--host-memory", "1MiB"});
    const Outcome r = run(args, {}, 3 << 20);  // the result is 9 MiB
    EXPECT_TRUE(r.exited(1)) << "status " << r.status << "\n" << r.err;
    EXPECT_TRUE(contains(r.err, "File too large")) << r.err;
    EXPECT_EQ(others(dir, {"v.h5"}), std::vector<std::string>{});
  }
}

// ---- 6: concurrent writers ----

TEST(CliFileSafety, SecondWriterIsRefusedWithoutHdf5Locking) {
  REQUIRE_H5PY();
  const fs::path dir = scratch();
  const fs::path in = dir / "v.h5", out = dir / "o.h5";
  ASSERT_NO_FATAL_FAILURE(make_volume(dir, in));
  ASSERT_TRUE(python(dir, "h5py.File('" + out.string() + "', 'w')['other'] = np.zeros(4)\n"));
  const std::vector<std::string> no_locks{"HDF5_USE_FILE_LOCKING=FALSE"};
  Child first = start(slow_fft(in, out), no_locks);
  ASSERT_TRUE(first.wait_for("pass 1/3")) << first.text;
  ::kill(first.pid, SIGSTOP);
  std::vector<std::string> second_args = slow_fft(in, out);
  second_args.push_back("--inverse");
  const Outcome second = run(second_args, no_locks);
  ::kill(first.pid, SIGCONT);
  const Outcome one = first.finish();
  EXPECT_TRUE(one.exited(0)) << one.err;
  EXPECT_TRUE(second.exited(1)) << second.err;
  EXPECT_TRUE(contains(second.err, "another oocfft run")) << second.err;
  EXPECT_TRUE(contains(second.err, std::to_string(first.pid))) << second.err;
  // The first run's result is numpy's forward fftn, untouched by the second.
  EXPECT_TRUE(python(dir, "x = h5py.File('" + in.string() + "', 'r')['data'][...]\n"
                          "y = h5py.File('" + out.string() + "', 'r')['data'][...]\n"
                          "e = np.linalg.norm(y - np.fft.fftn(x)) / np.linalg.norm(y)\n"
                          "print(e)\n"
                          "sys.exit(0 if e < 1e-13 else 1)\n"));
  EXPECT_EQ(others(dir, {"v.h5", "o.h5"}), std::vector<std::string>{});
}

// ---- 7: durability ----

// The order of a commit, as the process asks the kernel: a new file is
// fsynced under its temporary name, renamed, and its directory fsynced; in
// place, the file is fsynced before the input is deleted and after.
TEST(CliFileSafety, ResultsAreFsyncedBeforeTheyAreNamed) {
  REQUIRE_H5PY();
  const fs::path dir = scratch();
  const fs::path in = dir / "v.h5", out = dir / "o.h5", log = dir / "probe.log";
  ASSERT_NO_FATAL_FAILURE(make_volume(dir, in));
  const std::vector<std::string> probe{std::string("LD_PRELOAD=") + OOCFFT_FSYNC_PROBE_PATH,
                                       "OOCFFT_FSYNC_PROBE_LOG=" + log.string()};
  Outcome r = run({"fft", in.string() + ":/data", out.string() + ":/data", "--backend", "host"}, probe);
  ASSERT_TRUE(r.exited(0)) << r.err;
  const std::string temporary = out.string() + ".oocfft-partial";
  const std::string expected =
      "fsync " + temporary + "\nrename " + temporary + " " + out.string() + "\nfsync " + dir.string() + "\n";
  EXPECT_EQ(slurp(log), expected);

  fs::remove(log);
  r = run({"fft", in.string() + ":/data", "--in-place", "--backend", "host"}, probe);
  ASSERT_TRUE(r.exited(0)) << r.err;
  const std::string line = "fsync " + in.string() + "\n";
  EXPECT_EQ(slurp(log), line + line + line) << "before the relink, before the input is deleted, after the close";
  EXPECT_EQ(others(dir, {"v.h5", "o.h5", "probe.log"}), std::vector<std::string>{});
}

}  // namespace
