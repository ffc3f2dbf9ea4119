// Real transforms through the whole engine (include/oocfft/real.hpp):
// numpy's rfftn/irfftn layout, out of place and in FFTW's padded layout,
// every strategy through small budgets on the host backend, against FFTW's
// long-double complex transform of the same real data.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <vector>

#include "tests/engine_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

// Seeded real values in [-0.5, 0.5), exact in both precisions.
std::vector<long double> random_real(std::size_t n, std::uint64_t seed) {
  std::vector<long double> x;
  x.reserve(n);
  for (const LongComplex& z : random_signal((n + 1) / 2, seed)) {
    x.push_back(z.real());
    x.push_back(z.imag());
  }
  x.resize(n);
  return x;
}

// numpy's rfftn of `x`: the full long-double transform, its first nx/2+1
// columns.
std::vector<LongComplex> reference_rfftn(const std::vector<long double>& x, const Shape& s) {
  return fftwl_rfftn(x, {int(s.nz), int(s.ny), int(s.nx)});
}

template <class T>
std::vector<T> as(const std::vector<long double>& x) {
  return std::vector<T>(x.begin(), x.end());
}

template <class T>
std::vector<LongComplex> widened(const std::vector<T>& x) {
  return std::vector<LongComplex>(x.begin(), x.end());
}

// The options of one engine case for the half spectrum of `real`.
// On a device, room for the kernels' tables beside the bricks.
constexpr std::size_t device_table_margin = std::size_t{64} << 20;

Options real_case_options(const Shape& real, Strategy strategy, unsigned streams, std::size_t multiple,
                          Precision precision, Backend backend = Backend::host) {
  EngineCase c{.shape = half_spectrum_shape(real),
               .strategy = strategy,
               .streams = streams,
               .multiple = multiple,
               .backend = backend,
               .device_margin = backend == Backend::cuda ? device_table_margin : 0};
  return c.options(precision);
}

struct RealCase {
  Shape shape;
  Strategy strategy;
  unsigned streams;
  std::size_t multiple;
  Backend backend = Backend::host;
};

std::string name(const RealCase& c) {
  return c.shape.to_string() + " " + to_string(c.strategy) + " streams " + std::to_string(c.streams) + " x" +
         std::to_string(c.multiple);
}

// Odd and even nx, primes, nz = 1, ny = 1, nx = 1 and 2; every strategy,
// with and without carry-over (a larger multiple leaves room for it).
std::vector<RealCase> real_cases() {
  const Shape shapes[] = {{4, 6, 8}, {3, 5, 9}, {7, 11, 13}, {1, 6, 10}, {5, 1, 7}, {4, 3, 1}, {3, 4, 2}, {1, 1, 5}};
  std::vector<RealCase> cases;
  for (const Shape& s : shapes) {
    cases.push_back({s, Strategy::in_core, 4, 1});
    cases.push_back({s, Strategy::two_pass, 3, 1});
    cases.push_back({s, Strategy::two_pass, 2, 4});
    cases.push_back({s, Strategy::three_pass, 4, 1});
    cases.push_back({s, Strategy::line_transpose, 2, 1});
  }
  return cases;
}

template <class T>
void check_forward_and_inverse(const RealCase& c) {
  const Shape& s = c.shape;
  const Shape h = half_spectrum_shape(s);
  const std::vector<long double> x = random_real(s.elements(), 42 + s.nx);
  const std::vector<LongComplex> want = reference_rfftn(x, s);
  const RealPlan plan(s, precision_of<T>(),
                      real_case_options(s, c.strategy, c.streams, c.multiple, precision_of<T>(), c.backend));
  const double tol = tolerance<T>(4.0, s.elements());

  // Out of place forward: the input untouched, every output written.
  const std::vector<T> input = as<T>(x);
  std::vector<T> in = input;
  std::vector<std::complex<T>> spectrum(h.elements());
  poison(spectrum);
  plan.forward(in.data(), spectrum.data());
  EXPECT_EQ(0, std::memcmp(in.data(), input.data(), in.size() * sizeof(T))) << name(c) << ": the input was written";
  EXPECT_LE(relative_l2(spectrum, want), tol) << name(c) << "\n" << plan.describe();

  // Out of place inverse of the exact spectrum (rounded to T): the input
  // again, its spectrum untouched.
  std::vector<std::complex<T>> exact(h.elements());
  for (std::size_t i = 0; i < exact.size(); ++i) exact[i] = {T(want[i].real()), T(want[i].imag())};
  const std::vector<std::complex<T>> exact_copy = exact;
  std::vector<T> back(s.elements(), std::numeric_limits<T>::quiet_NaN());
  RunReport report;
  plan.inverse(exact.data(), back.data(), &report);
  EXPECT_EQ(0, std::memcmp(exact.data(), exact_copy.data(), exact.size() * sizeof(exact[0])))
      << name(c) << ": the inverse wrote its input";
  EXPECT_LE(relative_l2(widened(back), widened(input)), tol) << name(c) << " inverse\n" << plan.describe();

  // In place, FFTW's padded layout: forward then inverse.
  std::vector<T> padded(2 * h.elements(), std::numeric_limits<T>::quiet_NaN());
  for (std::size_t r = 0; r < s.nz * s.ny; ++r)
    std::memcpy(&padded[r * 2 * h.nx], &input[r * s.nx], s.nx * sizeof(T));
  plan.forward_in_place(padded.data());
  std::vector<std::complex<T>> as_spectrum(h.elements());
  std::memcpy(as_spectrum.data(), padded.data(), padded.size() * sizeof(T));
  EXPECT_LE(relative_l2(as_spectrum, want), tol) << name(c) << " in place";
  plan.inverse_in_place(padded.data());
  std::vector<T> rows(s.elements());
  for (std::size_t r = 0; r < s.nz * s.ny; ++r)
    std::memcpy(&rows[r * s.nx], &padded[r * 2 * h.nx], s.nx * sizeof(T));
  EXPECT_LE(relative_l2(widened(rows), widened(input)), tol) << name(c) << " in place inverse";
}

TEST(RealTransform, EveryStrategyMatchesNumpysRfftnAndBack) {
  for (const RealCase& c : real_cases()) {
    check_forward_and_inverse<float>(c);
    check_forward_and_inverse<double>(c);
  }
}

// The same cases on the CUDA backend: the device's x stage, the padded
// rows' DMA and the reversed carry-over of the inverse.
TEST(CudaRealTransform, EveryStrategyMatchesNumpysRfftnAndBack) {
  if (!cuda_available()) GTEST_SKIP() << "no usable CUDA device";
  for (RealCase c : real_cases()) {
    c.backend = Backend::cuda;
    check_forward_and_inverse<float>(c);
    check_forward_and_inverse<double>(c);
  }
}

// Page-locked arrays: the real rows go up by DMA at the padded pitch.
TEST(CudaRealTransform, PageLockedArraysTakeTheDirectPath) {
  if (!cuda_available()) GTEST_SKIP() << "no usable CUDA device";
  const Shape s{6, 10, 33};
  const Shape h = half_spectrum_shape(s);
  const std::vector<long double> x = random_real(s.elements(), 99);
  const std::vector<LongComplex> want = reference_rfftn(x, s);
  for (const Strategy strategy : {Strategy::in_core, Strategy::two_pass}) {
    const RealPlan plan(s, Precision::single,
                        real_case_options(s, strategy, 2, 2, Precision::single, Backend::cuda));
    HostArray<float> real(s.elements());
    HostArray<std::complex<float>> spectrum(h.elements());
    for (std::size_t i = 0; i < s.elements(); ++i) real.data()[i] = float(x[i]);
    for (std::size_t i = 0; i < h.elements(); ++i) spectrum.data()[i] = {NAN, NAN};
    plan.forward(real.data(), spectrum.data());
    EXPECT_LE(relative_l2(spectrum.data(), want.data(), h.elements()), tolerance<float>(4.0, s.elements()))
        << to_string(strategy) << "\n" << plan.describe();
    std::vector<float> back(s.elements(), NAN);
    plan.inverse(spectrum.data(), back.data());
    EXPECT_LE(relative_l2(widened(back), widened(as<float>(x))), tolerance<float>(6.0, s.elements()))
        << to_string(strategy);
  }
}

// numpy's norm modes over N = nz*ny*nx real points.
TEST(RealTransform, NormModesScaleByTheRealPointCount) {
  const Shape s{3, 4, 6};
  const std::vector<long double> x = random_real(s.elements(), 7);
  const std::vector<LongComplex> want = reference_rfftn(x, s);
  const std::vector<double> input = as<double>(x);
  for (const Norm norm : {Norm::backward, Norm::ortho, Norm::forward}) {
    Options o;
    o.backend = Backend::host;
    o.norm = norm;
    std::vector<std::complex<double>> spectrum(half_spectrum_shape(s).elements());
    rfft3d(input.data(), spectrum.data(), s, o);
    const long double n = s.elements();
    const long double scale = norm == Norm::backward ? 1.0L : norm == Norm::ortho ? 1.0L / std::sqrt(n) : 1.0L / n;
    EXPECT_LE(relative_l2(spectrum, want, scale), tolerance<double>(4.0, s.elements())) << to_string(norm);
    std::vector<double> back(s.elements());
    irfft3d(spectrum.data(), back.data(), s, o);
    EXPECT_LE(relative_l2(widened(back), widened(input)), tolerance<double>(4.0, s.elements())) << to_string(norm);
  }
}

// The x stage ignores the imaginary parts a real row's spectrum cannot have
// (x frequency 0, and nx/2 for even nx), as numpy's irfftn does: a constant
// imaginary offset on those columns becomes, after the y and z inverses, a
// purely imaginary value at x frequency 0 (or nx/2) of row (0, 0) alone,
// which both drop (numpy gives the input back to rounding).
TEST(RealTransform, InverseIgnoresImaginaryPartsARealSpectrumCannotHave) {
  for (const std::size_t nx : {8u, 9u}) {
    const Shape s{2, 3, nx};
    const Shape h = half_spectrum_shape(s);
    const std::vector<long double> x = random_real(s.elements(), 11);
    const std::vector<LongComplex> want = reference_rfftn(x, s);
    std::vector<std::complex<double>> spectrum(want.begin(), want.end());
    for (std::size_t r = 0; r < s.nz * s.ny; ++r) {
      spectrum[r * h.nx] += std::complex<double>(0, 123.0);
      if (nx % 2 == 0) spectrum[r * h.nx + nx / 2] += std::complex<double>(0, -77.0);
    }
    Options o;
    o.backend = Backend::host;
    std::vector<double> back(s.elements());
    irfft3d(spectrum.data(), back.data(), s, o);
    EXPECT_LE(relative_l2(widened(back), widened(as<double>(x))), tolerance<double>(4.0, s.elements())) << nx;
  }
}

TEST(RealTransform, BadArgumentsAreRefusedByName) {
  Options o;
  o.backend = Backend::host;
  EXPECT_THROW(RealPlan({0, 4, 4}, Precision::single, o), Error);
  const RealPlan plan({2, 2, 4}, Precision::single, o);
  std::vector<float> real(16, 1.0f);
  std::vector<std::complex<float>> spectrum(2 * 2 * 3);
  std::vector<std::complex<double>> spectrum_double(2 * 2 * 3);
  std::vector<double> real_double(16, 1.0);
  try {
    plan.forward(nullptr, spectrum.data());
    ADD_FAILURE() << "a null input was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("the real array"), std::string::npos) << e.what();
  }
  try {
    plan.forward(real_double.data(), spectrum_double.data());
    ADD_FAILURE() << "double arrays were taken by a single-precision plan";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("double"), std::string::npos) << e.what();
  }
  // One array for both sides of an out-of-place call: refused, naming the
  // in-place calls.
  std::vector<std::complex<float>> padded(2 * 2 * 3);
  try {
    plan.forward(reinterpret_cast<const float*>(padded.data()), padded.data());
    ADD_FAILURE() << "overlapping arrays were taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("forward_in_place"), std::string::npos) << e.what();
  }
  o.shift = true;
  try {
    RealPlan shifted({2, 2, 4}, Precision::single, o);
    ADD_FAILURE() << "shift was taken for a real transform";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::unsupported);
  }
}

// Cancel and progress reach a real run as they reach a complex one; a
// cancel before the first brick leaves the output as it was.
TEST(RealTransform, CancelBeforeTheFirstBrickWritesNothing) {
  const Shape s{8, 8, 16};
  Options o = real_case_options(s, Strategy::two_pass, 2, 1, Precision::single);
  std::size_t reported = 0;
  o.progress = [&](const Progress&) { ++reported; };
  const RealPlan running(s, Precision::single, o);
  const std::vector<float> input = as<float>(random_real(s.elements(), 3));
  std::vector<std::complex<float>> spectrum(half_spectrum_shape(s).elements());
  running.forward(input.data(), spectrum.data());
  EXPECT_GT(reported, 0u);
  o.cancel = [] { return true; };
  const RealPlan cancelled(s, Precision::single, o);
  poison(spectrum);
  try {
    cancelled.forward(input.data(), spectrum.data());
    ADD_FAILURE() << "the cancel was not seen";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::cancelled);
  }
  for (const auto& z : spectrum) ASSERT_TRUE(std::isnan(z.real())) << "a cancelled run wrote its output";
}

TEST(RealTransform, DescribeSaysTheRealPathAndItsFloor) {
  const Shape s{8, 8, 16};
  const RealPlan plan(s, Precision::single, real_case_options(s, Strategy::two_pass, 2, 1, Precision::single));
  const std::string d = plan.describe();
  EXPECT_NE(d.find("half spectrum 8 x 8 x 9"), std::string::npos) << d;
  EXPECT_NE(d.find("axis x: real n=16 -> 9"), std::string::npos) << d;
  EXPECT_NE(d.find("PCIe floor"), std::string::npos) << d;
}

}  // namespace
}  // namespace oocfft::test
