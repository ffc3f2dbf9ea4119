#pragma once
// LinePlan<T>: everything a 1D transform of length n needs, precomputed once
// on the host and immutable: the Stockham passes with their twiddle tables,
// or Bluestein's chirp, its convolution plan and the convolution kernel's
// spectrum. The host executor and the CUDA kernels read the same plan.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "kernels/complex.hpp"
#include "kernels/line_factorization.hpp"

namespace oocfft::kernels {

// One Stockham pass (Govindaraju et al., SC08, Fig. 2): radix R, span Ns =
// product of the radices before it. Butterfly j reads points j + r*n/R,
// multiplies point r by w_{Ns R}^{(j mod Ns) r} and writes points
// (j div Ns) Ns R + (j mod Ns) + r Ns.
struct StockhamPass {
  int radix = 1;
  std::size_t span = 1;
  // twiddles[twiddle_offset + k*(radix-1) + (r-1)] = w_{span*radix}^{k*r},
  // k < span, 1 <= r < radix (forward sign; the inverse conjugates). A
  // direct prime pass (direct_prime.hpp) has w_radix^k, k < radix, next.
  std::size_t twiddle_offset = 0;
};

template <class T>
struct LinePlan {
  LineFactorization factorization;
  std::vector<StockhamPass> passes;
  std::vector<Complex<T>> twiddles;

  // Bluestein (factorization.algorithm == bluestein), after Bluestein 1970
  // and the SC08 paper, section IV-E:
  //   X_k = c_k sum_j (x_j c_j) conj(c_{k-j}),  c_j = exp(-pi i j^2 / n),
  // a circular convolution of length M >= 2n-1 done with two length-M FFTs.
  // The chirp angle comes from the exact integer j^2 mod 2n, not from j^2 in
  // floating point, which would lose all accuracy for large j.
  std::shared_ptr<const LinePlan<T>> convolution;  // Stockham plan of length M
  std::vector<Complex<T>> chirp;                   // c_j, j < n
  // FFT_M(b) / M with b_j = conj(c_|j|) for |j| < n (indices mod M), zero
  // elsewhere; computed in double and rounded to T.
  std::vector<Complex<T>> kernel_spectrum;

  std::size_t length() const { return factorization.length; }
  // "16x16x4" or "bluestein M=2187 (3^7)"
  std::string summary() const;
};

// `composites`: host_composite_radices for the host executor,
// device_composite_radices<T>() for the device kernels (radix_schedule.hpp);
// `use`: whole lines, or a Bluestein convolution (line_factorization.hpp).
template <class T>
std::shared_ptr<const LinePlan<T>> make_line_plan(std::size_t n, CompositeRadices composites,
                                                  LineUse use = LineUse::whole_line);

extern template std::shared_ptr<const LinePlan<float>> make_line_plan<float>(std::size_t, CompositeRadices, LineUse);
extern template std::shared_ptr<const LinePlan<double>> make_line_plan<double>(std::size_t, CompositeRadices, LineUse);

}  // namespace oocfft::kernels
