#pragma once
// Test references: seeded random inputs, a long-double naive DFT, FFTW's
// long-double transform, and the tolerance C * eps * sqrt(log2 N) of the
// relative L2 error (core/relative_l2.hpp; FFTW's accuracy method; docs/ARCHITECTURE.md).
#include <fftw3.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "core/relative_l2.hpp"

namespace oocfft::test {

using LongComplex = std::complex<long double>;

// Uniform values in [-0.5, 0.5), drawn as floats so the same input is exact
// in both precisions.
inline std::vector<LongComplex> random_signal(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  std::vector<LongComplex> x(n);
  for (auto& v : x) {
    const float re = u(rng);
    const float im = u(rng);
    v = {re, im};
  }
  return x;
}

template <class T>
std::vector<std::complex<T>> to_precision(const std::vector<LongComplex>& x) {
  std::vector<std::complex<T>> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = {static_cast<T>(x[i].real()), static_cast<T>(x[i].imag())};
  return y;
}

// X_k = sum_j x_j exp(sign 2 pi i jk/n), the angle reduced exactly (jk mod n).
inline std::vector<LongComplex> naive_dft(const std::vector<LongComplex>& x, int sign) {
  const std::size_t n = x.size();
  const long double pi = 3.141592653589793238462643383279502884L;
  std::vector<LongComplex> roots(n);
  for (std::size_t k = 0; k < n; ++k) {
    const long double a = 2 * pi * static_cast<long double>(k) / static_cast<long double>(n);
    roots[k] = {std::cos(a), sign * std::sin(a)};
  }
  std::vector<LongComplex> y(n);
  for (std::size_t k = 0; k < n; ++k) {
    LongComplex s = 0;
    for (std::size_t j = 0; j < n; ++j) s += x[j] * roots[(j * k) % n];
    y[k] = s;
  }
  return y;
}

// FFTW's long-double transform of a 1D or 3D array (dims in C order).
inline std::vector<LongComplex> fftwl_dft(const std::vector<LongComplex>& x, const std::vector<int>& dims,
                                          int sign) {
  std::vector<LongComplex> y(x.size());
  std::vector<LongComplex> in = x;
  fftwl_plan p = fftwl_plan_dft(static_cast<int>(dims.size()), dims.data(),
                                reinterpret_cast<fftwl_complex*>(in.data()),
                                reinterpret_cast<fftwl_complex*>(y.data()), sign, FFTW_ESTIMATE);
  fftwl_execute(p);
  fftwl_destroy_plan(p);
  return y;
}

// C * eps * sqrt(log2 N), with log2 N taken as at least 1.
template <class T>
double tolerance(double c, std::size_t n) {
  const double lg = std::max(1.0, std::log2(static_cast<double>(n)));
  return c * std::numeric_limits<T>::epsilon() * std::sqrt(lg);
}

// Fills with NaN so that an element the transform fails to write shows.
template <class T>
void poison(std::vector<std::complex<T>>& v) {
  for (auto& z : v) z = {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::quiet_NaN()};
}

}  // namespace oocfft::test
