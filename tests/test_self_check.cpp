// Reference-free checks after FFTW's libbench2/verify-lib.c: linearity,
// impulse response and time shift, on 3D shapes with odd and prime axes.
// They need no reference transform and catch wrong twiddles and indexing.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <cmath>
#include <random>

#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

using C = std::complex<double>;
constexpr double c_self = 8.0;

std::vector<C> transform(std::vector<C> x, const Shape& s, Direction d = Direction::forward) {
  Options o;
  o.backend = Backend::host;
  fft3d(x.data(), s, d, o);
  return x;
}

std::vector<C> random_values(std::size_t n, std::uint64_t seed) { return to_precision<double>(random_signal(n, seed)); }

const Shape self_shapes[] = {{4, 6, 10}, {9, 15, 7}, {11, 13, 17}, {1, 37, 41}, {32, 1, 27}, {5, 49, 8}, {2, 2, 1031}};

// F(a x + b y) = a F(x) + b F(y)
TEST(SelfCheck, Linearity) {
  for (const Shape& s : self_shapes) {
    const std::size_t n = s.elements();
    const auto x = random_values(n, 11), y = random_values(n, 12);
    const C a(0.7, -0.3), b(-1.1, 0.4);
    std::vector<C> combined(n);
    for (std::size_t i = 0; i < n; ++i) combined[i] = a * x[i] + b * y[i];
    const auto fx = transform(x, s), fy = transform(y, s), fc = transform(combined, s);
    std::vector<C> expected(n);
    for (std::size_t i = 0; i < n; ++i) expected[i] = a * fx[i] + b * fy[i];
    EXPECT_LE(relative_l2(fc, expected), tolerance<double>(c_self, n)) << s.to_string();
  }
}

// The transform of a unit impulse at the origin is all ones, and the
// transform of a constant is an impulse of height N.
TEST(SelfCheck, Impulse) {
  for (const Shape& s : self_shapes) {
    const std::size_t n = s.elements();
    std::vector<C> impulse(n, C(0, 0));
    impulse[0] = C(1, 0);
    EXPECT_LE(relative_l2(transform(impulse, s), std::vector<C>(n, C(1, 0))), tolerance<double>(c_self, n))
        << s.to_string();
    std::vector<C> expected(n, C(0, 0));
    expected[0] = C(static_cast<double>(n), 0);
    EXPECT_LE(relative_l2(transform(std::vector<C>(n, C(1, 0)), s), expected), tolerance<double>(c_self, n))
        << s.to_string();
  }
}

// Shifting the input by (dz, dy, dx) multiplies output k by
// exp(-2 pi i (kz dz / nz + ky dy / ny + kx dx / nx)).
TEST(SelfCheck, TimeShift) {
  for (const Shape& s : self_shapes) {
    const std::size_t n = s.elements();
    const auto x = random_values(n, 21);
    const std::size_t dz = s.nz / 3, dy = (s.ny + 1) / 2, dx = s.nx / 5 + 1;
    std::vector<C> shifted(n);
    for (std::size_t z = 0; z < s.nz; ++z)
      for (std::size_t y = 0; y < s.ny; ++y)
        for (std::size_t xx = 0; xx < s.nx; ++xx) {
          const std::size_t src = (((z + s.nz - dz % s.nz) % s.nz) * s.ny + (y + s.ny - dy % s.ny) % s.ny) * s.nx +
                                  (xx + s.nx - dx % s.nx) % s.nx;
          shifted[(z * s.ny + y) * s.nx + xx] = x[src];
        }
    const auto fx = transform(x, s), fs = transform(shifted, s);
    std::vector<C> expected(n);
    const long double two_pi = 2 * 3.141592653589793238462643383279502884L;
    for (std::size_t z = 0; z < s.nz; ++z)
      for (std::size_t y = 0; y < s.ny; ++y)
        for (std::size_t xx = 0; xx < s.nx; ++xx) {
          const long double turns = static_cast<long double>((z * dz) % s.nz) / s.nz +
                                    static_cast<long double>((y * dy) % s.ny) / s.ny +
                                    static_cast<long double>((xx * dx) % s.nx) / s.nx;
          const C phase(static_cast<double>(std::cos(two_pi * turns)), static_cast<double>(-std::sin(two_pi * turns)));
          const std::size_t i = (z * s.ny + y) * s.nx + xx;
          expected[i] = fx[i] * phase;
        }
    EXPECT_LE(relative_l2(fs, expected), tolerance<double>(c_self, n)) << s.to_string();
  }
}

}  // namespace
}  // namespace oocfft::test
