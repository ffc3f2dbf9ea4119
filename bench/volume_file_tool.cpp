// oocfft_volume_file: writes and checks the large HDF5 volumes of the file
// benchmark (bench/file_bench.sh) on machines without h5py.
//
//   oocfft_volume_file write FILE DATASET NZ NY NX [SEED]
//       a complex64 dataset as h5py writes it (compound {r, i} of float32),
//       contiguous, filled from a seeded hash in [-0.5, 0.5), written in
//       z-slabs of about 256 MiB; prints the write bandwidth.
//   oocfft_volume_file check IN_FILE IN_DATASET OUT_FILE OUT_DATASET
//       the marginal self-test of a forward transform (unscaled): the DFT of
//       the input summed over two axes equals the output's line through the
//       origin along the third, for all three axes. Reads the input once
//       (O(N)) and three lines of the output; prints the relative error and
//       fails above the tolerance 8 eps(float) sqrt(log2 N).
//   oocfft_volume_file evict FILE...
//       writes back and drops the files' pages from the page cache
//       (posix_fadvise DONTNEED, no privileges needed), so that the next
//       read comes from the disk.
#include <fcntl.h>
#include <hdf5.h>
#include <unistd.h>
#include <tbb/parallel_for.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/marginal_check.hpp"
#include "core/relative_l2.hpp"

namespace {

using c64 = std::complex<float>;

// Closes an HDF5 id with its closer on scope exit.
class Id {
 public:
  Id(hid_t id, herr_t (*close)(hid_t), const std::string& what) : id_(id), close_(close) {
    if (id < 0) throw std::runtime_error("HDF5: " + what + " failed");
  }
  ~Id() { close_(id_); }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  operator hid_t() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

void check(herr_t status, const std::string& what) {
  if (status < 0) throw std::runtime_error("HDF5: " + what + " failed");
}

hid_t complex64_type() {
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(c64));
  H5Tinsert(t, "r", 0, H5T_NATIVE_FLOAT);
  H5Tinsert(t, "i", sizeof(float), H5T_NATIVE_FLOAT);
  return t;
}

// A value in [-0.5, 0.5) from the element index and the seed (splitmix64).
float value(std::uint64_t i, std::uint64_t seed) {
  std::uint64_t z = i + seed * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return float(double(z >> 40) / double(1ull << 24) - 0.5);
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::size_t slab_planes(hsize_t ny, hsize_t nx) {
  return std::max<std::size_t>(1, (std::size_t{256} << 20) / (ny * nx * sizeof(c64)));
}

int write_volume(const std::string& file, const std::string& dataset, hsize_t nz, hsize_t ny, hsize_t nx,
                 std::uint64_t seed) {
  const Id f(H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, "create " + file);
  const Id type(complex64_type(), H5Tclose, "compound type");
  const hsize_t dims[3] = {nz, ny, nx};
  const Id space(H5Screate_simple(3, dims, nullptr), H5Sclose, "dataspace");
  const Id d(H5Dcreate2(f, dataset.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose,
             "create " + dataset);
  const std::size_t step = slab_planes(ny, nx);
  std::vector<c64> slab(step * ny * nx);
  const auto t0 = std::chrono::steady_clock::now();
  double write_s = 0;
  for (hsize_t z = 0; z < nz; z += step) {
    const hsize_t planes = std::min<hsize_t>(step, nz - z);
    const std::uint64_t base = std::uint64_t(z) * ny * nx;
    tbb::parallel_for(std::size_t{0}, std::size_t(planes * ny * nx), [&](std::size_t k) {
      slab[k] = {value(2 * (base + k), seed), value(2 * (base + k) + 1, seed)};
    });
    const hsize_t start[3] = {z, 0, 0}, count[3] = {planes, ny, nx};
    check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr), "select");
    const Id memory(H5Screate_simple(3, count, nullptr), H5Sclose, "memory space");
    const auto t = std::chrono::steady_clock::now();
    check(H5Dwrite(d, type, memory, space, H5P_DEFAULT, slab.data()), "write");
    write_s += seconds_since(t);
  }
  check(H5Fflush(f, H5F_SCOPE_GLOBAL), "flush");
  const double bytes = double(nz) * ny * nx * sizeof(c64);
  std::printf("wrote %s:%s %llux%llux%llu complex64, %.2f GiB: %.2f s (HDF5 writes %.2f s, %.2f GB/s)\n",
              file.c_str(), dataset.c_str(), (unsigned long long)nz, (unsigned long long)ny, (unsigned long long)nx,
              bytes / (1u << 30), seconds_since(t0), write_s, bytes / write_s * 1e-9);
  return 0;
}

std::vector<c64> read_line(hid_t d, hid_t type, const hsize_t dims[3], int axis) {
  hsize_t start[3] = {0, 0, 0}, count[3] = {1, 1, 1};
  count[axis] = dims[axis];
  const Id space(H5Dget_space(d), H5Sclose, "dataspace");
  check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr), "select line");
  const Id memory(H5Screate_simple(3, count, nullptr), H5Sclose, "memory space");
  std::vector<c64> line(dims[axis]);
  check(H5Dread(d, type, memory, space, H5P_DEFAULT, line.data()), "read line");
  return line;
}

int check_transform(const std::string& in_file, const std::string& in_set, const std::string& out_file,
                    const std::string& out_set) {
  const Id type(complex64_type(), H5Tclose, "compound type");
  const Id fi(H5Fopen(in_file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "open " + in_file);
  const Id di(H5Dopen2(fi, in_set.c_str(), H5P_DEFAULT), H5Dclose, "open " + in_set);
  const Id space(H5Dget_space(di), H5Sclose, "dataspace");
  hsize_t dims[3] = {1, 1, 1};
  if (H5Sget_simple_extent_ndims(space) != 3) throw std::runtime_error("check: the input is not 3D");
  H5Sget_simple_extent_dims(space, dims, nullptr);
  const hsize_t nz = dims[0], ny = dims[1], nx = dims[2];
  std::vector<std::complex<double>> mz(nz), my(ny), mx(nx);
  const std::size_t step = slab_planes(ny, nx);
  std::vector<c64> slab(step * ny * nx);
  for (hsize_t z = 0; z < nz; z += step) {
    const hsize_t planes = std::min<hsize_t>(step, nz - z);
    const hsize_t start[3] = {z, 0, 0}, count[3] = {planes, ny, nx};
    check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr), "select");
    const Id memory(H5Screate_simple(3, count, nullptr), H5Sclose, "memory space");
    check(H5Dread(di, type, memory, space, H5P_DEFAULT, slab.data()), "read");
    // Row sums in parallel, accumulated per plane in order (deterministic).
    std::vector<std::complex<double>> rows(planes * ny);
    tbb::parallel_for(std::size_t{0}, std::size_t(planes * ny), [&](std::size_t r) {
      std::complex<double> s = 0;
      for (hsize_t x = 0; x < nx; ++x) s += std::complex<double>(slab[r * nx + x]);
      rows[r] = s;
    });
    tbb::parallel_for(std::size_t{0}, std::size_t(nx), [&](std::size_t x) {
      std::complex<double> s = 0;
      for (std::size_t r = 0; r < planes * ny; ++r) s += std::complex<double>(slab[r * nx + x]);
      mx[x] += s;
    });
    for (hsize_t p = 0; p < planes; ++p)
      for (hsize_t y = 0; y < ny; ++y) {
        mz[z + p] += rows[p * ny + y];
        my[y] += rows[p * ny + y];
      }
  }
  const Id fo(H5Fopen(out_file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "open " + out_file);
  const Id dout(H5Dopen2(fo, out_set.c_str(), H5P_DEFAULT), H5Dclose, "open " + out_set);
  oocfft::L2Sums l2;
  const std::vector<std::complex<double>>* sums[3] = {&mz, &my, &mx};
  for (int axis = 0; axis < 3; ++axis) {
    const auto expected = oocfft::checks::dft(*sums[axis]);
    const std::vector<c64> got = read_line(dout, type, dims, axis);
    l2 += oocfft::l2_sums(got.data(), expected.data(), expected.size());
  }
  const double error = l2.relative();
  const double n = double(nz) * ny * nx;
  const double tolerance = 8.0 * 1.1920929e-7 * std::sqrt(std::log2(n));
  std::printf("marginal self-test of %s:%s against %s:%s: error %.2e (tolerance %.2e) %s\n", out_file.c_str(),
              out_set.c_str(), in_file.c_str(), in_set.c_str(), error, tolerance, error <= tolerance ? "PASS" : "FAIL");
  return error <= tolerance ? 0 : 1;
}

int evict(const std::vector<std::string>& files) {
  for (const std::string& file : files) {
    const int fd = ::open(file.c_str(), O_RDONLY);
    if (fd < 0) throw std::runtime_error("evict: cannot open " + file);
    const bool ok = ::fdatasync(fd) == 0 && ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
    ::close(fd);
    if (!ok) throw std::runtime_error("evict: cannot drop the cached pages of " + file);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> a(argv + 1, argv + argc);
    if (a.size() >= 6 && a[0] == "write")
      return write_volume(a[1], a[2], std::stoull(a[3]), std::stoull(a[4]), std::stoull(a[5]),
                          a.size() > 6 ? std::stoull(a[6]) : 2026);
    if (a.size() == 5 && a[0] == "check") return check_transform(a[1], a[2], a[3], a[4]);
    if (a.size() >= 2 && a[0] == "evict") return evict({a.begin() + 1, a.end()});
    std::fprintf(stderr,
                 "usage: %s write FILE DATASET NZ NY NX [SEED]\n       %s check IN_FILE IN_DATASET OUT_FILE OUT_DATASET\n"
                 "       %s evict FILE...\n",
                 argv[0], argv[0], argv[0]);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "oocfft_volume_file: %s\n", e.what());
    return 1;
  }
}
