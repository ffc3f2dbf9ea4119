// The `oocfft` command on HDF5 files written here. Its host budget,
// measured as a user would: the peak resident set of the process (the child's ru_maxrss from wait4)
// against --host-memory. The bound is the one README states: at most 1.25x
// the budget plus the process's baseline, the peak of the same binary
// opening the same file without transforming it (`oocfft info`). Volumes
// of 64-256 MiB through 32-128 MiB keep the suite to a few seconds; the
// volumes are written here through the HDF5 C API as h5py writes them
// (compound {r, i} of float32), contiguous or chunked. And a dataset it
// cannot read: one stored with a filter whose plugin this host lacks.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/scratch_root.hpp"

namespace oocfft::test {
namespace {

namespace fs = std::filesystem;

fs::path scratch() {
  static const ScratchRoot root("oocfft_cli_files_");
  return root.for_current_test();
}

struct Measured {
  int exit_code = -1;
  std::size_t peak_rss = 0;  // bytes
  std::string err;           // stderr
};

// Runs the command with stdout to /dev/null; its exit status, peak
// resident set and stderr.
Measured run_measured(const std::vector<std::string>& args) {
  const fs::path err_file = fs::temp_directory_path() / ("oocfft_cli_files_err_" + std::to_string(::getpid()));
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
    null = std::freopen(err_file.c_str(), "w", stderr);
    (void)null;
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  Measured run;
  int status = 0;
  rusage usage{};
  if (pid > 0 && ::wait4(pid, &status, 0, &usage) == pid) {
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.peak_rss = std::size_t(usage.ru_maxrss) * 1024;  // KiB on Linux
  }
  std::ifstream err(err_file);
  run.err.assign(std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>());
  fs::remove(err_file);
  return run;
}

// A complex64 (or, `real`, float32) dataset (nz, ny, nx) of seeded values;
// `chunk_rows` > 0 stores it chunked (4, chunk_rows, nx).
void write_volume(const fs::path& file, std::size_t nz, std::size_t ny, std::size_t nx, std::size_t chunk_rows,
                  bool real = false) {
  const hid_t f = H5Fcreate(file.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  const hid_t t = real ? H5Tcopy(H5T_NATIVE_FLOAT) : H5Tcreate(H5T_COMPOUND, 8);
  if (!real) {
    H5Tinsert(t, "r", 0, H5T_NATIVE_FLOAT);
    H5Tinsert(t, "i", 4, H5T_NATIVE_FLOAT);
  }
  const hsize_t dims[3] = {nz, ny, nx};
  const hid_t s = H5Screate_simple(3, dims, nullptr);
  const hid_t create = H5Pcreate(H5P_DATASET_CREATE);
  if (chunk_rows > 0) {
    const hsize_t chunks[3] = {4, chunk_rows, nx};
    H5Pset_chunk(create, 3, chunks);
  }
  const hid_t d = H5Dcreate2(f, "/data", t, s, H5P_DEFAULT, create, H5P_DEFAULT);
  ASSERT_GE(d, 0);
  std::vector<float> plane((real ? 1 : 2) * ny * nx);
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
  const Measured run = run_measured({"info", dataset, "--backend", "host"});
  EXPECT_EQ(run.exit_code, 0);
  return run.peak_rss;
}

void expect_within_budget(const std::vector<std::string>& args, std::size_t budget, std::size_t base) {
  const Measured run = run_measured(args);
  ASSERT_EQ(run.exit_code, 0) << run.err;
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
  // refocus of a 1024 x 1024 field, padded to 2048 x 2048 (32 MiB), held
  // with its spectrum; a padded plane larger than the bricks runs plane by
  // plane through a padded scratch plane, which the budget did not count
  // (111 MiB through 72 MiB).
  write_volume(dir / "field.h5", 1, 1024, 1024, 0);
  std::vector<std::string> refocus = {"asm", (dir / "field.h5").string() + ":/data",
                                      (dir / "out.h5").string() + ":/refocused", "--host-memory", "74MiB",
                                      "--mode", "refocus", "--range", "0.001:0.01:8", "--backend", "host",
                                      "--wavelength", "532e-9", "--pitch", "1e-6"};
  expect_within_budget(refocus, 74 * MiB, base);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The smallest budget a refusal names, "(N bytes)"; 0 when none.
std::size_t named_budget(const std::string& err) {
  const std::size_t end = err.rfind(" bytes)");
  if (end == std::string::npos) return 0;
  const std::size_t start = err.rfind('(', end);
  const std::string digits = start == std::string::npos ? "" : err.substr(start + 1, end - start - 1);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) {
    ADD_FAILURE() << "no budget named in: " << err;
    return 0;
  }
  return std::stoull(digits);
}

// A budget that cannot make progress is refused before anything is
// written, in the user's words (--host-memory, not the library's device
// budget), with the smallest budget that works; that one works and a KiB
// less does not. 8 KiB once ran 24,576 bricks of 512 bytes (512 MiB
// through 64 KiB took 55 s against 2.2 s), and 1 byte answered "give the
// host backend a device_memory_budget".
TEST(CliHostBudget, ABudgetTooSmallIsRefusedWithTheSmallestThatWorks) {
  const fs::path dir = scratch();
  write_volume(dir / "v.h5", 64, 128, 128, 0);  // 8 MiB
  const std::string in = (dir / "v.h5").string() + ":/data";
  auto fft = [&](const std::string& budget, const std::string& out) {
    return run_measured({"fft", in, (dir / "out.h5").string() + ":/" + out, "--backend", "host", "--host-memory",
                         budget});
  };
  std::size_t smallest = 0;
  for (const char* budget : {"1", "8KiB"}) {
    SCOPED_TRACE(budget);
    const Measured refused = fft(budget, "refused");
    EXPECT_EQ(refused.exit_code, 1) << refused.err;
    EXPECT_TRUE(contains(refused.err, "--host-memory")) << refused.err;
    EXPECT_TRUE(contains(refused.err, "smallest budget that works")) << refused.err;
    EXPECT_FALSE(contains(refused.err, "device_memory_budget")) << refused.err;
    smallest = std::max(smallest, named_budget(refused.err));
  }
  ASSERT_GT(smallest, 8u << 10);
  EXPECT_FALSE(fs::exists(dir / "out.h5")) << "nothing was written";
  const Measured below = fft(std::to_string(smallest - 1024), "below");
  EXPECT_EQ(below.exit_code, 1) << below.err;
  EXPECT_EQ(named_budget(below.err), smallest) << below.err;
  const Measured works = fft(std::to_string(smallest), "works");
  EXPECT_EQ(works.exit_code, 0) << works.err;
  // The real transforms and the DCT share the rule.
  write_volume(dir / "r.h5", 64, 128, 256, 0, true);  // 8 MiB of float32
  for (const char* command : {"rfft", "dct"}) {
    SCOPED_TRACE(command);
    const Measured real = run_measured({command, (dir / "r.h5").string() + ":/data",
                                        (dir / "out.h5").string() + ":/" + command, "--backend", "host",
                                        "--host-memory", "8KiB"});
    EXPECT_EQ(real.exit_code, 1) << real.err;
    EXPECT_TRUE(contains(real.err, "smallest budget that works")) << real.err;
  }
  // asm's share of a budget of 1 byte was no budget at all: it ran unbounded.
  const Measured asm_refused = run_measured({"asm", in, (dir / "out.h5").string() + ":/asm", "--backend", "host",
                                             "--host-memory", "1", "--wavelength", "532e-9", "--pitch", "1e-6",
                                             "--distance", "1e-3"});
  EXPECT_EQ(asm_refused.exit_code, 1) << asm_refused.err;
  EXPECT_TRUE(contains(asm_refused.err, "smallest budget that works")) << asm_refused.err;
  EXPECT_GT(named_budget(asm_refused.err), 0u);
}

// A filter of this process only (the command's process has no plugin for
// it): the identity, under an id of the range HDF5 leaves to testing.
constexpr H5Z_filter_t test_filter_id = 32100;

std::size_t identity_filter(unsigned, std::size_t, const unsigned[], std::size_t bytes, std::size_t*, void**) {
  return bytes;
}

// A dataset stored with a filter HDF5 cannot apply here is named as such by
// `info` and refused by `fft` naming the filter. Before, `info` called it
// fine and `fft` failed reading with HDF5's "can't open directory" of the
// plugin search path.
TEST(CliHostileDatasets, AnUnavailableFilterIsNamedByInfoAndByTheRefusal) {
  const fs::path dir = scratch();
  const H5Z_class2_t filter{H5Z_CLASS_T_VERS, test_filter_id, 1, 1, "oocfft_test_identity", nullptr, nullptr,
                            identity_filter};
  ASSERT_GE(H5Zregister(&filter), 0);
  const fs::path file = dir / "filtered.h5";
  const hid_t f = H5Fcreate(file.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  const hsize_t dims[3] = {4, 16, 16}, chunks[3] = {1, 16, 16};
  const hid_t s = H5Screate_simple(3, dims, nullptr);
  const hid_t create = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(create, 3, chunks);
  H5Pset_filter(create, test_filter_id, H5Z_FLAG_MANDATORY, 0, nullptr);
  const hid_t d = H5Dcreate2(f, "/data", H5T_NATIVE_FLOAT, s, H5P_DEFAULT, create, H5P_DEFAULT);
  ASSERT_GE(d, 0);
  const std::vector<float> values(4 * 16 * 16, 1.0f);
  ASSERT_GE(H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  H5Dclose(d);
  H5Pclose(create);
  H5Sclose(s);
  H5Fclose(f);
  H5Zunregister(test_filter_id);

  const fs::path out_file = dir / "info.txt";
  const std::string in = file.string() + ":/data";
  const std::string command = std::string("'") + OOCFFT_CLI_PATH + "' info '" + in + "' --backend host >'" +
                              out_file.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream info_text(out_file);
  const std::string info((std::istreambuf_iterator<char>(info_text)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(contains(info, "oocfft_test_identity (32100)")) << info;
  EXPECT_TRUE(contains(info, "unavailable")) << info;
  EXPECT_NE(WEXITSTATUS(status), 0) << "info says what fft would refuse\n" << info;

  const Measured fft = run_measured({"fft", in, (dir / "out.h5").string() + ":/s", "--backend", "host"});
  EXPECT_EQ(fft.exit_code, 1) << fft.err;
  EXPECT_TRUE(contains(fft.err, "oocfft_test_identity (32100)")) << fft.err;
  EXPECT_TRUE(contains(fft.err, "HDF5_PLUGIN_PATH")) << fft.err;
  EXPECT_FALSE(fs::exists(dir / "out.h5"));
}

// --distances is read within 64 MiB: /dev/zero used to be read until
// memory ran out. (The run is held to 1 GiB of address space and 30 s, so
// that where the bound is missing the test fails instead of the machine.)
TEST(CliHostileDatasets, ADistancesFileIsReadWithinABound) {
  const fs::path dir = scratch();
  const fs::path err_file = dir / "err.txt";
  const std::string command = "ulimit -v 1048576; timeout 30 '" + std::string(OOCFFT_CLI_PATH) +
                              "' asm a.h5:/x b.h5:/y --wavelength 5e-7 --pitch 8e-6 --distances /dev/zero "
                              ">/dev/null 2>'" + err_file.string() + "'";
  const int status = std::system(command.c_str());
  std::ifstream err_text(err_file);
  const std::string err((std::istreambuf_iterator<char>(err_text)), std::istreambuf_iterator<char>());
  EXPECT_EQ(WEXITSTATUS(status), 1) << err;
  EXPECT_TRUE(contains(err, "larger than 64.0 MiB")) << err;
}

}  // namespace
}  // namespace oocfft::test
