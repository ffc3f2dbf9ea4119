// The elementwise kernels of DeviceRealRows (real_rows_kernels.hpp says
// what each does). Memory-bound. The split and merge: a 2D block, pairs
// along x, rows along y. The odd-length packing: the same 2D block, points
// along x, line pairs along y.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "kernels/cuda/complex_vector.cuh"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/real_rows_kernels.hpp"
#include "oocfft/error.hpp"

namespace oocfft::kernels::cuda {

namespace {

constexpr unsigned threads_per_block = 256;

template <class T>
__device__ __forceinline__ Complex<T> scaled(T s, Complex<T> a) {
  return {s * a.re, s * a.im};
}

// Complex<T> is aligned to T only; where the rows are aligned to a whole
// complex value (checked at launch), the split and merge move each one
// with a single 8- or 16-byte access instead of two.
template <bool Vector, class T>
__device__ __forceinline__ Complex<T> load(const Complex<T>* p) {
  if constexpr (Vector) {
    const auto v = *reinterpret_cast<const typename Vec2<T>::type*>(p);
    return {v.x, v.y};
  } else {
    return *p;
  }
}

template <bool Vector, class T>
__device__ __forceinline__ void store(Complex<T>* p, Complex<T> a) {
  if constexpr (Vector) {
    *reinterpret_cast<typename Vec2<T>::type*>(p) = {a.re, a.im};
  } else {
    *p = a;
  }
}

// The split and merge run on a 2D block: threadIdx.x walks the pairs k of
// one row, threadIdx.y picks the row, so no thread divides its flat index
// by the pairs per row (a 64-bit division, dozens of instructions per
// value), and a warp reads whole rows.
struct SplitShape {
  unsigned x = 32, y = 8;
};

SplitShape split_shape(std::int64_t pairs) {
  SplitShape s;
  while (s.x < threads_per_block && s.x < pairs) s.x *= 2;
  s.y = threads_per_block / s.x;
  return s;
}

unsigned split_blocks(std::int64_t count, unsigned rows_per_block) {
  const std::int64_t blocks = (count + rows_per_block - 1) / rows_per_block;
  return static_cast<unsigned>(std::clamp<std::int64_t>(blocks, 1, std::int64_t{1} << 30));
}

// The split of the half-length spectrum Z of z[p] = x[2p] + i x[2p+1] into
// the spectrum X of the real x (Numerical Recipes, 3rd ed., section 12.3.2,
// eq. 12.3.6-12.3.7; Sorensen et al., IEEE Trans. ASSP 35(6), 1987):
//   E[k] = (Z[k] + conj Z[m-k]) / 2        the even samples' spectrum
//   O[k] = (Z[k] - conj Z[m-k]) / (2i)     the odd samples' spectrum
//   X[k] = E[k] + w_n^k O[k],  X[m-k] = conj(E[k] - w_n^k O[k])
// (E and O of length m are Hermitian, and w_n^(m-k) = -conj w_n^k). The
// thread of pair k reads Z[k] and Z[m-k] and writes X[k] and X[m-k], so
// the update in place is safe; k = 0 pairs Z[0] with itself and writes
// X[0] and X[m] (the padding slot), k = m/2 (m even) is its own partner.
template <class T, bool Vector>
__global__ void real_split(Complex<T>* rows, std::int64_t count, std::int64_t pitch, std::int64_t m,
                           const Complex<T>* w, T scale) {
  const std::int64_t pairs = m / 2 + 1;
  for (std::int64_t r = std::int64_t(blockIdx.x) * blockDim.y + threadIdx.y; r < count;
       r += std::int64_t(gridDim.x) * blockDim.y) {
    Complex<T>* row = rows + r * pitch;
    for (std::int64_t k = threadIdx.x; k < pairs; k += blockDim.x) {
      if (k == 0) {
        const Complex<T> z = load<Vector>(row);
        store<Vector>(row, {scale * (z.re + z.im), T(0)});
        store<Vector>(row + m, {scale * (z.re - z.im), T(0)});
        continue;
      }
      const std::int64_t j = m - k;
      const Complex<T> a = load<Vector>(row + k);
      const Complex<T> b = load<Vector>(row + j);
      const Complex<T> e = {T(0.5) * (a.re + b.re), T(0.5) * (a.im - b.im)};  // (a + conj b) / 2
      const Complex<T> o = {T(0.5) * (a.im + b.im), T(0.5) * (b.re - a.re)};  // (a - conj b) / (2i)
      const Complex<T> wo = w[k] * o;
      store<Vector>(row + k, scaled(scale, e + wo));
      if (j != k) store<Vector>(row + j, scaled(scale, conj(e - wo)));
    }
  }
}

// The split undone, times 2 (so that the unnormalised inverse FFT of length
// m gives the unnormalised inverse of length n): 2E[k] = X[k] + conj X[m-k],
// 2O[k] = conj(w_n^k) (X[k] - conj X[m-k]), 2Z[k] = 2E[k] + i 2O[k], and
// 2Z[m-k] = conj(2E[k]) + i conj(2O[k]). k = 0 reads the real parts of X[0]
// and X[m] only (numpy's irfft drops their imaginary parts).
template <class T, bool Vector>
__global__ void real_merge(Complex<T>* rows, std::int64_t count, std::int64_t pitch, std::int64_t m,
                           const Complex<T>* w, T scale) {
  const std::int64_t pairs = m / 2 + 1;
  for (std::int64_t r = std::int64_t(blockIdx.x) * blockDim.y + threadIdx.y; r < count;
       r += std::int64_t(gridDim.x) * blockDim.y) {
    Complex<T>* row = rows + r * pitch;
    for (std::int64_t k = threadIdx.x; k < pairs; k += blockDim.x) {
      if (k == 0) {
        const T x0 = row[0].re;
        const T xm = row[m].re;
        store<Vector>(row, {scale * (x0 + xm), scale * (x0 - xm)});
        continue;
      }
      const std::int64_t j = m - k;
      const Complex<T> a = load<Vector>(row + k);
      const Complex<T> b = load<Vector>(row + j);
      const Complex<T> e = {a.re + b.re, a.im - b.im};  // a + conj b
      const Complex<T> d = {a.re - b.re, a.im + b.im};  // a - conj b
      const Complex<T> o = conj(w[k]) * d;
      store<Vector>(row + k, scaled(scale, Complex<T>{e.re - o.im, e.im + o.re}));  // e + i o
      if (j != k) store<Vector>(row + j, scaled(scale, Complex<T>{e.re + o.im, o.re - e.im}));  // conj e + i conj o
    }
  }
}

template <class T>
__global__ void real_pack_pairs(const T* data, std::int64_t count, std::int64_t pitch, std::int64_t n,
                                Complex<T>* lines) {
  const std::int64_t line_count = (count + 1) / 2;
  for (std::int64_t p = std::int64_t(blockIdx.x) * blockDim.y + threadIdx.y; p < line_count;
       p += std::int64_t(gridDim.x) * blockDim.y)
    for (std::int64_t j = threadIdx.x; j < n; j += blockDim.x) {
      const std::int64_t i = p * n + j;
      const T a = data[(2 * p) * pitch + j];
      const T b = 2 * p + 1 < count ? data[(2 * p + 1) * pitch + j] : T(0);
      lines[i] = {a, b};
    }
}

// A[k] = (Z[k] + conj Z[n-k]) / 2, B[k] = (Z[k] - conj Z[n-k]) / (2i), with
// Z[n] = Z[0]: the spectra of the real and imaginary parts of the line.
template <class T>
__global__ void real_unpack_spectra(const Complex<T>* lines, std::int64_t n, Complex<T>* rows, std::int64_t count,
                                    std::int64_t pitch, T scale) {
  const std::int64_t half = n / 2 + 1;
  const std::int64_t line_count = (count + 1) / 2;
  const T h = T(0.5) * scale;
  for (std::int64_t p = std::int64_t(blockIdx.x) * blockDim.y + threadIdx.y; p < line_count;
       p += std::int64_t(gridDim.x) * blockDim.y)
    for (std::int64_t k = threadIdx.x; k < half; k += blockDim.x) {
      const Complex<T> z = lines[p * n + k];
      const Complex<T> y = lines[p * n + (k == 0 ? 0 : n - k)];
      rows[(2 * p) * pitch + k] = {h * (z.re + y.re), h * (z.im - y.im)};
      if (2 * p + 1 < count) rows[(2 * p + 1) * pitch + k] = {h * (z.im + y.im), h * (y.re - z.re)};
    }
}

// Z[k] = A[k] + i B[k], k < n, where A[k] for k > n/2 is conj A[n-k] (n odd:
// no Nyquist term) and Im A[0], Im B[0] are dropped.
template <class T>
__global__ void real_pack_spectra(const Complex<T>* rows, std::int64_t count, std::int64_t pitch, std::int64_t n,
                                  Complex<T>* lines) {
  const std::int64_t line_count = (count + 1) / 2;
  const std::int64_t last = n / 2;
  for (std::int64_t p = std::int64_t(blockIdx.x) * blockDim.y + threadIdx.y; p < line_count;
       p += std::int64_t(gridDim.x) * blockDim.y)
    for (std::int64_t k = threadIdx.x; k < n; k += blockDim.x) {
      const std::int64_t i = p * n + k;
      const bool mirrored = k > last;
      const std::int64_t at = mirrored ? n - k : k;
      Complex<T> a = rows[(2 * p) * pitch + at];
      Complex<T> b = 2 * p + 1 < count ? rows[(2 * p + 1) * pitch + at] : Complex<T>{T(0), T(0)};
      if (k == 0) a.im = b.im = T(0);
      if (mirrored) {
        a.im = -a.im;
        b.im = -b.im;
      }
      lines[i] = {a.re - b.im, a.im + b.re};
    }
}

template <class T>
__global__ void real_unpack_pairs(const Complex<T>* lines, std::int64_t n, T* data, std::int64_t count,
                                  std::int64_t pitch, T scale) {
  const std::int64_t line_count = (count + 1) / 2;
  for (std::int64_t p = std::int64_t(blockIdx.x) * blockDim.y + threadIdx.y; p < line_count;
       p += std::int64_t(gridDim.x) * blockDim.y)
    for (std::int64_t j = threadIdx.x; j < n; j += blockDim.x) {
      const std::int64_t i = p * n + j;
      const Complex<T> z = lines[i];
      data[(2 * p) * pitch + j] = scale * z.re;
      if (2 * p + 1 < count) data[(2 * p + 1) * pitch + j] = scale * z.im;
    }
}

}  // namespace

template <class T>
void launch_real_split(Complex<T>* rows, std::int64_t count, std::int64_t pitch, std::int64_t m,
                       const Complex<T>* w, T scale, cudaStream_t stream) {
  if (count == 0) return;
  const SplitShape s = split_shape(m / 2 + 1);
  const dim3 block(s.x, s.y);
  if (reinterpret_cast<std::uintptr_t>(rows) % sizeof(Complex<T>) == 0)
    real_split<T, true><<<split_blocks(count, s.y), block, 0, stream>>>(rows, count, pitch, m, w, scale);
  else
    real_split<T, false><<<split_blocks(count, s.y), block, 0, stream>>>(rows, count, pitch, m, w, scale);
  check_launch("real_split (real rows, even length)");
}

template <class T>
void launch_real_merge(Complex<T>* rows, std::int64_t count, std::int64_t pitch, std::int64_t m,
                       const Complex<T>* w, T scale, cudaStream_t stream) {
  if (count == 0) return;
  const SplitShape s = split_shape(m / 2 + 1);
  const dim3 block(s.x, s.y);
  if (reinterpret_cast<std::uintptr_t>(rows) % sizeof(Complex<T>) == 0)
    real_merge<T, true><<<split_blocks(count, s.y), block, 0, stream>>>(rows, count, pitch, m, w, scale);
  else
    real_merge<T, false><<<split_blocks(count, s.y), block, 0, stream>>>(rows, count, pitch, m, w, scale);
  check_launch("real_merge (real rows, even length)");
}

template <class T>
void launch_real_pack_pairs(const T* data, std::int64_t count, std::int64_t pitch, std::int64_t n,
                            Complex<T>* lines, cudaStream_t stream) {
  if (count == 0) return;
  const SplitShape s = split_shape(n);
  real_pack_pairs<T><<<split_blocks((count + 1) / 2, s.y), dim3(s.x, s.y), 0, stream>>>(data, count, pitch, n, lines);
  check_launch("real_pack_pairs (real rows, odd length)");
}

template <class T>
void launch_real_unpack_spectra(const Complex<T>* lines, std::int64_t n, Complex<T>* rows, std::int64_t count,
                                std::int64_t pitch, T scale, cudaStream_t stream) {
  if (count == 0) return;
  const SplitShape s = split_shape((n / 2 + 1));
  real_unpack_spectra<T><<<split_blocks((count + 1) / 2, s.y), dim3(s.x, s.y), 0, stream>>>(
      lines, n, rows, count, pitch, scale);
  check_launch("real_unpack_spectra (real rows, odd length)");
}

template <class T>
void launch_real_pack_spectra(const Complex<T>* rows, std::int64_t count, std::int64_t pitch, std::int64_t n,
                              Complex<T>* lines, cudaStream_t stream) {
  if (count == 0) return;
  const SplitShape s = split_shape(n);
  real_pack_spectra<T><<<split_blocks((count + 1) / 2, s.y), dim3(s.x, s.y), 0, stream>>>(rows, count, pitch, n,
                                                                                          lines);
  check_launch("real_pack_spectra (real rows, odd length)");
}

template <class T>
void launch_real_unpack_pairs(const Complex<T>* lines, std::int64_t n, T* data, std::int64_t count,
                              std::int64_t pitch, T scale, cudaStream_t stream) {
  if (count == 0) return;
  const SplitShape s = split_shape(n);
  real_unpack_pairs<T><<<split_blocks((count + 1) / 2, s.y), dim3(s.x, s.y), 0, stream>>>(lines, n, data, count,
                                                                                          pitch, scale);
  check_launch("real_unpack_pairs (real rows, odd length)");
}

#define OOCFFT_REAL_ROWS_INSTANCES(T)                                                                               \
  template void launch_real_split<T>(Complex<T>*, std::int64_t, std::int64_t, std::int64_t, const Complex<T>*, T,  \
                                     cudaStream_t);                                                                \
  template void launch_real_merge<T>(Complex<T>*, std::int64_t, std::int64_t, std::int64_t, const Complex<T>*, T,  \
                                     cudaStream_t);                                                                \
  template void launch_real_pack_pairs<T>(const T*, std::int64_t, std::int64_t, std::int64_t, Complex<T>*,         \
                                          cudaStream_t);                                                           \
  template void launch_real_unpack_spectra<T>(const Complex<T>*, std::int64_t, Complex<T>*, std::int64_t,          \
                                              std::int64_t, T, cudaStream_t);                                      \
  template void launch_real_pack_spectra<T>(const Complex<T>*, std::int64_t, std::int64_t, std::int64_t,           \
                                            Complex<T>*, cudaStream_t);                                            \
  template void launch_real_unpack_pairs<T>(const Complex<T>*, std::int64_t, T*, std::int64_t, std::int64_t, T,    \
                                            cudaStream_t);
OOCFFT_REAL_ROWS_INSTANCES(float)
OOCFFT_REAL_ROWS_INSTANCES(double)
#undef OOCFFT_REAL_ROWS_INSTANCES

}  // namespace oocfft::kernels::cuda
