// 3D transforms through the public API against FFTW (float and double
// FFTW for the matching precision, long-double fftwl as the reference), for
// shapes with even, odd, prime and unit axes.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

constexpr double c_volume = 6.0;  // three axes of rounding, Bluestein on prime axes

struct VolumeCase {
  Shape shape;
};

std::vector<int> dims_of(const Shape& s) {
  return {static_cast<int>(s.nz), static_cast<int>(s.ny), static_cast<int>(s.nx)};
}

template <class T>
void check_against_fftwl(const Shape& shape, Direction direction) {
  const std::size_t n = shape.elements();
  const auto x = random_signal(n, 77 + n);
  const auto ref = fftwl_dft(x, dims_of(shape), direction == Direction::forward ? FFTW_FORWARD : FFTW_BACKWARD);
  auto y = to_precision<T>(x);
  Options options;
  options.backend = Backend::host;
  fft3d(y.data(), shape, direction, options);
  const long double scale = direction == Direction::inverse ? 1.0L / static_cast<long double>(n) : 1.0L;
  const double err = relative_l2(y, ref, scale);
  EXPECT_LE(err, tolerance<T>(c_volume, n)) << shape.to_string() << " " << to_string(direction);
}

// FFTW in the working precision: our error must be comparable to FFTW's own.
template <class T>
double fftw_error(const Shape& shape, const std::vector<LongComplex>& x, const std::vector<LongComplex>& ref);

template <>
double fftw_error<float>(const Shape& shape, const std::vector<LongComplex>& x, const std::vector<LongComplex>& ref) {
  auto y = to_precision<float>(x);
  const auto dims = dims_of(shape);
  fftwf_plan p = fftwf_plan_dft(3, dims.data(), reinterpret_cast<fftwf_complex*>(y.data()),
                                reinterpret_cast<fftwf_complex*>(y.data()), FFTW_FORWARD, FFTW_ESTIMATE);
  fftwf_execute(p);
  fftwf_destroy_plan(p);
  return relative_l2(y, ref);
}

template <>
double fftw_error<double>(const Shape& shape, const std::vector<LongComplex>& x, const std::vector<LongComplex>& ref) {
  auto y = to_precision<double>(x);
  const auto dims = dims_of(shape);
  fftw_plan p = fftw_plan_dft(3, dims.data(), reinterpret_cast<fftw_complex*>(y.data()),
                              reinterpret_cast<fftw_complex*>(y.data()), FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  return relative_l2(y, ref);
}

const Shape volume_shapes[] = {
    {8, 8, 8},    {16, 32, 64}, {64, 64, 64}, {96, 100, 105}, {7, 11, 13},  {17, 19, 23}, {31, 1, 37},
    {1, 1, 4096}, {1, 60, 72},  {2, 3, 5},    {1, 1, 1},      {127, 2, 33}, {5, 257, 3},  {3, 4, 1009},
};

TEST(VolumeAccuracy, SinglePrecisionAgainstFftwLongDouble) {
  for (const Shape& s : volume_shapes) {
    check_against_fftwl<float>(s, Direction::forward);
    check_against_fftwl<float>(s, Direction::inverse);
  }
}

TEST(VolumeAccuracy, DoublePrecisionAgainstFftwLongDouble) {
  for (const Shape& s : volume_shapes) {
    check_against_fftwl<double>(s, Direction::forward);
    check_against_fftwl<double>(s, Direction::inverse);
  }
}

template <class T>
void check_comparable_to_fftw(const Shape& shape) {
  const std::size_t n = shape.elements();
  const auto x = random_signal(n, 5 + n);
  const auto ref = fftwl_dft(x, dims_of(shape), FFTW_FORWARD);
  auto y = to_precision<T>(x);
  Options options;
  options.backend = Backend::host;
  fft3d(y.data(), shape, Direction::forward, options);
  const double ours = relative_l2(y, ref);
  const double theirs = fftw_error<T>(shape, x, ref);
  // FFTW is the accuracy bar a user compares us with: within 3x of it (or
  // under one eps, where both are at the floor).
  EXPECT_LE(ours, std::max(3.0 * theirs, static_cast<double>(std::numeric_limits<T>::epsilon())))
      << shape.to_string() << " ours " << ours << " fftw " << theirs;
}

TEST(VolumeAccuracy, ComparableToFftwInBothPrecisions) {
  for (const Shape& s : {Shape{64, 64, 64}, Shape{96, 100, 105}, Shape{17, 19, 23}, Shape{3, 4, 1009}}) {
    check_comparable_to_fftw<float>(s);
    check_comparable_to_fftw<double>(s);
  }
}

}  // namespace
}  // namespace oocfft::test
