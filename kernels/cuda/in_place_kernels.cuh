#pragma once
// The in-place tile's stages (in_place_shape in schedule_geometry.hpp says
// what the tile is and where it runs): decimation in frequency on one
// contiguous line in one skewed shared buffer, a thread holding one group's
// R values at a time. Included by schedule_kernels.cuh, whose kernel runs
// these stages where the tile's geometry says in_place.
//
// Stage s runs pass P = passes - 1 - s of the schedule: radix R, sub-block
// M' = span(P), block M = M' R. Group g (b = g / M', j = g mod M') reads the
// points b M + j + M' r, r < R, and writes back
//   y_r w_M^(j r),   y the DFT of its R values,
// to the same points: after the stage, sub-block r of block b holds the
// line whose DFT gives outputs r, r + R, r + 2R, ... of the block's DFT.
// (The decimation-in-frequency step, e.g. Van Loan, "Computational
// Frameworks for the FFT", 1.4.) The twiddle w_M^(j r) is entry (j, r) of
// pass P's table, so the line plan's Stockham tables serve unchanged.
//
// After the last stage (M' = 1), output k = r_0 + R_0 (r_1 + R_1 (... +
// R_{S-2} r_{S-1})) sits at sum_s r_s M'_s (r_s the output digit of stage
// s). The last stage's thread takes k0 = k mod (N / R_{S-1}) and writes
// outputs k0 + r N / R_{S-1}: consecutive threads write consecutive points.
// The first stage reads global memory, b = 0, points j + M' r: consecutive
// threads read consecutive points. The inverse is conj(F(conj x)), the two
// conjugations at the global accesses, as in the Stockham tiles.
#if defined(__CUDACC_RTC__)
#include "kernels/cuda/nvrtc_std.hpp"  // NVRTC has no C++ library
#else
#include <utility>
#endif

#include "kernels/butterfly.hpp"
#include "kernels/cuda/schedule_geometry.hpp"
#include "kernels/cuda/tile_kernels.cuh"

namespace oocfft::kernels::cuda::detail {

// Radix and sub-block M' of stage S of the in-place tile of G (G::line).
template <class G, int S>
inline constexpr int in_place_radix = G::line.schedule.radices[G::line.passes - 1 - S];
template <class G, int S>
inline constexpr int in_place_sub_block = G::line.schedule.span(G::line.passes - 1 - S);

// The point where the last stage's group k0 starts: sum over the earlier
// stages of digit r_s of k0 (k0 = r_0 + R_0 (r_1 + ...)) times M'_s.
template <class G, int... S>
__device__ __forceinline__ int in_place_last_group(int k0, std::integer_sequence<int, S...>) {
  int point = 0;
  ((point += static_cast<int>(static_cast<unsigned>(k0) % in_place_radix<G, S>) * in_place_sub_block<G, S>,
    k0 = static_cast<int>(static_cast<unsigned>(k0) / in_place_radix<G, S>)),
   ...);
  return point;
}

template <class T, int N, int S>
__device__ __forceinline__ void in_place_stage(T* re, T* im, const TileJob<T>& job, const Complex<T>* in,
                                               Complex<T>* out, bool inverse) {
  using G = ScheduleGeometry<T, N, false>;
  constexpr int P = G::line.passes - 1 - S;
  constexpr int R = in_place_radix<G, S>;
  constexpr int sub = in_place_sub_block<G, S>;
  constexpr int block = sub * R;
  constexpr int groups = N / R;
  constexpr int threads = G::line.threads;
  constexpr int rounds = (groups + threads - 1) / threads;
  constexpr bool first = S == 0;
  constexpr bool last = P == 0;
  const Complex<T>* tw = job.twiddles + job.passes[P].twiddle_offset;
OOCFFT_UNROLL
  for (int round = 0; round < rounds; ++round) {
    const int g = static_cast<int>(threadIdx.x) + round * threads;
    if (groups % threads != 0 && g >= groups) break;
    // Unsigned: as schedule_decode, no sign fix-up for the constant divisions.
    const int j = last ? 0 : static_cast<int>(static_cast<unsigned>(g) % static_cast<unsigned>(sub));
    int start;
    if constexpr (last) {
      start = in_place_last_group<G>(g, std::make_integer_sequence<int, G::line.passes - 1>{});
    } else {
      start = static_cast<int>(static_cast<unsigned>(g) / static_cast<unsigned>(sub)) * block + j;
    }
    Complex<T> u[R];
OOCFFT_UNROLL
    for (int r = 0; r < R; ++r) {
      if constexpr (first) {
        u[r] = load(in + start + r * sub);
        if (inverse) u[r] = conj(u[r]);
      } else {
        const int point = skew<T>(start + r * sub);
        u[r] = {re[point], im[point]};
      }
    }
    radix_butterfly<R, false>(u);
    if constexpr (last) {
OOCFFT_UNROLL
      for (int r = 0; r < R; ++r) store(out + g + r * groups, job.scale * (inverse ? conj(u[r]) : u[r]));
    } else {
OOCFFT_UNROLL
      for (int r = 0; r < R; ++r) {
        Complex<T> z = u[r];
        if (r > 0 && sub > 1) z = z * load_table(tw + (r - 1) * sub + j);
        const int point = skew<T>(start + r * sub);
        re[point] = z.re;
        im[point] = z.im;
      }
    }
  }
  if constexpr (!last) __syncthreads();  // this stage's writes before the next reads
}

template <class T, int N, int... S>
__device__ __forceinline__ void in_place_stages(T* re, T* im, const TileJob<T>& job, const Complex<T>* in,
                                                Complex<T>* out, bool inverse, std::integer_sequence<int, S...>) {
  (in_place_stage<T, N, S>(re, im, job, in, out, inverse), ...);
}

}  // namespace oocfft::kernels::cuda::detail
