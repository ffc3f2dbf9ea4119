// transform_real_dataset end to end on the host backend (runs in CI):
// h5py-written real datasets (odd and even nx, float32 and float64, 1 to 3
// axes) against numpy's rfftn, random half spectra against numpy's irfftn
// with the real length given, round trips through the oocfft_real_shape
// attribute; each in memory, streamed, and (inverse) streamed with the half
// spectrum between the passes in host memory or in a scratch dataset of
// the output's file. The refusals leave the input file byte-identical; a
// cancel leaves no output and no scratch dataset; the real store's rows
// go between the file and FFTW's padded pitch without touching the padding
// (poisoned staging, both ways).
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/relative_l2.hpp"
#include "oocfft/real.hpp"
#include "tests/h5py_fixtures.hpp"

namespace oocfft {
namespace {

namespace fs = std::filesystem;
using namespace test_h5;

const char* const real_cases[] = {"f32_even", "f32_odd", "f64_even", "f64_odd", "f64_2d", "f32_1d"};

DatasetPath real_fixture(const std::string& dataset) { return {fixtures().real().string(), dataset}; }

// The values of dataset `name` as doubles: (re, im) pairs of a complex
// compound, the values of a real dataset.
std::vector<double> read_values(const fs::path& file, const std::string& name) {
  const DatasetInfo info = inspect_dataset({file.string(), name});
  const bool complex = info.element != StoredElement::real;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t d = H5Dopen2(f, name.c_str(), H5P_DEFAULT);
  std::vector<double> v((complex ? 2 : 1) * info.shape.elements());
  hid_t t = H5T_NATIVE_DOUBLE;
  if (complex) {
    t = H5Tcreate(H5T_COMPOUND, 2 * sizeof(double));
    H5Tinsert(t, "r", 0, H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "i", sizeof(double), H5T_NATIVE_DOUBLE);
  }
  EXPECT_GE(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), 0) << name;
  if (complex) H5Tclose(t);
  H5Dclose(d);
  H5Fclose(f);
  return v;
}

std::vector<std::int64_t> read_int_attribute(const fs::path& file, const std::string& name, const char* attribute) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t d = H5Dopen2(f, name.c_str(), H5P_DEFAULT);
  std::vector<std::int64_t> v;
  if (H5Aexists(d, attribute) > 0) {
    const hid_t a = H5Aopen(d, attribute, H5P_DEFAULT);
    const hid_t s = H5Aget_space(a);
    v.resize(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
    EXPECT_GE(H5Aread(a, H5T_NATIVE_INT64, v.data()), 0);
    H5Sclose(s);
    H5Aclose(a);
  }
  H5Dclose(d);
  H5Fclose(f);
  return v;
}

bool no_oocfft_links(const fs::path& file) {
  for (const std::string& link : links(file, "/"))
    if (link.find(".oocfft") != std::string::npos) return false;
  return true;
}

// C eps sqrt(log2 N), C = 6 (docs/ARCHITECTURE.md; the engine suites' rule).
double tolerance(Precision precision, std::size_t elements) {
  const double eps = precision == Precision::single ? 1.1920929e-7 : 2.220446049250313e-16;
  return 6 * eps * std::sqrt(std::max(1.0, std::log2(double(elements))));
}

Options host() {
  Options o;
  o.backend = Backend::host;
  o.streams = 2;
  return o;
}

std::size_t value_bytes(const DatasetInfo& info) { return info.precision == Precision::single ? 4 : 8; }

// Forward in memory and streamed against numpy's rfftn; the result's dtype,
// dims and attributes; the inverse of it through the attribute in memory,
// streamed with the intermediate in host memory and in the output's file,
// back to the input in its own dtype.
TEST(RealDatasetTransform, RoundTripsMatchNumpyOnEveryPath) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const std::uint64_t before = file_hash(fixtures().real());
  for (const char* name : real_cases) {
    const DatasetInfo in = inspect_dataset(real_fixture(std::string("/input/") + name));
    const std::size_t real_bytes = in.shape.elements() * value_bytes(in);
    const Shape half = half_spectrum_shape(in.shape);
    const std::size_t spectrum_bytes = half.bytes(2 * value_bytes(in));
    const std::vector<double> input_values = read_values(fixtures().real(), in.path.dataset);
    const std::vector<double> expected = read_doubles(fixtures().real(), std::string("/rfftn/") + name);
    const bool splittable = in.shape.ny > 1;  // a 1D line is one brick: never streamed
    for (const bool streamed : {false, true}) {
      if (streamed && !splittable) continue;
      SCOPED_TRACE(std::string(name) + (streamed ? " streamed" : " in memory"));
      const fs::path out = dir / (std::string(name) + (streamed ? "_s.h5" : "_m.h5"));
      DatasetTransformOptions fo;
      fo.host_memory_budget = streamed ? spectrum_bytes : 0;  // under the real volume and the half spectrum
      const DatasetTransformReport r =
          transform_real_dataset(in.path, {out.string(), "/X"}, Direction::forward, host(), fo);
      EXPECT_EQ(r.in_memory, !streamed);
      EXPECT_EQ(r.output_shape, half);
      EXPECT_EQ(r.intermediate, IntermediateSpectrum::none);
      if (streamed) EXPECT_GE(r.run.bricks, 2u) << "the streamed path must take several bricks";
      const DatasetInfo spectrum = inspect_dataset({out.string(), "/X"});
      EXPECT_EQ(spectrum.dtype, in.precision == Precision::single ? "complex64" : "complex128");
      std::vector<std::size_t> dims = in.dims;
      dims.back() = dims.back() / 2 + 1;
      EXPECT_EQ(spectrum.dims, dims);
      const std::vector<std::int64_t> recorded = read_int_attribute(out, "/X", "oocfft_real_shape");
      EXPECT_EQ(std::vector<std::size_t>(recorded.begin(), recorded.end()), in.dims);
      EXPECT_LE(relative_l2(read_values(out, "/X"), expected), tolerance(in.precision, in.shape.elements()));

      // Back, nx from the attribute: in memory; streamed with the half
      // spectrum between the passes in host memory (fits half the budget);
      // streamed with it in the output's file.
      struct Back {
        const char* dataset;
        std::size_t budget;
        IntermediateSpectrum where;
      };
      std::vector<Back> backs{{"/back_m", 0, IntermediateSpectrum::host_memory}};
      if (splittable) {
        backs.push_back({"/back_h", 2 * spectrum_bytes + real_bytes / 2, IntermediateSpectrum::host_memory});
        backs.push_back({"/back_f", spectrum_bytes, IntermediateSpectrum::output_file});
      }
      for (const Back& b : backs) {
        SCOPED_TRACE(b.dataset);
        fo.host_memory_budget = b.budget;
        const DatasetTransformReport i =
            transform_real_dataset({out.string(), "/X"}, {out.string(), b.dataset}, Direction::inverse, host(), fo);
        EXPECT_EQ(i.in_memory, b.budget == 0);
        EXPECT_EQ(i.intermediate, b.where);
        EXPECT_EQ(i.output_shape, in.shape);
        if (b.where == IntermediateSpectrum::host_memory && b.budget != 0)
          EXPECT_EQ(i.run.host_scratch_bytes, spectrum_bytes);
        const DatasetInfo back = inspect_dataset({out.string(), b.dataset});
        EXPECT_EQ(back.dtype, in.dtype);
        EXPECT_EQ(back.dims, in.dims);
        EXPECT_LE(relative_l2(read_values(out, b.dataset), input_values),
                  tolerance(in.precision, in.shape.elements()));
      }
      EXPECT_TRUE(no_oocfft_links(out)) << "a temporary or scratch dataset was left";
    }
  }
  EXPECT_EQ(file_hash(fixtures().real()), before) << "the input file changed";
}

// A random half spectrum (imaginary parts a real volume cannot have
// included) with the real length given, against numpy's irfftn(s=...).
TEST(RealDatasetTransform, InverseWithTheGivenLengthMatchesNumpy) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  for (const char* name : real_cases) {
    const DatasetInfo real = inspect_dataset(real_fixture(std::string("/input/") + name));
    const DatasetPath in = real_fixture(std::string("/spectrum/") + name);
    const std::vector<double> expected = read_doubles(fixtures().real(), std::string("/irfftn/") + name);
    const std::size_t spectrum_bytes = half_spectrum_shape(real.shape).bytes(2 * value_bytes(real));
    for (const bool streamed : {false, true}) {
      if (streamed && real.shape.ny == 1) continue;
      SCOPED_TRACE(std::string(name) + (streamed ? " streamed" : " in memory"));
      const fs::path out = dir / (std::string(name) + (streamed ? "_s.h5" : "_m.h5"));
      DatasetTransformOptions fo;
      fo.host_memory_budget = streamed ? spectrum_bytes : 0;  // under the real volume and the half spectrum
      const DatasetTransformReport r =
          transform_real_dataset(in, {out.string(), "/x"}, Direction::inverse, host(), fo, real.shape.nx);
      EXPECT_EQ(r.in_memory, !streamed);
      EXPECT_EQ(inspect_dataset({out.string(), "/x"}).dims, real.dims);
      EXPECT_LE(relative_l2(read_values(out, "/x"), expected), tolerance(real.precision, real.shape.elements()));
    }
  }
}

// The refusals: wrong real length (given or recorded), complex data to the
// forward, real data to the inverse, no length at all, in place, shift.
// Each names the dataset and what it expected, and leaves the input file
// byte-identical, even with the output asked for in the same file.
TEST(RealDatasetTransform, RefusalsNameTheDatasetAndLeaveTheFileUntouched) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path file = dir / "real.h5";
  fs::copy_file(fixtures().real(), file);
  // A half spectrum whose attribute does not fit it: rfft of f64_odd (nx 11,
  // 6 stored), the attribute then rewritten to say nx = 13.
  transform_real_dataset({file.string(), "/input/f64_odd"}, {file.string(), "/lying"}, Direction::forward, host());
  ASSERT_TRUE(python_ok("import h5py, numpy as np; f = h5py.File(\"" + file.string() +
                        "\", \"a\"); f[\"lying\"].attrs[\"oocfft_real_shape\"] = np.array([7, 4, 13])"));
  const std::uint64_t before = file_hash(file);
  const std::string spectrum = "/spectrum/f32_odd";  // (5, 7, 5): nx 8 or 9
  struct Refusal {
    const char* what;
    std::string input;
    Direction direction;
    std::size_t nx;
    std::vector<std::string> named;
    ErrorKind kind = ErrorKind::invalid_argument;
    bool in_place = false;
    bool shift = false;
  };
  const Refusal refusals[] = {
      {"wrong length", spectrum, Direction::inverse, 11, {spectrum, "11", "nx = 8 or 9"}},
      {"wrong even length", spectrum, Direction::inverse, 10, {spectrum, "10", "5"}},
      {"no length", spectrum, Direction::inverse, 0, {spectrum, "oocfft_real_shape", "nx = 8 or 9"}},
      {"lying attribute", "/lying", Direction::inverse, 0, {"/lying", "oocfft_real_shape", "(7, 4, 13)"}},
      {"complex to rfft", spectrum, Direction::forward, 0, {spectrum, "complex", "float32 or float64"}},
      {"real to irfft", "/input/f32_odd", Direction::inverse, 9, {"/input/f32_odd", "real values", "half spectrum"}},
      {"length to rfft", "/input/f32_odd", Direction::forward, 8, {"/input/f32_odd", "9"}},
      {"in place", "/input/f32_odd", Direction::forward, 0, {"/input/f32_odd", "in place"},
       ErrorKind::invalid_argument, true},
      {"shift", "/input/f32_odd", Direction::forward, 0, {"/input/f32_odd", "shift"}, ErrorKind::unsupported, false,
       true},
  };
  for (const Refusal& r : refusals) {
    SCOPED_TRACE(r.what);
    Options o = host();
    o.shift = r.shift;
    DatasetTransformOptions fo;
    fo.in_place = r.in_place;
    const DatasetPath in{file.string(), r.input};
    for (const DatasetPath& out : {DatasetPath{file.string(), "/out"}, DatasetPath{(dir / "out.h5").string(), "/out"},
                                   r.in_place ? in : DatasetPath{file.string(), "/out2"}}) {
      expect_error([&] { transform_real_dataset(in, out, r.direction, o, fo, r.nx); }, r.kind, r.named);
      expect_error([&] { (void)describe_real_dataset_transform(in, r.direction, o, fo, r.nx); }, r.kind, r.named);
    }
    EXPECT_EQ(file_hash(file), before) << "the input file changed";
    EXPECT_FALSE(fs::exists(dir / "out.h5")) << "an output file was created";
  }
}

// A cancel in the middle of a streamed inverse whose half spectrum lies in
// a scratch dataset of the input's own file: no output, no scratch, no
// partial dataset, the input's values as they were.
TEST(RealDatasetTransform, CancelRemovesTheOutputAndTheScratchDataset) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path file = dir / "real.h5";
  fs::copy_file(fixtures().real(), file);
  const std::vector<double> values = read_values(file, "/spectrum/f64_even");
  Options o = host();
  std::atomic<int> bricks{0};
  o.progress = [&](const Progress&) { ++bricks; };
  o.cancel = [&] { return bricks.load() >= 3; };
  DatasetTransformOptions fo;
  fo.host_memory_budget = 1024;  // the (4, 6, 6) complex128 half spectrum is 2304 bytes: the scratch is in the file
  const DatasetPath in{file.string(), "/spectrum/f64_even"};
  EXPECT_NE(describe_real_dataset_transform(in, Direction::inverse, o, fo, 10).find("temporary dataset"),
            std::string::npos);
  const std::string in_memory = describe_real_dataset_transform(in, Direction::inverse, o, {}, 10);
  EXPECT_NE(in_memory.find("in memory"), std::string::npos) << in_memory;
  EXPECT_NE(in_memory.find("(4, 6, 6) complex128 -> real (4, 6, 10) float64"), std::string::npos) << in_memory;
  expect_error([&] { transform_real_dataset(in, {file.string(), "/back"}, Direction::inverse, o, fo, 10); },
               ErrorKind::cancelled, {});
  EXPECT_GE(bricks.load(), 3) << "the run had started";
  EXPECT_FALSE(links(file, "/").empty());
  for (const std::string& link : links(file, "/")) {
    EXPECT_NE(link, "back");
    EXPECT_EQ(link.find(".oocfft"), std::string::npos) << link;
  }
  EXPECT_EQ(read_values(file, "/spectrum/f64_even"), values) << "the input changed";
}

// The real store's rows go into a staging buffer at the padded pitch of
// FFTW's layout: the values of the box's rows, and not a byte of the
// padding between them.
TEST(RealDatasetTransform, RealStoreReadsRowsIntoThePaddedPitchOnly) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const DatasetPath in = real_fixture("/input/f64_odd");  // (7, 4, 11) float64
  io::OutputRecord record;
  record.dims = {7, 4, 6};
  io::DatasetTransfer transfer(in, {(dir / "out.h5").string(), "/X"}, false, record);
  volume::VolumeStore& store = transfer.real_store(4096);
  EXPECT_EQ(store.element_bytes(), 8u);
  EXPECT_EQ(store.shape(), (Shape{7, 4, 11}));
  const Box box{2, 1, 0, {3, 2, 11}};
  const std::size_t pitch = 12 * 8;  // 2 * (11/2 + 1) reals
  std::vector<std::byte> staging = poisoned(box.extent.nz * box.extent.ny * pitch);
  store.read_rows(box, staging.data(), pitch);
  const std::vector<double> all = read_values(fixtures().real(), "/input/f64_odd");
  std::size_t row = 0;
  for (std::size_t z = 0; z < 3; ++z)
    for (std::size_t y = 0; y < 2; ++y, ++row) {
      const double* got = reinterpret_cast<const double*>(staging.data() + row * pitch);
      for (std::size_t x = 0; x < 11; ++x) EXPECT_EQ(got[x], all[((z + 2) * 4 + (y + 1)) * 11 + x]);
      for (std::size_t b = 11 * 8; b < pitch; ++b)
        EXPECT_EQ(staging[row * pitch + b], std::byte{0xFF}) << "padding written, row " << row;
    }
}

// The other way, a real inverse's last pass: rows written from the padded
// pitch, with NaN poison in the padding, reach the real output exactly and
// no padding byte reaches the file.
TEST(RealDatasetTransform, RealStoreWritesRowsFromThePaddedPitchOnly) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  io::OutputRecord record;
  record.dims = {7, 4, 11};
  record.element = StoredElement::real;
  io::DatasetTransfer transfer(real_fixture("/spectrum/f64_odd"), {(dir / "out.h5").string(), "/x"}, false, record);
  EXPECT_EQ(transfer.output_element_bytes(), 8u);
  volume::VolumeStore& store = transfer.real_store(4096);
  EXPECT_EQ(store.shape(), (Shape{7, 4, 11}));
  const std::size_t pitch = 12 * 8;
  for (const Box& box : {Box{0, 0, 0, {4, 4, 11}}, Box{4, 0, 0, {3, 4, 11}}}) {
    std::vector<std::byte> staging = poisoned(box.extent.nz * box.extent.ny * pitch);
    for (std::size_t row = 0; row < box.extent.nz * box.extent.ny; ++row)
      for (std::size_t x = 0; x < 11; ++x) {
        const double v = double((box.z0 * 4 + row) * 11 + x);
        std::memcpy(staging.data() + row * pitch + x * 8, &v, 8);
      }
    store.write_rows(box, staging.data(), pitch);
  }
  std::vector<double> back(7 * 4 * 11, -1.0);
  store.read({0, 0, 0, {7, 4, 11}}, BrickLayout::natural, reinterpret_cast<std::byte*>(back.data()));
  for (std::size_t i = 0; i < back.size(); ++i) EXPECT_EQ(back[i], double(i)) << "value " << i;
}

}  // namespace
}  // namespace oocfft
