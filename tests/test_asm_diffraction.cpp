// Angular-spectrum propagation (include/oocfft/asm.hpp) against known
// diffraction answers: a square aperture in the Fresnel regime against the
// Fresnel-integral solution, and the band limit of Matsushima & Shimobaba
// (2009) against a well-sampled reference where the transfer function is
// undersampled. Host backend (runs in CI).
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <numbers>
#include <vector>

#include "tests/engine_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

using cd = std::complex<double>;
using LongComplex = std::complex<long double>;

AsmOptions host_asm(double wavelength, double pitch, bool band_limit) {
  AsmOptions o;
  o.wavelength = wavelength;
  o.pitch_x = pitch;
  o.pad = 2;
  o.band_limit = band_limit;
  o.fft.backend = Backend::host;
  return o;
}

// Nodes and weights of n-point Gauss-Legendre quadrature on [-1, 1]: Newton
// on the three-term Legendre recurrence from the guesses cos(pi (i + 3/4) /
// (n + 1/2)) (Numerical Recipes, 3rd ed., sec. 4.6.1, gauleg), in long
// double.
struct GaussLegendre {
  std::vector<long double> node, weight;
  explicit GaussLegendre(int n) : node(n), weight(n) {
    const long double pi_l = std::numbers::pi_v<long double>;
    for (int i = 0; i < n; ++i) {
      long double x = std::cos(pi_l * (i + 0.75L) / (n + 0.5L)), derivative = 0;
      for (int iteration = 0; iteration < 100; ++iteration) {
        long double p0 = 1, p1 = 0;
        for (int j = 1; j <= n; ++j) {
          const long double p2 = p1;
          p1 = p0;
          p0 = ((2 * j - 1) * x * p1 - (j - 1) * p2) / j;
        }
        derivative = n * (x * p0 - p1) / (x * x - 1);
        const long double step = p0 / derivative;
        x -= step;
        if (std::abs(step) < 1e-19L) break;
      }
      node[i] = x;
      weight[i] = 2 / ((1 - x * x) * derivative * derivative);
    }
  }
};

// C(u) + i S(u) = integral_0^u exp(i pi t^2 / 2) dt (DLMF 7.2.7, 7.2.8), by
// 16-point Gauss-Legendre on panels of width <= 1/4. On a panel the phase
// pi t^2 / 2 turns by at most pi |u| / 4 radians, so for |u| < 10 the rule's
// remainder, ~ (n!)^4 / ((2n+1) (2n)!^3) (h pi |u|)^(2n) h, is below 1e-25:
// the result is exact to long-double rounding (checked against DLMF values
// in FresnelIntegralsMatchTabulatedValues).
LongComplex fresnel_integral(long double u) {
  static const GaussLegendre rule(16);
  const int panels = std::max(1, static_cast<int>(std::ceil(std::abs(u) * 4)));
  const long double h = u / panels;
  const long double half_pi = std::numbers::pi_v<long double> / 2;
  LongComplex sum = 0;
  for (int p = 0; p < panels; ++p) {
    const long double mid = (p + 0.5L) * h;
    for (std::size_t i = 0; i < rule.node.size(); ++i) {
      const long double t = mid + 0.5L * h * rule.node[i];
      sum += rule.weight[i] * LongComplex(std::cos(half_pi * t * t), std::sin(half_pi * t * t));
    }
  }
  return sum * (0.5L * h);
}

// Values to 16 digits from mpmath's fresnelc / fresnels (DLMF 7.2(iii)).
TEST(AsmDiffraction, FresnelIntegralsMatchTabulatedValues) {
  struct Tabulated {
    long double u, c, s;
  };
  for (const Tabulated& t : {Tabulated{0.5L, 0.4923442258714463929L, 0.0647324328599992776L},
                             Tabulated{1.0L, 0.7798934003768228295L, 0.4382591473903547661L},
                             Tabulated{2.0L, 0.4882534060753407545L, 0.3434156783636982422L},
                             Tabulated{3.5L, 0.5325724350280008453L, 0.4152480119724375239L},
                             Tabulated{6.0L, 0.4995314678555011202L, 0.4469607612369302776L},
                             Tabulated{10.0L, 0.4998986942055157236L, 0.4681699785848822404L}}) {
    for (long double sign : {1.0L, -1.0L}) {  // C and S are odd
      const LongComplex f = fresnel_integral(sign * t.u);
      EXPECT_NEAR(static_cast<double>(f.real()), static_cast<double>(sign * t.c), 1e-15) << "C(" << sign * t.u << ")";
      EXPECT_NEAR(static_cast<double>(f.imag()), static_cast<double>(sign * t.s), 1e-15) << "S(" << sign * t.u << ")";
    }
  }
}

// The Fresnel diffraction of the slit |x'| < a along one axis (Goodman,
// Introduction to Fourier Optics, 3rd ed., sec. 4.5.1, the rectangular
// aperture):
// integral_{-a}^{a} exp(i pi (x - x')^2 / (lambda z)) dx' = sqrt(lambda z /
// 2) [ (C(t1) - C(t0)) + i (S(t1) - S(t0)) ], t0,1 = sqrt(2 / (lambda z))
// (-+a - x). The kernel's sign is that of H = exp(+i 2 pi z sqrt(k^2 -
// f^2)): expanded to second order, H = exp(i k z) exp(-i pi lambda z f^2),
// whose inverse transform is exp(i k z) / (i lambda z) exp(+i pi x^2 /
// (lambda z)).
LongComplex slit_factor(long double x, long double a, long double wavelength, long double z) {
  const long double scale = std::sqrt(2 / (wavelength * z));
  return fresnel_integral(scale * (a - x)) - fresnel_integral(scale * (-a - x));
}

// A centred square aperture |x|, |y| < a of unit amplitude on an n x n
// grid, sample j at (j - n/2) pitch. With a = (m + 1/2) pitch the edges fall
// midway between samples: the aperture is 2m + 1 ones, and its discrete
// spectrum is the rectangle's times (pi f pitch) / sin(pi f pitch).
double sample_position(std::size_t j, std::size_t n, double pitch) {
  return (static_cast<double>(j) - static_cast<double>(n / 2)) * pitch;
}

std::vector<cd> square_aperture(std::size_t n, double pitch, double a) {
  std::vector<cd> field(n * n);
  for (std::size_t y = 0; y < n; ++y)
    for (std::size_t x = 0; x < n; ++x)
      if (std::abs(sample_position(x, n, pitch)) < a && std::abs(sample_position(y, n, pitch)) < a)
        field[y * n + x] = 1.0;
  return field;
}

// A square aperture of side 2a at Fresnel number a^2 / (lambda z) = 3:
// U(x, y) = exp(i k z) / (2i) F(x) F(y), F = slit_factor: the 1 / (i lambda
// z) of the Fresnel integral (Goodman sec. 4.2) times sqrt(lambda z / 2)
// per axis.
// Pad 2 places the field centred in the padded window and crops the same
// samples back, so the output is on the input's coordinates.
TEST(AsmDiffraction, SquareApertureMatchesTheFresnelIntegrals) {
  const std::size_t n = 1024;
  const double lambda = 0.5e-6, pitch = 5e-6;
  const double a = 100.5 * pitch;  // 0.5 mm, 201 samples across
  const double fresnel_number = 3;
  const double z = a * a / (fresnel_number * lambda);  // 0.168 m
  auto field = square_aperture(n, pitch, a);
  propagate(field.data(), n, n, z, host_asm(lambda, pitch, true));

  // The reference is separable: one slit factor per column and per row.
  std::vector<LongComplex> factor(n);
  for (std::size_t j = 0; j < n; ++j) factor[j] = slit_factor(sample_position(j, n, pitch), a, lambda, z);
  // exp(i k z), k z = 2 pi z / lambda ~ 2e6 radians, reduced to one turn in
  // long double before the cosine.
  const long double turns = static_cast<long double>(z) / lambda;
  const long double phase = 2 * std::numbers::pi_v<long double> * (turns - std::floor(turns));
  const LongComplex prefactor = std::polar(1.0L, phase) / LongComplex(0, 2);

  // Compared on |x|, |y| < 1.5 a, relative to max |U| there (1.52). The
  // error budget, each term measured by changing only its parameter:
  // - The band limit cuts H at f_e = 1 / (lambda sqrt((2 df z)^2 + 1)) ~ 61
  //   cycles/mm, which truncates the kernel at |x - x'| ~ n pitch = 5.1 mm
  //   (no part of the aperture is that far from the region). The sharp cut
  //   leaves an endpoint ripple: per axis, 2 |A(f_e)| / |dphi/df| = 2 / (2
  //   pi^2 f_e (n pitch - 1.5 a)) = 3.8e-4 of the slit factor F / sqrt(2i)
  //   (max 1.23), so 2 * 3.8e-4 * 1.23 / 1.52 = 6.2e-4 of max |U|. It
  //   dominates: the error is 3.8e-3 at n = 512, 1.0e-3 at 768, 6.6e-4 at
  //   1024.
  // - Fresnel (paraxial) approximation: the dropped phase k d^4 / (8 z^3),
  //   d <= 2.5 a the distance to the far edge, is <= 8e-4 radians, on edge
  //   waves of relative amplitude <= 1 / (pi u) ~ 0.05: ~4e-5. Halving lambda
  //   at the same Fresnel number (z doubles, the term falls 4x) moves the
  //   error by 2%.
  // - Sampling: edges midway between samples; halving the pitch (n = 2048,
  //   a = 200.5 pitch, the same window) moves the error by 1%. With a = 100
  //   pitch instead, |x| < a drops the edge samples: the sampled aperture is
  //   199 pitches wide against the reference's 200, and the error is 2.8e-2.
  // Measured 6.6e-4; the tolerance, 2e-3, is three times that. A reference
  // at 1.05 z (a 5% error in the Fresnel number) is off by 0.13.
  double max_error = 0, max_reference = 0;
  for (std::size_t y = 0; y < n; ++y)
    for (std::size_t x = 0; x < n; ++x) {
      if (std::abs(sample_position(x, n, pitch)) >= 1.5 * a || std::abs(sample_position(y, n, pitch)) >= 1.5 * a)
        continue;
      const LongComplex r = prefactor * factor[y] * factor[x];
      const cd reference(static_cast<double>(r.real()), static_cast<double>(r.imag()));
      max_error = std::max(max_error, std::abs(field[y * n + x] - reference));
      max_reference = std::max(max_reference, std::abs(reference));
    }
  EXPECT_LT(max_error / max_reference, 2e-3) << "max |U| " << max_reference;
}

// Beyond z_limit the transfer function is undersampled on the padded grid:
// the local frequency of H's phase, z lambda f / sqrt(1 - (lambda f)^2),
// passes 1 / (2 df) below the Nyquist frequency, and the aliased part of H
// wraps the kernel around the padded window (Matsushima & Shimobaba, Opt.
// Express 17, 19662 (2009)). H is sampled up to the Nyquist frequency 1 /
// (2 pitch) while z <= z_limit = (S / 2) sqrt((2 pitch / lambda)^2 - 1), S
// = 2 n pitch the padded window. The reference is the same aperture on a
// grid four times wider (padded to 8n): z = 4 z_limit is that grid's own
// z_limit, so there H is sampled up to the Nyquist frequency and the band
// limit cuts nothing, and its kernel reaches 4n pitch, far beyond every
// path from the aperture to the small window. Doubling it again to 8n
// moves the errors below by 0.5% at most.
TEST(AsmDiffraction, BandLimitRemovesAliasingAtLongDistances) {
  const std::size_t n = 128, wide = 4 * n;
  const double lambda = 0.5e-6, pitch = 4e-6;
  const double a = 20.5 * pitch;  // 82 um, 41 samples across
  const double padded_window = 2 * n * pitch;
  const double z_limit = padded_window / 2 * std::sqrt((2 * pitch / lambda) * (2 * pitch / lambda) - 1);  // 8.2 mm
  const double z = 4 * z_limit;  // Fresnel number 0.41
  // The band limit does cut here, well below the Nyquist frequency.
  const double df = 1 / padded_window;
  const double band_edge = 1 / (lambda * std::sqrt((2 * df * z) * (2 * df * z) + 1));
  ASSERT_LT(band_edge, 0.3 / pitch);

  auto reference = square_aperture(wide, pitch, a);
  propagate(reference.data(), wide, wide, z, host_asm(lambda, pitch, true));
  std::vector<cd> window(n * n);
  const std::size_t offset = wide / 2 - n / 2;  // the small grid's samples
  for (std::size_t y = 0; y < n; ++y)
    for (std::size_t x = 0; x < n; ++x) window[y * n + x] = reference[(y + offset) * wide + x + offset];

  const auto aperture = square_aperture(n, pitch, a);
  auto limited = aperture, aliased = aperture;
  propagate(limited.data(), n, n, z, host_asm(lambda, pitch, true));
  propagate(aliased.data(), n, n, z, host_asm(lambda, pitch, false));
  const double limited_error = relative_l2(limited, window), aliased_error = relative_l2(aliased, window);
  // Without the limit, the aperture's spectrum above f_e (31 cycles/mm),
  // per axis ~ 1 / (2 pi^2 a f_e) = 2.0% of its energy and 4% in 2D, wraps
  // anywhere in the padded window, a quarter of whose area is the output
  // window, which holds 93% of the reference's energy: an error of ~
  // sqrt(0.04 / 4 / 0.93) = 0.10. Measured 0.129.
  EXPECT_GT(aliased_error, 0.08);
  // With it, what is left is the ripple of the sharp cut at f_e (the
  // kernel truncated at n pitch, an edge that rings): measured 1.3e-2, and
  // between 0.7% and 3% for z from 2 to 6 z_limit and a from 10 to 30
  // pitches.
  EXPECT_LT(limited_error, 3e-2);
  EXPECT_GT(aliased_error, 5 * limited_error);
}

}  // namespace
}  // namespace oocfft::test
