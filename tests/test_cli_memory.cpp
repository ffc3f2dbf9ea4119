// The host budget of the `oocfft` command, measured as a user would: the
// peak resident set of the process (the child's ru_maxrss from wait4)
// against --host-memory. The bound is the one README states: at most 1.25x
// the budget plus the process's baseline, the peak of the same binary
// opening the same file without transforming it (`oocfft info`). Volumes
// of 64-256 MiB through 32-128 MiB keep the suite to a few seconds; the
// volumes are written here through the HDF5 C API as h5py writes them
// (compound {r, i} of float32), contiguous or chunked.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/scratch_root.hpp"

namespace oocfft::test {
namespace {

namespace fs = std::filesystem;

fs::path scratch() {
  static const ScratchRoot root("oocfft_cli_memory_");
  return root.for_current_test();
}

struct Run {
  int exit_code = -1;
  std::size_t peak_rss = 0;  // bytes
};

// Runs the command with stdout and stderr to /dev/null; its exit status and
// peak resident set.
Run run_measured(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  std::string program = OOCFFT_CLI_PATH;
  argv.push_back(program.data());
  std::vector<std::string> copies = args;
  for (std::string& a : copies) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);  // or the child would print this process's buffered output again
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::FILE* null = std::freopen("/dev/null", "w", stdout);
    null = std::freopen("/dev/null", "w", stderr);
    (void)null;
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  Run run;
  int status = 0;
  rusage usage{};
  if (pid > 0 && ::wait4(pid, &status, 0, &usage) == pid) {
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.peak_rss = std::size_t(usage.ru_maxrss) * 1024;  // KiB on Linux
  }
  return run;
}

// A complex64 dataset (nz, ny, nx) of seeded values; `chunk_rows` > 0
// stores it chunked (4, chunk_rows, nx).
void write_volume(const fs::path& file, std::size_t nz, std::size_t ny, std::size_t nx, std::size_t chunk_rows) {
  const hid_t f = H5Fcreate(file.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  const hid_t t = H5Tcreate(H5T_COMPOUND, 8);
  H5Tinsert(t, "r", 0, H5T_NATIVE_FLOAT);
  H5Tinsert(t, "i", 4, H5T_NATIVE_FLOAT);
  const hsize_t dims[3] = {nz, ny, nx};
  const hid_t s = H5Screate_simple(3, dims, nullptr);
  const hid_t create = H5Pcreate(H5P_DATASET_CREATE);
  if (chunk_rows > 0) {
    const hsize_t chunks[3] = {4, chunk_rows, nx};
    H5Pset_chunk(create, 3, chunks);
  }
  const hid_t d = H5Dcreate2(f, "/data", t, s, H5P_DEFAULT, create, H5P_DEFAULT);
  ASSERT_GE(d, 0);
  std::vector<float> plane(2 * ny * nx);
  std::uint64_t state = 2026;
  for (std::size_t z = 0; z < nz; ++z) {
    for (float& v : plane) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      v = float(state >> 40) / float(1u << 24) - 0.5f;
    }
    const hsize_t start[3] = {z, 0, 0}, count[3] = {1, ny, nx};
    const hid_t file_space = H5Dget_space(d);
    H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, count, nullptr);
    const hid_t memory = H5Screate_simple(3, count, nullptr);
    ASSERT_GE(H5Dwrite(d, t, memory, file_space, H5P_DEFAULT, plane.data()), 0);
    H5Sclose(memory);
    H5Sclose(file_space);
  }
  H5Dclose(d);
  H5Pclose(create);
  H5Sclose(s);
  H5Tclose(t);
  H5Fclose(f);
}

constexpr std::size_t MiB = std::size_t{1} << 20;

// The process's peak opening `dataset` without transforming it.
std::size_t baseline(const std::string& dataset) {
  const Run run = run_measured({"info", dataset, "--backend", "host"});
  EXPECT_EQ(run.exit_code, 0);
  return run.peak_rss;
}

void expect_within_budget(const std::vector<std::string>& args, std::size_t budget, std::size_t base) {
  const Run run = run_measured(args);
  ASSERT_EQ(run.exit_code, 0);
  const std::size_t bound = budget + budget / 4 + base;
  std::printf("  %s to %s: peak %zu MiB, budget %zu MiB, bound %zu MiB\n", args[0].c_str(),
              args[2].substr(args[2].rfind(':') + 1).c_str(), run.peak_rss / MiB, budget / MiB, bound / MiB);
  std::fflush(stdout);
  EXPECT_LE(run.peak_rss, bound) << "peak RSS " << run.peak_rss / MiB << " MiB through a budget of " << budget / MiB
                                 << " MiB (bound " << bound / MiB << " MiB, baseline " << base / MiB << " MiB)";
}

// 256 MiB streamed through 64 MiB, contiguous and chunked (the chunked
// output's chunk caches and the y-slabs that cut its chunks once held
// 130-190 MB more than the budget), and 128 MiB in memory through 160 MiB.
TEST(CliHostBudget, FftPeakStaysWithinTheBudgetStreamedAndInMemory) {
  const fs::path dir = scratch();
  write_volume(dir / "v.h5", 128, 512, 512, 0);
  write_volume(dir / "c.h5", 128, 512, 512, 64);
  const std::size_t base = baseline((dir / "v.h5").string() + ":/data");
  for (const char* name : {"v.h5", "c.h5"})
    expect_within_budget({"fft", (dir / name).string() + ":/data", (dir / "out.h5").string() + ":/" + name,
                          "--backend", "host", "--host-memory", "64MiB"},
                         64 * MiB, base);
  expect_within_budget({"fft", (dir / "v.h5").string() + ":/data", (dir / "out.h5").string() + ":/in_memory",
                        "--backend", "host", "--host-memory", "160MiB"},
                       160 * MiB, base);
}

// asm propagate of a 64 MiB stack through 32 MiB (its bricks, chunk
// caches and the plane programs' host "device" were unbounded: 690 MiB
// through 128 MiB), with and without padding, and of a 32 MiB stack under
// a budget larger than it.
TEST(CliHostBudget, AsmPeakStaysWithinTheBudget) {
  const fs::path dir = scratch();
  write_volume(dir / "s.h5", 32, 512, 512, 64);
  write_volume(dir / "small.h5", 16, 512, 512, 0);
  const std::size_t base = baseline((dir / "s.h5").string() + ":/data");
  const std::vector<std::string> physics = {"--backend", "host", "--wavelength", "532e-9", "--pitch", "1e-6",
                                            "--distance", "1e-3"};
  auto args = [&](const char* in, const char* out, const char* budget, const char* pad) {
    std::vector<std::string> a = {"asm", (dir / in).string() + ":/data", (dir / "out.h5").string() + ":/" + out,
                                  "--host-memory", budget, "--pad", pad};
    a.insert(a.end(), physics.begin(), physics.end());
    return a;
  };
  expect_within_budget(args("s.h5", "p1", "32MiB", "1"), 32 * MiB, base);
  expect_within_budget(args("s.h5", "p2", "32MiB", "2"), 32 * MiB, base);
  expect_within_budget(args("small.h5", "big_budget", "128MiB", "1"), 128 * MiB, base);
}

}  // namespace
}  // namespace oocfft::test
