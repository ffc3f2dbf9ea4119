#include "apps/spot_check.hpp"

#include <cmath>
#include <random>

namespace oocfft::apps {

namespace {
// exp(-2 pi i (k j mod n) / n) for j < n, exact integer reduction first.
std::vector<std::complex<long double>> axis_phases(std::size_t k, std::size_t n) {
  const long double two_pi = 6.283185307179586476925286766559005768L;
  std::vector<std::complex<long double>> e(n);
  for (std::size_t j = 0; j < n; ++j) {
    const long double a = two_pi * static_cast<long double>((k * j) % n) / static_cast<long double>(n);
    e[j] = {std::cos(a), -std::sin(a)};
  }
  return e;
}
}  // namespace

template <class T>
SpotCheckResult spot_check(const std::vector<std::complex<T>>& input, const std::vector<std::complex<T>>& output,
                           const Shape& shape, std::size_t bins, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  long double num = 0, den = 0;
  for (std::size_t b = 0; b < bins; ++b) {
    // Bin 0 always (the sum), then random bins.
    const std::size_t kz = b == 0 ? 0 : rng() % shape.nz;
    const std::size_t ky = b == 0 ? 0 : rng() % shape.ny;
    const std::size_t kx = b == 0 ? 0 : rng() % shape.nx;
    const auto ez = axis_phases(kz, shape.nz), ey = axis_phases(ky, shape.ny), ex = axis_phases(kx, shape.nx);
    std::complex<long double> sum = 0;
    std::size_t i = 0;
    for (std::size_t z = 0; z < shape.nz; ++z)
      for (std::size_t y = 0; y < shape.ny; ++y) {
        const std::complex<long double> ezy = ez[z] * ey[y];
        std::complex<long double> row = 0;
        for (std::size_t x = 0; x < shape.nx; ++x, ++i)
          row += std::complex<long double>(input[i].real(), input[i].imag()) * ex[x];
        sum += row * ezy;
      }
    const std::complex<T> got = output[(kz * shape.ny + ky) * shape.nx + kx];
    num += std::norm(std::complex<long double>(got.real(), got.imag()) - sum);
    den += std::norm(sum);
  }
  return {static_cast<double>(std::sqrt(num / den)), bins};
}

template SpotCheckResult spot_check<float>(const std::vector<std::complex<float>>&,
                                           const std::vector<std::complex<float>>&, const Shape&, std::size_t,
                                           std::uint64_t);
template SpotCheckResult spot_check<double>(const std::vector<std::complex<double>>&,
                                            const std::vector<std::complex<double>>&, const Shape&, std::size_t,
                                            std::uint64_t);

}  // namespace oocfft::apps
