#pragma once
// The in-place tile's stages (in_place_shape in in_place_tiles.hpp says
// what the tile is and where it runs): decimation in frequency on one
// contiguous line in one skewed shared buffer, a thread holding one group's
// R values at a time. Included by compiled_schedule_kernels.cuh, whose kernel runs
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
// conjugations at the global accesses, as in the Stockham tiles: as a sign
// on the imaginary parts, without a branch, which ran faster (the compiler
// duplicated the stage's loops for a branch on the inverse flag;
// complex64 10206 in two blocks, 0.97 -> 0.92 ms, measured on the H100
// machine).
//
// A cluster of C blocks (the cluster tile, cluster_shape) holds one line,
// block c the first stage's sub-blocks r of c Q <= r < (c + 1) Q, Q = R_0 /
// C, as its own buffer of N / C points. Block c runs groups c G'..(c + 1) G'
// - 1 of the first stage (G' = ceil(G / C) of its G = N / R_0 groups) and
// writes output r of each to the block that holds sub-block r (distributed
// shared memory); after a cluster barrier, its sub-blocks are independent
// lines, and every later stage runs on its own buffer as on a line of N /
// C points. The last stage's thread g takes k0 = c Q + (g mod Q) + R_0
// floor(g / Q), whose digit r_0 is one of block c's: consecutive threads
// write runs of Q consecutive points. C = 1 is the one-block tile.
#if defined(__CUDACC_RTC__)
#include "kernels/cuda/nvrtc_std.hpp"  // NVRTC has no C++ library
#else
#include <utility>
#endif

#include "kernels/butterfly.hpp"
#include "kernels/cuda/schedule_geometry.hpp"
#include "kernels/cuda/general_tile_kernels.cuh"

namespace oocfft::kernels::cuda::detail {

// Radix and sub-block M' of stage S of the in-place tile of G (G::line).
template <class G, int S>
inline constexpr int in_place_radix = G::line.schedule.radices[G::line.passes - 1 - S];
template <class G, int S>
inline constexpr int in_place_sub_block = G::line.schedule.span(G::line.passes - 1 - S);

// The point where the last stage's group k0 starts: sum over the earlier
// stages of digit r_s of k0 (k0 = r_0 + R_0 (r_1 + ...)) times M'_s. Here
// over the stages after the first (S + 1), of k = floor(k0 / R_0).
template <class G, int... S>
__device__ __forceinline__ int in_place_later_digits(int k, std::integer_sequence<int, S...>) {
  int point = 0;
  ((point += static_cast<int>(static_cast<unsigned>(k) % in_place_radix<G, S + 1>) * in_place_sub_block<G, S + 1>,
    k = static_cast<int>(static_cast<unsigned>(k) / in_place_radix<G, S + 1>)),
   ...);
  return point;
}

// The cluster tile's distributed shared memory (PTX ISA, "Distributed
// shared memory", sm_90): this block's rank in its cluster, the address of
// `p` in the shared memory of block `rank`, and a barrier of the whole
// cluster whose release and acquire order the shared-memory writes of
// every block before it against the reads after it.
__device__ __forceinline__ int cluster_block_rank() {
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  return static_cast<int>(rank);
}
template <class T>
__device__ __forceinline__ T* cluster_block_shared(T* p, int rank) {
  T* q;
  asm("mapa.u64 %0, %1, %2;" : "=l"(q) : "l"(p), "r"(rank));
  return q;
}
__device__ __forceinline__ void cluster_barrier() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

template <class T, int N, int S>
__device__ __forceinline__ void in_place_stage(T* re, T* im, const TileJob<T>& job, const Complex<T>* in,
                                               Complex<T>* out, bool inverse, int rank) {
  using G = ScheduleGeometry<T, N, false>;
  static_assert(G::line.passes >= 2, "the first stage reads global memory and the last writes it");
  constexpr int P = G::line.passes - 1 - S;
  constexpr int R = in_place_radix<G, S>;
  constexpr int sub = in_place_sub_block<G, S>;
  constexpr int block = sub * R;
  constexpr int C = G::line.cluster;
  constexpr int R0 = in_place_radix<G, 0>;
  static_assert(R0 % C == 0, "the first stage's radix splits among the cluster's blocks");
  constexpr int Q = R0 / C;
  constexpr bool first = S == 0;
  constexpr bool last = P == 0;
  // This block's groups: of the first stage's N / R_0, its share (the
  // last block's may be short); of a later stage's, those of its N / C points.
  constexpr int line_groups = N / R;
  constexpr int groups = first ? (line_groups + C - 1) / C : line_groups / C;
  constexpr int threads = G::line.threads;
  constexpr int rounds = (groups + threads - 1) / threads;
  const Complex<T>* tw = job.twiddles + job.passes[P].twiddle_offset;
  const T sign = inverse ? T(-1) : T(1);  // conj(z) = (re, sign im) for the inverse
  const T scale_im = job.scale * sign;
  // The first stage's rounds stay a loop: unrolled, they doubled the
  // kernel's code and made ptxas spill, and the cluster tile ran slower
  // (complex128 10240 1.12 -> 0.99 ms rolled, 10976 1.13 -> 1.05 ms; the
  // 10240 entry of bench/RESULTS.md, section Kernel tuning table (sm_90)).
  constexpr int unrolled = first ? 1 : rounds;
#pragma unroll unrolled
  for (int round = 0; round < rounds; ++round) {
    const int local = static_cast<int>(threadIdx.x) + round * threads;
    if (groups % threads != 0 && local >= groups) break;
    const int g = first ? rank * groups + local : local;
    if (first && line_groups % C != 0 && g >= line_groups) break;
    // Unsigned: as schedule_decode, no sign fix-up for the constant divisions.
    const int j = last ? 0 : static_cast<int>(static_cast<unsigned>(g) % static_cast<unsigned>(sub));
    const int q = static_cast<int>(static_cast<unsigned>(g) % static_cast<unsigned>(Q));
    const int above = static_cast<int>(static_cast<unsigned>(g) / static_cast<unsigned>(Q));
    int start;
    if constexpr (last) {
      start = q * (N / R0) + in_place_later_digits<G>(above, std::make_integer_sequence<int, G::line.passes - 2>{});
    } else {
      start = static_cast<int>(static_cast<unsigned>(g) / static_cast<unsigned>(sub)) * block + j;
    }
    Complex<T> u[R];
OOCFFT_UNROLL
    for (int r = 0; r < R; ++r) {
      if constexpr (first) {
        u[r] = load(in + start + r * sub);
        u[r].im *= sign;
      } else {
        const int point = skew<T>(start + r * sub);
        u[r] = {re[point], im[point]};
      }
    }
    radix_butterfly<R, false>(u);
    if constexpr (last) {
      const int k0 = rank * Q + q + R0 * above;
OOCFFT_UNROLL
      for (int r = 0; r < R; ++r)
        store(out + k0 + r * line_groups, Complex<T>{job.scale * u[r].re, scale_im * u[r].im});
    } else {
      const PassTwiddles<R, sub, T, factored_twiddles<T>(R, sub, true)> twiddle(tw, j);
OOCFFT_UNROLL
      for (int r = 0; r < R; ++r) {
        Complex<T> z = u[r];
        if (r > 0 && sub > 1) z = z * twiddle[r];
        if constexpr (first && C > 1) {
          // Sub-block r is block r / Q's, at its (r mod Q)-th place.
          const int owner = r / Q;
          const int point = skew<T>((r % Q) * sub + g);
          T* to = owner == rank ? re : cluster_block_shared(re, owner);
          to[point] = z.re;
          to[G::line.shared_words + point] = z.im;
        } else {
          const int point = skew<T>(start + r * sub);
          re[point] = z.re;
          im[point] = z.im;
        }
      }
    }
  }
  // This stage's writes before the next reads; the first stage's of every
  // block of the cluster.
  if constexpr (first && C > 1) {
    cluster_barrier();
  } else if constexpr (!last) {
    __syncthreads();
  }
}

// `rank`: the block's rank in its cluster (0 without one).
template <class T, int N, int... S>
__device__ __forceinline__ void in_place_stages(T* re, T* im, const TileJob<T>& job, const Complex<T>* in,
                                                Complex<T>* out, bool inverse, int rank,
                                                std::integer_sequence<int, S...>) {
  // Every block of the cluster runs before any writes another's shared memory.
  if constexpr (ScheduleGeometry<T, N, false>::line.cluster > 1) cluster_barrier();
  (in_place_stage<T, N, S>(re, im, job, in, out, inverse, rank), ...);
}

}  // namespace oocfft::kernels::cuda::detail
