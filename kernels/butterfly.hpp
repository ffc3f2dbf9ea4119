#pragma once
// Radix butterflies: an in-register DFT of R values, v[k] <- sum_j v[j]
// exp(-+2 pi i j k / R), for R in {2, 4, 8, 16}, the odd primes
// {3, 5, 7, 11, 13}, the composites 9 = 3 x 3, 6 = 2 x 3, 10 = 2 x 5,
// 14 = 2 x 7, 15 = 3 x 5, and 25 = 5 x 5 and 27 = 3 x 9 (device schedules
// only), and on the device the direct primes 17..31 where in_register_prime
// (direct_prime.hpp) takes them in registers.
// Forward (Inverse = false) uses the minus sign.
// __host__ __device__: the host executor and the CUDA kernels share them.
#include "kernels/complex.hpp"
#include "kernels/radix_constants.hpp"

namespace oocfft::kernels {

// The radices of radix_schedule (radix_schedule.hpp). Keep in step with
// radix_butterfly. The direct primes (direct_prime.hpp) come on top.
inline constexpr int supported_radices[] = {16, 8, 4, 2, 9, 3, 5, 7, 11, 13, 6, 10, 14, 15, 25, 27};

template <bool Inverse, class T>
OOCFFT_HD void dft2(Complex<T>& a, Complex<T>& b) {
  const Complex<T> t = a;
  a = t + b;
  b = t - b;
}

template <bool Inverse, class T>
OOCFFT_HD void dft4(Complex<T>* v) {
  const Complex<T> t0 = v[0] + v[2];
  const Complex<T> t1 = v[0] - v[2];
  const Complex<T> t2 = v[1] + v[3];
  const Complex<T> t3 = quarter_turn<Inverse>(v[1] - v[3]);
  v[0] = t0 + t2;
  v[2] = t0 - t2;
  v[1] = t1 + t3;
  v[3] = t1 - t3;
}

// exp(-+ 2 pi i k / 8) * a for k = 1, 2, 3, with exact constants.
template <bool Inverse, int K, class T>
OOCFFT_HD Complex<T> rotate_eighth(Complex<T> a) {
  const T h = static_cast<T>(sqrt_half);
  if constexpr (K == 0) {
    return a;
  } else if constexpr (K == 2) {
    return quarter_turn<Inverse>(a);
  } else if constexpr (K == 1) {
    // (1 -+ i)/sqrt2 * a
    const Complex<T> q = quarter_turn<Inverse>(a);
    return {h * (a.re + q.re), h * (a.im + q.im)};
  } else {
    // (-1 -+ i)/sqrt2 * a
    const Complex<T> q = quarter_turn<Inverse>(a);
    return {h * (q.re - a.re), h * (q.im - a.im)};
  }
}

template <bool Inverse, class T>
OOCFFT_HD void dft8(Complex<T>* v) {
  // Radix-2 decimation in time: two DFT4s on the even and odd samples.
  Complex<T> e[4] = {v[0], v[2], v[4], v[6]};
  Complex<T> o[4] = {v[1], v[3], v[5], v[7]};
  dft4<Inverse>(e);
  dft4<Inverse>(o);
  o[1] = rotate_eighth<Inverse, 1>(o[1]);
  o[2] = rotate_eighth<Inverse, 2>(o[2]);
  o[3] = rotate_eighth<Inverse, 3>(o[3]);
OOCFFT_UNROLL
  for (int k = 0; k < 4; ++k) {
    v[k] = e[k] + o[k];
    v[k + 4] = e[k] - o[k];
  }
}

// exp(-+ 2 pi i k / 16) for k = 0..7 as (cos, sin) pairs, exact constants.
template <class T>
OOCFFT_HD Complex<T> root16(int k) {
  const T c1 = static_cast<T>(cos_pi_8), s1 = static_cast<T>(sin_pi_8);
  const T h = static_cast<T>(sqrt_half);
  const Complex<T> table[8] = {{T(1), T(0)}, {c1, s1}, {h, h},   {s1, c1},
                               {T(0), T(1)}, {-s1, c1}, {-h, h}, {-c1, s1}};
  return table[k];  // (cos(2 pi k/16), sin(2 pi k/16))
}

template <bool Inverse, class T>
OOCFFT_HD void dft16(Complex<T>* v) {
  Complex<T> e[8], o[8];
OOCFFT_UNROLL
  for (int k = 0; k < 8; ++k) {
    e[k] = v[2 * k];
    o[k] = v[2 * k + 1];
  }
  dft8<Inverse>(e);
  dft8<Inverse>(o);
OOCFFT_UNROLL
  for (int k = 1; k < 8; ++k) {
    const Complex<T> cs = root16<T>(k);
    // exp(-+ i theta) = cos -+ i sin
    const Complex<T> w = {cs.re, Inverse ? cs.im : -cs.im};
    o[k] = o[k] * w;
  }
OOCFFT_UNROLL
  for (int k = 0; k < 8; ++k) {
    v[k] = e[k] + o[k];
    v[k + 8] = e[k] - o[k];
  }
}

// Odd prime P: pair v[j] with v[P-j]. With s_j = v_j + v_{P-j} and
// d_j = v_j - v_{P-j}, y_k = v_0 + sum_j s_j cos(2pi jk/P) -+ i sum_j d_j
// sin(2pi jk/P), and y_{P-k} takes the other sign: about P^2/2 real
// multiplies instead of P^2 complex ones.
template <int P, bool Inverse, class T>
OOCFFT_HD void dft_odd_prime(Complex<T>* v) {
  using C = RadixConstants<P>;
  constexpr int H = (P - 1) / 2;
  Complex<T> s[H], d[H];
OOCFFT_UNROLL
  for (int j = 1; j <= H; ++j) {
    s[j - 1] = v[j] + v[P - j];
    d[j - 1] = v[j] - v[P - j];
  }
  Complex<T> y0 = v[0];
OOCFFT_UNROLL
  for (int j = 0; j < H; ++j) y0 = y0 + s[j];
  Complex<T> out[P];
OOCFFT_UNROLL
  for (int k = 1; k <= H; ++k) {
    Complex<T> a = v[0];
    Complex<T> b = {T(0), T(0)};
OOCFFT_UNROLL
    for (int j = 1; j <= H; ++j) {
      const int m = (j * k) % P;
      const T c = static_cast<T>(C::cos(m));
      const T sn = static_cast<T>(C::sin(m));
      a = {a.re + c * s[j - 1].re, a.im + c * s[j - 1].im};
      b = {b.re + sn * d[j - 1].re, b.im + sn * d[j - 1].im};
    }
    // -i*b for the forward sign, +i*b for the inverse.
    const Complex<T> ib = quarter_turn<Inverse>(b);
    out[k] = a + ib;
    out[P - k] = a - ib;
  }
  v[0] = y0;
OOCFFT_UNROLL
  for (int k = 1; k < P; ++k) v[k] = out[k];
}

template <int R, bool Inverse, class T>
OOCFFT_HD void radix_butterfly(Complex<T>* v);

// The first factor A of a composite radix R = A x B (dft_composite below):
// 3 for 9, 15 and 27, 2 for 6, 10 and 14, 5 for 25; 0 where R is not a
// composite. One place for the factors, read by the butterfly and by the
// cost model (line_factorization.cpp).
constexpr int composite_factor(int r) {
  return r == 9 || r == 15 || r == 27 ? 3 : r == 6 || r == 10 || r == 14 ? 2 : r == 25 ? 5 : 0;
}

// R = A B by one Cooley-Tukey step (decimation in time): with n = B n1 + n2
// and k = k1 + A k2, X[k1 + A k2] = sum_n2 W_B^(n2 k2) W_R^(n2 k1)
// sum_n1 x[B n1 + n2] W_A^(n1 k1): B DFTs of A values, the internal twiddles
// W_R^(n2 k1) (exact constants), then A DFTs of B values. A radix-9 pass
// costs one trip through memory where two radix-3 passes cost two
// (radix_schedule says where the composites go).
template <int A, int B, bool Inverse, class T>
OOCFFT_HD void dft_composite(Complex<T>* v) {
  constexpr int R = A * B;
  using C = RadixConstants<R>;
  Complex<T> y[R];  // y[n2 A + k1]
OOCFFT_UNROLL
  for (int n2 = 0; n2 < B; ++n2) {
    Complex<T> a[A];
OOCFFT_UNROLL
    for (int n1 = 0; n1 < A; ++n1) a[n1] = v[B * n1 + n2];
    radix_butterfly<A, Inverse>(a);
OOCFFT_UNROLL
    for (int k1 = 0; k1 < A; ++k1) {
      const int m = (n2 * k1) % R;
      if (m == 0) {
        y[n2 * A + k1] = a[k1];
      } else {
        // exp(-+ 2 pi i m / R) = cos -+ i sin
        const T c = static_cast<T>(C::cos(m));
        const T s = static_cast<T>(Inverse ? C::sin(m) : -C::sin(m));
        y[n2 * A + k1] = a[k1] * Complex<T>{c, s};
      }
    }
  }
OOCFFT_UNROLL
  for (int k1 = 0; k1 < A; ++k1) {
    Complex<T> b[B];
OOCFFT_UNROLL
    for (int n2 = 0; n2 < B; ++n2) b[n2] = y[n2 * A + k1];
    radix_butterfly<B, Inverse>(b);
OOCFFT_UNROLL
    for (int k2 = 0; k2 < B; ++k2) v[k1 + A * k2] = b[k2];
  }
}

// The DFT of R values in place.
template <int R, bool Inverse, class T>
OOCFFT_HD void radix_butterfly(Complex<T>* v) {
  if constexpr (R == 1) {
    (void)v;
  } else if constexpr (R == 2) {
    dft2<Inverse>(v[0], v[1]);
  } else if constexpr (R == 4) {
    dft4<Inverse>(v);
  } else if constexpr (R == 8) {
    dft8<Inverse>(v);
  } else if constexpr (R == 16) {
    dft16<Inverse>(v);
  } else if constexpr (composite_factor(R) != 0) {
    dft_composite<composite_factor(R), R / composite_factor(R), Inverse>(v);
  } else {
    static_assert(R == 3 || R == 5 || R == 7 || R == 11 || R == 13 || R == 17 || R == 19 || R == 23 || R == 29 ||
                      R == 31,
                  "unsupported radix");
    dft_odd_prime<R, Inverse>(v);
  }
}

}  // namespace oocfft::kernels
