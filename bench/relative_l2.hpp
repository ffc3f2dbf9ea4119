#pragma once
// The benchmarks' error measure: ||a - b|| / ||b|| over complex64 arrays,
// summed in double in parallel (arrays of gigabytes).
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <cmath>
#include <complex>
#include <cstddef>
#include <utility>

namespace oocfft::bench {

inline double relative_l2(const std::complex<float>* a, const std::complex<float>* b, std::size_t n) {
  using Sums = std::pair<double, double>;
  const Sums s = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n, 1 << 16), Sums{0, 0},
      [&](const tbb::blocked_range<std::size_t>& r, Sums acc) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
          acc.first += std::norm(std::complex<double>(a[i]) - std::complex<double>(b[i]));
          acc.second += std::norm(std::complex<double>(b[i]));
        }
        return acc;
      },
      [](Sums x, Sums y) { return Sums{x.first + y.first, x.second + y.second}; });
  return s.second > 0 ? std::sqrt(s.first / s.second) : std::sqrt(s.first);
}

}  // namespace oocfft::bench
