#pragma once
// The direct short-row kernel of DeviceRealRows (real_rows_kernels.hpp,
// launch_real_rows_direct): rows staged in shared memory
// (real_rows_staging.cuh), each thread transforms its row by the direct
// real DFT in registers: for these n fewer operations than a half-length
// FFT and split spend on index arithmetic and passes. Included by
// real_rows_direct_{float,double}.cu, which instantiate every n up to
// real_rows_direct_max. The tile is loaded through registers
// (staging::copy_rows): for these short rows faster than the asynchronous
// copies the fused kernel takes.
//
// The roots w_n^j = exp(-2 pi i j / n), j < n, travel as a kernel argument
// (DirectRoots): the products read them as constant operands, with no
// load. The twiddle of j k is w[(j k) mod n], with the exact values 1, -1,
// -i, i where j k mod n is 0, n/2, n/4, 3n/4. x[j] and x[n-j] share their
// twiddle's real part and negate its imaginary part: the forward sums
// x[j] + x[n-j] and x[j] - x[n-j] once (half the products), and the
// inverse makes x[j] and x[n-j] from the same two sums.
#include <algorithm>
#include <cstdint>
#include <utility>

#include "kernels/cuda/real_rows_kernels.hpp"
#include "kernels/cuda/real_rows_staging.cuh"

namespace oocfft::kernels::cuda {

namespace direct_detail {

template <int N, class T>
__device__ __forceinline__ Complex<T> root(const DirectRoots<T, N>& roots, int idx) {
  if (idx == 0) return {T(1), T(0)};
  if (N % 2 == 0 && idx == N / 2) return {T(-1), T(0)};
  if (N % 4 == 0 && idx == N / 4) return {T(0), T(-1)};
  if (N % 4 == 0 && idx == 3 * N / 4) return {T(0), T(1)};
  return roots.w[idx];
}

// Forward: row[0..N) reals -> row[0..2H) the half spectrum, times scale.
template <class T, int N>
__device__ __forceinline__ void forward(T* row, const DirectRoots<T, N>& roots, T scale) {
  constexpr int H = N / 2 + 1;
  constexpr int P = (N - 1) / 2;  // the pairs j, n - j with 0 < j < n - j
  T sum[P + 1], diff[P + 1];
  const T x0 = row[0];
  const T middle = N % 2 == 0 ? row[N / 2] : T(0);
#pragma unroll
  for (int j = 1; j <= P; ++j) {
    sum[j] = row[j] + row[N - j];
    diff[j] = row[j] - row[N - j];
  }
#pragma unroll
  for (int k = 0; k < H; ++k) {
    T re = x0, im = 0;
    if constexpr (N % 2 == 0) re += k % 2 == 0 ? middle : -middle;
#pragma unroll
    for (int j = 1; j <= P; ++j) {
      const Complex<T> t = root<N>(roots, (j * k) % N);
      re += sum[j] * t.re;
      im += diff[j] * t.im;
    }
    row[2 * k] = scale * re;
    row[2 * k + 1] = scale * im;
  }
}

// Inverse: row[0..2H) a half spectrum -> row[0..N) reals, unnormalised,
// times scale; Im X[0] and Im X[N/2] ignored:
// x[j] = X[0] + (-1)^j X[n/2] (n even) + 2 sum_{0<k<n/2} Re(X[k] conj w^(jk)).
// With one such k (n = 3, 4) x[j] and x[n-j] take their two products onto
// the edge terms by fused multiply-adds (2 w is exact): two roundings, where
// summing the shared parts first took three and left the float error of
// n = 3 1.5x cuFFT's. For longer rows that form measured less accurate
// (f32 12 1.1 -> 1.6x, f64 8 1.0 -> 1.6x cuFFT's error) and at f32 10
// slower (0.91 -> 0.87x cuFFT's speed; one H200).
template <class T, int N>
__device__ __forceinline__ void inverse(T* row, const DirectRoots<T, N>& roots, T scale) {
  constexpr int H = N / 2 + 1;
  constexpr int K = (N - 1) / 2;  // the k with 0 < k < n/2
  T a[H], b[H];
#pragma unroll
  for (int k = 0; k < H; ++k) {
    a[k] = row[2 * k];
    b[k] = row[2 * k + 1];
  }
#pragma unroll
  for (int j = 0; 2 * j <= N; ++j) {
    T edge = a[0];
    if constexpr (N % 2 == 0) edge += j % 2 == 0 ? a[N / 2] : -a[N / 2];
    if constexpr (K == 1) {
      const Complex<T> t = root<N>(roots, j % N);
      const T c = 2 * t.re, s = 2 * t.im;
      row[j] = scale * fma(s, b[1], fma(c, a[1], edge));
      if (j != 0 && 2 * j != N) row[N - j] = scale * fma(-s, b[1], fma(c, a[1], edge));
      continue;
    }
    T even = 0, odd = 0;  // the parts x[j] and x[n-j] share and negate
#pragma unroll
    for (int k = 1; k <= K; ++k) {
      const Complex<T> t = root<N>(roots, (j * k) % N);
      even += a[k] * t.re;
      odd += b[k] * t.im;
    }
    row[j] = scale * (edge + 2 * (even + odd));
    if (j != 0 && 2 * j != N) row[N - j] = scale * (edge + 2 * (even - odd));
  }
}

// Rows a thread transforms: the shortest rows several, so that a block's
// tile holds about 24 KiB (a thread's rows about 192 bytes) and the SM
// keeps enough bytes in flight while its blocks compute.
template <class T, int N>
constexpr int rows_per_thread = std::clamp(192 / int(staging::footprint<N> * sizeof(T)), 1, 8);
// Double rows of 4 take three, as those of 6 and 7 do under the rule: with
// four (the rule's 192 bytes) both directions ran slower (bench/RESULTS.md,
// "Device kernels").
template <>
constexpr int rows_per_thread<double, 4> = 3;

// Each warp moves its own rows (warp tiles): against the block moving its
// rows together, 3-14% faster at most lengths, slower only at the float
// inverse of 16, by 8% (one H200, bench/RESULTS.md, "Device kernels").
template <class T, int N, bool Inverse, int Each>
__global__ void __launch_bounds__(staging::staged_rows<N>)
    real_rows_direct(T* data, std::int64_t count, std::int64_t pitch, const DirectRoots<T, N> roots, T scale) {
  staging::transform_staged_rows<T, N, Inverse, Each, rows_per_thread<T, N>, false, true>(
      data, count, pitch, [&](T* row) {
        if constexpr (Inverse)
          inverse<T, N>(row, roots, scale);
        else
          forward<T, N>(row, roots, scale);
      });
}

template <class T, int N>
void launch(T* data, std::int64_t count, std::int64_t pitch, const Complex<T>* w, bool inverse, T scale,
            cudaStream_t stream) {
  DirectRoots<T, N> roots;
  for (int j = 0; j < N; ++j) roots.w[j] = w[j];
  constexpr int Rows = staging::staged_rows<N>;  // threads
  const unsigned grid = staging::staged_blocks(count, Rows * rows_per_thread<T, N>);
  staging::for_direction_and_width<T, N>(inverse, data, pitch, [&](auto backward, auto width) {
    auto* kernel = real_rows_direct<T, N, decltype(backward)::value, decltype(width)::value>;
    staging::prefer_shared_memory(kernel);
    kernel<<<grid, Rows, 0, stream>>>(data, count, pitch, roots, scale);
  });
}

// 1..real_rows_direct_max.
template <int... Ns>
constexpr auto from_one(std::integer_sequence<int, Ns...>) {
  return std::integer_sequence<int, (Ns + 1)...>{};
}
using Lengths = decltype(from_one(std::make_integer_sequence<int, real_rows_direct_max>{}));

}  // namespace direct_detail

template <class T>
void launch_real_rows_direct(T* data, std::int64_t count, std::int64_t pitch, std::int64_t n, const Complex<T>* w,
                             bool inverse, T scale, cudaStream_t stream) {
  if (count == 0) return;
  staging::launch_for_length(direct_detail::Lengths{}, n, "real_rows_direct (real rows, short length)",
                             [&](auto length) {
                               direct_detail::launch<T, decltype(length)::value>(data, count, pitch, w, inverse,
                                                                                  scale, stream);
                             });
}

}  // namespace oocfft::kernels::cuda
