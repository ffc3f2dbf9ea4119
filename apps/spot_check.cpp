#include "apps/spot_check.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <cmath>
#include <random>
#include <type_traits>
#include <vector>

#include "apps/seeded_volume.hpp"
#include "core/relative_l2.hpp"

namespace oocfft::checks {

namespace {

using Wide = std::complex<long double>;

// exp(-2 pi i (k j mod n) / n) for j < n, exact integer reduction first.
std::vector<Wide> axis_phases(std::size_t k, std::size_t n) {
  const long double two_pi = 6.283185307179586476925286766559005768L;
  std::vector<Wide> e(n);
  for (std::size_t j = 0; j < n; ++j) {
    const long double a = two_pi * static_cast<long double>((k * j) % n) / static_cast<long double>(n);
    e[j] = {std::cos(a), -std::sin(a)};
  }
  return e;
}

// One bin's phases along x split into real and imaginary arrays in the row
// accumulator's type, so the row loop is plain multiply-adds (std::complex's
// operator* calls __muldc3 for its inf/nan rules and would not pipeline).
template <class Acc>
struct XPhases {
  std::vector<Acc> re, im;
};

}  // namespace

template <class T>
SpotCheckResult spot_check(const std::complex<T>* output, const Shape& shape, std::uint64_t input_seed,
                           std::size_t bins, std::uint64_t bin_seed, double scale) {
  using Acc = std::conditional_t<std::is_same_v<T, float>, double, long double>;
  struct Bin {
    std::size_t kz, ky, kx;
    std::vector<Wide> ez, ey;
    XPhases<Acc> ex;
  };
  std::mt19937_64 rng(bin_seed);
  std::vector<Bin> chosen(bins);
  for (std::size_t b = 0; b < bins; ++b) {
    Bin& bin = chosen[b];
    bin.kz = b == 0 ? 0 : rng() % shape.nz;  // bin 0 is the sum, then random bins
    bin.ky = b == 0 ? 0 : rng() % shape.ny;
    bin.kx = b == 0 ? 0 : rng() % shape.nx;
    bin.ez = axis_phases(bin.kz, shape.nz);
    bin.ey = axis_phases(bin.ky, shape.ny);
    for (const Wide& e : axis_phases(bin.kx, shape.nx)) {
      bin.ex.re.push_back(static_cast<Acc>(e.real()));
      bin.ex.im.push_back(static_cast<Acc>(e.imag()));
    }
  }

  const std::size_t nx = shape.nx;
  using Sums = std::vector<Wide>;
  const Sums direct = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, shape.nz * shape.ny), Sums(bins),
      [&](const tbb::blocked_range<std::size_t>& rows, Sums acc) {
        std::vector<Acc> re(nx), im(nx);
        for (std::size_t row = rows.begin(); row != rows.end(); ++row) {
          for (std::size_t x = 0; x < nx; ++x) {
            const std::complex<T> v = seeded_value<T>(row * nx + x, input_seed);
            re[x] = v.real();
            im[x] = v.imag();
          }
          const std::size_t z = row / shape.ny, y = row % shape.ny;
          for (std::size_t b = 0; b < bins; ++b) {
            const Bin& bin = chosen[b];
            const Acc* er = bin.ex.re.data();
            const Acc* ei = bin.ex.im.data();
            Acc sr = 0, si = 0;
            for (std::size_t x = 0; x < nx; ++x) {
              sr += re[x] * er[x] - im[x] * ei[x];
              si += re[x] * ei[x] + im[x] * er[x];
            }
            acc[b] += Wide(sr, si) * (bin.ez[z] * bin.ey[y]);
          }
        }
        return acc;
      },
      [](Sums a, const Sums& b) {
        for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
        return a;
      });

  L2Sums sums;
  for (std::size_t b = 0; b < bins; ++b) {
    const Bin& bin = chosen[b];
    sums.add(output[(bin.kz * shape.ny + bin.ky) * shape.nx + bin.kx], direct[b], static_cast<long double>(scale));
  }
  return {sums.relative(), bins};
}

template SpotCheckResult spot_check<float>(const std::complex<float>*, const Shape&, std::uint64_t, std::size_t,
                                           std::uint64_t, double);
template SpotCheckResult spot_check<double>(const std::complex<double>*, const Shape&, std::uint64_t, std::size_t,
                                            std::uint64_t, double);

}  // namespace oocfft::checks
