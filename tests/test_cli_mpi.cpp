// `mpirun -np N oocfft fft in.h5:/v out.h5:/V` (and `oocfft rfft`,
// `oocfft irfft`) as a user runs it, built
// with the distributed file path only: the command under mpiexec with 1
// to 4 ranks (--oversubscribe: CI has two cores), against the
// single-process command on the same file (into new datasets and in
// place); and one rank failing on
// purpose, started with its own command line (mpiexec's MPMD form, `-np
// N-1 oocfft ... : -np 1 oocfft ... --host-memory 1KiB`): the job ends
// with that rank's error, printed once by rank 0, exit 1, the input file
// as it was and nothing written. The inputs are written here through
// HDF5's C API as h5py writes them (compound {r, i} of float32).
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "tests/scratch_root.hpp"

namespace oocfft::test {
namespace {

namespace fs = std::filesystem;

fs::path scratch() {
  static const ScratchRoot root("oocfft_cli_mpi_");
  return root.for_current_test();
}

std::string quoted(const std::string& arg) {
  std::string q = "'";
  for (const char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string slurp(const fs::path& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

struct Outcome {
  int exit_code = -1;
  std::string out, err;
};

// One program of an mpiexec line: its ranks and the command's arguments.
struct Ranks {
  int count;
  std::vector<std::string> args;
};

// mpiexec with the programs joined by ':' (MPMD), as the suite of the
// distributed plan runs it: OpenMPI refuses root without its two
// ALLOW_RUN_AS_ROOT variables, and vader's single-copy mechanism needs
// ptrace rights that containers often lack.
Outcome run_mpiexec(const std::vector<Ranks>& programs, const fs::path& dir) {
  std::string command =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none " +
      quoted(OOCFFT_MPIEXEC) + " --oversubscribe";
  for (std::size_t p = 0; p < programs.size(); ++p) {
    command += (p ? " :" : "") + std::string(" -np ") + std::to_string(programs[p].count) + " " +
               quoted(OOCFFT_CLI_PATH);
    for (const std::string& a : programs[p].args) command += " " + quoted(a);
  }
  const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  command += " >" + quoted(out.string()) + " 2>" + quoted(err.string()) + " </dev/null";
  const int status = std::system(command.c_str());
  Outcome o;
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.out = slurp(out);
  o.err = slurp(err);
  fs::remove(out);
  fs::remove(err);
  return o;
}

Outcome run_alone(const std::vector<std::string>& args) {
  std::string command = quoted(OOCFFT_CLI_PATH);
  for (const std::string& a : args) command += " " + quoted(a);
  command += " >/dev/null 2>&1 </dev/null";
  const int status = std::system(command.c_str());
  Outcome o;
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return o;
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// A dataset `name` of seeded float32 values in [-0.5, 0.5): `complex`, an
// h5py complex64 (compound {r, i}); else float32.
void write_seeded(const fs::path& file, const char* name, bool complex, std::size_t nz, std::size_t ny,
                  std::size_t nx, std::uint64_t seed) {
  const hid_t f = H5Fcreate(file.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  hid_t t = H5Tcopy(H5T_IEEE_F32LE);
  if (complex) {
    H5Tclose(t);
    t = H5Tcreate(H5T_COMPOUND, 8);
    H5Tinsert(t, "r", 0, H5T_NATIVE_FLOAT);
    H5Tinsert(t, "i", 4, H5T_NATIVE_FLOAT);
  }
  const hsize_t dims[3] = {nz, ny, nx};
  const hid_t s = H5Screate_simple(3, dims, nullptr);
  const hid_t d = H5Dcreate2(f, name, t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(d, 0);
  std::vector<float> values((complex ? 2 : 1) * nz * ny * nx);
  std::uint64_t state = seed;
  for (float& v : values) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    v = float(state >> 40) / float(1u << 24) - 0.5f;
  }
  ASSERT_GE(H5Dwrite(d, complex ? t : H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  H5Dclose(d);
  H5Sclose(s);
  H5Tclose(t);
  H5Fclose(f);
}

// A complex64 dataset /v, and a float32 dataset /r, of seeded values.
void write_input(const fs::path& file, std::size_t nz, std::size_t ny, std::size_t nx) {
  write_seeded(file, "/v", true, nz, ny, nx, 45);
}
void write_real_input(const fs::path& file, std::size_t nz, std::size_t ny, std::size_t nx) {
  write_seeded(file, "/r", false, nz, ny, nx, 77);
}

// A dataset read whole as values of the memory type `memory` (empty when
// it cannot be read).
template <class V>
std::vector<V> read_whole(const fs::path& file, const std::string& name, hid_t memory) {
  std::vector<V> values;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return values;
  const hid_t d = H5Dopen2(f, name.c_str(), H5P_DEFAULT);
  if (d >= 0) {
    const hid_t s = H5Dget_space(d);
    values.resize(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
    if (H5Dread(d, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) values.clear();
    H5Sclose(s);
    H5Dclose(d);
  }
  H5Fclose(f);
  return values;
}

// A float32 dataset read whole, as complex values with zero imaginary parts.
std::vector<std::complex<float>> read_real(const fs::path& file, const std::string& name) {
  const std::vector<float> reals = read_whole<float>(file, name, H5T_NATIVE_FLOAT);
  return {reals.begin(), reals.end()};
}

// A complex64 dataset read whole.
std::vector<std::complex<float>> read_complex(const fs::path& file, const std::string& name) {
  const hid_t t = H5Tcreate(H5T_COMPOUND, 8);
  H5Tinsert(t, "r", 0, H5T_NATIVE_FLOAT);
  H5Tinsert(t, "i", 4, H5T_NATIVE_FLOAT);
  std::vector<std::complex<float>> values = read_whole<std::complex<float>>(file, name, t);
  H5Tclose(t);
  return values;
}

bool has_link(const fs::path& file, const std::string& name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return false;
  const bool found = H5Lexists(f, name.c_str(), H5P_DEFAULT) > 0;
  H5Fclose(f);
  return found;
}

std::string file_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

double relative_l2(const std::vector<std::complex<float>>& got, const std::vector<std::complex<float>>& want) {
  if (got.size() != want.size() || want.empty()) return std::numeric_limits<double>::infinity();
  double difference = 0, reference = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    difference += std::norm(std::complex<double>(got[i]) - std::complex<double>(want[i]));
    reference += std::norm(std::complex<double>(want[i]));
  }
  return std::sqrt(difference / reference);
}

// Nothing in `dir` but `keep`: no output file, no temporary, no lock.
void expect_only(const fs::path& dir, const std::vector<std::string>& keep) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    EXPECT_NE(std::find(keep.begin(), keep.end(), name), keep.end()) << "left in the folder: " << name;
  }
}

std::vector<std::string> fft_args(const fs::path& dir, const std::string& input, const std::string& output) {
  return {"fft", (dir / input).string() + ":/v", output, "--backend", "host", "--threads", "1"};
}

// Uneven slabs: nz = 6 and ny = 10 over 4 ranks, nx = 7.
TEST(CliMpi, FftUnderOneToFourRanksEqualsTheSingleProcessCommand) {
  const fs::path dir = scratch();
  write_input(dir / "in.h5", 6, 10, 7);
  const std::string before = file_bytes(dir / "in.h5");
  ASSERT_EQ(run_alone(fft_args(dir, "in.h5", (dir / "alone.h5").string() + ":/V")).exit_code, 0);
  const auto alone = read_complex(dir / "alone.h5", "/V");
  ASSERT_EQ(alone.size(), 6u * 10 * 7);
  // The tolerance of the distributed suites: 4 eps sqrt(log2 N).
  const double tolerance = 4.0 * std::numeric_limits<float>::epsilon() * std::sqrt(std::log2(6.0 * 10 * 7));
  for (int ranks = 1; ranks <= 4; ++ranks) {
    const std::string out = "out" + std::to_string(ranks) + ".h5";
    const Outcome o = run_mpiexec({{ranks, fft_args(dir, "in.h5", (dir / out).string() + ":/g/V")}}, dir);
    ASSERT_EQ(o.exit_code, 0) << ranks << " ranks\n" << o.err;
    EXPECT_NE(o.out.find("(forward, " + std::to_string(ranks) + " rank"), std::string::npos) << o.out;
    EXPECT_EQ(count_of(o.out, " -> "), 1u) << "one summary, rank 0's:\n" << o.out;
    EXPECT_EQ(count_of(o.err, "7/7 steps"), 1u) << "the whole job's progress, once, from rank 0:\n" << o.err;
    EXPECT_LE(relative_l2(read_complex(dir / out, "/g/V"), alone), tolerance) << ranks << " ranks";
    EXPECT_FALSE(has_link(dir / out, "/g/.oocfft-partial-V"));
  }
  EXPECT_TRUE(file_bytes(dir / "in.h5") == before) << "the input file changed";
  expect_only(dir, {"in.h5", "alone.h5", "out1.h5", "out2.h5", "out3.h5", "out4.h5"});
}

// --shift: numpy's fftshift(fftn(ifftshift(u))) of the whole dataset
// (ifftn with --inverse), odd and even axes, as the single-process
// command computes it.
TEST(CliMpi, ShiftEqualsTheSingleProcessCommand) {
  const fs::path dir = scratch();
  write_input(dir / "in.h5", 5, 6, 7);
  const double tolerance = 4.0 * std::numeric_limits<float>::epsilon() * std::sqrt(std::log2(5.0 * 6 * 7));
  for (const bool inverse : {false, true}) {
    const std::string kind = inverse ? "inverse" : "forward";
    auto args = [&](const std::string& output) {
      std::vector<std::string> a = fft_args(dir, "in.h5", (dir / output).string() + ":/V");
      a.push_back("--shift");
      if (inverse) a.push_back("--inverse");
      return a;
    };
    ASSERT_EQ(run_alone(args(kind + "_alone.h5")).exit_code, 0);
    const auto alone = read_complex(dir / (kind + "_alone.h5"), "/V");
    for (const int ranks : {2, 3}) {
      const std::string out = kind + std::to_string(ranks) + ".h5";
      const Outcome o = run_mpiexec({{ranks, args(out)}}, dir);
      ASSERT_EQ(o.exit_code, 0) << kind << ", " << ranks << " ranks\n" << o.err;
      EXPECT_LE(relative_l2(read_complex(dir / out, "/V"), alone), tolerance) << kind << ", " << ranks << " ranks";
    }
  }
  expect_only(dir, {"in.h5", "forward_alone.h5", "forward2.h5", "forward3.h5", "inverse_alone.h5", "inverse2.h5",
                    "inverse3.h5"});
}

// --in-place: the result replaces the input once every rank has written
// its part, as the single-process command's would.
TEST(CliMpi, InPlaceEqualsTheSingleProcessCommand) {
  const fs::path dir = scratch();
  write_input(dir / "in.h5", 5, 9, 4);
  ASSERT_EQ(run_alone(fft_args(dir, "in.h5", (dir / "alone.h5").string() + ":/V")).exit_code, 0);
  std::vector<std::string> args = fft_args(dir, "in.h5", (dir / "in.h5").string() + ":/v");
  args.push_back("--in-place");
  const Outcome o = run_mpiexec({{3, args}}, dir);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const double tolerance = 4.0 * std::numeric_limits<float>::epsilon() * std::sqrt(std::log2(5.0 * 9 * 4));
  EXPECT_LE(relative_l2(read_complex(dir / "in.h5", "/v"), read_complex(dir / "alone.h5", "/V")), tolerance);
  EXPECT_FALSE(has_link(dir / "in.h5", "/.oocfft-replaced-v"));
  EXPECT_FALSE(has_link(dir / "in.h5", "/.oocfft-partial-v"));
  expect_only(dir, {"in.h5", "alone.h5"});
}

// The last rank's budget cannot hold its share: every rank ends with its
// Error(out_of_memory), before anything is read.
TEST(CliMpi, OneRankFailingEndsTheJobWithItsErrorAndWritesNothing) {
  const fs::path dir = scratch();
  write_input(dir / "in.h5", 8, 6, 5);
  // Each failing job costs mpiexec about 2 s to wind down: every rank
  // count once into a new file, and four ranks into the input's own file.
  struct Case {
    int ranks;
    bool into_input_file;
  };
  for (const Case c : {Case{1, false}, Case{2, false}, Case{3, false}, Case{4, false}, Case{4, true}}) {
    const int ranks = c.ranks;
    const bool into_input_file = c.into_input_file;
    const std::string before = file_bytes(dir / "in.h5");
    const auto values = read_complex(dir / "in.h5", "/v");
    const std::string output = into_input_file ? (dir / "in.h5").string() + ":/V" : (dir / "out.h5").string() + ":/V";
    std::vector<std::string> failing = fft_args(dir, "in.h5", output);
    failing.insert(failing.end(), {"--host-memory", "1KiB"});
    std::vector<Ranks> programs;
    if (ranks > 1) programs.push_back({ranks - 1, fft_args(dir, "in.h5", output)});
    programs.push_back({1, failing});
    const Outcome o = run_mpiexec(programs, dir);
    const std::string what = std::to_string(ranks) + " ranks, output " + output;
    EXPECT_EQ(o.exit_code, 1) << what << "\n" << o.err;
    EXPECT_EQ(count_of(o.err, "oocfft: out_of_memory: rank " + std::to_string(ranks - 1) + ": its share"), 1u)
        << what << "\n" << o.err;
    EXPECT_FALSE(has_link(dir / "in.h5", "/V")) << what;
    EXPECT_FALSE(has_link(dir / "in.h5", "/.oocfft-partial-V")) << what;
    if (!into_input_file) EXPECT_TRUE(file_bytes(dir / "in.h5") == before) << what << ": the input file changed";
    EXPECT_TRUE(read_complex(dir / "in.h5", "/v") == values) << what << ": the input's values changed";
    expect_only(dir, {"in.h5"});
  }
}

// `oocfft rfft` and `oocfft irfft` under 2 and 3 ranks: the half spectrum
// equals the single-process command's, and irfft of it (its real length
// from the recorded shape) gives the input back. Odd last axis, uneven
// slabs.
TEST(CliMpi, RfftAndIrfftEqualTheSingleProcessCommands) {
  const fs::path dir = scratch();
  write_real_input(dir / "in.h5", 5, 6, 7);
  const std::string before = file_bytes(dir / "in.h5");
  const std::vector<std::string> common = {"--backend", "host", "--threads", "1"};
  auto args = [&](const std::string& command, const std::string& input, const std::string& output) {
    std::vector<std::string> a = {command, input, output};
    a.insert(a.end(), common.begin(), common.end());
    return a;
  };
  const std::string input = (dir / "in.h5").string() + ":/r";
  ASSERT_EQ(run_alone(args("rfft", input, (dir / "alone.h5").string() + ":/R")).exit_code, 0);
  const auto alone = read_complex(dir / "alone.h5", "/R");
  ASSERT_EQ(alone.size(), 5u * 6 * 4);
  const double tolerance = 4.0 * std::numeric_limits<float>::epsilon() * std::sqrt(std::log2(5.0 * 6 * 7));
  for (const int ranks : {2, 3}) {
    const std::string spectrum = "spectrum" + std::to_string(ranks) + ".h5", back = "back" + std::to_string(ranks) + ".h5";
    Outcome o = run_mpiexec({{ranks, args("rfft", input, (dir / spectrum).string() + ":/R")}}, dir);
    ASSERT_EQ(o.exit_code, 0) << ranks << " ranks\n" << o.err;
    EXPECT_NE(o.out.find("(rfftn, 5 x 6 x 7 -> 5 x 6 x 4, " + std::to_string(ranks) + " ranks)"), std::string::npos)
        << o.out;
    EXPECT_EQ(count_of(o.err, "7/7 steps"), 1u) << o.err;
    EXPECT_LE(relative_l2(read_complex(dir / spectrum, "/R"), alone), tolerance) << ranks << " ranks";
    o = run_mpiexec({{ranks, args("irfft", (dir / spectrum).string() + ":/R", (dir / back).string() + ":/r")}}, dir);
    ASSERT_EQ(o.exit_code, 0) << ranks << " ranks\n" << o.err;
    EXPECT_LE(relative_l2(read_real(dir / back, "/r"), read_real(dir / "in.h5", "/r")), 2 * tolerance)
        << ranks << " ranks: irfftn(rfftn(x)) is not x";
  }
  EXPECT_TRUE(file_bytes(dir / "in.h5") == before) << "the input file changed";
  expect_only(dir, {"in.h5", "alone.h5", "spectrum2.h5", "back2.h5", "spectrum3.h5", "back3.h5"});
}

TEST(CliMpi, RefusalsEndEveryRank) {
  const fs::path dir = scratch();
  write_input(dir / "in.h5", 2, 3, 4);
  // A missing dataset: the library's Error, exit 1.
  Outcome o = run_mpiexec({{2, {"fft", (dir / "in.h5").string() + ":/nope", (dir / "o.h5").string() + ":/V",
                                "--backend", "host"}}},
                          dir);
  EXPECT_EQ(o.exit_code, 1) << o.err;
  EXPECT_EQ(count_of(o.err, "in.h5:/nope: no such dataset"), 1u) << o.err;
  // Other commands run in one process.
  o = run_mpiexec({{2, {"info", (dir / "in.h5").string() + ":/v"}}}, dir);
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_NE(o.err.find("only `oocfft fft`, `rfft` and `irfft` run over MPI ranks"), std::string::npos) << o.err;
  // A command line one rank refuses stops every rank.
  o = run_mpiexec({{1, {"fft", (dir / "in.h5").string() + ":/v", (dir / "o.h5").string() + ":/V"}},
                   {1,
                    {"fft", (dir / "in.h5").string() + ":/v", (dir / "o.h5").string() + ":/V", "--norm",
                     "sideways"}}},
                  dir);
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_NE(o.err.find("--norm"), std::string::npos) << o.err;
  expect_only(dir, {"in.h5"});
}

}  // namespace
}  // namespace oocfft::test
