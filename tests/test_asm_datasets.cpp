// propagate_dataset on HDF5 files (host backend, runs in CI): each mode
// against the in-memory operation on the same values, the recorded
// attributes, and the refusals that must leave the input as it was and no
// dataset under the output name. The inputs are written here through the
// HDF5 C API as h5py's compound {r, i}.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <oocfft/oocfft.hpp>

#include "tests/reference.hpp"
#include "tests/scratch_root.hpp"

#include <complex>
#include <filesystem>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

namespace oocfft::test {
namespace {

namespace fs = std::filesystem;
using cd = std::complex<double>;

// A fresh directory per test, under this program's scratch folder (removed
// at exit unless a test failed).
fs::path scratch() {
  static const ScratchRoot root("oocfft_asm_");
  return root.for_current_test();
}

hid_t complex_type(bool single) {
  const std::size_t e = single ? sizeof(float) : sizeof(double);
  const hid_t t = H5Tcreate(H5T_COMPOUND, 2 * e);
  H5Tinsert(t, "r", 0, single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "i", e, single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE);
  return t;
}

template <class T>
void write_complex(const fs::path& file, const std::string& name, const std::vector<hsize_t>& dims,
                   const std::vector<std::complex<T>>& values) {
  const hid_t f = fs::exists(file) ? H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)
                                   : H5Fcreate(file.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  const hid_t s = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t t = complex_type(sizeof(T) == 4);
  const hid_t d = H5Dcreate2(f, name.c_str(), t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(d, 0);
  ASSERT_GE(H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  H5Dclose(d);
  H5Tclose(t);
  H5Sclose(s);
  H5Fclose(f);
}

struct Stored {
  std::vector<hsize_t> dims;
  std::vector<cd> values;
  std::string attribute(const std::string&) const;
  fs::path file;
  std::string name;
};

Stored read_complex(const fs::path& file, const std::string& name) {
  Stored out;
  out.file = file;
  out.name = name;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_GE(f, 0);
  const hid_t d = H5Dopen2(f, name.c_str(), H5P_DEFAULT);
  EXPECT_GE(d, 0) << name;
  const hid_t s = H5Dget_space(d);
  out.dims.resize(static_cast<std::size_t>(H5Sget_simple_extent_ndims(s)));
  H5Sget_simple_extent_dims(s, out.dims.data(), nullptr);
  out.values.resize(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
  const hid_t t = complex_type(false);
  EXPECT_GE(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.values.data()), 0);
  H5Tclose(t);
  H5Sclose(s);
  H5Dclose(d);
  H5Fclose(f);
  return out;
}

std::string Stored::attribute(const std::string& attr) const {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t d = H5Dopen2(f, name.c_str(), H5P_DEFAULT);
  const hid_t a = H5Aopen(d, attr.c_str(), H5P_DEFAULT);
  std::string value;
  if (a >= 0) {
    const hid_t t = H5Aget_type(a);
    char* text = nullptr;
    if (H5Aread(a, t, &text) >= 0 && text != nullptr) {
      value = text;
      H5free_memory(text);
    }
    H5Tclose(t);
    H5Aclose(a);
  }
  H5Dclose(d);
  H5Fclose(f);
  return value;
}

bool has_link(const fs::path& file, const std::string& name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return false;
  const bool found = H5Lexists(f, name.c_str(), H5P_DEFAULT) > 0;
  H5Fclose(f);
  return found;
}

// Seeded values in [-0.5, 0.5) + i [-0.5, 0.5), as every suite draws them.
std::vector<cd> random_field(std::size_t n, std::uint64_t seed) { return to_precision<double>(random_signal(n, seed)); }

AsmOptions options() {
  AsmOptions o;
  o.wavelength = 0.633e-6;
  o.pitch_x = 4e-6;
  o.pitch_y = 5e-6;
  o.fft.backend = Backend::host;
  return o;
}

double max_abs_diff(const std::vector<cd>& a, const std::vector<cd>& b) {
  EXPECT_EQ(a.size(), b.size());
  double m = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

TEST(AsmDatasets, EveryModeMatchesTheInMemoryOperation) {
  const fs::path dir = scratch(), file = dir / "field.h5";
  const std::size_t ny = 20, nx = 24, planes = 3;
  const auto field = random_field(ny * nx, 1);
  const auto layers = random_field(planes * ny * nx, 2);
  write_complex(file, "/field", {ny, nx}, field);
  write_complex(file, "/layers", {planes, ny, nx}, layers);
  const std::vector<double> z{2e-3, -1e-3, 5e-4};
  const AsmOptions o = options();

  AsmDatasetReport r = propagate_dataset({file.string(), "/field"}, {file.string(), "/out/propagated"},
                                         AsmMode::propagate, std::span<const double>(z.data(), 1), o);
  auto expected = field;
  propagate(expected.data(), ny, nx, z[0], o);
  const Stored propagated = read_complex(file, "/out/propagated");
  EXPECT_EQ(propagated.dims, (std::vector<hsize_t>{ny, nx}));
  EXPECT_LT(max_abs_diff(propagated.values, expected), 1e-14);
  EXPECT_EQ(propagated.attribute("asm_mode"), "propagate");
  EXPECT_EQ(propagated.attribute("distances_m"), "0.002");
  EXPECT_EQ(propagated.attribute("pitch_y_m"), "5.0000000000000004e-06");
  EXPECT_EQ(r.output_shape, (Shape{1, ny, nx}));

  r = propagate_dataset({file.string(), "/field"}, {(dir / "refocused.h5").string(), "/volume"}, AsmMode::refocus, z,
                        o);
  std::vector<cd> volume(planes * ny * nx);
  refocus_stack(field.data(), ny, nx, z, volume.data(), o);
  const Stored refocused = read_complex(dir / "refocused.h5", "/volume");
  EXPECT_EQ(refocused.dims, (std::vector<hsize_t>{planes, ny, nx}));
  EXPECT_LT(max_abs_diff(refocused.values, volume), 1e-14);
  EXPECT_EQ(r.output_shape, (Shape{planes, ny, nx}));

  propagate_dataset({file.string(), "/layers"}, {file.string(), "/hologram"}, AsmMode::layer_sum, z, o);
  std::vector<cd> hologram(ny * nx);
  layer_sum(layers.data(), Shape{planes, ny, nx}, z, hologram.data(), o);
  const Stored summed = read_complex(file, "/hologram");
  EXPECT_EQ(summed.dims, (std::vector<hsize_t>{ny, nx}));
  EXPECT_LT(max_abs_diff(summed.values, hologram), 1e-14);
  EXPECT_EQ(summed.attribute("asm_mode"), "layer_sum");

  // In place, for propagate: every plane of the stack by its own distance.
  propagate_dataset({file.string(), "/layers"}, {file.string(), "/layers"}, AsmMode::propagate, z, o, {true, 0});
  auto stack = layers;
  propagate_stack(stack.data(), Shape{planes, ny, nx}, z, o);
  EXPECT_LT(max_abs_diff(read_complex(file, "/layers").values, stack), 1e-14);
}

TEST(AsmDatasets, SinglePrecisionDatasetsStaySingle) {
  const fs::path dir = scratch(), file = dir / "f.h5";
  const std::size_t ny = 16, nx = 16;
  const auto d = random_field(ny * nx, 3);
  const std::vector<std::complex<float>> f(d.begin(), d.end());
  write_complex(file, "/f", {ny, nx}, f);
  const double z = 1e-3;
  propagate_dataset({file.string(), "/f"}, {file.string(), "/g"}, AsmMode::propagate, std::span<const double>(&z, 1),
                    options());
  auto expected = f;
  propagate(expected.data(), ny, nx, z, options());
  EXPECT_EQ(inspect_dataset({file.string(), "/g"}).dtype, "complex64");
  const Stored g = read_complex(file, "/g");
  for (std::size_t i = 0; i < f.size(); ++i) ASSERT_EQ(g.values[i], cd(expected[i])) << i;
}

// Refusals come before anything is written: the input is as it was and no
// output (or temporary) dataset exists.
TEST(AsmDatasets, RefusalsLeaveTheInputAndNoOutput) {
  const fs::path dir = scratch(), file = dir / "in.h5";
  const auto layers = random_field(2 * 8 * 8, 4);
  write_complex(file, "/layers", {2, 8, 8}, layers);
  const std::vector<double> one{1e-3}, three{1e-3, 2e-3, 3e-3};
  struct Case {
    AsmMode mode;
    std::vector<double> z;
    DatasetTransformOptions file_options;
    ErrorKind kind;
    const char* says;
  };
  const Case cases[] = {
      {AsmMode::refocus, one, {}, ErrorKind::invalid_argument, "one field"},
      {AsmMode::layer_sum, one, {}, ErrorKind::invalid_argument, "one per layer"},
      {AsmMode::propagate, three, {}, ErrorKind::invalid_argument, "one per plane"},
      {AsmMode::propagate, {}, {}, ErrorKind::invalid_argument, "no distance"},
      {AsmMode::layer_sum, {1e-3, 2e-3}, {true, 0}, ErrorKind::invalid_argument, "in place only"},
      // Streamed, propagate holds only the bricks: not even a padded row
      // fits 64 bytes; the refusal names the smallest budget that works.
      {AsmMode::propagate, one, {false, 64}, ErrorKind::out_of_memory, "smallest budget that works"},
      {AsmMode::layer_sum, {1e-3, 2e-3}, {false, 1024}, ErrorKind::out_of_memory, "budget"},
  };
  for (const Case& c : cases) {
    const DatasetPath out{file.string(), c.file_options.in_place ? "/layers" : "/out"};
    try {
      propagate_dataset({file.string(), "/layers"}, out, c.mode, c.z, options(), c.file_options);
      ADD_FAILURE() << c.says << ": accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), c.kind) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << e.what();
    }
    EXPECT_FALSE(has_link(file, "/out")) << c.says;
    EXPECT_FALSE(has_link(file, "/.oocfft-partial-out")) << c.says;
    EXPECT_EQ(read_complex(file, "/layers").values, layers) << c.says;
  }
  AsmOptions bad = options();
  bad.wavelength = -1;
  EXPECT_THROW(propagate_dataset({file.string(), "/layers"}, {file.string(), "/out"}, AsmMode::propagate, one, bad),
               Error);
  EXPECT_FALSE(has_link(file, "/out"));
}

// A seeded field (ny, nx) in a new file as /field, and `planes` distances
// from z0 in steps of dz.
struct RefocusCase {
  fs::path file;
  std::vector<cd> field;
  std::vector<double> z;
};
RefocusCase refocus_case(std::size_t ny, std::size_t nx, std::uint64_t seed, std::size_t planes, double z0,
                         double dz) {
  RefocusCase c{scratch() / "field.h5", random_field(ny * nx, seed), std::vector<double>(planes)};
  write_complex(c.file, "/field", {ny, nx}, c.field);
  for (std::size_t j = 0; j < planes; ++j) c.z[j] = z0 + dz * double(j);
  return c;
}

// A refocused stack streams into its dataset plane by plane: host memory
// holds the field and its padded spectrum (and, through rows and columns,
// a padded scratch plane), here a budget of a 25th of the stack and a
// padded plane, through whole planes and through rows and columns.
TEST(AsmDatasets, RefocusStreamsAStackLargerThanTheBudget) {
  const std::size_t ny = 18, nx = 22, planes = 160;
  const RefocusCase c = refocus_case(ny, nx, 12, planes, -4e-3, 5e-5);
  const fs::path& file = c.file;
  const std::vector<cd>& field = c.field;
  const std::vector<double>& z = c.z;
  const std::size_t stack_bytes = planes * ny * nx * sizeof(cd);
  const std::size_t budget = stack_bytes / 25 + 4 * ny * nx * sizeof(cd);
  ASSERT_GE(budget, ny * nx * sizeof(cd) * 9);  // the field, its spectrum and a scratch plane padded 2x fit
  std::vector<cd> expected(planes * ny * nx);
  refocus_stack(field.data(), ny, nx, z, expected.data(), options());
  for (Strategy strategy : {Strategy::automatic, Strategy::three_pass}) {
    AsmOptions o = options();
    o.fft.strategy = strategy;
    std::size_t last_done = 0, calls = 0;
    o.fft.progress = [&](const Progress& p) {
      EXPECT_EQ(p.bricks_total, planes);
      EXPECT_GE(p.bricks_done, last_done);
      last_done = p.bricks_done;
      ++calls;
    };
    const std::string name = strategy == Strategy::automatic ? "/whole" : "/rows";
    propagate_dataset({file.string(), "/field"}, {file.string(), name}, AsmMode::refocus, z, o, {false, budget});
    const Stored stack = read_complex(file, name);
    EXPECT_EQ(stack.dims, (std::vector<hsize_t>{planes, ny, nx}));
    EXPECT_LT(max_abs_diff(stack.values, expected), 1e-14) << name;
    EXPECT_EQ(last_done, planes) << name;
    EXPECT_GT(calls, 1u) << name;
  }
  EXPECT_EQ(read_complex(file, "/field").values, field);
}

// A stack propagated, in place and into a new dataset, and its layers
// summed, with a host budget of a 25th of the stack and a padded plane
// (the scratch of rows and columns): the planes stream through the bricks
// both ways, whole planes and rows and columns.
TEST(AsmDatasets, PropagateAndLayerSumStreamAStackLargerThanTheBudget) {
  const fs::path dir = scratch(), file = dir / "stack.h5";
  const std::size_t ny = 20, nx = 18, planes = 200;
  const auto stack = random_field(planes * ny * nx, 14);
  write_complex(file, "/stack", {planes, ny, nx}, stack);
  std::vector<double> z(planes);
  for (std::size_t j = 0; j < planes; ++j) z[j] = 3e-3 - 2e-5 * double(j);
  const std::size_t budget = stack.size() * sizeof(cd) / 25 + 4 * ny * nx * sizeof(cd);
  auto propagated = stack;
  propagate_stack(propagated.data(), Shape{planes, ny, nx}, z, options());
  std::vector<cd> hologram(ny * nx);
  layer_sum(stack.data(), Shape{planes, ny, nx}, z, hologram.data(), options());
  for (Strategy strategy : {Strategy::automatic, Strategy::three_pass}) {
    AsmOptions o = options();
    o.fft.strategy = strategy;
    const std::string tag = strategy == Strategy::automatic ? "whole" : "rows";
    propagate_dataset({file.string(), "/stack"}, {file.string(), "/p_" + tag}, AsmMode::propagate, z, o,
                      {false, budget});
    EXPECT_LT(max_abs_diff(read_complex(file, "/p_" + tag).values, propagated), 1e-14) << tag;
    propagate_dataset({file.string(), "/stack"}, {file.string(), "/h_" + tag}, AsmMode::layer_sum, z, o,
                      {false, budget});
    EXPECT_LT(max_abs_diff(read_complex(file, "/h_" + tag).values, hologram), 1e-13) << tag;
  }
  EXPECT_EQ(read_complex(file, "/stack").values, stack);
  propagate_dataset({file.string(), "/stack"}, {file.string(), "/stack"}, AsmMode::propagate, z, options(),
                    {true, budget});
  EXPECT_LT(max_abs_diff(read_complex(file, "/stack").values, propagated), 1e-14);
}

// The same stream from the GPU: each plane's field part comes down from
// the device and goes to the dataset. Against the host backend in memory,
// within H's phase conditioning (4 ulps of 2 pi |z| n / lambda, 4e4
// radians here) and the FFTs' rounding.
TEST(AsmDatasetsCuda, RefocusStreamsFromTheDevice) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device (or a build without the CUDA backend)";
  const std::size_t ny = 40, nx = 56, planes = 24;
  const RefocusCase c = refocus_case(ny, nx, 13, planes, -4e-3, 3e-4);
  const fs::path& file = c.file;
  const std::vector<cd>& field = c.field;
  const std::vector<double>& z = c.z;
  std::vector<cd> expected(planes * ny * nx);
  refocus_stack(field.data(), ny, nx, z, expected.data(), options());
  AsmOptions o = options();
  o.fft.backend = Backend::cuda;
  // Half the stack: it must stream, and the device's plan (bricks, the
  // padded spectrum, staging) fits; a quarter is below the smallest budget
  // that works there, which the transform refuses by name.
  const std::size_t budget = planes * ny * nx * sizeof(cd) / 2;
  propagate_dataset({file.string(), "/field"}, {file.string(), "/stack"}, AsmMode::refocus, z, o, {false, budget});
  const double bound = 4 * std::numeric_limits<double>::epsilon() * 2 * std::numbers::pi * 4e-3 / o.wavelength + 1e-13;
  EXPECT_LT(max_abs_diff(read_complex(file, "/stack").values, expected), bound);
}

TEST(AsmDatasets, CancelLeavesNoOutput) {
  const fs::path dir = scratch(), file = dir / "in.h5";
  write_complex(file, "/field", {8, 8}, random_field(64, 5));
  AsmOptions o = options();
  o.fft.cancel = [] { return true; };
  const double z = 1e-3;
  try {
    propagate_dataset({file.string(), "/field"}, {(dir / "out.h5").string(), "/f"}, AsmMode::propagate,
                      std::span<const double>(&z, 1), o);
    ADD_FAILURE() << "not cancelled";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::cancelled) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir / "out.h5")) << "a file the run created is removed";
}

}  // namespace
}  // namespace oocfft::test
