#pragma once
// The angular-spectrum transfer function H(fx, fy; z) of one padded grid
// (include/oocfft/asm.hpp states it). Evaluated per sample from (fx, fy, z)
// and never stored, in double precision throughout: the phase 2 pi z n /
// lambda reaches 1e6 radians at z = 0.1 m, where float keeps no digit of
// its fractional part. Plain inline functions, so the CUDA kernels can use
// the same code.
#include <cmath>
#include <complex>
#include <cstddef>
#include <numbers>

namespace oocfft::optics {

struct TransferFunction {
  std::size_t nx = 0, ny = 0;  // the padded grid
  double pitch_x = 0, pitch_y = 0;
  double k = 0;                // n / lambda, cycles per metre
  bool band_limit = true;
  bool evanescent_decay = true;

  // numpy.fft.fftfreq(n, pitch)[i].
  static double frequency(std::size_t i, std::size_t n, double pitch) {
    const double j = i < (n + 1) / 2 ? double(i) : double(i) - double(n);
    return j / (double(n) * pitch);
  }

  // Matsushima & Shimobaba (2009), eq. (13)-(15) with lambda/n for the
  // wavelength in the medium: |f| < k / sqrt((2 df z)^2 + 1), df = 1 / (n
  // pitch) the frequency step of the padded grid.
  static double band_edge(double k, std::size_t n, double pitch, double z) {
    const double df = 1.0 / (double(n) * pitch);
    return k / std::sqrt((2 * df * z) * (2 * df * z) + 1);
  }

  std::complex<double> at(double fx, double fy, double z, double edge_x, double edge_y) const {
    if (band_limit && (std::abs(fx) >= edge_x || std::abs(fy) >= edge_y)) return 0;
    const double w = k * k - fx * fx - fy * fy;
    constexpr double two_pi = 2 * std::numbers::pi;
    if (w >= 0) {
      const double phase = two_pi * z * std::sqrt(w);
      return {std::cos(phase), std::sin(phase)};
    }
    if (!evanescent_decay) return 0;
    return std::exp(-two_pi * std::abs(z) * std::sqrt(-w));
  }
};

}  // namespace oocfft::optics
