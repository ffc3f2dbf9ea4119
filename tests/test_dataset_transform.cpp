// transform_dataset end to end on the host backend (runs in CI): h5py-written
// inputs of every stored kind against numpy's fftn, the in-memory path and
// the streamed file -> "device" -> file path with a host memory budget far
// below the volume, every streamed strategy, the inverse, in place, and the
// failures that must leave the input byte-identical and no dataset under
// the output name: a budget under one brick, a cancel, an interrupt of the
// command (SIGINT) and a kill (SIGKILL).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include <oocfft/asm.hpp>

#include "core/relative_l2.hpp"
#include "tests/h5py_fixtures.hpp"

namespace oocfft {
namespace {

namespace fs = std::filesystem;
using namespace test_h5;

// The dataset `name` of `file` as doubles (re, im, ...), any h5py complex.
std::vector<double> read_complex(const fs::path& file, const std::string& name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_GE(f, 0) << file;
  const hid_t d = H5Dopen2(f, name.c_str(), H5P_DEFAULT);
  EXPECT_GE(d, 0) << name;
  const hid_t s = H5Dget_space(d);
  std::vector<double> v(2 * static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
  const hid_t t = H5Tcreate(H5T_COMPOUND, 2 * sizeof(double));
  H5Tinsert(t, "r", 0, H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "i", sizeof(double), H5T_NATIVE_DOUBLE);
  EXPECT_GE(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), 0);
  H5Tclose(t);
  H5Sclose(s);
  H5Dclose(d);
  H5Fclose(f);
  return v;
}

bool has_link(const fs::path& file, const std::string& name) {
  if (!fs::exists(file)) return false;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return false;
  const bool found = H5Lexists(f, name.c_str(), H5P_DEFAULT) > 0;
  H5Fclose(f);
  return found;
}

// C eps sqrt(log2 N) with C = 6 for volumes (docs/ARCHITECTURE.md; the engine suites' rule).
double tolerance(const DatasetInfo& info) {
  const double eps = info.precision == Precision::single ? 1.1920929e-7 : 2.220446049250313e-16;
  return 6 * eps * std::sqrt(std::max(1.0, std::log2(double(info.shape.elements()))));
}

Options host() {
  Options o;
  o.backend = Backend::host;
  return o;
}

const char* const every_fixture[] = {"c64_3d",        "c128_3d",      "c128_cube",          "f32_3d",
                                     "f64_2d",        "pairs_f64_3d", "pairs_f32_1d",       "realimag_2d",
                                     "RealImaginary_1d", "group/nested/c64_1d"};

// Every stored kind, in memory and (2D and 3D volumes: a 1D line cannot be
// split) streamed with a budget half the volume over two streams, against
// numpy's fftn, and back with the inverse.
TEST(DatasetTransform, EveryStoredKindMatchesNumpyInMemoryAndStreamed) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const std::uint64_t before = file_hash(fixtures().fixtures());
  for (const char* name : every_fixture) {
    const DatasetInfo info = inspect_dataset(fixture(std::string("/") + name));
    const std::vector<double> expected = read_doubles(fixtures().expected(), std::string("/fftn/") + name);
    for (const bool streamed : {false, true}) {
      if (streamed && info.shape.ny == 1) continue;
      SCOPED_TRACE(std::string(name) + (streamed ? " streamed" : " in memory"));
      DatasetTransformOptions fo;
      fo.host_memory_budget = streamed ? info.complex_bytes() / 2 : 0;
      Options o = host();
      o.streams = 2;
      const fs::path out = dir / (std::string(streamed ? "s_" : "m_") + std::to_string(std::hash<std::string>{}(name)) + ".h5");
      const DatasetTransformReport r = transform_dataset(info.path, {out.string(), "/spectrum"}, Direction::forward, o, fo);
      EXPECT_EQ(r.in_memory, !streamed);
      if (streamed) EXPECT_GE(r.run.bricks, 2u) << "the streamed path must take several bricks";
      EXPECT_LE(relative_l2(read_complex(out, "/spectrum"), expected), tolerance(info));
      // The inverse brings the input back.
      transform_dataset({out.string(), "/spectrum"}, {out.string(), "/back"}, Direction::inverse, o, fo);
      EXPECT_LE(relative_l2(read_complex(out, "/back"), expected_values(name)), tolerance(info));
    }
  }
  EXPECT_EQ(file_hash(fixtures().fixtures()), before) << "the input file changed";
}

// Every streamed strategy from a file, through a budget far below the
// volume, gives the in-memory result.
TEST(DatasetTransform, EveryStreamedStrategyMatchesInMemory) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const DatasetPath in = fixture("/c128_cube");  // 40^3 complex128, 1 MiB
  transform_dataset(in, {(dir / "ref.h5").string(), "/s"}, Direction::forward, host());
  const std::vector<double> reference = read_complex(dir / "ref.h5", "/s");
  for (Strategy s : {Strategy::automatic, Strategy::two_pass, Strategy::three_pass, Strategy::line_transpose}) {
    SCOPED_TRACE(to_string(s));
    Options o = host();
    o.strategy = s;
    o.streams = 3;
    DatasetTransformOptions fo;
    fo.host_memory_budget = 256 << 10;  // a quarter of the volume: an XY plane per stream
    const fs::path out = dir / (std::string(to_string(s)) + ".h5");
    const DatasetTransformReport r = transform_dataset(in, {out.string(), "/s"}, Direction::forward, o, fo);
    EXPECT_FALSE(r.in_memory);
    if (s != Strategy::automatic) EXPECT_EQ(r.run.strategy, s);
    EXPECT_LE(r.run.staging_bytes, fo.host_memory_budget / 2);
    EXPECT_LE(relative_l2(read_complex(out, "/s"), reference), 1e-13);
  }
}

// Streamed from a file over three emulated devices, each strategy writes
// what one device writes, bit for bit.
TEST(DatasetTransform, SeveralDevicesWriteWhatOneWrites) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const DatasetPath in = fixture("/c128_cube");  // 40^3 complex128, 1 MiB
  for (Strategy s : {Strategy::two_pass, Strategy::three_pass}) {
    SCOPED_TRACE(to_string(s));
    Options o = host();
    o.strategy = s;
    o.streams = 2;
    DatasetTransformOptions fo;
    fo.host_memory_budget = 512 << 10;  // half the volume: six lanes' planes and their staging
    const fs::path one = dir / (std::string(to_string(s)) + "-one.h5");
    transform_dataset(in, {one.string(), "/s"}, Direction::forward, o, fo);
    o.devices = Devices::list({0, 1, 2});
    const fs::path three = dir / (std::string(to_string(s)) + "-three.h5");
    const DatasetTransformReport r = transform_dataset(in, {three.string(), "/s"}, Direction::forward, o, fo);
    EXPECT_FALSE(r.in_memory);
    EXPECT_EQ(r.run.devices, 3u);
    EXPECT_EQ(r.run.strategy, s);
    EXPECT_EQ(read_complex(three, "/s"), read_complex(one, "/s"));
  }
}

TEST(DatasetTransform, InPlaceReplacesOnlyTheInput) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path file = copy_fixtures_to(dir);
  const DatasetPath target{file.string(), "/c64_3d"};
  DatasetTransformOptions fo;
  fo.in_place = true;
  fo.host_memory_budget = 4096;  // streamed: reads the input, writes the result under another name
  transform_dataset(target, target, Direction::forward, host(), fo);
  const DatasetInfo info = inspect_dataset(target);
  EXPECT_LE(relative_l2(read_complex(file, "/c64_3d"), read_doubles(fixtures().expected(), "/fftn/c64_3d")),
            tolerance(info));
  EXPECT_EQ(read_complex(file, "/c128_3d"), expected_values("c128_3d")) << "another dataset changed";
  for (const std::string& link : links(file, "/")) EXPECT_EQ(link.find(".oocfft"), std::string::npos) << link;
}

// Failures leave the input byte-identical and nothing under the output name.
TEST(DatasetTransform, ABudgetUnderOneBrickIsRefusedBeforeWriting) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const std::uint64_t before = file_hash(fixtures().fixtures());
  DatasetTransformOptions fo;
  fo.host_memory_budget = 64;
  const fs::path out = dir / "out.h5";
  expect_error([&] { transform_dataset(fixture("/c64_3d"), {out.string(), "/s"}, Direction::forward, host(), fo); },
               ErrorKind::out_of_memory, {});
  EXPECT_EQ(file_hash(fixtures().fixtures()), before);
  EXPECT_FALSE(fs::exists(out)) << "a file created for the output is removed again";
}

// A chunked complex64 dataset of `dims` and `chunks` in a new file, with
// the chunk at the origin written when `one_chunk`, else nothing.
void write_unwritten(const fs::path& file, const std::vector<hsize_t>& dims, const std::vector<hsize_t>& chunks,
                     bool one_chunk) {
  const hid_t f = H5Fcreate(file.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  const hid_t t = H5Tcreate(H5T_COMPOUND, 8);
  H5Tinsert(t, "r", 0, H5T_NATIVE_FLOAT);
  H5Tinsert(t, "i", 4, H5T_NATIVE_FLOAT);
  const hid_t s = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t create = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(create, static_cast<int>(chunks.size()), chunks.data());
  const hid_t d = H5Dcreate2(f, "/claimed", t, s, H5P_DEFAULT, create, H5P_DEFAULT);
  ASSERT_GE(d, 0);
  if (one_chunk) {
    std::size_t n = 1;
    for (hsize_t c : chunks) n *= c;
    const std::vector<float> values(2 * n, 1.0f);
    const std::vector<hsize_t> start(dims.size(), 0);
    const hid_t file_space = H5Dget_space(d);
    H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start.data(), nullptr, chunks.data(), nullptr);
    const hid_t memory = H5Screate_simple(static_cast<int>(chunks.size()), chunks.data(), nullptr);
    EXPECT_GE(H5Dwrite(d, t, memory, file_space, H5P_DEFAULT, values.data()), 0);
    H5Sclose(memory);
    H5Sclose(file_space);
  }
  H5Dclose(d);
  H5Pclose(create);
  H5Sclose(s);
  H5Tclose(t);
  H5Fclose(f);
}

// A dataset whose claimed size cannot be real (a 1.4 KB file claiming
// 8 TiB, no chunk written; another with one chunk of 16384) is refused
// before anything is streamed or written: it once streamed until the disk
// filled. inspect_dataset still describes it. (The cancel hook stops a run
// that would stream at its first brick, so the test fails fast, and
// writes little, where the refusal is missing.)
TEST(DatasetTransform, ADatasetNeverWrittenIsRefusedBeforeStreaming) {
  const fs::path dir = scratch_directory();
  write_unwritten(dir / "none.h5", {16384, 16384, 4096}, {1, 64, 4096}, false);
  write_unwritten(dir / "one.h5", {1024, 1024, 1024}, {1, 64, 1024}, true);
  EXPECT_LT(fs::file_size(dir / "none.h5"), 16u << 10);
  const DatasetInfo none = inspect_dataset({(dir / "none.h5").string(), "/claimed"});
  EXPECT_EQ(none.chunks_written, 0u);
  EXPECT_EQ(none.chunks_in_all, 16384u * 256u);
  EXPECT_FALSE(none.fully_allocated);
  for (const char* name : {"none.h5", "one.h5"}) {
    SCOPED_TRACE(name);
    Options o = host();
    o.cancel = [] { return true; };
    const DatasetPath in{(dir / name).string(), "/claimed"};
    const fs::path out = dir / "out.h5";
    expect_error([&] { transform_dataset(in, {out.string(), "/s"}, Direction::forward, o); },
                 ErrorKind::invalid_argument, {"ever written", "chunks are in the file", "fill value"});
    EXPECT_FALSE(fs::exists(out));
    AsmOptions a;
    a.wavelength = 532e-9;
    a.pitch_x = 1e-6;
    a.fft = o;
    const double z[] = {1e-3};
    expect_error([&] { propagate_dataset(in, {out.string(), "/s"}, AsmMode::propagate, z, a); },
                 ErrorKind::invalid_argument, {"ever written"});
    EXPECT_FALSE(fs::exists(out));
  }
}

// An existing dataset named another way ("/./c128_3d") is refused before
// any work: it used to run the whole transform and fail when linking the
// result.
TEST(DatasetTransform, AnotherSpellingOfAnExistingOutputIsRefusedBeforeAnyWork) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path file = copy_fixtures_to(dir);
  for (const char* spelling : {"/./c128_3d", "//c128_3d", "/group/./nested//c64_1d"}) {
    SCOPED_TRACE(spelling);
    Options o = host();
    int bricks = 0;
    o.progress = [&](const Progress&) { ++bricks; };
    expect_error([&] {
      transform_dataset({file.string(), "/c64_3d"}, {file.string(), spelling}, Direction::forward, o);
    }, ErrorKind::invalid_argument, {"exists"});
    EXPECT_EQ(bricks, 0) << "no work was done";
  }
}

TEST(DatasetTransform, CancelLeavesTheInputAndNoOutput) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  // The output goes into the input's own file, so the file's bytes change
  // (a temporary dataset is created and removed): the input dataset's
  // values are what must stay.
  const fs::path file = copy_fixtures_to(dir);
  for (const bool in_place : {false, true}) {
    SCOPED_TRACE(in_place ? "in place" : "new dataset");
    Options o = host();
    std::atomic<int> bricks{0};
    o.progress = [&](const Progress&) { ++bricks; };
    o.cancel = [&] { return bricks.load() >= 5; };
    DatasetTransformOptions fo;
    fo.in_place = in_place;
    fo.host_memory_budget = 64 << 10;
    const DatasetPath in{file.string(), "/c128_cube"};
    const DatasetPath out = in_place ? in : DatasetPath{file.string(), "/spectrum"};
    expect_error([&] { transform_dataset(in, out, Direction::forward, o, fo); }, ErrorKind::cancelled, {});
    EXPECT_GE(bricks.load(), 5) << "the run had started";
    if (!in_place) EXPECT_FALSE(has_link(file, "/spectrum"));
    EXPECT_EQ(read_complex(file, "/c128_cube"), expected_values("c128_cube")) << "the input changed";
  }
  // In memory: the whole-volume read polls the hook between its slabs.
  Options o = host();
  o.cancel = [] { return true; };
  expect_error([&] { transform_dataset({file.string(), "/c128_cube"}, {file.string(), "/s"}, Direction::forward, o); },
               ErrorKind::cancelled, {"untouched"});
  EXPECT_FALSE(has_link(file, "/s"));
  for (const std::string& link : links(file, "/")) EXPECT_EQ(link.find(".oocfft"), std::string::npos) << link;
  EXPECT_EQ(read_complex(file, "/c128_cube"), expected_values("c128_cube"));
}

// Runs `oocfft fft` on a volume large enough to take a while on the host
// backend, sends `signal` once the first pass has finished (its progress
// line on stderr), and returns the wait status.
int interrupted_fft(const fs::path& input, const fs::path& output, int signal) {
  int err[2];
  if (::pipe(err) != 0) return -1;
  const pid_t child = ::fork();
  if (child == 0) {
    ::dup2(err[1], 2);
    ::close(err[0]);
    ::execl(OOCFFT_CLI_PATH, OOCFFT_CLI_PATH, "fft", (input.string() + ":/volume").c_str(),
            (output.string() + ":/spectrum").c_str(), "--backend", "host", "--host-memory", "256KiB", "--strategy",
            "three_pass", "--streams", "2", "--threads", "1", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(err[1]);
  std::string text;
  char c;
  while (::read(err[0], &c, 1) == 1) {
    text += c;
    if (text.find("pass 1/3") != std::string::npos && c == '\n') break;
  }
  ::kill(child, signal);
  while (::read(err[0], &c, 1) == 1) {
  }
  ::close(err[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  return status;
}

TEST(DatasetTransform, InterruptedAndKilledCommandsLeaveTheInput) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path input = dir / "volume.h5";
  ASSERT_TRUE(python_ok("import h5py, numpy as np; r = np.random.default_rng(7); "
                        "h5py.File(\"" + input.string() + "\", \"w\")[\"volume\"] = "
                        "(r.random((64, 96, 96)) - 0.5 + 1j * (r.random((64, 96, 96)) - 0.5))"));
  const std::uint64_t before = file_hash(input);
  for (const int signal : {SIGINT, SIGKILL}) {
    SCOPED_TRACE(signal == SIGINT ? "SIGINT" : "SIGKILL");
    const fs::path output = dir / (signal == SIGINT ? "int.h5" : "kill.h5");
    const int status = interrupted_fft(input, output, signal);
    if (signal == SIGINT) {
      ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
      EXPECT_EQ(WEXITSTATUS(status), 130);
      EXPECT_FALSE(fs::exists(output)) << "the output file it created is removed";
    } else {
      ASSERT_TRUE(WIFSIGNALED(status));
      EXPECT_FALSE(has_link(output, "/spectrum")) << "no dataset under the output name";
    }
    EXPECT_EQ(file_hash(input), before) << "the input changed";
  }
}

}  // namespace
}  // namespace oocfft
