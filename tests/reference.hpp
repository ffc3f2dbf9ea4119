#pragma once
// Test references: seeded random inputs, a long-double naive DFT, FFTW's
// long-double transform, and the tolerance C * eps * sqrt(log2 N) of the
// relative L2 error (core/relative_l2.hpp; FFTW's accuracy method; docs/ARCHITECTURE.md).
#include <fftw3.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/relative_l2.hpp"
#include "oocfft/shape.hpp"

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

// Real values uniform in [-0.5, 0.5), drawn as floats (exact in both
// precisions).
inline std::vector<long double> random_real_signal(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  std::vector<long double> x(n);
  for (auto& v : x) v = u(rng);
  return x;
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

// numpy's rfftn of a real array (dims in C order): FFTW's long-double
// complex transform of it, the first n/2+1 values of each line along the
// last axis.
inline std::vector<LongComplex> fftwl_rfftn(const std::vector<long double>& x, const std::vector<int>& dims) {
  const std::vector<LongComplex> full = fftwl_dft(std::vector<LongComplex>(x.begin(), x.end()), dims, FFTW_FORWARD);
  const std::size_t n = static_cast<std::size_t>(dims.back()), half = n / 2 + 1;
  std::vector<LongComplex> out;
  out.reserve(x.size() / n * half);
  for (std::size_t row = 0; row < x.size() / n; ++row)
    out.insert(out.end(), full.begin() + static_cast<std::ptrdiff_t>(row * n),
               full.begin() + static_cast<std::ptrdiff_t>(row * n + half));
  return out;
}

// scipy.fft's DCT/DST of types 2 and 3 with norm="backward", as direct
// sums in long double (scipy.fft.dct and dst, "Notes"); the angles
// pi m / (2N) are reduced exactly (m mod 4N) before the table lookup.
//   DCT-II  y[k] = 2 sum_n x[n] cos(pi k (2n+1) / 2N)
//   DCT-III y[k] = x[0] + 2 sum_{n>=1} x[n] cos(pi n (2k+1) / 2N)
//   DST-II  y[k] = 2 sum_n x[n] sin(pi (k+1)(2n+1) / 2N)
//   DST-III y[k] = (-1)^k x[N-1] + 2 sum_{n<N-1} x[n] sin(pi (n+1)(2k+1) / 2N)
enum class TrigReference { dct2, dct3, dst2, dst3 };

inline std::vector<long double> naive_trig(const std::vector<long double>& x, TrigReference kind) {
  const std::size_t n = x.size(), period = 4 * n;
  const long double pi = 3.141592653589793238462643383279502884L;
  std::vector<long double> cosine(period), sine(period);
  for (std::size_t t = 0; t < period; ++t) {
    const long double a = 2 * pi * static_cast<long double>(t) / static_cast<long double>(period);
    cosine[t] = std::cos(a);
    sine[t] = std::sin(a);
  }
  std::vector<long double> y(n);
  for (std::size_t k = 0; k < n; ++k) {
    long double s = 0;
    switch (kind) {
      case TrigReference::dct2:
        for (std::size_t j = 0; j < n; ++j) s += 2 * x[j] * cosine[(k * (2 * j + 1)) % period];
        break;
      case TrigReference::dct3:
        s = x[0];
        for (std::size_t j = 1; j < n; ++j) s += 2 * x[j] * cosine[(j * (2 * k + 1)) % period];
        break;
      case TrigReference::dst2:
        for (std::size_t j = 0; j < n; ++j) s += 2 * x[j] * sine[((k + 1) * (2 * j + 1)) % period];
        break;
      case TrigReference::dst3:
        s = (k % 2 == 0 ? 1 : -1) * x[n - 1];
        for (std::size_t j = 0; j + 1 < n; ++j) s += 2 * x[j] * sine[((j + 1) * (2 * k + 1)) % period];
        break;
    }
    y[k] = s;
  }
  return y;
}

// The same transforms by FFTW's long-double r2r kinds, whose definitions
// match scipy's unnormalised ones (REDFT10 = DCT-II, REDFT01 = DCT-III,
// RODFT10 = DST-II, RODFT01 = DST-III), for lengths where the direct sums
// are slow.
inline std::vector<long double> fftwl_trig(const std::vector<long double>& x, TrigReference kind) {
  const fftwl_r2r_kind kinds[] = {FFTW_REDFT10, FFTW_REDFT01, FFTW_RODFT10, FFTW_RODFT01};
  std::vector<long double> in = x, y(x.size());
  fftwl_plan p = fftwl_plan_r2r_1d(static_cast<int>(x.size()), in.data(), y.data(),
                                   kinds[static_cast<int>(kind)], FFTW_ESTIMATE);
  fftwl_execute(p);
  fftwl_destroy_plan(p);
  return y;
}

// numpy.fft.ifftshift or fftshift of a C-order volume of `s`: element i
// of every axis from (i + floor(n/2)) or (i + ceil(n/2)) mod n. They differ
// for odd n.
enum class NumpyShift { ifftshift, fftshift };
inline std::vector<LongComplex> numpy_shift(const std::vector<LongComplex>& x, const Shape& s,
                                            NumpyShift which) {
  const std::size_t n[3] = {s.nz, s.ny, s.nx};
  std::size_t by[3] = {};
  for (int a = 0; a < 3; ++a) by[a] = which == NumpyShift::fftshift ? n[a] - n[a] / 2 : n[a] / 2;
  std::vector<LongComplex> y(x.size());
  for (std::size_t z = 0; z < s.nz; ++z)
    for (std::size_t r = 0; r < s.ny; ++r)
      for (std::size_t c = 0; c < s.nx; ++c)
        y[(z * s.ny + r) * s.nx + c] =
            x[(((z + by[0]) % n[0]) * s.ny + (r + by[1]) % n[1]) * s.nx + (c + by[2]) % n[2]];
  return y;
}

// C * eps * sqrt(log2 N), with log2 N taken as at least 1.
template <class T>
double tolerance(double c, std::size_t n) {
  const double lg = std::max(1.0, std::log2(static_cast<double>(n)));
  return c * std::numeric_limits<T>::epsilon() * std::sqrt(lg);
}

// The largest err / (eps sqrt(log2 N)) a suite saw and where, printed once
// when it goes out of scope: how close the cases came to their tolerance.
struct WorstRatio {
  double value = 0;
  std::string where;
  void add(double err, double unit_tolerance, const std::string& what) {
    if (err / unit_tolerance > value) {
      value = err / unit_tolerance;
      where = what;
    }
  }
  ~WorstRatio() { std::printf("  worst error / (eps sqrt(log2 N)): %.3f (%s)\n", value, where.c_str()); }
};

// Fills with NaN so that an element the transform fails to write shows.
template <class T>
void poison(std::vector<std::complex<T>>& v) {
  for (auto& z : v) z = {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::quiet_NaN()};
}

}  // namespace oocfft::test
