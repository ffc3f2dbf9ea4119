#pragma once
// Exact-argument roots of unity w_n^k = exp(-2 pi i k / n), computed on the
// host in long double and cast down to the working precision. No recurrences:
// each root is either one octant-reduced sincosl or the product of two such
// roots (pocketfft's sincos_2pibyn / FFTW kernel/trig.c scheme), so the error
// of every table entry is a few long-double ulps, independent of n.
#include <complex>
#include <cstdint>
#include <vector>

namespace oocfft::kernels {

// exp(-2 pi i k / n) with the angle reduced to [0, pi/4] in exact integer
// arithmetic before calling cosl/sinl. Requires n >= 1 and n < 2^60.
std::complex<long double> unit_root(std::uint64_t k, std::uint64_t n);

// All n roots exp(-2 pi i k / n), k in [0, n), from two tables of about
// sqrt(n) exact roots each: w^k = w^(k mod m) * w^(m * (k div m)).
class RootsOfUnity {
 public:
  explicit RootsOfUnity(std::uint64_t n);
  std::uint64_t size() const { return n_; }
  // exp(-2 pi i k / n) for any k (reduced mod n).
  std::complex<long double> operator()(std::uint64_t k) const;

 private:
  std::uint64_t n_;
  std::uint64_t fine_count_;
  std::vector<std::complex<long double>> fine_;    // w^j, j < fine_count_
  std::vector<std::complex<long double>> coarse_;  // w^(fine_count_ * j)
};

}  // namespace oocfft::kernels
