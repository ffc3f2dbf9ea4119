#pragma once
// The elementwise kernels of DeviceRealRows (real_rows.cu): the split and
// merge of an even length's half-length spectra, and the pack and unpack of
// an odd length's row pairs. Internal to device_real_rows.cpp; every launch
// is asynchronous on `stream` and checked.
//
// Rows are FFTW's padded in-place layout: row r of `rows` rows starts at
// data + r * pitch reals (pitch even, >= 2 * (n/2 + 1)), or, seen as
// complex, at data + r * (pitch / 2) complex values.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <utility>

#include "kernels/complex.hpp"

namespace oocfft::kernels::cuda {

// Even n = 2m, forward, in place on each row: the m complex values Z of the
// half-length FFT of z[p] = x[2p] + i x[2p+1] become X[k], k = 0..m (X[m] in
// the padding slot), times `scale`. `w` holds w_n^k = exp(-2 pi i k / n) for
// k = 0..m/2 at least. One thread per pair (k, m - k), k = 0..m/2; a
// block's threads walk one row each (2D block, no division per value).
template <class T>
void launch_real_split(Complex<T>* rows, std::int64_t count, std::int64_t pitch, std::int64_t m,
                       const Complex<T>* w, T scale, cudaStream_t stream);

// Even n = 2m, inverse, in place: X[k], k = 0..m, becomes 2 Z[k], k < m,
// times `scale`, Z the half-length spectrum of z[p] = x[2p] + i x[2p+1];
// the unnormalised inverse FFT of length m then gives n z[p] (numpy's irfft
// times n), times `scale`. Im X[0] and Im X[m] are ignored.
template <class T>
void launch_real_merge(Complex<T>* rows, std::int64_t count, std::int64_t pitch, std::int64_t m,
                       const Complex<T>* w, T scale, cudaStream_t stream);

// Rows of n <= real_rows_direct_max reals, the whole transform in one
// kernel (real_rows_direct_kernel.cuh; forward: n reals -> n/2 + 1 complex
// values; inverse: the reverse, unnormalised, Im X[0] and Im X[n/2]
// ignored), times `scale`, in place. `w` holds w_n^j = exp(-2 pi i j / n)
// for j = 0..n-1, in host memory: the kernel takes them as an argument
// (DirectRoots). `pitch` in reals. Past 16 its n^2/4 products a row lose
// to the fused kernel: a build running it for every 7-smooth n up to 64
// measured it slower in 32 of the 38 cases to 32 (faster, by 2-7%, only at
// a few double lengths) and up to 2x slower past 48 (bench/RESULTS.md,
// "Device kernels").
constexpr int real_rows_direct_max = 16;
template <class T, int N>
struct DirectRoots {
  Complex<T> w[N];
};
template <class T>
void launch_real_rows_direct(T* data, std::int64_t count, std::int64_t pitch, std::int64_t n, const Complex<T>* w,
                             bool inverse, T scale, cudaStream_t stream);

// Rows of the lengths FusedLengths<T> lists (beyond real_rows_direct_max,
// 7-smooth, as long as a row's values fit in a thread's registers; and the
// double rows of 90, whose forward spills 24 bytes but ran faster than the
// tile, R2C 0.88 -> 0.97x cuFFT, C2R 0.98 -> 1.10x, one H200,
// bench/RESULTS.md, "Device kernels"), the
// whole transform in one kernel (real_rows_fused_kernel.cuh): rows staged
// in shared memory, each row's FFT and split (merge and inverse FFT) in
// registers. Same contract as launch_real_rows_direct, but `w`, w_n^j for
// j = 0..n-1, is in device memory.
template <class T>
struct FusedLengths;
template <>
struct FusedLengths<float> {
  using list = std::integer_sequence<int, 18, 20, 21, 24, 25, 27, 28, 30, 32, 35, 36, 40, 42, 45, 48, 49, 50, 54, 56,
                                     60, 63, 64, 70, 72, 80, 84, 90, 96, 98, 100, 108, 112, 120, 126, 128>;
};
template <>
struct FusedLengths<double> {
  using list = std::integer_sequence<int, 18, 20, 21, 24, 25, 27, 28, 30, 32, 35, 36, 40, 42, 48, 50, 54, 56, 60, 64, 90>;
};
template <class T>
bool real_rows_fused_supported(std::int64_t n);
template <class T>
void launch_real_rows_fused(T* data, std::int64_t count, std::int64_t pitch, std::int64_t n, const Complex<T>* w,
                            bool inverse, T scale, cudaStream_t stream);

// Odd n, forward: rows (2p, 2p+1) -> line p of `lines` (n complex values
// each, contiguous): z[j] = a[j] + i b[j]; a missing last row reads as 0.
// `pitch` in reals. One thread per (p, j).
template <class T>
void launch_real_pack_pairs(const T* data, std::int64_t count, std::int64_t pitch, std::int64_t n,
                            Complex<T>* lines, cudaStream_t stream);

// Odd n, forward: the FFTs Z of the packed lines -> the half spectra of the
// two rows, A[k] = (Z[k] + conj Z[n-k]) / 2 to row 2p, B[k] = (Z[k] -
// conj Z[n-k]) / (2i) to row 2p+1, k = 0..n/2, times `scale`. `pitch` in
// complex values. One thread per (p, k).
template <class T>
void launch_real_unpack_spectra(const Complex<T>* lines, std::int64_t n, Complex<T>* rows, std::int64_t count,
                                std::int64_t pitch, T scale, cudaStream_t stream);

// Odd n, inverse: the half spectra of rows (2p, 2p+1) -> line p: Z[k] =
// A[k] + i B[k] over k < n, A and B extended by Hermitian symmetry
// (Im A[0] and Im B[0] ignored). `pitch` in complex values. One thread per
// (p, k).
template <class T>
void launch_real_pack_spectra(const Complex<T>* rows, std::int64_t count, std::int64_t pitch, std::int64_t n,
                              Complex<T>* lines, cudaStream_t stream);

// Odd n, inverse: the inverse FFTs z of the lines -> rows 2p (Re z) and
// 2p+1 (Im z), times `scale`. `pitch` in reals. One thread per (p, j).
template <class T>
void launch_real_unpack_pairs(const Complex<T>* lines, std::int64_t n, T* data, std::int64_t count,
                              std::int64_t pitch, T scale, cudaStream_t stream);

}  // namespace oocfft::kernels::cuda
