#include "kernels/smooth_transform.hpp"

#include <complex>
#include <cstdint>
#include <vector>

#include "kernels/roots_of_unity.hpp"

namespace oocfft::kernels {
namespace {

// Radix 4 first where it divides (fewer passes), then the primes.
std::vector<std::size_t> radices_of(std::size_t n) {
  std::vector<std::size_t> radices;
  while (n % 4 == 0) {
    radices.push_back(4);
    n /= 4;
  }
  for (std::size_t p = 2; p * p <= n; ++p) {
    while (n % p == 0) {
      radices.push_back(p);
      n /= p;
    }
  }
  if (n > 1) radices.push_back(n);
  return radices;
}

Complex<double> to_double(std::complex<long double> z) {
  return {static_cast<double>(z.real()), static_cast<double>(z.imag())};
}

}  // namespace

void smooth_forward_transform(Complex<double>* data, std::size_t n, double scale) {
  if (n == 0) return;
  const RootsOfUnity roots(n);
  std::vector<Complex<double>> a(data, data + n), b(n);
  std::size_t span = 1;  // Ns: the product of the radices before this pass
  for (const std::size_t radix : radices_of(n)) {
    // Pass with radix R and span Ns as line_plan.hpp's StockhamPass: point q
    // of butterfly j is a[j + q n/R], times w_{Ns R}^{(j mod Ns) q}; output p
    // goes to (j div Ns) Ns R + (j mod Ns) + p Ns.
    const std::size_t stride = n / radix;
    const std::size_t step = n / (span * radix);  // w_{Ns R} = w_n^step
    std::vector<Complex<double>> twiddle(span * radix), dft(radix * radix);
    for (std::size_t k = 0; k < span; ++k)
      for (std::size_t q = 0; q < radix; ++q) twiddle[k * radix + q] = to_double(roots(k * q * step));
    for (std::size_t p = 0; p < radix; ++p)
      for (std::size_t q = 0; q < radix; ++q) dft[p * radix + q] = to_double(roots((p * q % radix) * stride));
    std::vector<Complex<double>> x(radix);
    for (std::size_t j = 0; j < stride; ++j) {
      const std::size_t k = j % span;
      for (std::size_t q = 0; q < radix; ++q) x[q] = a[j + q * stride] * twiddle[k * radix + q];
      const std::size_t out = (j / span) * span * radix + k;
      for (std::size_t p = 0; p < radix; ++p) {
        Complex<double> y{0.0, 0.0};
        for (std::size_t q = 0; q < radix; ++q) y = y + x[q] * dft[p * radix + q];
        b[out + p * span] = y;
      }
    }
    a.swap(b);
    span *= radix;
  }
  for (std::size_t j = 0; j < n; ++j) data[j] = {a[j].re * scale, a[j].im * scale};
}

}  // namespace oocfft::kernels
