// The `oocfft` command as a user runs it: the built binary (OOCFFT_CLI_PATH)
// with its exit status, stdout and stderr. Every refused value must exit 2
// and name its option; runs must PASS their own checks.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Outcome {
  int exit_code = -1;
  std::string out, err;
};

std::string quoted(const std::string& arg) {
  std::string q = "'";
  for (const char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

Outcome run_cli(const std::vector<std::string>& args) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto out = dir / ("oocfft_cli_" + std::to_string(::getpid()) + "_out");
  const auto err = dir / ("oocfft_cli_" + std::to_string(::getpid()) + "_err");
  std::string command = quoted(OOCFFT_CLI_PATH);
  for (const std::string& a : args) command += " " + quoted(a);
  command += " >" + quoted(out.string()) + " 2>" + quoted(err.string()) + " </dev/null";
  const int status = std::system(command.c_str());
  Outcome o;
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.out = slurp(out);
  o.err = slurp(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return o;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// ---- refused values: exit 2, a message naming the option, usage text ----

struct BadValue {
  const char* name;  // the test's name
  std::vector<std::string> args;
  std::string option;  // must appear in the message
};

void PrintTo(const BadValue& bad, std::ostream* os) { *os << bad.name; }

class CliRefusesBadValue : public ::testing::TestWithParam<BadValue> {};

TEST_P(CliRefusesBadValue, ExitsTwoNamingTheOption) {
  const BadValue& bad = GetParam();
  const Outcome o = run_cli(bad.args);
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_TRUE(contains(o.err, bad.option + ":")) << o.err;
  EXPECT_TRUE(contains(o.err, "Usage:")) << "a command-line error prints usage text\n" << o.err;
  EXPECT_FALSE(contains(o.out, "PASS")) << "nothing ran";
}

const BadValue bad_values[] = {
    {"Streams2Pow32Plus1", {"demo", "--streams", "4294967297"}, "--streams"},
    {"StreamsZero", {"demo", "--streams", "0"}, "--streams"},
    {"Streams65", {"info", "--streams", "65"}, "--streams"},
    {"DevicesTwice", {"info", "--devices", "1,1"}, "--devices"},
    {"DevicesJunk", {"info", "--devices", "gpu0"}, "--devices"},
    {"DevicesEmpty", {"info", "--devices", ""}, "--devices"},
    {"StreamsNegative", {"demo", "--streams", "-1"}, "--streams"},
    {"StreamsHex", {"demo", "--streams", "0x4"}, "--streams"},
    {"Threads2Pow32Plus1", {"demo", "--threads", "4294967297"}, "--threads"},
    {"BinsZero", {"demo", "--bins", "0"}, "--bins"},
    {"BinsHundredMillion", {"demo", "--bins", "100000000"}, "--bins"},
    {"ShapeTrailingX", {"demo", "--shape", "4x4x4x"}, "--shape"},
    {"ShapeLeadingSpace", {"demo", "--shape", " 4x4x4"}, "--shape"},
    {"ShapePlus", {"demo", "--shape", "+4x4x4"}, "--shape"},
    {"ShapeZeroAxis", {"demo", "--shape", "0x4x4"}, "--shape"},
    {"ShapeFourAxes", {"info", "--shape", "2x2x2x2"}, "--shape"},
    {"ShapeEmptyAxis", {"info", "--shape", "4xx4"}, "--shape"},
    {"ShapeAxisOverflows", {"demo", "--shape", "18446744073709551616"}, "--shape"},
    {"ShapeElementsOverflow", {"demo", "--shape", "4294967296x4294967296x2"}, "--shape"},
    {"ShapeNotANumber", {"demo", "--shape", "big"}, "--shape"},
    {"SizeDecimalSuffix", {"demo", "--device-memory", "4GB"}, "--device-memory"},
    {"SizeLowerCaseSuffix", {"demo", "--device-memory", "4gib"}, "--device-memory"},
    {"SizeNegative", {"demo", "--device-memory", "-1"}, "--device-memory"},
    {"SizeFraction", {"demo", "--staging-memory", "1.5GiB"}, "--staging-memory"},
    {"SizeOverflows", {"demo", "--device-memory", "16777216TiB"}, "--device-memory"},
    {"SizeSuffixOnly", {"demo", "--device-memory", "GiB"}, "--device-memory"},
    {"HostMemoryJunk", {"info", "--host-memory", "lots"}, "--host-memory"},
    {"HostMemoryZero", {"fft", "a.h5:/x", "b.h5:/y", "--host-memory", "0"}, "--host-memory"},
    {"HostMemoryZeroKiB", {"info", "--host-memory", "0KiB"}, "--host-memory"},
    {"BackendUnknown", {"demo", "--backend", "opencl"}, "--backend"},
    {"BackendAutomaticIsGone", {"demo", "--backend", "automatic"}, "--backend"},
    {"BackendIntegerIsNoSpelling", {"demo", "--backend", "1"}, "--backend"},
    {"StrategyAutomaticIsGone", {"demo", "--strategy", "automatic"}, "--strategy"},
    {"StrategyUnknown", {"info", "--strategy", "four_pass"}, "--strategy"},
    {"RegisterAutomaticIsGone", {"demo", "--register", "automatic"}, "--register"},
    {"RegisterYes", {"demo", "--register", "yes"}, "--register"},
    {"NormUnknown", {"demo", "--norm", "none"}, "--norm"},
    {"PrecisionUnknown", {"demo", "--precision", "half"}, "--precision"},
    {"InPlaceWithAnotherOutput", {"fft", "a.h5:/x", "b.h5:/y", "--in-place"}, "--in-place"},
    {"DctTypeFour", {"dct", "a.h5:/x", "b.h5:/y", "--type", "4"}, "--type"},
    {"DstTypeOne", {"dst", "a.h5:/x", "b.h5:/y", "--type", "1"}, "--type"},
    {"DctNormNone", {"dct", "a.h5:/x", "b.h5:/y", "--norm", "none"}, "--norm"},
    {"DstInPlaceWithAnotherOutput", {"dst", "a.h5:/x", "b.h5:/y", "--in-place"}, "--in-place"},
    {"AsmWavelengthNan", {"asm", "a.h5:/x", "b.h5:/y", "--wavelength", "nan", "--pitch", "8e-6", "--distance", "1"},
     "--wavelength"},
    {"AsmPitchNegative", {"asm", "a.h5:/x", "b.h5:/y", "--wavelength", "5e-7", "--pitch", "-8e-6", "--distance", "1"},
     "--pitch"},
    {"AsmPitchThreeValues",
     {"asm", "a.h5:/x", "b.h5:/y", "--wavelength", "5e-7", "--pitch", "8e-6,8e-6,8e-6", "--distance", "1"},
     "--pitch"},
    {"AsmRangeCountZero",
     {"asm", "a.h5:/x", "b.h5:/y", "--wavelength", "5e-7", "--pitch", "8e-6", "--range", "0:1:0"}, "--range"},
    {"AsmPadThree",
     {"asm", "a.h5:/x", "b.h5:/y", "--wavelength", "5e-7", "--pitch", "8e-6", "--distance", "1", "--pad", "3"},
     "--pad"},
    {"AsmModeUnknown",
     {"asm", "a.h5:/x", "b.h5:/y", "--wavelength", "5e-7", "--pitch", "8e-6", "--distance", "1", "--mode", "fresnel"},
     "--mode"},
};

INSTANTIATE_TEST_SUITE_P(Values, CliRefusesBadValue, ::testing::ValuesIn(bad_values),
                         [](const auto& info) { return std::string(info.param.name); });

// ---- usage ----

TEST(CliUsage, NoArgumentsPrintsHelpAndExitsTwo) {
  const Outcome o = run_cli({});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_TRUE(contains(o.err, "demo") && contains(o.err, "info") && contains(o.err, "fft")) << o.err;
}

TEST(CliUsage, HelpExitsZero) {
  const Outcome o = run_cli({"--help"});
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_TRUE(contains(o.out, "Subcommands")) << o.out;
}

TEST(CliUsage, UnknownCommandExitsTwo) {
  const Outcome o = run_cli({"transform"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_TRUE(contains(o.err, "transform")) << o.err;
}

TEST(CliUsage, FftWithoutOutputOrInPlaceExitsTwo) {
  const Outcome o = run_cli({"fft", "in.h5:/x"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_TRUE(contains(o.err, "OUTPUT")) << o.err;
}

// A failure at run time is not a usage error: exit 1, no usage text.
TEST(CliUsage, RuntimeFailureExitsOneWithoutUsage) {
  // No CUDA backend in a host-only build; with one, an impossible device budget.
  const Outcome o = run_cli({"demo", "--shape", "8x8x8", "--backend", "cuda", "--device-memory", "1"});
  EXPECT_EQ(o.exit_code, 1) << o.out << o.err;
  EXPECT_TRUE(contains(o.err, "oocfft: ")) << o.err;
  EXPECT_FALSE(contains(o.err, "Usage:")) << o.err;
  EXPECT_FALSE(contains(o.out, "PASS"));
}

// ---- info ----

TEST(CliInfo, ShapeOnHostPrintsAPlanWithoutADeviceBudget) {
  const Outcome o = run_cli({"info", "--shape", "64x64x64", "--backend", "host"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "64 x 64 x 64")) << o.out;
  EXPECT_TRUE(contains(o.out, "backend host")) << o.out;
  EXPECT_TRUE(contains(o.out, "strategy: in_core")) << o.out;
  EXPECT_FALSE(contains(o.out, "TiB")) << "no device budget nonsense:\n" << o.out;
}

TEST(CliInfo, DevicesOnHostAreEmulatedAndShown) {
  const Outcome one = run_cli({"info", "--shape", "16x16x16", "--backend", "host"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_TRUE(contains(one.out, "options.devices current, the default")) << one.out;
  const Outcome o =
      run_cli({"info", "--shape", "16x16x16", "--backend", "host", "--devices", "0,1", "--device-memory", "40KiB"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "devices: 0,1 (options.devices 0,1; 2 emulated devices")) << o.out;
  EXPECT_TRUE(contains(o.out, "device 1 (budget 40.0 KiB)")) << o.out;
  EXPECT_TRUE(contains(o.out, "exchange:")) << o.out;
}

TEST(CliInfo, TwoAxisShapeIsAVolumeOfOnePlane) {
  const Outcome o = run_cli({"info", "--shape", "48x40", "--backend", "host"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "1 x 48 x 40")) << o.out;
}

// ---- demo ----

void expect_pass(const Outcome& o) {
  EXPECT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_TRUE(contains(o.out, "\nPASS\n")) << o.out;
  EXPECT_FALSE(contains(o.out, "FAIL")) << o.out;
}

TEST(CliDemo, ThreeEmulatedDevicesPass) {
  expect_pass(run_cli({"demo", "--shape", "24x20x18", "--backend", "host", "--devices", "0,1,2", "--device-memory",
                       "64KiB", "--streams", "2"}));
}

TEST(CliDemo, SinglePrecisionPasses) {
  const Outcome o = run_cli({"demo", "--shape", "24x20x18", "--backend", "host"});
  expect_pass(o);
  EXPECT_TRUE(contains(o.out, "complex64")) << o.out;
  EXPECT_TRUE(contains(o.out, "marginal self-test")) << o.out;
}

TEST(CliDemo, DoublePrecisionPasses) {
  const Outcome o = run_cli({"demo", "--shape", "24x20x18", "--backend", "host", "--precision", "double"});
  expect_pass(o);
  EXPECT_TRUE(contains(o.out, "complex128")) << o.out;
}

TEST(CliDemo, OrthoNormPasses) {
  expect_pass(run_cli({"demo", "--shape", "12x10x9", "--backend", "host", "--norm", "ortho", "--bins", "5"}));
}

// A 64 KiB budget over 3 streams cannot hold the 256 KiB volume: the demo
// must take a streamed plan (asserted, not assumed) and still PASS.
TEST(CliDemo, StreamedPlanPasses) {
  const Outcome o =
      run_cli({"demo", "--shape", "32x32x32", "--backend", "host", "--device-memory", "64KiB", "--streams", "3"});
  expect_pass(o);
  EXPECT_TRUE(contains(o.out, "two_pass on host")) << o.out;
  EXPECT_TRUE(contains(o.out, "3 streams")) << o.out;
  // stderr is a file here, not a terminal: one line per pass, no bar.
  EXPECT_TRUE(contains(o.err, "pass 1/2 done")) << o.err;
  EXPECT_TRUE(contains(o.err, "pass 2/2 done")) << o.err;
  EXPECT_FALSE(contains(o.err, "\r")) << o.err;
}

// ---- fft ----

TEST(CliFft, MissingInputFileExitsOneNamingIt) {
  const std::string missing = "no_such_volume_for_oocfft_cli_test.h5";
  const Outcome o = run_cli({"fft", missing + ":/data", "out_for_oocfft_cli_test.h5:/data"});
  EXPECT_EQ(o.exit_code, 1) << o.err;
  EXPECT_TRUE(contains(o.err, missing)) << o.err;
  EXPECT_FALSE(contains(o.err, "Usage:")) << o.err;
  EXPECT_FALSE(std::filesystem::exists("out_for_oocfft_cli_test.h5"));
}

// ---- asm ----

// A missing or conflicting option is a usage error naming it.
TEST(CliUsage, AsmMissingOrConflictingOptionsExitTwo) {
  const std::vector<std::string> base{"asm", "a.h5:/x", "b.h5:/y"};
  struct Case {
    std::vector<std::string> more;
    std::string names;
  };
  const Case cases[] = {
      {{"--pitch", "8e-6", "--distance", "1"}, "--wavelength"},
      {{"--wavelength", "5e-7", "--pitch", "8e-6"}, "--distance, --distances or --range"},
      {{"--wavelength", "5e-7", "--pitch", "8e-6", "--distance", "1", "--range", "0:1:2"}, "--range"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = base;
    args.insert(args.end(), c.more.begin(), c.more.end());
    const Outcome o = run_cli(args);
    EXPECT_EQ(o.exit_code, 2) << o.err;
    EXPECT_TRUE(contains(o.err, c.names)) << o.err;
    EXPECT_TRUE(contains(o.err, "Usage:")) << o.err;
  }
}

// A refocus stack written by the command against numpy: the same padded
// grid, fftfreq frequencies, band limit and evanescent decay computed with
// numpy's FFTs from the h5py-read field. Skips without h5py.
TEST(CliAsm, RefocusMatchesNumpy) {
  const std::string python = OOCFFT_TEST_H5PY_PYTHON;
  if (python.empty()) GTEST_SKIP() << "no Python interpreter with h5py and numpy was found at configure time";
  const auto dir = std::filesystem::temp_directory_path() / ("oocfft_cli_asm_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string in = (dir / "field.h5").string(), out = (dir / "stack.h5").string();
  const std::string make = "import h5py, numpy as np\n"
                           "r = np.random.default_rng(5)\n"
                           "u = r.standard_normal((40, 56)) + 1j * r.standard_normal((40, 56))\n"
                           "h5py.File('" + in + "', 'w')['field'] = u\n";
  std::ofstream(dir / "make.py") << make;
  ASSERT_EQ(std::system((quoted(python) + " " + quoted((dir / "make.py").string())).c_str()), 0);
  const Outcome o = run_cli({"asm", in + ":/field", out + ":/stack", "--wavelength", "633e-9", "--pitch", "4e-6,5e-6",
                             "--range", "-2e-3:6e-3:3", "--mode", "refocus", "--index", "1.2", "--backend", "host"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "asm refocus, 3 distances")) << o.out;
  const std::string check =
      "import h5py, numpy as np, sys\n"
      "u = h5py.File('" + in + "', 'r')['field'][...]\n"
      "s = h5py.File('" + out + "', 'r')['stack']\n"
      "assert s.shape == (3, 40, 56) and s.dtype == np.complex128, (s.shape, s.dtype)\n"
      "assert s.attrs['asm_mode'] == 'refocus'\n"
      "ny, nx = u.shape; lam = 633e-9 / 1.2; dx, dy = 4e-6, 5e-6; k = 1 / lam\n"
      "P = np.zeros((2 * ny, 2 * nx), complex); P[ny // 2:ny // 2 + ny, nx // 2:nx // 2 + nx] = u\n"
      "FX, FY = np.meshgrid(np.fft.fftfreq(2 * nx, dx), np.fft.fftfreq(2 * ny, dy))\n"
      "w = k * k - FX ** 2 - FY ** 2\n"
      "worst = 0\n"
      "for j, z in enumerate(np.linspace(-2e-3, 6e-3, 3)):\n"
      "    H = np.where(w >= 0, np.exp(2j * np.pi * z * np.sqrt(np.abs(w))), np.exp(-2 * np.pi * abs(z) * np.sqrt(np.abs(w))))\n"
      "    ex = k / np.sqrt((2 * z / (2 * nx * dx)) ** 2 + 1); ey = k / np.sqrt((2 * z / (2 * ny * dy)) ** 2 + 1)\n"
      "    H[(np.abs(FX) >= ex) | (np.abs(FY) >= ey)] = 0\n"
      "    ref = np.fft.ifft2(np.fft.fft2(P) * H)[ny // 2:ny // 2 + ny, nx // 2:nx // 2 + nx]\n"
      "    worst = max(worst, np.linalg.norm(s[j] - ref) / np.linalg.norm(ref))\n"
      "print(worst)\n"
      "sys.exit(0 if worst < 1e-12 else 1)\n";
  std::ofstream(dir / "check.py") << check;
  EXPECT_EQ(std::system((quoted(python) + " " + quoted((dir / "check.py").string())).c_str()), 0);
  std::filesystem::remove_all(dir);
}

// `oocfft fft --shift` against numpy's fftshift(fftn(ifftshift(x))), odd
// and even axes, forward and inverse, with the record attribute. Skips
// without h5py.
TEST(CliFft, ShiftMatchesNumpy) {
  const std::string python = OOCFFT_TEST_H5PY_PYTHON;
  if (python.empty()) GTEST_SKIP() << "no Python interpreter with h5py and numpy was found at configure time";
  const auto dir = std::filesystem::temp_directory_path() / ("oocfft_cli_shift_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string in = (dir / "volume.h5").string();
  const std::string make = "import h5py, numpy as np\n"
                           "r = np.random.default_rng(9)\n"
                           "h5py.File('" + in + "', 'w')['x'] = r.standard_normal((6, 9, 10)) + 1j * r.standard_normal((6, 9, 10))\n";
  std::ofstream(dir / "make.py") << make;
  ASSERT_EQ(std::system((quoted(python) + " " + quoted((dir / "make.py").string())).c_str()), 0);
  Outcome o = run_cli({"fft", in + ":/x", in + ":/X", "--shift", "--backend", "host"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  o = run_cli({"fft", in + ":/X", in + ":/back", "--shift", "--inverse", "--backend", "host", "--strategy", "three_pass",
               "--device-memory", "4KiB", "--streams", "1"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::string check =
      "import h5py, numpy as np, sys\n"
      "f = h5py.File('" + in + "', 'r')\n"
      "x, X, back = f['x'][...], f['X'][...], f['back'][...]\n"
      "assert f['X'].attrs['shift'] == 'fftshift', f['X'].attrs['shift']\n"
      "ref = np.fft.fftshift(np.fft.fftn(np.fft.ifftshift(x)))\n"
      "e1 = np.linalg.norm(X - ref) / np.linalg.norm(ref)\n"
      "ref2 = np.fft.fftshift(np.fft.ifftn(np.fft.ifftshift(X)))\n"
      "e2 = np.linalg.norm(back - ref2) / np.linalg.norm(ref2)\n"
      "plain = np.linalg.norm(X - np.fft.fftn(x)) / np.linalg.norm(ref)\n"
      "print(e1, e2, plain)\n"
      "sys.exit(0 if e1 < 1e-13 and e2 < 1e-13 and plain > 0.5 else 1)\n";
  std::ofstream(dir / "check.py") << check;
  EXPECT_EQ(std::system((quoted(python) + " " + quoted((dir / "check.py").string())).c_str()), 0);
  std::filesystem::remove_all(dir);
}

// ---- rfft / irfft ----

// A run of python with h5py and numpy on `code`; its exit status.
int run_python(const std::filesystem::path& dir, const std::string& name, const std::string& code) {
  std::ofstream(dir / name) << code;
  return std::system((quoted(OOCFFT_TEST_H5PY_PYTHON) + " " + quoted((dir / name).string())).c_str());
}

// rfft and irfft as a user runs them, float32 odd nx in memory and float64
// even nx streamed (the inverse's half spectrum in a temporary dataset),
// against numpy's rfftn and back; `fft` of a real dataset still writes
// numpy's full fftn. Skips without h5py.
TEST(CliRealFft, RoundTripsMatchNumpy) {
  const std::string python = OOCFFT_TEST_H5PY_PYTHON;
  if (python.empty()) GTEST_SKIP() << "no Python interpreter with h5py and numpy was found at configure time";
  const auto dir = std::filesystem::temp_directory_path() / ("oocfft_cli_rfft_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string in = (dir / "volume.h5").string(), out = (dir / "spectrum.h5").string();
  ASSERT_EQ(run_python(dir, "make.py",
                       "import h5py, numpy as np\n"
                       "r = np.random.default_rng(3)\n"
                       "f = h5py.File('" + in + "', 'w')\n"
                       "f['a'] = r.standard_normal((5, 6, 9)).astype(np.float32)\n"
                       "f['b'] = r.standard_normal((8, 10, 12))\n"),
            0);
  const std::vector<std::string> host{"--backend", "host"};
  auto run = [&](std::vector<std::string> args) {
    args.insert(args.end(), host.begin(), host.end());
    return run_cli(args);
  };
  Outcome o = run({"rfft", in + ":/a", out + ":/A"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "rfftn")) << o.out;
  EXPECT_TRUE(contains(o.out, "in memory")) << o.out;
  o = run({"irfft", out + ":/A", out + ":/a_back"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  o = run({"rfft", in + ":/b", out + ":/B", "--host-memory", "8KiB", "--json", (dir / "r.json").string()});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "streamed")) << o.out;
  EXPECT_TRUE(contains(slurp(dir / "r.json"), "\"shape\": [8, 10, 7]")) << slurp(dir / "r.json");
  o = run({"irfft", out + ":/B", out + ":/b_back", "--host-memory", "8KiB", "--nx", "12", "--norm", "ortho"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "temporary dataset")) << o.out;
  o = run({"fft", in + ":/a", out + ":/full"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(run_python(dir, "check.py",
                       "import h5py, numpy as np, sys\n"
                       "x = h5py.File('" + in + "', 'r')\n"
                       "f = h5py.File('" + out + "', 'r')\n"
                       "a, b = x['a'][...], x['b'][...]\n"
                       "A, B = f['A'], f['B']\n"
                       "assert A.dtype == np.complex64 and A.shape == (5, 6, 5), (A.dtype, A.shape)\n"
                       "assert B.dtype == np.complex128 and B.shape == (8, 10, 7), (B.dtype, B.shape)\n"
                       "assert list(A.attrs['oocfft_real_shape']) == [5, 6, 9], A.attrs['oocfft_real_shape']\n"
                       "assert A.attrs['transform'] == 'rfftn' and A.attrs['norm'] == 'backward'\n"
                       "e = [np.linalg.norm(A[...] - np.fft.rfftn(a.astype(np.float64))) / np.linalg.norm(A[...]),\n"
                       "     np.linalg.norm(B[...] - np.fft.rfftn(b)) / np.linalg.norm(B[...])]\n"
                       "ab, bb = f['a_back'], f['b_back']\n"
                       "assert ab.dtype == np.float32 and ab.shape == a.shape, (ab.dtype, ab.shape)\n"
                       "assert bb.dtype == np.float64 and bb.shape == b.shape, (bb.dtype, bb.shape)\n"
                       "e += [np.linalg.norm(ab[...] - a) / np.linalg.norm(a),\n"
                       "      np.linalg.norm(bb[...] - np.fft.irfftn(B[...], s=b.shape, norm='ortho'))\n"
                       "      / np.linalg.norm(bb[...])]\n"
                       "full = f['full']\n"
                       "assert full.shape == (5, 6, 9), full.shape\n"
                       "e += [np.linalg.norm(full[...] - np.fft.fftn(a.astype(np.float64)))\n"
                       "      / np.linalg.norm(full[...])]\n"
                       "assert not [k for k in f if k.startswith('.oocfft')], list(f)\n"
                       "print(e)\n"
                       "sys.exit(0 if max(e[0], e[2], e[4]) < 1e-6 and max(e[1], e[3]) < 1e-13 else 1)\n"),
            0);
  std::filesystem::remove_all(dir);
}

// What the real commands refuse: exit 1 with a message naming the dataset
// and what it expected, the input file byte for byte as it was; usage
// errors exit 2.
TEST(CliRealFft, RefusalsExitOneAndLeaveTheFile) {
  const std::string python = OOCFFT_TEST_H5PY_PYTHON;
  if (python.empty()) GTEST_SKIP() << "no Python interpreter with h5py and numpy was found at configure time";
  const auto dir = std::filesystem::temp_directory_path() / ("oocfft_cli_rfft_no_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string in = (dir / "volume.h5").string();
  ASSERT_EQ(run_python(dir, "make.py",
                       "import h5py, numpy as np\n"
                       "f = h5py.File('" + in + "', 'w')\n"
                       "f['x'] = np.ones((4, 5, 6))\n"
                       "f['X'] = np.ones((4, 5, 4), np.complex64)\n"),
            0);
  const std::string before = slurp(in);
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> named;
  };
  const Case cases[] = {
      {{"irfft", in + ":/X", in + ":/y", "--nx", "8"}, {in + ":/X", "nx = 6 or 7"}},
      {{"irfft", in + ":/X", in + ":/y"}, {in + ":/X", "oocfft_real_shape"}},
      {{"rfft", in + ":/X", in + ":/y"}, {in + ":/X", "complex"}},
      {{"irfft", in + ":/x", in + ":/y", "--nx", "6"}, {in + ":/x", "real values"}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--backend", "host"});
    const Outcome o = run_cli(args);
    EXPECT_EQ(o.exit_code, 1) << o.err;
    for (const std::string& text : c.named) EXPECT_TRUE(contains(o.err, text)) << o.err;
    EXPECT_FALSE(contains(o.err, "Usage:")) << o.err;
    EXPECT_EQ(slurp(in), before) << "the input file changed";
  }
  EXPECT_EQ(run_cli({"irfft", in + ":/X"}).exit_code, 2);
  EXPECT_EQ(run_cli({"rfft", in + ":/x", in + ":/y", "--nx", "6"}).exit_code, 2) << "--nx is irfft's";
  const Outcome help = run_cli({"irfft", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "--nx")) << help.out;
  EXPECT_TRUE(contains(help.out, "oocfft_real_shape")) << help.out;
  EXPECT_EQ(slurp(in), before);
  std::filesystem::remove_all(dir);
}

// ---- dct / dst ----

// scipy.fft's unnormalised dctn / dstn of types 2 and 3 in numpy alone (no
// scipy where the tests run): the transform's matrix along every axis.
const char* const numpy_trig =
    "def matrix(kind, n):\n"
    "    k, j = np.arange(n)[:, None], np.arange(n)[None, :]\n"
    "    if kind == 'dct2': return 2 * np.cos(np.pi * k * (2 * j + 1) / (2 * n))\n"
    "    if kind == 'dst2': return 2 * np.sin(np.pi * (k + 1) * (2 * j + 1) / (2 * n))\n"
    "    if kind == 'dct3':\n"
    "        m = 2 * np.cos(np.pi * j * (2 * k + 1) / (2 * n)); m[:, 0] = 1; return m\n"
    "    m = 2 * np.sin(np.pi * (j + 1) * (2 * k + 1) / (2 * n)); m[:, -1] = (-1.0) ** np.arange(n); return m\n"
    "def trig(x, kind):\n"
    "    for axis in range(x.ndim):\n"
    "        x = np.moveaxis(np.tensordot(matrix(kind, x.shape[axis]), x, axes=([1], [axis])), 0, axis)\n"
    "    return x\n"
    "def err(got, want): return np.linalg.norm(got - want) / np.linalg.norm(want)\n";

// dct and dst as a user runs them: float32 in memory and back, float64
// streamed with type 3 and ortho and back, type 3 in place, against
// numpy's matrices of scipy's definitions; the attributes each output
// records. Skips without h5py.
TEST(CliTrig, DctAndDstMatchScipysDefinitionsAndRoundTrip) {
  const std::string python = OOCFFT_TEST_H5PY_PYTHON;
  if (python.empty()) GTEST_SKIP() << "no Python interpreter with h5py and numpy was found at configure time";
  const auto dir = std::filesystem::temp_directory_path() / ("oocfft_cli_trig_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string in = (dir / "volume.h5").string(), out = (dir / "out.h5").string();
  ASSERT_EQ(run_python(dir, "make.py",
                       "import h5py, numpy as np\n"
                       "r = np.random.default_rng(5)\n"
                       "f = h5py.File('" + in + "', 'w')\n"
                       "f['a'] = r.standard_normal((5, 6, 9)).astype(np.float32)\n"
                       "f['b'] = r.standard_normal((8, 10, 7))\n"
                       "f['c'] = f['b'][...]\n"),
            0);
  auto run = [&](std::vector<std::string> args) {
    args.insert(args.end(), {"--backend", "host"});
    return run_cli(args);
  };
  Outcome o = run({"dct", in + ":/a", out + ":/A"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "dctn, type 2, norm backward")) << o.out;
  EXPECT_TRUE(contains(o.out, "in memory")) << o.out;
  o = run({"dct", out + ":/A", out + ":/a_back", "--inverse"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "idctn")) << o.out;
  o = run({"dst", in + ":/b", out + ":/B", "--type", "3", "--norm", "ortho", "--host-memory", "2KiB", "--json",
           (dir / "r.json").string()});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "streamed")) << o.out;
  EXPECT_TRUE(contains(slurp(dir / "r.json"), "\"shape\": [8, 10, 7]")) << slurp(dir / "r.json");
  o = run({"dst", out + ":/B", out + ":/b_back", "--type", "3", "--norm", "ortho", "--inverse", "--host-memory",
           "2KiB"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  o = run({"dct", in + ":/c", "--in-place", "--type", "3", "--host-memory", "2KiB"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(run_python(dir, "check.py",
                       std::string("import h5py, numpy as np, sys\n") + numpy_trig +
                           "x = h5py.File('" + in + "', 'r')\n"
                           "f = h5py.File('" + out + "', 'r')\n"
                           "a, b = x['a'][...].astype(np.float64), x['b'][...]\n"
                           "A, B, ab, bb, c = f['A'], f['B'], f['a_back'], f['b_back'], x['c']\n"
                           "for d, t in ((A, np.float32), (ab, np.float32), (B, np.float64), (bb, np.float64),\n"
                           "             (c, np.float64)):\n"
                           "    assert d.dtype == t, (d.name, d.dtype)\n"
                           "assert A.shape == ab.shape == (5, 6, 9) and B.shape == bb.shape == c.shape == (8, 10, 7)\n"
                           "attrs = [(d.attrs['transform'], d.attrs['type'], d.attrs['norm']) for d in (A, ab, B, bb, c)]\n"
                           "assert attrs == [('dctn', '2', 'backward'), ('idctn', '2', 'backward'),\n"
                           "                 ('dstn', '3', 'ortho'), ('idstn', '3', 'ortho'),\n"
                           "                 ('dctn', '3', 'backward')], attrs\n"
                           "assert A.attrs['source'] == '" + in + ":/a' and A.attrs['original_dtype'] == 'float32'\n"
                           // ortho type 3: the transpose of the orthogonal type 2, so type 2's output
                           // weights on the inputs, doubled at the DST's last index.
                           "w = b.copy()\n"
                           "for axis, n in enumerate(b.shape):\n"
                           "    v = np.full(n, np.sqrt(1 / (2 * n))); v[-1] = np.sqrt(1 / n)\n"
                           "    w = w * v.reshape([n if i == axis else 1 for i in range(3)])\n"
                           "e = [err(A[...], trig(a, 'dct2')), err(ab[...], a),\n"
                           "     err(B[...], trig(w, 'dst3')), err(bb[...], b), err(c[...], trig(b, 'dct3'))]\n"
                           "assert not [k for k in list(f) + list(x) if k.startswith('.oocfft')]\n"
                           "print(e)\n"
                           "sys.exit(0 if max(e[0], e[1]) < 1e-5 and max(e[2:]) < 1e-12 else 1)\n"),
            0);
  std::filesystem::remove_all(dir);
}

// What dct and dst refuse: complex data and a missing dataset exit 1 with
// a message naming the dataset, the input file byte for byte as it was;
// usage errors exit 2; the help says the options.
TEST(CliTrig, RefusalsExitOneAndLeaveTheFile) {
  const std::string python = OOCFFT_TEST_H5PY_PYTHON;
  if (python.empty()) GTEST_SKIP() << "no Python interpreter with h5py and numpy was found at configure time";
  const auto dir = std::filesystem::temp_directory_path() / ("oocfft_cli_trig_no_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string in = (dir / "volume.h5").string();
  ASSERT_EQ(run_python(dir, "make.py",
                       "import h5py, numpy as np\n"
                       "f = h5py.File('" + in + "', 'w')\n"
                       "f['x'] = np.ones((4, 5, 6))\n"
                       "f['X'] = np.ones((4, 5, 4), np.complex64)\n"),
            0);
  const std::string before = slurp(in);
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> named;
  };
  const Case cases[] = {
      {{"dct", in + ":/X", in + ":/y"}, {in + ":/X", "complex", "float32 or float64"}},
      {{"dst", in + ":/X", "--in-place", "--inverse"}, {in + ":/X", "complex", "idstn"}},
      {{"dct", in + ":/nothing", in + ":/y"}, {"/nothing"}},
      {{"dst", in + ":/x", in + ":/X"}, {in + ":/X", "exists"}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--backend", "host"});
    const Outcome o = run_cli(args);
    EXPECT_EQ(o.exit_code, 1) << o.err;
    for (const std::string& text : c.named) EXPECT_TRUE(contains(o.err, text)) << o.err;
    EXPECT_FALSE(contains(o.err, "Usage:")) << o.err;
    EXPECT_EQ(slurp(in), before) << "the input file changed";
  }
  EXPECT_EQ(run_cli({"dct", in + ":/x"}).exit_code, 2) << "no OUTPUT and no --in-place";
  EXPECT_EQ(run_cli({"dst", in + ":/x", in + ":/y", "--shift"}).exit_code, 2) << "--shift is fft's";
  for (const char* command : {"dct", "dst"}) {
    const Outcome help = run_cli({command, "--help"});
    EXPECT_EQ(help.exit_code, 0);
    for (const char* text : {"--type", "--inverse", "--norm", "--in-place", "--host-memory", "type and norm"})
      EXPECT_TRUE(contains(help.out, text)) << command << " --help lacks " << text << "\n" << help.out;
  }
  EXPECT_EQ(slurp(in), before);
  std::filesystem::remove_all(dir);
}

}  // namespace
