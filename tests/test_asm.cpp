// Angular-spectrum propagation against known answers (include/oocfft/asm.hpp):
// plane waves multiplied exactly by H, evanescent waves decaying at the
// stated rate, P(z1) P(z2) = P(z1 + z2), P(-z) P(z) = I, Parseval, a
// Gaussian beam's width and Gouy phase, Talbot self-imaging, and the stack
// operations against single propagations. Host backend (runs in CI).
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include "tests/reference.hpp"

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

namespace oocfft::test {
namespace {

using cd = std::complex<double>;
constexpr double two_pi = 2 * std::numbers::pi;

AsmOptions host_asm(double wavelength, double pitch_x, double pitch_y, unsigned pad, bool band_limit) {
  AsmOptions o;
  o.wavelength = wavelength;
  o.pitch_x = pitch_x;
  o.pitch_y = pitch_y;
  o.pad = pad;
  o.band_limit = band_limit;
  o.fft.backend = Backend::host;
  return o;
}

double max_abs_diff(const std::vector<cd>& a, const std::vector<cd>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

double energy(const std::vector<cd>& a) {
  double e = 0;
  for (const cd& v : a) e += std::norm(v);
  return e;
}

std::vector<cd> plane_wave(std::size_t ny, std::size_t nx, double fx, double fy, double dx, double dy) {
  std::vector<cd> u(ny * nx);
  for (std::size_t y = 0; y < ny; ++y)
    for (std::size_t x = 0; x < nx; ++x) u[y * nx + x] = std::polar(1.0, two_pi * (fx * x * dx + fy * y * dy));
  return u;
}

// On a periodic grid a plane wave at a grid frequency is an eigenfunction:
// propagation multiplies it by H(fx, fy; z), forward and back, with
// different pitches along x and y.
TEST(Asm, PlaneWaveIsMultipliedByTheTransferFunction) {
  const std::size_t ny = 48, nx = 64;
  const double dx = 1e-6, dy = 1.5e-6, lambda = 0.6e-6, k = 1 / lambda;
  const double fx = 5 / (nx * dx), fy = -3 / (ny * dy);
  for (double z : {1e-4, -2.5e-4}) {
    auto u = plane_wave(ny, nx, fx, fy, dx, dy);
    const auto u0 = u;
    propagate(u.data(), ny, nx, z, host_asm(lambda, dx, dy, 1, false));
    const cd h = std::polar(1.0, two_pi * z * std::sqrt(k * k - fx * fx - fy * fy));
    std::vector<cd> expected(u0.size());
    for (std::size_t i = 0; i < u0.size(); ++i) expected[i] = u0[i] * h;
    EXPECT_LT(max_abs_diff(u, expected), 1e-12) << "z " << z;
  }
}

// Beyond n / lambda a plane wave decays as exp(-2 pi |z| sqrt(f^2 - k^2)),
// or vanishes in the zero mode.
TEST(Asm, EvanescentWavesDecayOrVanish) {
  const std::size_t ny = 16, nx = 64;
  const double dx = 0.2e-6, lambda = 0.6e-6, k = 1 / lambda;
  const double fx = 25 / (nx * dx);  // 1.95e6 cycles/m > k = 1.67e6
  ASSERT_GT(fx, k);
  const double z = 1e-7;
  auto u = plane_wave(ny, nx, fx, 0, dx, dx);
  const auto u0 = u;
  AsmOptions o = host_asm(lambda, dx, dx, 1, false);
  propagate(u.data(), ny, nx, -z, o);  // decays whichever way it goes
  const double decay = std::exp(-two_pi * z * std::sqrt(fx * fx - k * k));
  ASSERT_LT(decay, 0.6);
  for (std::size_t i = 0; i < u.size(); ++i) ASSERT_LT(std::abs(u[i] - decay * u0[i]), 1e-12) << i;
  o.evanescent = Evanescent::zero;
  u = u0;
  propagate(u.data(), ny, nx, z, o);
  EXPECT_LT(std::sqrt(energy(u)), 1e-12);
}

// The band limit keeps exactly the frequencies under
// 1 / ((lambda/n) sqrt((2 df z)^2 + 1)): a plane wave just inside the edge
// is propagated, one just outside is removed, and with the limit off both
// are propagated.
TEST(Asm, BandLimitCutsAtMatsushimasEdge) {
  const std::size_t ny = 4, nx = 64;
  const double dx = 1e-6, lambda = 0.5e-6, index = 1.25, k = index / lambda, z = 4e-4;
  const double df = 1 / (nx * dx);
  const double edge = k / std::sqrt((2 * df * z) * (2 * df * z) + 1);
  const int inside = static_cast<int>(std::ceil(edge / df)) - 1, outside = inside + 1;
  ASSERT_GT(inside, 3);
  ASSERT_LT(outside, static_cast<int>(nx / 2));  // both on the grid, under Nyquist
  for (bool limit : {true, false}) {
    AsmOptions o = host_asm(lambda, dx, 0, 1, limit);
    o.index = index;
    for (int m : {inside, outside}) {
      const double fx = m * df;
      auto u = plane_wave(ny, nx, fx, 0, dx, dx);
      const auto u0 = u;
      propagate(u.data(), ny, nx, z, o);
      const cd h = (limit && m == outside) ? cd(0) : std::polar(1.0, two_pi * z * std::sqrt(k * k - fx * fx));
      std::vector<cd> expected(u0.size());
      for (std::size_t i = 0; i < u0.size(); ++i) expected[i] = u0[i] * h;
      EXPECT_LT(max_abs_diff(u, expected), 1e-12) << "band limit " << limit << ", fx = " << m << " df";
    }
  }
}

// Seeded values in [-0.5, 0.5) + i [-0.5, 0.5), as every suite draws them.
std::vector<cd> random_field(std::size_t n, std::uint64_t seed) { return to_precision<double>(random_signal(n, seed)); }

// With every grid frequency propagating and no band limit, propagation is
// a unitary group on the periodic grid.
TEST(Asm, PropagationComposesInvertsAndConservesEnergy) {
  const std::size_t ny = 30, nx = 42;  // not powers of two
  const double dx = 2e-6, lambda = 0.5e-6;  // Nyquist 2.5e5 << 1/lambda: nothing evanescent
  const AsmOptions o = host_asm(lambda, dx, 0, 1, false);
  const auto u0 = random_field(ny * nx, 7);
  auto a = u0, b = u0;
  propagate(a.data(), ny, nx, 3e-4, o);
  EXPECT_NEAR(energy(a) / energy(u0), 1.0, 1e-12);
  propagate(a.data(), ny, nx, 5e-4, o);
  propagate(b.data(), ny, nx, 8e-4, o);
  EXPECT_LT(max_abs_diff(a, b), 1e-11);
  propagate(b.data(), ny, nx, -8e-4, o);
  EXPECT_LT(max_abs_diff(b, u0), 1e-11);
}

// A Gaussian beam of waist w0 = 20 lambda: width w(z) = w0 sqrt(1 + (z /
// zR)^2), zR = pi w0^2 n / lambda, on-axis amplitude w0 / w and the Gouy
// phase -atan(z / zR) after the plane-wave phase 2 pi z n / lambda.
TEST(Asm, GaussianBeamWidensAndPicksUpTheGouyPhase) {
  const std::size_t n = 512;
  const double lambda = 0.5e-6, dx = 0.5e-6, w0 = 20 * lambda;
  for (double index : {1.0, 1.5}) {
    const double zr = std::numbers::pi * w0 * w0 * index / lambda;
    std::vector<cd> u0(n * n);
    const double c = (n / 2) * dx;
    for (std::size_t y = 0; y < n; ++y)
      for (std::size_t x = 0; x < n; ++x) {
        const double rx = x * dx - c, ry = y * dx - c;
        u0[y * n + x] = std::exp(-(rx * rx + ry * ry) / (w0 * w0));
      }
    AsmOptions o = host_asm(lambda, dx, 0, 2, true);
    o.index = index;
    for (double z : {zr, 2 * zr}) {
      auto u = u0;
      propagate(u.data(), n, n, z, o);
      double sum = 0, second = 0;
      for (std::size_t y = 0; y < n; ++y)
        for (std::size_t x = 0; x < n; ++x) {
          const double rx = x * dx - c, p = std::norm(u[y * n + x]);
          sum += p;
          second += rx * rx * p;
        }
      const double w = 2 * std::sqrt(second / sum);  // |U|^2 ~ exp(-2 r^2 / w^2)
      const double expected = w0 * std::sqrt(1 + (z / zr) * (z / zr));
      EXPECT_NEAR(w / expected, 1.0, 5e-3) << "n " << index << " z/zR " << z / zr;
      const cd axis = u[(n / 2) * n + n / 2];
      EXPECT_NEAR(std::abs(axis), w0 / expected, 5e-3);
      const double gouy = std::arg(axis * std::polar(1.0, -two_pi * z * index / lambda));
      EXPECT_NEAR(gouy, -std::atan(z / zr), 1e-2) << "n " << index << " z/zR " << z / zr;
    }
  }
}

// A cosine grating of period d images itself at the Talbot distance
// z_T = lambda / (1 - sqrt(1 - lambda^2 / d^2)) and shifted by half a
// period at z_T / 2 (times the plane-wave phase of the mean).
TEST(Asm, TalbotSelfImaging) {
  const std::size_t ny = 8, nx = 256;
  const double lambda = 0.5e-6, dx = 0.5e-6, d = 16 * dx;
  const double zt = lambda / (1 - std::sqrt(1 - lambda * lambda / (d * d)));
  std::vector<cd> grating(ny * nx), shifted(ny * nx);
  for (std::size_t y = 0; y < ny; ++y)
    for (std::size_t x = 0; x < nx; ++x) {
      grating[y * nx + x] = 1 + std::cos(two_pi * x * dx / d);
      shifted[y * nx + x] = 1 - std::cos(two_pi * x * dx / d);
    }
  const AsmOptions o = host_asm(lambda, dx, 0, 1, false);
  for (auto [z, image] : {std::pair{zt, &grating}, std::pair{zt / 2, &shifted}}) {
    auto u = grating;
    propagate(u.data(), ny, nx, z, o);
    const cd mean_phase = std::polar(1.0, two_pi * z / lambda);
    std::vector<cd> expected(u.size());
    for (std::size_t i = 0; i < u.size(); ++i) expected[i] = (*image)[i] * mean_phase;
    EXPECT_LT(max_abs_diff(u, expected), 1e-11) << "z / z_T " << z / zt;
  }
}

// The stack operations are the single propagation repeated: each refocus
// plane, each plane of a propagated stack, and the layer sum.
TEST(Asm, StacksMatchSinglePropagations) {
  const std::size_t ny = 24, nx = 20, planes = 3;
  const double lambda = 0.633e-6, dx = 3e-6;
  const std::vector<double> z{1e-3, -4e-4, 2.5e-3};
  const AsmOptions o = host_asm(lambda, dx, 2e-6, 2, true);
  const auto field = random_field(ny * nx, 11);
  std::vector<cd> volume(planes * ny * nx, cd(std::nan(""), 0));  // poisoned
  refocus_stack(field.data(), ny, nx, z, volume.data(), o);
  const auto layers = random_field(planes * ny * nx, 12);
  auto stack = layers;
  propagate_stack(stack.data(), Shape{planes, ny, nx}, z, o);
  std::vector<cd> hologram(ny * nx, cd(std::nan(""), 0)), sum(ny * nx);
  layer_sum(layers.data(), Shape{planes, ny, nx}, z, hologram.data(), o);
  for (std::size_t j = 0; j < planes; ++j) {
    auto single = field;
    propagate(single.data(), ny, nx, z[j], o);
    const std::vector<cd> plane(volume.begin() + j * ny * nx, volume.begin() + (j + 1) * ny * nx);
    EXPECT_LT(max_abs_diff(plane, single), 1e-13) << "refocus plane " << j;
    auto layer = std::vector<cd>(layers.begin() + j * ny * nx, layers.begin() + (j + 1) * ny * nx);
    propagate(layer.data(), ny, nx, z[j], o);
    const std::vector<cd> propagated(stack.begin() + j * ny * nx, stack.begin() + (j + 1) * ny * nx);
    EXPECT_LT(max_abs_diff(propagated, layer), 1e-13) << "stack plane " << j;
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += layer[i];
  }
  EXPECT_LT(max_abs_diff(hologram, sum), 1e-12);
  // One distance for every plane.
  auto same = layers;
  propagate_stack(same.data(), Shape{planes, ny, nx}, std::vector<double>{z[0]}, o);
  auto first = std::vector<cd>(layers.begin() + ny * nx, layers.begin() + 2 * ny * nx);
  propagate(first.data(), ny, nx, z[0], o);
  EXPECT_LT(max_abs_diff(std::vector<cd>(same.begin() + ny * nx, same.begin() + 2 * ny * nx), first), 1e-13);
}

// Single precision follows double within its rounding (the phase is
// computed in double either way).
TEST(Asm, SinglePrecisionFollowsDouble) {
  const std::size_t ny = 64, nx = 64;
  const AsmOptions o = host_asm(0.532e-6, 4e-6, 0, 2, true);
  const auto u = random_field(ny * nx, 3);
  auto d = u;
  std::vector<std::complex<float>> f(u.begin(), u.end());
  const double z = 0.05;  // 2 pi z / lambda = 5.9e5 radians
  propagate(d.data(), ny, nx, z, o);
  propagate(f.data(), ny, nx, z, o);
  EXPECT_LT(relative_l2(f, d), 1e-5);
}

TEST(Asm, BadOptionsAreRefusedAndLeaveTheField) {
  const std::size_t ny = 8, nx = 8;
  const auto u0 = random_field(ny * nx, 5);
  auto expect_refused = [&](AsmOptions o, const char* names, double z = 1e-3) {
    auto u = u0;
    try {
      propagate(u.data(), ny, nx, z, o);
      ADD_FAILURE() << names << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::invalid_argument) << e.what();
      EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << e.what();
    }
    EXPECT_EQ(u, u0) << names;
  };
  const AsmOptions good = host_asm(0.5e-6, 1e-6, 0, 2, true);
  AsmOptions o = good;
  o.wavelength = 0;
  expect_refused(o, "wavelength");
  o = good;
  o.pitch_x = -1e-6;
  expect_refused(o, "pitch_x");
  o = good;
  o.pitch_y = std::nan("");
  expect_refused(o, "pitch_y");
  o = good;
  o.index = 0;
  expect_refused(o, "index");
  o = good;
  o.pad = 3;
  expect_refused(o, "pad");
  o = good;
  o.evanescent = static_cast<Evanescent>(7);
  expect_refused(o, "evanescent");
  expect_refused(good, "distance", std::numeric_limits<double>::infinity());
  // Finite but unphysical: the phase k z cannot be held (a wavelength of
  // 1e-300 m, an index of 1e300 gave all-NaN fields).
  o = good;
  o.wavelength = 1e-300;
  expect_refused(o, "wavelength");
  o = good;
  o.index = 1e300;
  expect_refused(o, "index");
  auto stack = u0;
  EXPECT_THROW(propagate_stack(stack.data(), Shape{2, 4, 8}, std::vector<double>{1e-3, 2e-3, 3e-3}, good), Error);
  std::vector<cd> out(ny * nx);
  EXPECT_THROW(layer_sum(u0.data(), Shape{1, ny, nx}, std::vector<double>{}, out.data(), good), Error);
  EXPECT_THROW(propagate(static_cast<std::complex<double>*>(nullptr), ny, nx, 1e-3, good), Error);
}

TEST(Asm, ProgressPerPlaneAndCancel) {
  const std::size_t ny = 16, nx = 16;
  AsmOptions o = host_asm(0.5e-6, 1e-6, 0, 1, true);
  std::vector<std::size_t> done;
  o.fft.progress = [&](const Progress& p) {
    done.push_back(p.bricks_done);
    EXPECT_EQ(p.bricks_total, 4u);
  };
  const auto field = random_field(ny * nx, 9);
  std::vector<cd> volume(4 * ny * nx);
  refocus_stack(field.data(), ny, nx, std::vector<double>{1e-4, 2e-4, 3e-4, 4e-4}, volume.data(), o);
  EXPECT_EQ(done, (std::vector<std::size_t>{1, 2, 3, 4}));
  o.fft.progress = nullptr;
  o.fft.cancel = [] { return true; };
  auto u = field;
  try {
    propagate(u.data(), ny, nx, 1e-4, o);
    ADD_FAILURE() << "not cancelled";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::cancelled) << e.what();
  }
  EXPECT_EQ(u, field);
}

}  // namespace
}  // namespace oocfft::test
