#include "apps/seeded_volume.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <cmath>
#include <utility>

namespace oocfft::checks {

template <class T>
void fill_seeded(std::complex<T>* v, std::size_t n, std::uint64_t seed) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 16), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) v[i] = seeded_value<T>(i, seed);
  });
}

template <class T>
double round_trip_error(const std::complex<T>* a, std::size_t n, std::uint64_t seed) {
  using Sums = std::pair<double, double>;  // ||a - x||^2, ||x||^2
  const Sums s = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n, 1 << 16), Sums{0, 0},
      [&](const auto& r, Sums acc) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
          const std::complex<double> x(seeded_value<T>(i, seed));
          acc.first += std::norm(std::complex<double>(a[i]) - x);
          acc.second += std::norm(x);
        }
        return acc;
      },
      [](Sums x, Sums y) { return Sums{x.first + y.first, x.second + y.second}; });
  return std::sqrt(s.first / s.second);
}

template void fill_seeded<float>(std::complex<float>*, std::size_t, std::uint64_t);
template void fill_seeded<double>(std::complex<double>*, std::size_t, std::uint64_t);
template double round_trip_error<float>(const std::complex<float>*, std::size_t, std::uint64_t);
template double round_trip_error<double>(const std::complex<double>*, std::size_t, std::uint64_t);

}  // namespace oocfft::checks
