#pragma once
// Spot check of a 3D forward transform against the definition: a few output
// bins X[k] = sum_j x[j] exp(-2 pi i k.j / n) summed directly (O(N) each)
// and compared with the transform's values. Needs no FFT library, so the
// demo can check itself anywhere.
//
// The input is the seeded volume (seeded_volume.hpp), regenerated row by
// row, so no copy of it is kept. One parallel sweep over the rows (TBB)
// evaluates every bin: each row's values are generated once and its sums
// for all bins taken together, so the cost is bins x N multiply-adds spread
// over all cores and one pass over memory, not bins passes on one thread.
#include <complex>
#include <cstddef>
#include <cstdint>

#include <oocfft/shape.hpp>

namespace oocfft::checks {

struct SpotCheckResult {
  double relative_error;  // ||X_fft - X_direct|| / ||X_direct|| over the bins
  std::size_t bins;
};

// `output` is the forward transform of the volume seeded_value<T>(i,
// input_seed), scaled by `scale` (1 for norm=backward, 1/sqrt N ortho, 1/N
// forward). The bins are X[0,0,0] and then bins-1 drawn from `bin_seed`.
// Phases are long double with the angle reduced exactly (k j mod n); sums
// along a row run in double for complex64 (rounding ~1e-16 sqrt(nx), far
// below the 1e-6 being checked, and twice as fast as x87) and in long double
// for complex128; the sums over rows always in long double.
template <class T>
SpotCheckResult spot_check(const std::complex<T>* output, const Shape& shape, std::uint64_t input_seed,
                           std::size_t bins, std::uint64_t bin_seed, double scale = 1.0);

}  // namespace oocfft::checks
