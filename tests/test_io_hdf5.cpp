// HDF5 volumes (io/): dataset paths, inspect_dataset on h5py-written files,
// DatasetTransfer (refusals before any write, temporary name, commit,
// cleanup, disk full) and the Hdf5Volume store in every layout.
//
// The fixtures are written at test time by tests/io/write_h5py_fixtures.py
// with an interpreter that has h5py and numpy (found by CMake:
// OOCFFT_TEST_H5PY_PYTHON); without one, the tests that need them skip.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "io/dataset_transfer.hpp"
#include "io/hdf5_volume.hpp"
#include "oocfft/error.hpp"
#include "oocfft/hdf5.hpp"
#include "oocfft/plan.hpp"
#include "tests/h5py_fixtures.hpp"
#include "tests/reference.hpp"

namespace oocfft {
namespace {

namespace fs = std::filesystem;
using namespace test_h5;
using io::DatasetTransfer;

TEST(IoDatasetPath, ParsesAndPrints) {
  const DatasetPath p = DatasetPath::parse("volume.h5:/group/data");
  EXPECT_EQ(p.file, "volume.h5");
  EXPECT_EQ(p.dataset, "/group/data");
  EXPECT_EQ(p.to_string(), "volume.h5:/group/data");
  // The last ":/" splits: a file name may hold one.
  const DatasetPath w = DatasetPath::parse("C:/scans/v.h5:/data");
  EXPECT_EQ(w.file, "C:/scans/v.h5");
  EXPECT_EQ(w.dataset, "/data");
  EXPECT_EQ(DatasetPath::parse(w.to_string()), w);
  // Spellings of one dataset compare equal: HDF5 drops empty and "."
  // components; ".." is an ordinary link name.
  for (const char* text : {"v.h5:/./data", "v.h5://data", "v.h5:/data/", "v.h5:/././/data/."})
    EXPECT_EQ(DatasetPath::parse(text).dataset, "/data") << text;
  EXPECT_EQ((DatasetPath{"v.h5", "/g/./../d"}.normalised().dataset), "/g/../d");
}

TEST(IoDatasetPath, RefusesMalformedText) {
  for (const std::string text : {"volume.h5", "volume.h5:data", ":/data", "volume.h5:/", "", "volume.h5://", "volume.h5:/./"}) {
    SCOPED_TRACE(text);
    expect_error([&] { (void)DatasetPath::parse(text); }, ErrorKind::invalid_argument, {"\"" + text + "\""});
  }
}

// ---------------------------------------------------------------- inspect

struct InspectCase {
  std::string name;
  std::vector<std::size_t> dims;
  Shape shape;
  Precision precision;
  StoredElement element;
  std::string dtype;
  std::vector<std::size_t> chunks;
};

TEST(IoInspect, DescribesEveryFixture) {
  REQUIRE_FIXTURES();
  const auto single = Precision::single, dbl = Precision::double_precision;
  const auto compound = StoredElement::complex_compound, pairs = StoredElement::complex_pairs,
             real = StoredElement::real;
  const std::vector<InspectCase> cases = {
      {"/c64_3d", {7, 11, 16}, {7, 11, 16}, single, compound, "complex64", {3, 5, 16}},
      {"/c128_3d", {8, 13, 5}, {8, 13, 5}, dbl, compound, "complex128", {}},
      {"/c128_cube", {40, 40, 40}, {40, 40, 40}, dbl, compound, "complex128", {8, 8, 40}},
      {"/f32_3d", {5, 6, 7}, {5, 6, 7}, single, real, "float32", {}},
      {"/f64_2d", {17, 32}, {1, 17, 32}, dbl, real, "float64", {4, 32}},
      {"/pairs_f64_3d", {4, 5, 6, 2}, {4, 5, 6}, dbl, pairs, "float64", {}},
      {"/pairs_f32_1d", {31, 2}, {1, 1, 31}, single, pairs, "float32", {8, 2}},
      {"/realimag_2d", {9, 10}, {1, 9, 10}, single, compound, "complex64", {}},
      {"/RealImaginary_1d", {37}, {1, 1, 37}, dbl, compound, "complex128", {16}},
      {"/group/nested/c64_1d", {40}, {1, 1, 40}, single, compound, "complex64", {}},
  };
  for (const InspectCase& c : cases) {
    SCOPED_TRACE(c.name);
    const DatasetInfo info = inspect_dataset(fixture(c.name));
    EXPECT_EQ(info.path, fixture(c.name));
    EXPECT_EQ(info.dims, c.dims);
    EXPECT_EQ(info.shape, c.shape);
    EXPECT_EQ(info.precision, c.precision);
    EXPECT_EQ(info.element, c.element);
    EXPECT_EQ(info.dtype, c.dtype);
    EXPECT_EQ(info.chunks, c.chunks);
    EXPECT_EQ(info.complex_bytes(), c.shape.elements() * (c.precision == single ? 8 : 16));
  }
}

TEST(IoInspect, RefusesWhatItCannotTransformAndLeavesTheFileAlone) {
  REQUIRE_FIXTURES();
  const fs::path file = fixtures().fixtures();
  const std::uint64_t before = file_hash(file);
  struct Bad {
    std::string dataset;
    ErrorKind kind;
    std::string named;  // besides the file and dataset
  };
  const std::vector<Bad> cases = {
      {"/bad/int32", ErrorKind::unsupported, "int32"},
      {"/bad/string", ErrorKind::unsupported, "string"},
      {"/bad/four_d", ErrorKind::unsupported, "4 axes"},
      {"/bad/five_d_pairs", ErrorKind::unsupported, "5 axes"},
      {"/bad/scalar", ErrorKind::unsupported, "0 axes"},
      {"/bad/other_compound", ErrorKind::unsupported, "compound {x: float64, y: float64}"},
      {"/bad/zero_axis", ErrorKind::invalid_argument, "length 0"},
      {"/a_group", ErrorKind::io, "group"},
      {"/no_such_dataset", ErrorKind::io, "no such dataset"},
      {"/no_such_group/data", ErrorKind::io, "no such dataset"},
  };
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.dataset);
    expect_error([&] { (void)inspect_dataset(fixture(c.dataset)); }, c.kind, {file.string(), c.dataset, c.named});
    // The transfer refuses the same input before writing anything.
    const fs::path out = scratch_directory() / "out.h5";
    expect_error([&] { DatasetTransfer t(fixture(c.dataset), {out.string(), "/out"}, false, {}); }, c.kind,
                 {file.string(), c.dataset, c.named});
    EXPECT_FALSE(fs::exists(out));
  }
  EXPECT_EQ(file_hash(file), before);
}

TEST(IoInspect, MissingNonHdf5AndTruncatedFilesAreIoErrors) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  expect_error([&] { (void)inspect_dataset({(dir / "missing.h5").string(), "/x"}); }, ErrorKind::io,
               {"missing.h5"});
  const fs::path text = dir / "text.h5";
  std::ofstream(text) << "not an HDF5 file\n";
  expect_error([&] { (void)inspect_dataset({text.string(), "/x"}); }, ErrorKind::io, {"text.h5"});
  const fs::path truncated = dir / "truncated.h5";
  fs::copy_file(fixtures().fixtures(), truncated);
  fs::resize_file(truncated, fs::file_size(truncated) / 2);
  const std::uint64_t before = file_hash(truncated);
  expect_error([&] { (void)inspect_dataset({truncated.string(), "/c128_cube"}); }, ErrorKind::io, {"truncated.h5"});
  expect_error([&] { DatasetTransfer t({truncated.string(), "/c128_cube"}, {(dir / "o.h5").string(), "/o"}, false, {}); },
               ErrorKind::io, {"truncated.h5"});
  EXPECT_EQ(file_hash(truncated), before);
  EXPECT_FALSE(fs::exists(dir / "o.h5"));
}

// HDF5 would print its error stack for each failed call; the library
// silences it and carries the text in the Error instead.
TEST(IoInspect, FailuresPrintNothingAndKeepHdf5sReason) {
  REQUIRE_FIXTURES();
  const fs::path text = scratch_directory() / "text.h5";
  std::ofstream(text) << "not an HDF5 file\n";
  ::testing::internal::CaptureStderr();
  std::string message;
  try {
    (void)inspect_dataset({text.string(), "/x"});
  } catch (const Error& e) {
    message = e.what();
  }
  expect_error([&] { (void)inspect_dataset(fixture("/c64_3d/not_a_group")); }, ErrorKind::io, {"/c64_3d/not_a_group"});
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_NE(message.find("file signature not found"), std::string::npos) << message;
  // The caller's own HDF5 error printing is back as it was.
  H5E_auto2_t handler = nullptr;
  void* data = nullptr;
  H5Eget_auto2(H5E_DEFAULT, &handler, &data);
  EXPECT_NE(handler, nullptr);
}

// ---------------------------------------------------------------- whole-volume reads

TEST(IoTransfer, ReadInputGivesTheValuesH5pyWrote) {
  REQUIRE_FIXTURES();
  for (const std::string name : {"c64_3d", "c128_3d", "c128_cube", "f32_3d", "f64_2d", "pairs_f64_3d",
                                 "pairs_f32_1d", "realimag_2d", "RealImaginary_1d", "group/nested/c64_1d"}) {
    SCOPED_TRACE(name);
    const fs::path out = scratch_directory() / "out.h5";
    {
      DatasetTransfer transfer(fixture("/" + name), {out.string(), "/spectrum"}, false, {});
      std::vector<std::byte> volume = poisoned(transfer.input().complex_bytes());
      transfer.read_input(volume.data());
      const std::vector<double> got = as_doubles(volume, transfer.input().precision);
      const std::vector<double> want = expected_values(name);
      ASSERT_EQ(got.size(), want.size());
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < got.size(); ++i) wrong += got[i] != want[i];  // exact: the stored values
      EXPECT_EQ(wrong, 0u);
      EXPECT_FALSE(fs::exists(out)) << "a new output file is written under a temporary name";
      EXPECT_TRUE(fs::exists(out.string() + ".oocfft-partial"));
    }
    // Never committed: the file it created is gone again.
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(out.string() + ".oocfft-partial"));
    EXPECT_FALSE(fs::exists(out.string() + ".oocfft-lock"));
  }
}

// The read path and numpy agree on a transform: the reference datasets
// check the fixtures, and the read feeds the engine the volume numpy saw.
TEST(IoTransfer, ReadVolumeTransformsAsNumpy) {
  REQUIRE_FIXTURES();
  for (const std::string name : {"c128_3d", "f64_2d", "pairs_f64_3d", "RealImaginary_1d"}) {
    SCOPED_TRACE(name);
    const fs::path out = scratch_directory() / "out.h5";
    DatasetTransfer transfer(fixture("/" + name), {out.string(), "/spectrum"}, false, {});
    std::vector<std::complex<double>> volume(transfer.input().shape.elements());
    test::poison(volume);
    transfer.read_input(reinterpret_cast<std::byte*>(volume.data()));
    Options options;
    options.backend = Backend::host;
    fft3d(volume.data(), transfer.input().shape, Direction::forward, options);
    const std::vector<double> ref = read_doubles(fixtures().expected(), "/fftn/" + name);
    std::vector<test::LongComplex> reference(ref.size() / 2);
    for (std::size_t i = 0; i < reference.size(); ++i) reference[i] = {ref[2 * i], ref[2 * i + 1]};
    EXPECT_LT(relative_l2(volume, reference), test::tolerance<double>(20, volume.size()));
  }
}

// ---------------------------------------------------------------- refusals

TEST(IoTransfer, RefusesOutputsThatWouldOverwrite) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path input = copy_fixtures_to(dir);
  const std::uint64_t before = file_hash(input);
  const std::vector<std::string> root_before = links(input, "/");
  const DatasetPath in{input.string(), "/c64_3d"};
  expect_error([&] { DatasetTransfer t(in, in, false, {}); }, ErrorKind::invalid_argument, {in.to_string()});
  // The same file through another spelling of its name.
  const DatasetPath alias{(dir / "." / "input.h5").string(), "/c64_3d"};
  expect_error([&] { DatasetTransfer t(in, alias, false, {}); }, ErrorKind::invalid_argument, {"/c64_3d"});
  expect_error([&] { DatasetTransfer t(in, {input.string(), "/other"}, true, {}); }, ErrorKind::invalid_argument,
               {"/other"});
  expect_error([&] { DatasetTransfer t(in, {input.string(), "/c128_3d"}, false, {}); }, ErrorKind::invalid_argument,
               {"/c128_3d", "exists"});
  expect_error([&] { DatasetTransfer t(in, {input.string(), "/a_group"}, false, {}); }, ErrorKind::invalid_argument,
               {"/a_group", "exists"});
  EXPECT_EQ(file_hash(input), before);
  EXPECT_EQ(links(input, "/"), root_before);
}

TEST(IoTransfer, RefusesUnwritableOutputLocations) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const DatasetPath in = fixture("/c64_3d");
  const std::uint64_t before = file_hash(fixtures().fixtures());
  expect_error([&] { DatasetTransfer t(in, {(dir / "no_dir" / "o.h5").string(), "/o"}, false, {}); }, ErrorKind::io,
               {"no_dir"});
  expect_error([&] { DatasetTransfer t(in, {"/proc/oocfft_cannot_write.h5", "/o"}, false, {}); }, ErrorKind::io,
               {"/proc/oocfft_cannot_write.h5"});
  EXPECT_FALSE(fs::exists(dir / "no_dir"));
  EXPECT_EQ(file_hash(fixtures().fixtures()), before);
}

TEST(IoTransfer, RefusesReadOnlyDirectory) {
  REQUIRE_FIXTURES();
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: permission bits do not stop root's writes";
  const fs::path dir = scratch_directory() / "read_only";
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
  expect_error([&] { DatasetTransfer t(fixture("/c64_3d"), {(dir / "o.h5").string(), "/o"}, false, {}); },
               ErrorKind::io, {"o.h5"});
  fs::permissions(dir, fs::perms::owner_all);
}

// ---------------------------------------------------------------- commit and cleanup

TEST(IoTransfer, CommitLinksAnH5pyComplexDatasetWithItsRecord) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path out = dir / "out.h5";
  for (const bool single : {true, false}) {
    SCOPED_TRACE(single ? "complex64" : "complex128");
    const std::string name = single ? "/c64_3d" : "/f64_2d";
    const std::string result = single ? "/results/deep/c64" : "/f64";
    std::vector<std::byte> volume;
    {
      DatasetTransfer transfer(fixture(name), {out.string(), result}, false,
                               io::transform_record(Direction::inverse, Norm::ortho, false));
      volume = random_volume(transfer.input().shape.elements(), transfer.input().precision, 99);
      transfer.write_output(volume.data());
      transfer.commit();
    }
    // The type is h5py's complex compound, little-endian IEEE.
    const hid_t f = H5Fopen(out.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    const hid_t d = H5Dopen2(f, result.c_str(), H5P_DEFAULT);
    ASSERT_GE(d, 0);
    const hid_t type = H5Dget_type(d);
    const std::size_t bytes = single ? 4 : 8;
    const hid_t want = H5Tcreate(H5T_COMPOUND, 2 * bytes);
    H5Tinsert(want, "r", 0, single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE);
    H5Tinsert(want, "i", bytes, single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE);
    EXPECT_GT(H5Tequal(type, want), 0);
    H5Tclose(want);
    H5Tclose(type);
    H5Dclose(d);
    H5Fclose(f);

    // h5py reads it as numpy complex with the values written, and the attributes.
    const fs::path raw = dir / "written.bin";
    std::ofstream(raw, std::ios::binary).write(reinterpret_cast<const char*>(volume.data()),
                                               static_cast<std::streamsize>(volume.size()));
    const std::string numpy_type = single ? "complex64" : "complex128";
    const std::string shape = single ? "(7, 11, 16)" : "(17, 32)";
    EXPECT_TRUE(python_ok(
        "import h5py, numpy as np\n"
        "d = h5py.File(\"" + out.string() + "\", \"r\")[\"" + result + "\"]\n"
        "a = d[()]\n"
        "assert a.dtype == np.dtype(\"" + numpy_type + "\"), a.dtype\n"
        "assert a.shape == " + shape + ", a.shape\n"
        "w = np.fromfile(\"" + raw.string() + "\", dtype=np.dtype(\"" + numpy_type + "\")).reshape(a.shape)\n"
        "assert np.array_equal(a, w)\n"
        "t = dict(d.attrs)\n"
        "assert t[\"direction\"] == \"inverse\" and t[\"norm\"] == \"ortho\" and t[\"shift\"] == \"none\", t\n"
        "assert t[\"source\"].endswith(\"fixtures.h5:" + name + "\"), t\n"
        "assert t[\"original_dtype\"] == \"" + std::string(single ? "complex64" : "float64") + "\", t\n"
        "assert t[\"oocfft_version\"].count(\".\") == 2, t\n"));
  }
  // Only the results are linked, nothing temporary.
  EXPECT_EQ(links(out, "/"), (std::vector<std::string>{"f64", "results"}));
  EXPECT_EQ(links(out, "/results/deep"), (std::vector<std::string>{"c64"}));
}

TEST(IoTransfer, WithoutCommitNothingIsLinkedInAnExistingFile) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path input = copy_fixtures_to(dir);
  const std::vector<std::string> root_before = links(input, "/");
  {
    // Output in the input's own file: opened read-write once.
    DatasetTransfer transfer({input.string(), "/c64_3d"}, {input.string(), "/group/spectrum"}, false, {});
    const std::vector<std::byte> volume = random_volume(transfer.input().shape.elements(), Precision::single, 5);
    transfer.write_output(volume.data());
    // The partial result exists, under another name only.
    EXPECT_EQ(links(input, "/group").size(), 2u);
  }
  EXPECT_EQ(links(input, "/"), root_before);
  EXPECT_EQ(links(input, "/group"), (std::vector<std::string>{"nested"}));
  // The input is as it was.
  DatasetTransfer check({input.string(), "/c64_3d"}, {(dir / "o.h5").string(), "/o"}, false, {});
  std::vector<std::byte> volume = poisoned(check.input().complex_bytes());
  check.read_input(volume.data());
  EXPECT_EQ(as_doubles(volume, Precision::single), expected_values("c64_3d"));
}

TEST(IoTransfer, InPlaceReplacesTheInputOnlyOnCommit) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path input = copy_fixtures_to(dir);
  const DatasetPath in{input.string(), "/pairs_f64_3d"};
  const std::vector<std::string> root_before = links(input, "/");
  std::vector<std::byte> volume;
  {
    DatasetTransfer transfer(in, in, true, {});
    volume = random_volume(transfer.input().shape.elements(), Precision::double_precision, 11);
    transfer.write_output(volume.data());
    // Before commit, the input still reads as it was.
    EXPECT_EQ(inspect_dataset(in).element, StoredElement::complex_pairs);
    transfer.commit();
  }
  EXPECT_EQ(links(input, "/"), root_before);
  const DatasetInfo info = inspect_dataset(in);
  EXPECT_EQ(info.element, StoredElement::complex_compound);
  EXPECT_EQ(info.dtype, "complex128");
  EXPECT_EQ(info.dims, (std::vector<std::size_t>{4, 5, 6}));
  DatasetTransfer check(in, {(dir / "o.h5").string(), "/o"}, false, {});
  std::vector<std::byte> back = poisoned(check.input().complex_bytes());
  check.read_input(back.data());
  EXPECT_EQ(back, volume);
}

// write_output into a file that cannot grow past 64 KiB (RLIMIT_FSIZE in a
// child process, SIGXFSZ ignored so writes fail with EFBIG, as on a full
// disk): Error(io), no output file left, the input unchanged.
TEST(IoTransfer, DiskFullIsAnIoErrorAndLeavesNothing) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path input = copy_fixtures_to(dir);
  const fs::path out = dir / "full.h5";
  const std::uint64_t before = file_hash(input);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{64 << 10, 64 << 10};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    int code = 1;  // no error at all
    try {
      DatasetTransfer transfer({input.string(), "/c128_cube"}, {out.string(), "/spectrum"}, false, {});
      const std::vector<std::byte> volume =
          random_volume(transfer.input().shape.elements(), Precision::double_precision, 3);
      transfer.write_output(volume.data());  // 1 MiB
      transfer.commit();
    } catch (const Error& e) {
      const std::string message = e.what();
      code = e.kind() != ErrorKind::io ? 2 : message.find("full.h5:/spectrum") == std::string::npos ? 3 : 0;
    } catch (...) {
      code = 4;
    }
    ::_exit(code);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: no error, 2: not io, 3: message does not name the output, 4: not an Error";
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(file_hash(input), before);
}

// ---------------------------------------------------------------- the streamed store

// The index in a brick's staging buffer of the box element (z, y, x).
std::size_t staged_index(const oocfft::Box& box, oocfft::BrickLayout layout, std::size_t z, std::size_t y,
                         std::size_t x) {
  const auto& e = box.extent;
  switch (layout) {
    case oocfft::BrickLayout::natural: return (z * e.ny + y) * e.nx + x;
    case oocfft::BrickLayout::y_lines: return (z * e.nx + x) * e.ny + y;
    case oocfft::BrickLayout::z_lines: return (y * e.nx + x) * e.nz + z;
  }
  return 0;
}

template <class T>
void check_store_layouts(const std::string& name) {
  SCOPED_TRACE(name);
  const fs::path out = scratch_directory() / "out.h5";
  DatasetTransfer transfer(fixture(name), {out.string(), "/spectrum"}, false, {});
  const Shape s = transfer.input().shape;
  volume::VolumeStore& store = transfer.streamed_store(std::size_t{1} << 16);
  ASSERT_EQ(store.element_bytes(), sizeof(std::complex<T>));
  ASSERT_EQ(store.shape().nz, s.nz);
  const std::vector<double> want = expected_values(name.substr(1));
  const auto value_at = [&](const std::vector<double>& v, std::size_t z, std::size_t y, std::size_t x) {
    const std::size_t i = (z * s.ny + y) * s.nx + x;
    return std::complex<T>(static_cast<T>(v[2 * i]), static_cast<T>(v[2 * i + 1]));
  };
  // Boxes at odd offsets, the whole volume, and single rows.
  const std::vector<Box> boxes = {
      {s.nz / 3, s.ny / 4, s.nx / 5, {s.nz - s.nz / 3, (s.ny + 1) / 2, s.nx - s.nx / 5 - (s.nx > 2)}},
      {0, 0, 0, {s.nz, s.ny, s.nx}},
      {s.nz - 1, s.ny - 1, 0, {1, 1, s.nx}},
  };
  const BrickLayout layouts[] = {BrickLayout::natural, BrickLayout::y_lines, BrickLayout::z_lines};
  for (const Box& box : boxes)
    for (BrickLayout layout : layouts) {
      SCOPED_TRACE(static_cast<int>(layout));
      std::vector<std::complex<T>> staging(box.elements(), {std::numeric_limits<T>::quiet_NaN(), T(0)});
      store.read(box, layout, reinterpret_cast<std::byte*>(staging.data()));
      std::size_t wrong = 0;
      for (std::size_t z = 0; z < box.extent.nz; ++z)
        for (std::size_t y = 0; y < box.extent.ny; ++y)
          for (std::size_t x = 0; x < box.extent.nx; ++x)
            wrong += staging[staged_index(box, layout, z, y, x)] != value_at(want, box.z0 + z, box.y0 + y, box.x0 + x);
      EXPECT_EQ(wrong, 0u);
    }

  // Pass 0 writes the volume in z-slab bricks, each in another layout, from
  // four threads at once; then reads come from the output.
  const std::vector<std::byte> written = random_volume(s.elements(), transfer.input().precision, 21);
  const auto* w = reinterpret_cast<const std::complex<T>*>(written.data());
  std::vector<std::thread> threads;
  for (std::size_t z = 0; z < s.nz; ++z)
    threads.emplace_back([&, z] {
      const Box box{z, 0, 0, {1, s.ny, s.nx}};
      const BrickLayout layout = layouts[z % 3];
      std::vector<std::complex<T>> staging(box.elements());
      for (std::size_t y = 0; y < s.ny; ++y)
        for (std::size_t x = 0; x < s.nx; ++x) staging[staged_index(box, layout, 0, y, x)] = w[(z * s.ny + y) * s.nx + x];
      store.write(box, layout, reinterpret_cast<const std::byte*>(staging.data()));
    });
  for (auto& t : threads) t.join();
  // Still the input until pass 0 is reported finished.
  const Box all{0, 0, 0, {s.nz, s.ny, s.nx}};
  std::vector<std::complex<T>> staging(all.elements());
  store.read(all, BrickLayout::natural, reinterpret_cast<std::byte*>(staging.data()));
  EXPECT_EQ(staging[0], value_at(want, 0, 0, 0));
  store.pass_finished(0);
  for (BrickLayout layout : layouts) {
    std::fill(staging.begin(), staging.end(), std::complex<T>(std::numeric_limits<T>::quiet_NaN(), T(0)));
    store.read(all, layout, reinterpret_cast<std::byte*>(staging.data()));
    std::size_t wrong = 0;
    for (std::size_t z = 0; z < s.nz; ++z)
      for (std::size_t y = 0; y < s.ny; ++y)
        for (std::size_t x = 0; x < s.nx; ++x)
          wrong += staging[staged_index(all, layout, z, y, x)] != w[(z * s.ny + y) * s.nx + x];
    EXPECT_EQ(wrong, 0u) << "layout " << static_cast<int>(layout);
  }
}

TEST(IoHdf5Volume, ReadsAndWritesBoxesInEveryLayout) {
  REQUIRE_FIXTURES();
  check_store_layouts<float>("/c64_3d");
  check_store_layouts<float>("/f32_3d");
  check_store_layouts<double>("/pairs_f64_3d");
  check_store_layouts<double>("/c128_cube");
  check_store_layouts<float>("/realimag_2d");
}

}  // namespace
}  // namespace oocfft
