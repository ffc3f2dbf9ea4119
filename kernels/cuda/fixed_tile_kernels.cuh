#pragma once
// Fixed-length tile kernels: the shared-memory Stockham tile kernel of
// tile_kernels.cuh with the line length a template parameter, for the
// power-of-two lengths that batched 1D transforms and the axes of common
// volumes use. Included by the .cu files that instantiate it for one element
// type each.
//
// Why: the general kernel decodes run-time lengths, pass descriptors and
// layouts for every value it moves, which makes it instruction-bound (about
// 0.4-0.6x cuFFT at 1D powers of two). Here the radix schedule, spans, tile
// shape, block size and every shared-memory index are compile-time, so the
// index arithmetic folds into shifts, masks and immediate offsets. Twiddles
// still come from the LinePlan table (long double on the host); only its
// per-pass offsets are read from the job.
//
// Stockham indexing as SC08 (Govindaraju et al.), Fig. 2: butterfly j of a
// pass of radix R and span Ns reads points j + r n/R and writes points
// (j div Ns) Ns R + (j mod Ns) + r Ns. In the first pass (Ns = 1) the reads
// and in the last (Ns = n/R) the writes are points j + r n/R, i.e. runs of
// consecutive points across consecutive threads: those two passes go straight
// between global memory and registers, and shared memory carries only the
// exchanges between passes (SC08 IV-B's FftShMem, minus the staging copies).
// A length of 16 is one radix-16 pass and never touches shared memory; it
// is instantiated for strided lines only: on contiguous lines a thread's
// 16 points are one 128- or 256-byte row, so a warp's accesses spread over 32
// rows, and that version measured no faster than the general kernel
// (complex<float>) or 9% slower (complex<double>); contiguous 16 stays on the
// general kernel, which stages its loads through shared memory.
//
// Each thread holds 16 values in every pass (one radix-16, two radix-8 or
// four radix-4 butterflies), all read before any is written back: one
// shared buffer (not a ping-pong pair) and two barriers per exchange, which
// halves the shared memory of a tile and lets more blocks share an SM.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "kernels/butterfly.hpp"
#include "kernels/cuda/tile_launchers.cuh"

namespace oocfft::kernels::cuda::detail {

constexpr int fixed_log2(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

// The radices stockham_radices() (line_factorization.cpp) gives 2^k: as many
// 16s as possible, a leftover 2 merged with one 16 into 8 x 4. The launcher
// checks the job's passes against this before using a fixed kernel.
constexpr int fixed_pass_count(int n) {
  const int twos = fixed_log2(n), sixteens = twos / 4, rest = twos % 4;
  if (rest == 1 && sixteens > 0) return sixteens + 1;
  return sixteens + (rest != 0 ? 1 : 0);
}
constexpr int fixed_radix(int n, int p) {
  const int twos = fixed_log2(n), sixteens = twos / 4, rest = twos % 4;
  if (rest == 1 && sixteens > 0) return p < sixteens - 1 ? 16 : (p == sixteens - 1 ? 8 : 4);
  return p < sixteens ? 16 : (1 << rest);
}
constexpr int fixed_span(int n, int p) {
  int span = 1;
  for (int i = 0; i < p; ++i) span *= fixed_radix(n, i);
  return span;
}

// Tile shape for length N. Contiguous lines: a tile of about 4096 complex<float>
// or 2048 complex<double> values (as the general kernel), lanes = lines.
// Strided lines (lanes contiguous, SC08's FftShMemCol): at least 64 bytes of
// neighbouring lanes per point, whole 32-byte sectors with room to spare.
template <class T, int N, bool LanesFast>
struct FixedGeometry {
  static constexpr int log_n = fixed_log2(N);
  static constexpr int passes = fixed_pass_count(N);
  static constexpr int target_points = sizeof(T) == 4 ? 4096 : 2048;
  static constexpr int min_lanes = LanesFast ? static_cast<int>(64 / (2 * sizeof(T))) : 1;
  static constexpr int fill_lanes = target_points / N > 1 ? target_points / N : 1;
  static constexpr int lanes = fill_lanes > min_lanes ? fill_lanes : min_lanes;
  static constexpr int log_lanes = fixed_log2(lanes);
  static constexpr int points = lanes * N;
  static constexpr int values = 16;  // per thread and pass
  static constexpr int threads = points / values;
  // Register cap through __launch_bounds__: 64 per thread for complex<float>
  // (1024 threads per SM), 128 for complex<double> (512 threads per SM).
  static constexpr int min_blocks =
      (sizeof(T) == 4 ? 1024 : 512) / threads > 1 ? (sizeof(T) == 4 ? 1024 : 512) / threads : 1;
  // One skewed buffer of real parts and one of imaginary parts (see skew()).
  static constexpr int shift = sizeof(T) == 4 ? 5 : 4;
  static constexpr int shared_words = passes > 1 ? points + (points >> shift) + 1 : 0;
  static constexpr std::size_t shared_bytes = 2 * sizeof(T) * static_cast<std::size_t>(shared_words);
  static_assert((N & (N - 1)) == 0 && N >= 16, "fixed kernels are for powers of two from 16");
  static_assert(points % (values * 32) == 0, "whole warps");
};

// Shared-memory position of (lane, point): lane-major for contiguous lines,
// point-major for strided ones, as the general kernel (TileLayout).
template <class G, bool LanesFast>
__device__ __forceinline__ int fixed_position(int lane, int point) {
  return LanesFast ? (point << G::log_lanes) + lane : (lane << G::log_n) + point;
}

// Butterfly `item` of a pass with q = N/R butterflies per line: lane and j.
// Consecutive threads take consecutive j (contiguous lines) or consecutive
// lanes (strided lines), so global accesses run along memory.
template <class G, bool LanesFast, int LogQ>
__device__ __forceinline__ void fixed_decode(int item, int& lane, int& j) {
  if constexpr (LanesFast) {
    lane = item & (G::lanes - 1);
    j = item >> G::log_lanes;
  } else {
    lane = item >> LogQ;
    j = item & ((1 << LogQ) - 1);
  }
}

// Address of point `point` of tile lane `lane` (base: the tile's first lane).
template <bool LanesFast, class C>
__device__ __forceinline__ C* fixed_address(C* base, int lane, int point, std::int64_t lane_stride,
                                            std::int64_t point_stride) {
  if constexpr (LanesFast) {
    return base + lane + point * point_stride;  // lane stride 1
  } else {
    return base + lane * lane_stride + point;  // point stride 1
  }
}

// Passes 1 .. passes-1: read the pass's 16 values per thread from shared
// memory, twiddle, butterfly, and write them back (middle passes) or to
// global memory (the last pass).
template <class T, int N, bool LanesFast, bool Inverse, int P>
__device__ __forceinline__ void fixed_pass(T* re, T* im, Complex<T>* v, const TileJob<T>& job, Complex<T>* out,
                                           int lanes_here) {
  using G = FixedGeometry<T, N, LanesFast>;
  constexpr int R = fixed_radix(N, P);
  constexpr int span = fixed_span(N, P);
  constexpr int q = N / R;
  constexpr int log_q = fixed_log2(q);
  constexpr int B = G::values / R;
  constexpr bool last = P + 1 == G::passes;
  int lane[B], j[B];
OOCFFT_UNROLL
  for (int b = 0; b < B; ++b) {
    fixed_decode<G, LanesFast, log_q>(static_cast<int>(threadIdx.x) + b * G::threads, lane[b], j[b]);
OOCFFT_UNROLL
    for (int r = 0; r < R; ++r) {
      const int at = skew<T>(fixed_position<G, LanesFast>(lane[b], j[b] + r * q));
      v[b * R + r] = {re[at], im[at]};
    }
  }
  if constexpr (!last) __syncthreads();  // every read of this pass before any write
  const Complex<T>* tw = job.twiddles + job.passes[P].twiddle_offset;
OOCFFT_UNROLL
  for (int b = 0; b < B; ++b) {
    const int within = j[b] & (span - 1);
    const Complex<T>* w = tw + within * (R - 1);
OOCFFT_UNROLL
    for (int r = 1; r < R; ++r) v[b * R + r] = twiddle<Inverse>(v[b * R + r], load_table(w + (r - 1)));
    radix_butterfly<R, Inverse>(v + b * R);
    const int first = (j[b] - within) * R + within;
    if constexpr (!last) {
OOCFFT_UNROLL
      for (int r = 0; r < R; ++r) {
        const int at = skew<T>(fixed_position<G, LanesFast>(lane[b], first + r * span));
        re[at] = v[b * R + r].re;
        im[at] = v[b * R + r].im;
      }
    } else if (lane[b] < lanes_here) {
      // Last pass: first = j, points j + r q, consecutive across threads.
OOCFFT_UNROLL
      for (int r = 0; r < R; ++r)
        store(fixed_address<LanesFast>(out, lane[b], first + r * span, job.lane.out, job.point_out),
              job.scale * v[b * R + r]);
    }
  }
  if constexpr (!last) __syncthreads();
}

template <class T, int N, bool LanesFast, bool Inverse, int... Ps>
__device__ __forceinline__ void fixed_later_passes(T* re, T* im, Complex<T>* v, const TileJob<T>& job,
                                                   Complex<T>* out, int lanes_here,
                                                   std::integer_sequence<int, Ps...>) {
  (fixed_pass<T, N, LanesFast, Inverse, Ps + 1>(re, im, v, job, out, lanes_here), ...);
}

template <class T, int N, bool LanesFast, bool Inverse>
__global__ void __launch_bounds__(FixedGeometry<T, N, LanesFast>::threads, FixedGeometry<T, N, LanesFast>::min_blocks)
    fixed_stockham_kernel(const __grid_constant__ TileJob<T> job) {
  using G = FixedGeometry<T, N, LanesFast>;
  extern __shared__ unsigned char shared_raw[];
  T* re = reinterpret_cast<T*>(shared_raw);
  T* im = re + G::shared_words;
  constexpr int R = fixed_radix(N, 0);
  constexpr int q = N / R;
  constexpr int log_q = fixed_log2(q);
  constexpr int B = G::values / R;
  const std::int64_t lane_tiles = (job.lane.count + G::lanes - 1) >> G::log_lanes;
  const std::int64_t tiles = lane_tiles * job.group.count;
  for (std::int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const std::int64_t group = tile / lane_tiles;
    const std::int64_t first_lane = (tile - group * lane_tiles) << G::log_lanes;
    const std::int64_t left = job.lane.count - first_lane;
    const int lanes_here = left < G::lanes ? static_cast<int>(left) : G::lanes;
    const Complex<T>* in = job.in + group * job.group.in + first_lane * job.lane.in;
    Complex<T>* out = job.out + group * job.group.out + first_lane * job.lane.out;

    // Pass 0 (span 1, no twiddles): every load issued before the first use,
    // 16 per thread in flight.
    Complex<T> v[G::values];
    int lane[B], j[B];
OOCFFT_UNROLL
    for (int b = 0; b < B; ++b) {
      fixed_decode<G, LanesFast, log_q>(static_cast<int>(threadIdx.x) + b * G::threads, lane[b], j[b]);
      if (lane[b] < lanes_here) {
OOCFFT_UNROLL
        for (int r = 0; r < R; ++r)
          v[b * R + r] = load(fixed_address<LanesFast>(in, lane[b], j[b] + r * q, job.lane.in, job.point_in));
      } else {
OOCFFT_UNROLL
        for (int r = 0; r < R; ++r) v[b * R + r] = {T(0), T(0)};
      }
    }
OOCFFT_UNROLL
    for (int b = 0; b < B; ++b) {
      radix_butterfly<R, Inverse>(v + b * R);
      if constexpr (G::passes == 1) {
        // n = 16: one pass, point r of the line is output r.
        if (lane[b] < lanes_here) {
OOCFFT_UNROLL
          for (int r = 0; r < R; ++r)
            store(fixed_address<LanesFast>(out, lane[b], r, job.lane.out, job.point_out), job.scale * v[b * R + r]);
        }
      } else {
        // Span 1: butterfly j's outputs are points j R + r.
OOCFFT_UNROLL
        for (int r = 0; r < R; ++r) {
          const int at = skew<T>(fixed_position<G, LanesFast>(lane[b], j[b] * R + r));
          re[at] = v[b * R + r].re;
          im[at] = v[b * R + r].im;
        }
      }
    }
    if constexpr (G::passes > 1) {
      __syncthreads();
      fixed_later_passes<T, N, LanesFast, Inverse>(re, im, v, job, out, lanes_here,
                                                   std::make_integer_sequence<int, G::passes - 1>{});
      __syncthreads();  // the last pass's reads before the next tile's writes
    }
  }
}

// Launches the fixed kernel for length N if it serves `job`: the job's passes
// are the schedule above, the layout is one the kernel addresses (points
// contiguous, or lanes contiguous), there is no fused post-multiply (four-step
// twiddles, Bluestein tables) and at least one whole tile of lanes. Returns
// false, launching nothing, otherwise.
template <class T, int N, bool LanesFast>
bool try_fixed_stockham(const TileJob<T>& job, bool inverse, cudaStream_t stream) {
  using G = FixedGeometry<T, N, LanesFast>;
  if (job.n != N || job.pass_count != G::passes) return false;
  for (int p = 0; p < G::passes; ++p)
    if (job.passes[p].radix != fixed_radix(N, p) || job.passes[p].span != fixed_span(N, p)) return false;
  if (job.lane.count < G::lanes || job.group.count < 1) return false;
  if constexpr (LanesFast) {
    if (job.lane.in != 1 || job.lane.out != 1) return false;
  } else {
    if (job.point_in != 1 || job.point_out != 1) return false;
  }
  const std::int64_t lane_tiles = (job.lane.count + G::lanes - 1) >> G::log_lanes;
  const std::int64_t tiles = lane_tiles * job.group.count;
  const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>(tiles, 0x7fffffff));
  if (inverse) {
    allow_shared(fixed_stockham_kernel<T, N, LanesFast, true>, G::shared_bytes);
    fixed_stockham_kernel<T, N, LanesFast, true><<<grid, G::threads, G::shared_bytes, stream>>>(job);
  } else {
    allow_shared(fixed_stockham_kernel<T, N, LanesFast, false>, G::shared_bytes);
    fixed_stockham_kernel<T, N, LanesFast, false><<<grid, G::threads, G::shared_bytes, stream>>>(job);
  }
  check_launch("fixed_stockham_kernel");
  return true;
}

}  // namespace oocfft::kernels::cuda::detail

namespace oocfft::kernels::cuda {

// The lean instantiated set: contiguous lines 32..4096 (batched 1D, x axes),
// strided lines 16..1024 (y and z axes of volumes; longer strided tiles would
// need 1024+ threads). Other lengths, layouts and fused post-multiplies (the
// four-step steps, Bluestein) take the general kernel.
template <class T>
bool launch_fixed_stockham_tiles(const TileJob<T>& job, bool inverse, cudaStream_t stream) {
  using namespace detail;
  if (job.post != TilePost::none || job.lanes_fast_in != job.lanes_fast_out) return false;
  if (job.lanes_fast_in) {
    switch (job.n) {
      case 16: return try_fixed_stockham<T, 16, true>(job, inverse, stream);
      case 32: return try_fixed_stockham<T, 32, true>(job, inverse, stream);
      case 64: return try_fixed_stockham<T, 64, true>(job, inverse, stream);
      case 128: return try_fixed_stockham<T, 128, true>(job, inverse, stream);
      case 256: return try_fixed_stockham<T, 256, true>(job, inverse, stream);
      case 512: return try_fixed_stockham<T, 512, true>(job, inverse, stream);
      case 1024: return try_fixed_stockham<T, 1024, true>(job, inverse, stream);
      default: return false;
    }
  }
  switch (job.n) {
    case 32: return try_fixed_stockham<T, 32, false>(job, inverse, stream);
    case 64: return try_fixed_stockham<T, 64, false>(job, inverse, stream);
    case 128: return try_fixed_stockham<T, 128, false>(job, inverse, stream);
    case 256: return try_fixed_stockham<T, 256, false>(job, inverse, stream);
    case 512: return try_fixed_stockham<T, 512, false>(job, inverse, stream);
    case 1024: return try_fixed_stockham<T, 1024, false>(job, inverse, stream);
    case 2048: return try_fixed_stockham<T, 2048, false>(job, inverse, stream);
    case 4096: return try_fixed_stockham<T, 4096, false>(job, inverse, stream);
    default: return false;
  }
}

}  // namespace oocfft::kernels::cuda
