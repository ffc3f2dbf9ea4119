// The real planes alone (engine::RealPlaneTransform, the distributed real
// plan's 2D step): the engine's plane program with the real x stage,
// against fftwl's 2D transform of every plane (forward) and against
// RealPlan of one plane at a time (inverse, on half spectra that are not
// Hermitian, so both must drop the same imaginary parts), on the host
// backend: in one pass of whole planes, split into rows and columns by a
// small budget, on several emulated devices; odd and even nx, nx of 1 and
// 2 (a half spectrum of one column), ny = 1. Outputs poisoned with NaN.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "engine/api/real_plane_transform.hpp"
#include "tests/engine_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

// numpy's rfft2 of every plane of `x` (shape s), times `scale`.
std::vector<LongComplex> planes_reference(const std::vector<long double>& x, const Shape& s, long double scale) {
  std::vector<LongComplex> out;
  const std::size_t plane = s.ny * s.nx;
  for (std::size_t z = 0; z < s.nz; ++z) {
    const std::vector<long double> p(x.begin() + static_cast<std::ptrdiff_t>(z * plane),
                                     x.begin() + static_cast<std::ptrdiff_t>((z + 1) * plane));
    for (const LongComplex& v : fftwl_rfftn(p, {static_cast<int>(s.ny), static_cast<int>(s.nx)}))
      out.push_back(v * scale);
  }
  return out;
}

template <class T>
void check_planes(const Options& options, const std::string& what) {
  const Shape shapes[] = {{3, 6, 8}, {4, 5, 9}, {2, 7, 1}, {3, 4, 2}, {5, 1, 12}, {1, 13, 11}, {2, 40, 30}, {3, 33, 31}};
  const Precision precision = precision_of<T>();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (const Shape& s : shapes) {
    const std::string where = what + " " + s.to_string();
    const Shape h = half_spectrum_shape(s);
    const engine::RealPlaneTransform<T> planes(s, options);
    ASSERT_EQ(planes.spectrum_shape(), h);
    const double tol = tolerance<T>(8.0, s.ny * s.nx);

    // Forward against fftwl, with a scale.
    const std::vector<long double> x = random_real_signal(s.elements(), 7 + s.elements());
    const std::vector<T> real(x.begin(), x.end());
    std::vector<std::complex<T>> spectrum(h.elements(), {nan, nan});
    const double scale = 1.0 / std::sqrt(double(s.ny * s.nx));
    planes.forward(real.data(), spectrum.data(), scale);
    EXPECT_LE(relative_l2(spectrum, planes_reference(x, s, scale)), tol) << where << " forward\n"
                                                                              << planes.describe();
    EXPECT_EQ(std::vector<T>(x.begin(), x.end()), real) << where << ": the forward wrote its input";

    // Inverse of a half spectrum that is not Hermitian, against RealPlan
    // one plane at a time (a plane is a volume of one z plane).
    const std::vector<std::complex<T>> half = to_precision<T>(random_signal(h.elements(), 11 + s.elements()));
    const std::vector<std::complex<T>> kept = half;
    std::vector<T> back(s.elements(), nan);
    planes.inverse(half.data(), back.data(), 1.0 / double(s.ny * s.nx));
    EXPECT_EQ(kept, half) << where << ": the inverse wrote its input";
    Options one = host_budget(0);
    const RealPlan plane_plan({1, s.ny, s.nx}, precision, one);
    std::vector<T> want(s.elements());
    for (std::size_t z = 0; z < s.nz; ++z)
      plane_plan.inverse(half.data() + z * h.ny * h.nx, want.data() + z * s.ny * s.nx);
    EXPECT_LE(relative_l2(back, want), tol) << where << " inverse\n" << planes.describe();
  }
}

TEST(RealPlaneTransform, HostBackendInOnePassAndInRowsAndColumns) {
  // 0: whole planes in one pass; 2 KiB: less than most planes, so rows then
  // columns (the inverse columns then rows); 64 KiB: several planes a brick.
  for (std::size_t budget : {std::size_t{0}, std::size_t{2} << 10, std::size_t{64} << 10}) {
    check_planes<float>(host_budget(budget), "host, budget " + std::to_string(budget));
    check_planes<double>(host_budget(budget), "host, budget " + std::to_string(budget));
  }
}

// The budget of 2 KiB above is less than a plane of (40, 30) real values
// on one stream: the plan is rows, then columns.
TEST(RealPlaneTransform, ASmallBudgetSplitsThePlanesIntoRowsAndColumns) {
  const engine::RealPlaneTransform<double> planes({2, 40, 30}, host_budget(std::size_t{2} << 10));
  const std::string d = planes.describe();
  EXPECT_NE(d.find("x on x-rows"), std::string::npos) << d;
  EXPECT_NE(d.find("y on y-columns"), std::string::npos) << d;
}

TEST(RealPlaneTransform, EmulatedDevicesShareTheBricks) {
  Options o = host_budget(std::size_t{4} << 10);
  o.devices = Devices::list({0, 1, 2});
  check_planes<float>(o, "three emulated devices");
  check_planes<double>(o, "three emulated devices");
}

TEST(RealPlaneTransform, CudaBackend) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device: the device's real planes are not exercised here";
  Options o;
  o.backend = Backend::cuda;
  check_planes<float>(o, "cuda, default budget");
  check_planes<double>(o, "cuda, default budget");
  o.device_memory_budget = std::size_t{1} << 20;
  check_planes<float>(o, "cuda, 1 MiB budget");
}

}  // namespace
}  // namespace oocfft::test
