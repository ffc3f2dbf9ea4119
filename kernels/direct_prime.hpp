#pragma once
// Direct prime passes: a Stockham pass of an odd prime radix P above 13.
// On the device the smallest (in_register_prime) run the in-register
// odd-prime butterfly (butterfly.hpp); the others, too large for registers,
// and all of them on the host, are computed a few output pairs at a time
// from the pass's input in memory (direct_prime_pairs). A prime line of P
// points is one such pass; without it, P would take Bluestein's two
// transforms of M >= 2P - 1, which carry about twice the rounding of one
// transform of P (bench/RESULTS.md, "Direct prime passes (the primes 17..89)").
// __host__ __device__: the host executor and the general tile kernel share
// the arithmetic of the passes from memory.
#include "kernels/complex.hpp"

namespace oocfft::kernels {

// The primes 17..largest_direct_prime run as direct passes; a line with a
// larger prime factor takes Bluestein (choose_line_algorithm). Bluestein's
// error was markedly higher than the direct pass's for the primes up to 89,
// and close to it from 97 on, where Bluestein also ran faster than the
// direct pass. Measured: bench/RESULTS.md, section Kernel tuning table
// (sm_90).
inline constexpr int largest_direct_prime = 89;

constexpr bool is_direct_prime(int r) {
  if (r <= 13 || r > largest_direct_prime || r % 2 == 0) return false;
  for (int d = 3; d * d <= r; d += 2)
    if (r % d == 0) return false;
  return true;
}

// The direct primes the device computes by the in-register butterfly
// (dft_odd_prime, compile-time constants) instead of from memory.
template <class T>
constexpr bool in_register_prime(int r) {
  return r == 17 || r == 19 || (sizeof(T) == 4 && (r == 23 || r == 29 || r == 31));
}

// Output pairs a call computes: each input pair it loads serves all of them
// (with one pair per call, loads and index arithmetic bounded the kernel).
// Four ran complex<float> faster than three, and three ran complex<double>
// faster than four (more registers).
template <class T>
inline constexpr int direct_prime_pairs_per_call = sizeof(T) == 4 ? 4 : 3;

// Output pairs (m, P - m), m = m0 .. m0 + G - 1 (G =
// direct_prime_pairs_per_call<T>; pairs past (P-1)/2 are computed and left to
// the caller to drop), of the DFT of P values y(0..P-1), by the pairing of
// dft_odd_prime (butterfly.hpp): with s_r = y_r + y_{P-r}, d_r = y_r - y_{P-r},
//   Y_m = y_0 + sum_r s_r cos(2 pi r m / P) -+ i sum_r d_r sin(2 pi r m / P),
// and Y_{P-m} takes the other sign. root(k) = exp(-2 pi i k / P) (forward
// sign), k < P, from the plan's table; root(0) = 1 exactly, so m = 0 gives
// Y_0, the plain sum, in both outputs. Two partial sums per output (odd and
// even r) halve the depth of the additions. The sums are in T: in double,
// complex<float> errors halved (to 0.55 eps on the host) but the kernel
// spilled registers; in T, complex<float> errors are 1.2 eps (P = 29) to
// 1.6 eps (89), below Bluestein's 2.3 to 2.6 (relative L2, seeded inputs).
template <bool Inverse, class T, class Values, class Roots>
OOCFFT_HD void direct_prime_pairs(int p, int m0, const Values& y, const Roots& root, Complex<T>* first,
                                  Complex<T>* second) {
  constexpr int G = direct_prime_pairs_per_call<T>;
  const int h = (p - 1) / 2;
  const Complex<T> y0 = y(0);
  Complex<T> a_odd[G], a_even[G], b_odd[G], b_even[G];
  int k[G];  // r (m0 + g) mod p
OOCFFT_UNROLL
  for (int g = 0; g < G; ++g) {
    a_odd[g] = {y0.re, y0.im};
    a_even[g] = b_odd[g] = b_even[g] = {T(0), T(0)};
    k[g] = 0;
  }
  const auto add = [&](int r, Complex<T>* a, Complex<T>* b) {
    const Complex<T> u = y(r), v = y(p - r);
    const Complex<T> s = {u.re + v.re, u.im + v.im};
    const Complex<T> d = {u.re - v.re, u.im - v.im};
OOCFFT_UNROLL
    for (int g = 0; g < G; ++g) {
      k[g] += m0 + g;
      if (k[g] >= p) k[g] -= p;
      const Complex<T> w = root(k[g]);
      // b holds -sum d_r sin(2 pi k / p), the sign of w's imaginary part, so
      // that every term is one multiply-add.
      a[g] = {a[g].re + w.re * s.re, a[g].im + w.re * s.im};
      b[g] = {b[g].re + w.im * d.re, b[g].im + w.im * d.im};
    }
  };
  int r = 1;
  for (; r < h; r += 2) {
    add(r, a_odd, b_odd);
    add(r + 1, a_even, b_even);
  }
  if (r == h) add(r, a_odd, b_odd);
OOCFFT_UNROLL
  for (int g = 0; g < G; ++g) {
    const Complex<T> a = a_odd[g] + a_even[g];
    // -i b for the forward sign, +i b for the inverse (b negated above).
    const Complex<T> ib = quarter_turn<Inverse>(Complex<T>{T(0), T(0)} - (b_odd[g] + b_even[g]));
    first[g] = a + ib;
    second[g] = a - ib;
  }
}

}  // namespace oocfft::kernels
