#pragma once
// The h5py fixtures of the HDF5 suites and the helpers they share: fixture
// files written once per test program by tests/io/write_h5py_fixtures.py
// (with the interpreter CMake found: OOCFFT_TEST_H5PY_PYTHON), scratch
// directories, file hashes, reading expected values back.
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
#include "tests/reference.hpp"
#include "tests/scratch_root.hpp"

namespace oocfft::test_h5 {

namespace fs = std::filesystem;

constexpr std::uint64_t fixture_seed = 20261124;

// This program's scratch folder (removed at exit unless a test failed).
inline const test::ScratchRoot& scratch_root() {
  static const test::ScratchRoot root("oocfft_io_");
  return root;
}

// A fresh directory per test.
inline fs::path scratch_directory() { return scratch_root().for_current_test(); }

// The fixture files, written once per test program; empty when there is no
// interpreter with h5py, or the script failed (reason says why).
struct Fixtures {
  fs::path dir;
  std::string reason;
  fs::path fixtures() const { return dir / "fixtures.h5"; }
  fs::path expected() const { return dir / "expected.h5"; }
  fs::path real() const { return dir / "real.h5"; }  // the real transforms' cases
};

inline const Fixtures& fixtures() {
  static const Fixtures f = [] {
    Fixtures out;
    const std::string python = OOCFFT_TEST_H5PY_PYTHON;
    if (python.empty()) {
      out.reason = "no Python interpreter with h5py and numpy was found at configure time";
      return out;
    }
    const fs::path dir = scratch_root().path() / "fixtures";
    const std::string command = "\"" + python + "\" \"" + std::string(OOCFFT_TEST_FIXTURE_SCRIPT) + "\" \"" +
                                dir.string() + "\" " + std::to_string(fixture_seed);
    if (std::system(command.c_str()) != 0) {
      out.reason = "the fixture script failed: " + command;
      return out;
    }
    out.dir = dir;
    return out;
  }();
  return f;
}

#define REQUIRE_FIXTURES()                                     \
  do {                                                         \
    if (fixtures().dir.empty()) GTEST_SKIP() << fixtures().reason; \
  } while (0)

inline DatasetPath fixture(const std::string& dataset) { return {fixtures().fixtures().string(), dataset}; }

// Runs Python with h5py on `code`; true when it exits 0.
inline bool python_ok(const std::string& code) {
  const std::string command = "\"" + std::string(OOCFFT_TEST_H5PY_PYTHON) + "\" -c '" + code + "'";
  return std::system(command.c_str()) == 0;
}

inline std::uint64_t file_hash(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  char c;
  while (in.get(c)) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

// Reads a float64 dataset of `name` whole (the expected values' pairs).
inline std::vector<double> read_doubles(const fs::path& file, const std::string& name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_GE(f, 0) << file;
  const hid_t d = H5Dopen2(f, name.c_str(), H5P_DEFAULT);
  EXPECT_GE(d, 0) << name;
  const hid_t s = H5Dget_space(d);
  std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
  EXPECT_GE(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), 0);
  H5Sclose(s);
  H5Dclose(d);
  H5Fclose(f);
  return v;
}

inline std::vector<double> expected_values(const std::string& name) {
  return read_doubles(fixtures().expected(), "/values/" + name);
}

// The link names in group `group` of `file`.
inline std::vector<std::string> links(const fs::path& file, const std::string& group) {
  std::vector<std::string> names;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_GE(f, 0) << file;
  const hid_t g = H5Gopen2(f, group.c_str(), H5P_DEFAULT);
  EXPECT_GE(g, 0) << group;
  H5Literate(
      g, H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
        static_cast<std::vector<std::string>*>(out)->push_back(name);
        return 0;
      },
      &names);
  H5Gclose(g);
  H5Fclose(f);
  return names;
}

inline fs::path copy_fixtures_to(const fs::path& dir) {
  const fs::path copy = dir / "input.h5";
  fs::copy_file(fixtures().fixtures(), copy);
  return copy;
}

// Bytes filled with 0xFF: NaN in every float, so an element not written shows.
inline std::vector<std::byte> poisoned(std::size_t bytes) { return std::vector<std::byte>(bytes, std::byte{0xFF}); }

// The complex values of a buffer as doubles (re, im, re, im, ...).
inline std::vector<double> as_doubles(const std::vector<std::byte>& buffer, Precision precision) {
  std::vector<double> out;
  if (precision == Precision::single) {
    const float* p = reinterpret_cast<const float*>(buffer.data());
    out.assign(p, p + buffer.size() / sizeof(float));
  } else {
    const double* p = reinterpret_cast<const double*>(buffer.data());
    out.assign(p, p + buffer.size() / sizeof(double));
  }
  return out;
}

// Seeded complex values in [-0.5, 0.5) for a volume of `elements`, stored
// in `precision`.
inline std::vector<std::byte> random_volume(std::size_t elements, Precision precision, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  const std::size_t real_bytes = precision == Precision::single ? 4 : 8;
  std::vector<std::byte> v(elements * 2 * real_bytes);
  for (std::size_t i = 0; i < 2 * elements; ++i) {
    if (precision == Precision::single) {
      const float x = u(rng);
      std::memcpy(v.data() + i * 4, &x, 4);
    } else {
      const double x = u(rng);
      std::memcpy(v.data() + i * 8, &x, 8);
    }
  }
  return v;
}

template <class F>
void expect_error(F&& call, ErrorKind kind, const std::vector<std::string>& named) {
  try {
    call();
    ADD_FAILURE() << "no error; expected " << to_string(kind);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    for (const std::string& text : named) EXPECT_NE(std::string(e.what()).find(text), std::string::npos)
        << "message does not name \"" << text << "\": " << e.what();
  }
}

// ---------------------------------------------------------------- paths

}  // namespace oocfft::test_h5
