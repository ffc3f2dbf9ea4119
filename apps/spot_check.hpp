#pragma once
// Spot check of a 3D forward transform against the definition: a few output
// bins X[k] = sum_j x[j] exp(-2 pi i k.j / n) summed directly in long double
// (O(N) each), compared with the transform's values. Needs no FFT library,
// so the demo can check itself anywhere.
#include <complex>
#include <cstdint>
#include <vector>

#include <oocfft/shape.hpp>

namespace oocfft::apps {

struct SpotCheckResult {
  double relative_error;  // ||X_fft - X_direct|| / ||X_direct|| over the bins
  std::size_t bins;
};

template <class T>
SpotCheckResult spot_check(const std::vector<std::complex<T>>& input, const std::vector<std::complex<T>>& output,
                           const Shape& shape, std::size_t bins, std::uint64_t seed);

}  // namespace oocfft::apps
