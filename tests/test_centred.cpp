// Centred transforms (Options::shift) against numpy's definition,
// fftshift(fftn(ifftshift(x))) and fftshift(ifftn(ifftshift(x))), built
// here from FFTW's long-double transform and explicit rolls: odd and even
// axes, every strategy (the host in-core sweep, two-pass with carry-over,
// three-pass, the line layouts), forward and inverse. The Cuda test runs
// the same on the device and skips without one.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <vector>

#include "tests/engine_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

std::vector<LongComplex> centred_reference(const std::vector<LongComplex>& x, const Shape& s, Direction d) {
  const std::vector<int> dims{int(s.nz), int(s.ny), int(s.nx)};
  std::vector<LongComplex> y = numpy_shift(
      fftwl_dft(numpy_shift(x, s, NumpyShift::ifftshift), dims, d == Direction::forward ? -1 : 1), s,
      NumpyShift::fftshift);
  if (d == Direction::inverse)
    for (auto& v : y) v /= static_cast<long double>(s.elements());
  return y;
}

constexpr double c_centred = 8.0;
const Shape centred_shapes[] = {{6, 5, 7}, {4, 8, 6}, {1, 9, 10}, {5, 1, 3}};

template <class T>
void check_centred(Backend backend) {
  constexpr std::size_t e = sizeof(std::complex<T>);
  for (const Shape& shape : centred_shapes)
    for (Direction direction : {Direction::forward, Direction::inverse}) {
      const auto x = to_precision<T>(random_signal(shape.elements(), 77 + shape.elements()));
      const auto ref = centred_reference(widen(x), shape, direction);
      for (Strategy strategy :
           {Strategy::automatic, Strategy::two_pass, Strategy::three_pass, Strategy::line_transpose}) {
        Options o;
        o.backend = backend;
        o.shift = true;
        o.strategy = strategy;
        o.streams = 2;
        if (strategy != Strategy::automatic) o.device_memory_budget = budget_for(strategy, shape, e, 2, 1);
        if (strategy == Strategy::two_pass && backend == Backend::host)
          o.device_memory_budget *= 2;  // room to keep a slab between the passes
        if (strategy != Strategy::automatic && backend == Backend::cuda)
          o.device_memory_budget += 1 << 20;  // the device kernels' tables (a few KiB)
        Plan plan(shape, sizeof(T) == 4 ? Precision::single : Precision::double_precision, o);
        auto y = x;
        RunReport report;
        plan.execute(y.data(), direction, &report);
        EXPECT_LE(relative_l2(y, ref), tolerance<T>(c_centred, shape.elements()))
            << shape.to_string() << " " << to_string(strategy) << " " << to_string(direction);
        if (strategy != Strategy::automatic) EXPECT_EQ(report.strategy, strategy);
        if (report.passes > 0 && strategy != Strategy::automatic)
          EXPECT_NE(plan.describe().find("centre input"), std::string::npos) << plan.describe();
      }
    }
}

TEST(Centred, MatchesNumpysShiftedTransformOnEveryStrategy) { check_centred<double>(Backend::host); }

TEST(Centred, SinglePrecision) { check_centred<float>(Backend::host); }

// Without shift the result differs (the test can fail), and a shift on
// angular-spectrum work is refused by name.
TEST(Centred, ShiftChangesTheResultAndAsmRefusesIt) {
  const Shape shape{4, 6, 5};
  const auto x = to_precision<double>(random_signal(shape.elements(), 5));
  Options o;
  o.backend = Backend::host;
  auto plain = x, centred = x;
  fft3d(plain.data(), shape, Direction::forward, o);
  o.shift = true;
  fft3d(centred.data(), shape, Direction::forward, o);
  EXPECT_GT(relative_l2(centred, widen(plain)), 0.5);
  AsmOptions a;
  a.wavelength = 0.5e-6;
  a.pitch_x = 1e-6;
  a.fft.backend = Backend::host;
  a.fft.shift = true;
  auto field = x;
  try {
    propagate(field.data(), 6, 5, 1e-4, a);
    ADD_FAILURE() << "accepted";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("shift"), std::string::npos) << error.what();
  }
  EXPECT_EQ(field, x);
}

TEST(CentredCuda, MatchesNumpysShiftedTransformOnEveryStrategy) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device (or a build without the CUDA backend)";
  check_centred<double>(Backend::cuda);
  check_centred<float>(Backend::cuda);
}

}  // namespace
}  // namespace oocfft::test
