#pragma once
// Radix butterflies: an in-register DFT of R values, v[k] <- sum_j v[j]
// exp(-+2 pi i j k / R), for R in {2, 4, 8, 16} and the odd primes
// {3, 5, 7, 11, 13}. Forward (Inverse = false) uses the minus sign.
// __host__ __device__: the host executor and the CUDA kernels share them.
#include "kernels/complex.hpp"
#include "kernels/odd_radix_constants.hpp"

namespace oocfft::kernels {

// The radices a Stockham pass can use. Keep in step with radix_butterfly.
inline constexpr int supported_radices[] = {16, 8, 4, 2, 3, 5, 7, 11, 13};

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
  using C = OddRadixConstants<P>;
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
  } else {
    static_assert(R == 3 || R == 5 || R == 7 || R == 11 || R == 13, "unsupported radix");
    dft_odd_prime<R, Inverse>(v);
  }
}

}  // namespace oocfft::kernels
