#pragma once
// Complex<T>: the value type of every butterfly, host and device. It has the
// memory layout of std::complex<T>, float2/double2 and an h5py compound
// {r, i}: two T, real first. Headers in kernels/ compile as __host__
// __device__ so the CUDA kernels reuse the host code verbatim.
#if defined(__CUDACC__)
#define OOCFFT_HD __host__ __device__ __forceinline__
#else
#define OOCFFT_HD inline
#endif
// Full unrolling of the small fixed loops of a butterfly, on both compilers.
#if defined(__CUDACC__)
#define OOCFFT_UNROLL _Pragma("unroll")
#else
#define OOCFFT_UNROLL _Pragma("GCC unroll 16")
#endif

namespace oocfft::kernels {

template <class T>
struct Complex {
  T re;
  T im;
};

template <class T>
OOCFFT_HD Complex<T> operator+(Complex<T> a, Complex<T> b) {
  return {a.re + b.re, a.im + b.im};
}
template <class T>
OOCFFT_HD Complex<T> operator-(Complex<T> a, Complex<T> b) {
  return {a.re - b.re, a.im - b.im};
}
template <class T>
OOCFFT_HD Complex<T> operator*(Complex<T> a, Complex<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class T>
OOCFFT_HD Complex<T> operator*(T s, Complex<T> a) {
  return {s * a.re, s * a.im};
}
template <class T>
OOCFFT_HD Complex<T> conj(Complex<T> a) {
  return {a.re, -a.im};
}
// a * (-i) when Inverse is false, a * (+i) when true: the quarter turn of
// the transform's sign, exp(-+ i pi/2).
template <bool Inverse, class T>
OOCFFT_HD Complex<T> quarter_turn(Complex<T> a) {
  if constexpr (Inverse) {
    return {-a.im, a.re};
  } else {
    return {a.im, -a.re};
  }
}
// a * w for the forward sign, a * conj(w) for the inverse: twiddle tables
// hold the forward roots exp(-2 pi i k / n) only.
template <bool Inverse, class T>
OOCFFT_HD Complex<T> twiddle(Complex<T> a, Complex<T> w) {
  if constexpr (Inverse) {
    return {a.re * w.re + a.im * w.im, a.im * w.re - a.re * w.im};
  } else {
    return a * w;
  }
}

}  // namespace oocfft::kernels
