#pragma once
// The whole real transform of one short row in registers, for the fused
// short-row kernel (real_rows_fused.cu): N reals <-> N/2 + 1 complex
// values, with compile-time N. __host__ __device__, so the host can check
// the arithmetic and the kernel runs the same code.
//   even N = 2M  the half-length complex FFT of z[p] = x[2p] + i x[2p+1]
//                and the split (Numerical Recipes, 3rd ed., section 12.3.2,
//                eq. 12.3.6-12.3.7) in registers; inverse: the merge, then
//                the inverse FFT of length M;
//   odd N        the complex FFT of length N of the reals (imaginary parts
//                0); inverse: the Hermitian extension of the half spectrum,
//                then the inverse FFT, real parts kept.
// The FFT is Stockham's self-sorting mixed-radix form (Govindaraju et al.,
// SC 2008, fig. 2) over a register array: every index is a compile-time
// constant once the loops unroll, so the "sorting" is register naming.
// Twiddles come from `tw`, w_N^j = exp(-2 pi i j / N) for j < N, exact
// from the host in long double; index 0 is the exact 1 and is skipped.
#include "kernels/butterfly.hpp"
#include "kernels/complex.hpp"

namespace oocfft::kernels::cuda {

// The radix of the next Stockham pass for a remaining length L: the
// largest in-register butterfly that divides it (16, 8, 4, 2, then the
// odd primes 3, 5, 7); 0 where L has another prime factor.
constexpr int fused_next_radix(int L) {
  constexpr int radices[] = {16, 8, 4, 2, 3, 5, 7};
  for (int r : radices)
    if (L % r == 0) return r;
  return 0;
}

// Whether a length factors into 2, 3, 5 and 7 (the fused kernel's FFTs).
constexpr bool fused_smooth(int L) {
  while (L > 1) {
    const int r = fused_next_radix(L);
    if (r == 0) return false;
    L /= r;
  }
  return true;
}

// One Stockham pass of radix R over the M values of `a`, Ls the product
// of the radices before it: for j < M/R with k = j mod Ls, the R values
// a[j + r M/R] times w_(Ls R)^(r k) go through the radix-R DFT and land at
// (j / Ls) Ls R + k + r Ls. w_L^e is tw[e N / L] (L divides N).
template <int N, int M, int Ls, bool Inverse, class T>
OOCFFT_HD void fused_pass(Complex<T>* a, const Complex<T>* tw) {
  constexpr int R = fused_next_radix(M / Ls);
  static_assert(R != 0, "fused_pass: length not 7-smooth");
  constexpr int Q = M / R;
  constexpr int L = Ls * R;
  Complex<T> b[M];
  OOCFFT_UNROLL
  for (int j = 0; j < Q; ++j) {
    const int k = j % Ls;
    Complex<T> v[R];
    OOCFFT_UNROLL
    for (int r = 0; r < R; ++r) v[r] = a[j + r * Q];
    if (k != 0) {
      OOCFFT_UNROLL
      for (int r = 1; r < R; ++r) {
        const Complex<T> w = tw[(r * k) * (N / L)];
        v[r] = v[r] * (Inverse ? conj(w) : w);
      }
    }
    radix_butterfly<R, Inverse>(v);
    const int base = (j / Ls) * L + k;
    OOCFFT_UNROLL
    for (int r = 0; r < R; ++r) b[base + r * Ls] = v[r];
  }
  OOCFFT_UNROLL
  for (int i = 0; i < M; ++i) a[i] = b[i];
  if constexpr (L < M) fused_pass<N, M, L, Inverse>(a, tw);
}

// The unnormalised DFT of length M of `a` in place (sign - forward, +
// inverse); M divides N, the length of the table `tw`.
template <int N, int M, bool Inverse, class T>
OOCFFT_HD void fused_fft(Complex<T>* a, const Complex<T>* tw) {
  if constexpr (M > 1) fused_pass<N, M, 1, Inverse>(a, tw);
}

// Forward: row[j], j < N (reals) -> row[2k], row[2k+1], k <= N/2 (the half
// spectrum, interleaved), times `scale`. `row` is read whole before any
// write.
template <int N, class T>
OOCFFT_HD void fused_row_forward(T* row, const Complex<T>* tw, T scale) {
  if constexpr (N % 2 == 0) {
    constexpr int M = N / 2;
    Complex<T> z[M];
    OOCFFT_UNROLL
    for (int p = 0; p < M; ++p) z[p] = {row[2 * p], row[2 * p + 1]};
    fused_fft<N, M, false>(z, tw);
    // X[k] = E[k] + w_N^k O[k], X[M-k] = conj(E[k] - w_N^k O[k]) with
    // E = (Z[k] + conj Z[M-k]) / 2, O = (Z[k] - conj Z[M-k]) / (2i).
    row[0] = scale * (z[0].re + z[0].im);
    row[1] = T(0);
    row[2 * M] = scale * (z[0].re - z[0].im);
    row[2 * M + 1] = T(0);
    OOCFFT_UNROLL
    for (int k = 1; 2 * k <= M; ++k) {
      const Complex<T> a = z[k], b = z[M - k];
      const Complex<T> e = {T(0.5) * (a.re + b.re), T(0.5) * (a.im - b.im)};
      const Complex<T> o = {T(0.5) * (a.im + b.im), T(0.5) * (b.re - a.re)};
      const Complex<T> wo = tw[k] * o;
      row[2 * k] = scale * (e.re + wo.re);
      row[2 * k + 1] = scale * (e.im + wo.im);
      if (2 * k != M) {
        row[2 * (M - k)] = scale * (e.re - wo.re);
        row[2 * (M - k) + 1] = scale * (wo.im - e.im);
      }
    }
  } else {
    Complex<T> z[N];
    OOCFFT_UNROLL
    for (int j = 0; j < N; ++j) z[j] = {row[j], T(0)};
    fused_fft<N, N, false>(z, tw);
    OOCFFT_UNROLL
    for (int k = 0; k <= N / 2; ++k) {
      row[2 * k] = scale * z[k].re;
      row[2 * k + 1] = k == 0 ? T(0) : scale * z[k].im;
    }
  }
}

// Inverse: the half spectrum row[2k], row[2k+1], k <= N/2 (Im X[0] and,
// for even N, Im X[N/2] ignored) -> row[j], j < N, unnormalised, times
// `scale`.
template <int N, class T>
OOCFFT_HD void fused_row_inverse(T* row, const Complex<T>* tw, T scale) {
  if constexpr (N % 2 == 0) {
    constexpr int M = N / 2;
    Complex<T> z[M];
    // The split undone, times 2: 2E = X[k] + conj X[M-k], 2O = conj(w_N^k)
    // (X[k] - conj X[M-k]), 2Z[k] = 2E + i 2O, 2Z[M-k] = conj 2E + i conj 2O.
    {
      const T x0 = row[0], xm = row[2 * M];
      z[0] = {x0 + xm, x0 - xm};
    }
    OOCFFT_UNROLL
    for (int k = 1; 2 * k <= M; ++k) {
      const Complex<T> a = {row[2 * k], row[2 * k + 1]};
      const Complex<T> b = {row[2 * (M - k)], row[2 * (M - k) + 1]};
      const Complex<T> e = {a.re + b.re, a.im - b.im};
      const Complex<T> d = {a.re - b.re, a.im + b.im};
      const Complex<T> o = conj(tw[k]) * d;
      z[k] = {e.re - o.im, e.im + o.re};
      if (2 * k != M) z[M - k] = {e.re + o.im, o.re - e.im};
    }
    fused_fft<N, M, true>(z, tw);
    OOCFFT_UNROLL
    for (int p = 0; p < M; ++p) {
      row[2 * p] = scale * z[p].re;
      row[2 * p + 1] = scale * z[p].im;
    }
  } else {
    Complex<T> z[N];
    z[0] = {row[0], T(0)};
    OOCFFT_UNROLL
    for (int k = 1; 2 * k < N; ++k) {
      z[k] = {row[2 * k], row[2 * k + 1]};
      z[N - k] = conj(z[k]);
    }
    fused_fft<N, N, true>(z, tw);
    OOCFFT_UNROLL
    for (int j = 0; j < N; ++j) row[j] = scale * z[j].re;
  }
}

}  // namespace oocfft::kernels::cuda
