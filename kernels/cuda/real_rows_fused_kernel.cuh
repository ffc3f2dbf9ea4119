#pragma once
// The fused short-row kernel of DeviceRealRows (real_rows_kernels.hpp,
// launch_real_rows_fused): a block stages `Rows` rows in shared memory
// with coalesced accesses, each thread runs its row's whole real transform
// in registers (real_rows_fused.cuh: the half-length FFT and the split, or
// the merge and the inverse FFT; odd N, the full complex FFT), and the
// block writes the rows back: one read and one write of the data, no
// workspace, no second pass. Included by real_rows_fused_{float,double}.cu,
// which instantiate the lengths of FusedLengths<T>.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/real_rows_fused.cuh"
#include "kernels/cuda/real_rows_kernels.hpp"
#include "oocfft/error.hpp"

namespace oocfft::kernels::cuda {

namespace fused_detail {

// Rows per block: 128 threads for the shortest rows, 64 beyond 32 reals so
// that a block's tile stays under 48 KiB of static shared memory and
// the register-heavy longer rows keep several blocks per SM.
template <int N>
constexpr int rows_per_block = N <= 32 ? 128 : 64;

template <class T>
struct PairOf;
template <>
struct PairOf<float> {
  using type = float2;
};
template <>
struct PairOf<double> {
  using type = double2;
};

// Copies `width` reals of `rows` rows between global rows (`pitch` reals
// apart) and the tile (rows `stride` reals apart). Paired: 8- or 16-byte
// global accesses (width even, rows aligned to two reals: checked at
// launch); the tile's odd stride takes scalar accesses.
template <bool ToTile, bool Paired, int Rows, int Width, int Stride, class T>
__device__ __forceinline__ void copy_rows(T* global, std::int64_t pitch, T* tile, int rows) {
  if constexpr (Paired) {
    using P = typename PairOf<T>::type;
    constexpr int Half = Width / 2;
    const int total = rows * Half;
#pragma unroll 8
    for (int e = threadIdx.x; e < total; e += Rows) {
      const int r = e / Half, c = 2 * (e - r * Half);
      P* g = reinterpret_cast<P*>(global + r * pitch + c);
      T* t = tile + r * Stride + c;
      if constexpr (ToTile) {
        const P v = *g;
        t[0] = v.x;
        t[1] = v.y;
      } else {
        *g = P{t[0], t[1]};
      }
    }
  } else {
    const int total = rows * Width;
#pragma unroll 8
    for (int e = threadIdx.x; e < total; e += Rows) {
      const int r = e / Width, c = e - r * Width;
      if constexpr (ToTile)
        tile[r * Stride + c] = global[r * pitch + c];
      else
        global[r * pitch + c] = tile[r * Stride + c];
    }
  }
}

template <class T, int N, bool Inverse, bool Paired>
__global__ void __launch_bounds__(rows_per_block<N>)
    real_rows_fused(T* data, std::int64_t count, std::int64_t pitch, const Complex<T>* w, T scale) {
  constexpr int Rows = rows_per_block<N>;
  constexpr int W = 2 * (N / 2 + 1);  // reals a row's half spectrum takes
  constexpr int S = W + 1;            // tile row stride: odd, so a warp's rows start on different banks
  // Reals moved per row, all even so that the global accesses pair: an
  // odd N's rows take their padding slot along (read and ignored forward;
  // inverse, written back as it was read: Im X[N/2], which numpy's irfft
  // ignores).
  constexpr int Reals = N % 2 == 0 ? N : W;
  constexpr int In = Inverse ? W : Reals;
  constexpr int Out = Inverse ? Reals : W;
  static_assert(In % 2 == 0 && Out % 2 == 0, "rows move in pairs of reals");
  __shared__ T tile[Rows * S];
  __shared__ Complex<T> tw[N];  // read at warp-uniform indices: broadcasts
  for (int j = threadIdx.x; j < N; j += Rows) tw[j] = w[j];
  for (std::int64_t row0 = std::int64_t(blockIdx.x) * Rows; row0 < count; row0 += std::int64_t(gridDim.x) * Rows) {
    const int rows = static_cast<int>(count - row0 < Rows ? count - row0 : Rows);
    T* base = data + row0 * pitch;
    copy_rows<true, Paired, Rows, In, S>(base, pitch, tile, rows);
    __syncthreads();
    if (int(threadIdx.x) < rows) {
      T* row = tile + threadIdx.x * S;
      if constexpr (Inverse)
        fused_row_inverse<N>(row, tw, scale);
      else
        fused_row_forward<N>(row, tw, scale);
    }
    __syncthreads();
    copy_rows<false, Paired, Rows, Out, S>(base, pitch, tile, rows);
    __syncthreads();
  }
}

template <class T, int N>
void launch(T* data, std::int64_t count, std::int64_t pitch, const Complex<T>* w, bool inverse, T scale,
            cudaStream_t stream) {
  constexpr int Rows = rows_per_block<N>;
  const std::int64_t blocks = (count + Rows - 1) / Rows;
  const auto grid = static_cast<unsigned>(std::clamp<std::int64_t>(blocks, 1, std::int64_t{1} << 30));
  const bool paired = reinterpret_cast<std::uintptr_t>(data) % (2 * sizeof(T)) == 0 && pitch % 2 == 0;
  if (inverse) {
    if (paired)
      real_rows_fused<T, N, true, true><<<grid, Rows, 0, stream>>>(data, count, pitch, w, scale);
    else
      real_rows_fused<T, N, true, false><<<grid, Rows, 0, stream>>>(data, count, pitch, w, scale);
  } else {
    if (paired)
      real_rows_fused<T, N, false, true><<<grid, Rows, 0, stream>>>(data, count, pitch, w, scale);
    else
      real_rows_fused<T, N, false, false><<<grid, Rows, 0, stream>>>(data, count, pitch, w, scale);
  }
}

template <class T, int... Ns>
bool dispatch(std::integer_sequence<int, Ns...>, std::int64_t n, T* data, std::int64_t count, std::int64_t pitch,
              const Complex<T>* w, bool inverse, T scale, cudaStream_t stream) {
  return ((n == Ns ? (launch<T, Ns>(data, count, pitch, w, inverse, scale, stream), true) : false) || ...);
}

template <int... Ns>
constexpr bool listed(std::integer_sequence<int, Ns...>, std::int64_t n) {
  return ((n == Ns) || ...);
}

}  // namespace fused_detail

template <class T>
bool real_rows_fused_supported(std::int64_t n) {
  return fused_detail::listed(typename FusedLengths<T>::list{}, n);
}

template <class T>
void launch_real_rows_fused(T* data, std::int64_t count, std::int64_t pitch, std::int64_t n, const Complex<T>* w,
                            bool inverse, T scale, cudaStream_t stream) {
  if (count == 0) return;
  if (!fused_detail::dispatch(typename FusedLengths<T>::list{}, n, data, count, pitch, w, inverse, scale, stream))
    throw Error(ErrorKind::invalid_argument, "real_rows_fused: length " + std::to_string(n));
  check_launch("real_rows_fused (real rows, short length)");
}

}  // namespace oocfft::kernels::cuda
