#pragma once
// The fused short-row kernel of DeviceRealRows (real_rows_kernels.hpp,
// launch_real_rows_fused): a block stages rows in shared memory
// (real_rows_staging.cuh), each thread runs its row's whole real transform
// in registers (real_rows_fused.cuh: the half-length FFT and the split, or
// the merge and the inverse FFT; odd N, the full complex FFT), and the
// block writes the rows back: one read and one write of the data, no
// workspace, no second pass. Included by real_rows_fused_{float,double}.cu,
// which instantiate the lengths of FusedLengths<T>.
#include <algorithm>
#include <cstdint>
#include <utility>

#include "kernels/cuda/real_rows_fused.cuh"
#include "kernels/cuda/real_rows_kernels.hpp"
#include "kernels/cuda/real_rows_staging.cuh"

namespace oocfft::kernels::cuda {

namespace fused_detail {

// The tile is loaded by asynchronous copies (staging::start_rows_to_tile),
// but for the one case where the register copy measured faster: the double
// inverse of 18 (4%, one H200, bench/RESULTS.md, "Device kernels").
template <class T, int N, bool Inverse>
constexpr bool async_load = !(sizeof(T) == sizeof(double) && N == 18 && Inverse);

// The block moves its rows together: warp tiles (each warp its own rows,
// as the direct kernel does) ran 2-4% faster at most double lengths but
// 10-15% slower at the float lengths 20-25 and 112-120 (one H200).
template <class T, int N, bool Inverse, int Each>
__global__ void __launch_bounds__(staging::staged_rows<N>)
    real_rows_fused(T* data, std::int64_t count, std::int64_t pitch, const Complex<T>* w, T scale) {
  __shared__ Complex<T> tw[N];  // read at warp-uniform indices: broadcasts
  for (int j = threadIdx.x; j < N; j += staging::staged_rows<N>) tw[j] = w[j];
  // The first __syncthreads of the staging publishes tw.
  staging::transform_staged_rows<T, N, Inverse, Each, 1, async_load<T, N, Inverse>, false>(
      data, count, pitch, [&](T* row) {
        if constexpr (Inverse)
          fused_row_inverse<N>(row, tw, scale);
        else
          fused_row_forward<N>(row, tw, scale);
      });
}

template <class T, int N>
void launch(T* data, std::int64_t count, std::int64_t pitch, const Complex<T>* w, bool inverse, T scale,
            cudaStream_t stream) {
  constexpr int Rows = staging::staged_rows<N>;
  const unsigned grid = staging::staged_blocks(count, Rows);
  staging::for_direction_and_width<T, N>(inverse, data, pitch, [&](auto backward, auto width) {
    real_rows_fused<T, N, decltype(backward)::value, decltype(width)::value>
        <<<grid, Rows, 0, stream>>>(data, count, pitch, w, scale);
  });
}

}  // namespace fused_detail

template <class T>
bool real_rows_fused_supported(std::int64_t n) {
  return staging::listed(typename FusedLengths<T>::list{}, n);
}

template <class T>
void launch_real_rows_fused(T* data, std::int64_t count, std::int64_t pitch, std::int64_t n, const Complex<T>* w,
                            bool inverse, T scale, cudaStream_t stream) {
  if (count == 0) return;
  staging::launch_for_length(typename FusedLengths<T>::list{}, n, "real_rows_fused (real rows, short length)",
                             [&](auto length) {
                               fused_detail::launch<T, decltype(length)::value>(data, count, pitch, w, inverse,
                                                                                 scale, stream);
                             });
}

}  // namespace oocfft::kernels::cuda
