#pragma once
// The angular-spectrum transfer function H(fx, fy; z) of one padded grid
// (include/oocfft/asm.hpp states it). Evaluated per sample from (fx, fy, z)
// and never stored, in double precision throughout: the phase 2 pi z n /
// lambda reaches 1e6 radians at z = 0.1 m, where float keeps no digit of
// its fractional part. Plain inline functions on kernels::Complex, compiled
// for host and device (OOCFFT_HD), so the host filter and the CUDA kernel
// evaluate the same code.
#include <cmath>
#include <cstddef>

#include "kernels/complex.hpp"

namespace oocfft::optics {

struct TransferFunction {
  std::size_t nx = 0, ny = 0;  // the padded grid
  double pitch_x = 0, pitch_y = 0;
  double k = 0;                // n / lambda, cycles per metre
  bool band_limit = true;
  bool evanescent_decay = true;

  // numpy.fft.fftfreq(n, pitch)[i].
  OOCFFT_HD static double frequency(std::size_t i, std::size_t n, double pitch) {
    const double j = i < (n + 1) / 2 ? double(i) : double(i) - double(n);
    return j / (double(n) * pitch);
  }

  // Matsushima & Shimobaba (2009), eq. (13)-(15) with lambda/n for the
  // wavelength in the medium: |f| < k / sqrt((2 df z)^2 + 1), df = 1 / (n
  // pitch) the frequency step of the padded grid.
  OOCFFT_HD static double band_edge(double k, std::size_t n, double pitch, double z) {
    const double df = 1.0 / (double(n) * pitch);
    return k / sqrt((2 * df * z) * (2 * df * z) + 1);
  }

  // k^2 - fx^2 - fy^2, rounded the same way on the host and the device:
  // nvcc would contract it into fused multiply-adds, which round once
  // instead of three times, and a frequency on the circle fx^2 + fy^2 = k^2
  // (a grid step times an integer can land there exactly) would then fall
  // on the other side of it than on the host: propagating on one backend,
  // evanescent on the other.
  OOCFFT_HD double propagating_measure(double fx, double fy) const {
#ifdef __CUDA_ARCH__
    return __dsub_rn(__dsub_rn(__dmul_rn(k, k), __dmul_rn(fx, fx)), __dmul_rn(fy, fy));
#else
    return k * k - fx * fx - fy * fy;
#endif
  }

  OOCFFT_HD kernels::Complex<double> at(double fx, double fy, double z, double edge_x, double edge_y) const {
    if (band_limit && (fabs(fx) >= edge_x || fabs(fy) >= edge_y)) return {0, 0};
    const double w = propagating_measure(fx, fy);
    constexpr double two_pi = 6.283185307179586476925286766559;
    if (w >= 0) {
      double s = 0, c = 0;
      sincos(two_pi * z * sqrt(w), &s, &c);
      return {c, s};
    }
    if (!evanescent_decay) return {0, 0};
    return {exp(-two_pi * fabs(z) * sqrt(-w)), 0};
  }
};

}  // namespace oocfft::optics
