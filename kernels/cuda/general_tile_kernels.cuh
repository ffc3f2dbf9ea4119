#pragma once
// Device code of the tile kernels (see tile_job.hpp). Included by the .cu
// files that instantiate it for one element type each.
//
// Stockham formulation: Govindaraju et al., "High Performance Discrete
// Fourier Transforms on Graphics Processors", SC08, Fig. 2 (the pass
// indexing) and section IV-B (the shared-memory kernel, FftShMem; the
// strided-axis kernel, FftShMemCol). Each pass: butterfly j of a line reads
// points j + r n/R, multiplies point r by w_{Ns R}^{(j mod Ns) r} and writes
// points (j div Ns) Ns R + (j mod Ns) + r Ns.
#if defined(__CUDACC_RTC__)
#include "kernels/cuda/nvrtc_std.hpp"  // NVRTC has no C++ library
#else
#include <cuda_runtime.h>

#include <cstdint>
#endif

#include "kernels/butterfly.hpp"
#include "kernels/cuda/complex_vector.cuh"
#include "kernels/cuda/schedule_geometry.hpp"
#include "kernels/cuda/tile_job.hpp"
#include "kernels/direct_prime.hpp"

namespace oocfft::kernels::cuda::detail {

// Shared memory holds real and imaginary parts in separate arrays of T, and
// index i lives at i + (i >> skewed_shift<T>()): one spare word every 32
// banks (float) or every 16 double words. A pass's stores stride by R (a
// power of two) across the warp; the skew spreads them over all banks (for
// R = 16 and float, lane t hits bank (16t + t/2) mod 32: 32 distinct banks).
template <class T>
__device__ __forceinline__ int skew(int i) {
  return i + (i >> skewed_shift<T>());
}

// One 8- or 16-byte access per complex value (std::complex and cudaMalloc
// keep them aligned).
template <class T>
__device__ __forceinline__ Complex<T> load(const Complex<T>* p) {
  const auto v = *reinterpret_cast<const typename Vec2<T>::type*>(p);
  return {v.x, v.y};
}
template <class T>
__device__ __forceinline__ Complex<T> load_table(const Complex<T>* p) {
  const auto v = __ldg(reinterpret_cast<const typename Vec2<T>::type*>(p));
  return {v.x, v.y};
}

// The twiddles of a pass of radix R and span S at `within` (< S): twiddle
// r is w^(within r), entry (within, r) of the pass's table, at (r - 1) S +
// within (r-major, by_radix_digit in device_line_plan.cpp). Each is loaded
// where it is used, but where Factored (factored_twiddles): there a
// composite R = A B (composite_factor) loads the A - 1 + B - 1 entries of r
// < A and r = A b up front and forms the others as w^(within a) w^(within A
// b), one complex multiply (one rounding) each.
template <int R, int S, class T, bool Factored>
class PassTwiddles {
 public:
  __device__ __forceinline__ PassTwiddles(const Complex<T>* table, int within) : column_(table + within) {
    if constexpr (Factored) {
      constexpr int A = composite_factor(R);
OOCFFT_UNROLL
      for (int r = 1; r < R; ++r)
        if (r < A || r % A == 0) loaded_[r] = entry(r);
    }
  }

  __device__ __forceinline__ Complex<T> operator[](int r) const {
    if constexpr (Factored) {
      constexpr int A = composite_factor(R);
      const int a = r % A;
      return a != 0 && r > A ? loaded_[a] * loaded_[r - a] : loaded_[r];
    } else {
      return entry(r);
    }
  }

 private:
  // Entry (within, r): entry (within, 1)'s address plus a constant, as the
  // passes addressed it before this class (the index summed first, table +
  // ((r - 1) S + within), made ptxas spill 4 bytes in the complex<float>
  // 4096 transposed kernel).
  __device__ __forceinline__ Complex<T> entry(int r) const { return load_table(column_ + (r - 1) * S); }

  const Complex<T>* column_;  // entry (within, 1)
  Complex<T> loaded_[Factored ? R : 1];
};

template <class T>
__device__ __forceinline__ void store(Complex<T>* p, Complex<T> z) {
  typename Vec2<T>::type v;
  v.x = z.re;
  v.y = z.im;
  *reinterpret_cast<typename Vec2<T>::type*>(p) = v;
}

__device__ __forceinline__ int divide(int x, const FastDivisor& d) {
  return d.divisor == 1 ? x : static_cast<int>(__umulhi(static_cast<unsigned>(x), d.multiplier) >> d.shift);
}

// Where a tile's values sit in shared memory. Lane-major (l*n + p) when
// points are contiguous in the input, point-major (p*L + l) when lanes are,
// so that the load, the heaviest access, is conflict-free.
struct TileLayout {
  int n;
  int log_lanes;
  bool point_major;
  __device__ __forceinline__ int position(int lane, int point) const {
    return point_major ? (point << log_lanes) + lane : lane * n + point;
  }
  // Butterfly `item` of a pass with q = n/R butterflies per line: which lane
  // and which butterfly j. Consecutive threads take consecutive positions.
  __device__ __forceinline__ void decode(int item, int q, const FastDivisor& q_divisor, int& lane, int& j) const {
    if (point_major) {
      lane = item & ((1 << log_lanes) - 1);
      j = item >> log_lanes;
    } else if (log_lanes == 0) {
      j = item;
      lane = 0;
    } else {
      lane = divide(item, q_divisor);
      j = item - lane * q;
    }
  }
};

// Butterflies a thread keeps in flight per iteration: independent shared
// memory loads and arithmetic for the scheduler (16 values at most).
template <int R>
constexpr int butterflies_per_iteration() {
  return 1;
}

template <class T, int R, bool Inverse>
__device__ __forceinline__ void stockham_pass(const T* __restrict__ src_re, const T* __restrict__ src_im,
                                              T* __restrict__ dst_re, T* __restrict__ dst_im,
                                              const TileLayout layout, const TilePass& pass,
                                              const Complex<T>* twiddles) {
  const int span = pass.span;
  constexpr int B = butterflies_per_iteration<R>();
  const int q = layout.n / R;
  const int count = q << layout.log_lanes;
  const int threads = blockDim.x;
  for (int first_item = threadIdx.x; first_item < count; first_item += B * threads) {
    Complex<T> v[B][R];
    int lane[B], j[B];
OOCFFT_UNROLL
    for (int b = 0; b < B; ++b) {
      const int item = first_item + b * threads;
      if (item < count) {
        layout.decode(item, q, pass.quarter_divisor, lane[b], j[b]);
OOCFFT_UNROLL
        for (int r = 0; r < R; ++r) {
          const int at = skew<T>(layout.position(lane[b], j[b] + r * q));
          v[b][r] = {src_re[at], src_im[at]};
        }
      }
    }
OOCFFT_UNROLL
    for (int b = 0; b < B; ++b) {
      if (first_item + b * threads < count) {
        const int within = j[b] - divide(j[b], pass.span_divisor) * span;
        if (span > 1) {
          // Entry (within, r) of the pass's table, r-major (by_radix_digit
          // in device_line_plan.cpp).
OOCFFT_UNROLL
          for (int r = 1; r < R; ++r)
            v[b][r] = twiddle<Inverse>(v[b][r], load_table(twiddles + (r - 1) * span + within));
        }
        radix_butterfly<R, Inverse>(v[b]);
        const int first = (j[b] - within) * R + within;
OOCFFT_UNROLL
        for (int r = 0; r < R; ++r) {
          const int at = skew<T>(layout.position(lane[b], first + r * span));
          dst_re[at] = v[b][r].re;
          dst_im[at] = v[b][r].im;
        }
      }
    }
  }
  __syncthreads();
}

// A direct prime pass (direct_prime.hpp): one work item per
// direct_prime_pairs_per_call<T> output pairs (m, R - m) of a butterfly, summed
// from the R inputs in shared memory; the butterfly's constants w_R^k
// follow the pass's twiddles in the table (LinePlan). The tile is
// point-major (stockham_tile_kernel) and lanes run fastest, so that a warp
// reads neighbouring words of its inputs and shares each constant (one
// broadcast). Twiddled: the pass is not the first (span > 1), a case apart so
// that the first pass's loop carries no test for it.
template <class T, bool Inverse, bool Twiddled>
__device__ __forceinline__ void direct_prime_items(const T* __restrict__ src_re, const T* __restrict__ src_im,
                                                   T* __restrict__ dst_re, T* __restrict__ dst_im,
                                                   const TileLayout& layout, const TilePass& pass,
                                                   const Complex<T>* twiddles) {
  constexpr int G = direct_prime_pairs_per_call<T>;
  const int radix = pass.radix;
  const int span = pass.span;
  const int h = (radix - 1) / 2;
  const int groups = (h + G) / G;  // of the h + 1 pairs m = 0..h
  const int q = layout.n / radix;
  const int count = (q * groups) << layout.log_lanes;
  const Complex<T>* roots = twiddles + span * (radix - 1);
  const auto root = [roots](int k) { return load_table(roots + k); };
  // Input r of butterfly j sits at position(lane, j) + r * position(0, q).
  const int step = layout.position(0, q);
  for (int item = threadIdx.x; item < count; item += blockDim.x) {
    const int lane = item & ((1 << layout.log_lanes) - 1);
    const int rest = item >> layout.log_lanes;
    const int j = rest / groups;
    const int m0 = (rest - j * groups) * G;
    const int within = Twiddled ? j - divide(j, pass.span_divisor) * span : 0;  // j mod span
    const int base = layout.position(lane, j);
    const auto value = [&](int r) {
      const int at = skew<T>(base + r * step);
      Complex<T> v = {src_re[at], src_im[at]};
      if constexpr (Twiddled) {
        if (r > 0) v = twiddle<Inverse>(v, load_table(twiddles + (r - 1) * span + within));
      }
      return v;
    };
    Complex<T> low[G], high[G];
    direct_prime_pairs<Inverse>(radix, m0, value, root, low, high);
    const int first = (j - within) * radix + within;
OOCFFT_UNROLL
    for (int g = 0; g < G; ++g) {
      const int m = m0 + g;
      if (m > h) break;
      int at = skew<T>(layout.position(lane, first + m * span));
      dst_re[at] = low[g].re;
      dst_im[at] = low[g].im;
      if (m != 0) {
        at = skew<T>(layout.position(lane, first + (radix - m) * span));
        dst_re[at] = high[g].re;
        dst_im[at] = high[g].im;
      }
    }
  }
}

template <class T, bool Inverse>
__device__ __forceinline__ void direct_prime_pass(const T* __restrict__ src_re, const T* __restrict__ src_im,
                                                  T* __restrict__ dst_re, T* __restrict__ dst_im,
                                                  const TileLayout layout, const TilePass pass,
                                                  const Complex<T>* twiddles) {
  if (pass.span > 1) {
    direct_prime_items<T, Inverse, true>(src_re, src_im, dst_re, dst_im, layout, pass, twiddles);
  } else {
    direct_prime_items<T, Inverse, false>(src_re, src_im, dst_re, dst_im, layout, pass, twiddles);
  }
  __syncthreads();
}

// A pass of a prime above 13: the in-register butterfly where
// in_register_prime<T> says so, else a direct prime pass.
template <class T, bool Inverse>
__device__ __forceinline__ void prime_pass(const T* __restrict__ src_re, const T* __restrict__ src_im,
                                           T* __restrict__ dst_re, T* __restrict__ dst_im, const TileLayout& layout,
                                           const TilePass& pass, const Complex<T>* twiddles) {
  switch (pass.radix) {
    case 17: return stockham_pass<T, 17, Inverse>(src_re, src_im, dst_re, dst_im, layout, pass, twiddles);
    case 19: return stockham_pass<T, 19, Inverse>(src_re, src_im, dst_re, dst_im, layout, pass, twiddles);
    case 23:
      if constexpr (in_register_prime<T>(23))
        return stockham_pass<T, 23, Inverse>(src_re, src_im, dst_re, dst_im, layout, pass, twiddles);
      break;
    case 29:
      if constexpr (in_register_prime<T>(29))
        return stockham_pass<T, 29, Inverse>(src_re, src_im, dst_re, dst_im, layout, pass, twiddles);
      break;
    case 31:
      if constexpr (in_register_prime<T>(31))
        return stockham_pass<T, 31, Inverse>(src_re, src_im, dst_re, dst_im, layout, pass, twiddles);
      break;
  }
  direct_prime_pass<T, Inverse>(src_re, src_im, dst_re, dst_im, layout, pass, twiddles);
}

// Runs the passes between the two halves of the tile buffer; returns the
// half that holds the result. DirectPrimes: the kernel instance for lines
// with direct prime passes; the others carry no code (and no registers) for
// them.
template <class T, bool Inverse, bool DirectPrimes>
__device__ int run_passes(T* re, T* im, int half, int start, const TileLayout& layout, const TileJob<T>& job) {
  int at = start;
  for (int p = 0; p < job.pass_count; ++p) {
    const TilePass pass = job.passes[p];
    const Complex<T>* tw = job.twiddles + pass.twiddle_offset;
    const T* sr = re + at * half;
    const T* si = im + at * half;
    T* dr = re + (1 - at) * half;
    T* di = im + (1 - at) * half;
    switch (pass.radix) {
      case 2: stockham_pass<T, 2, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 3: stockham_pass<T, 3, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 4: stockham_pass<T, 4, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 5: stockham_pass<T, 5, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 7: stockham_pass<T, 7, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 8: stockham_pass<T, 8, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 9: stockham_pass<T, 9, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 6: stockham_pass<T, 6, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 10: stockham_pass<T, 10, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 14: stockham_pass<T, 14, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 15: stockham_pass<T, 15, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 25: stockham_pass<T, 25, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 27: stockham_pass<T, 27, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 11: stockham_pass<T, 11, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 13: stockham_pass<T, 13, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      case 16: stockham_pass<T, 16, Inverse>(sr, si, dr, di, layout, pass, tw); break;
      default:
        if constexpr (DirectPrimes) {
          prime_pass<T, Inverse>(sr, si, dr, di, layout, pass, tw);
        } else {
          __trap();
        }
    }
    at = 1 - at;
  }
  return at;
}

// Which tile a block works on: lane tile, group.
struct TileCoordinates {
  std::int64_t first_lane;
  std::int64_t group;
  int lanes_here;
};

template <class T>
__device__ __forceinline__ TileCoordinates tile_coordinates(const TileJob<T>& job, std::int64_t tile,
                                                            std::int64_t lane_tiles) {
  TileCoordinates c;
  c.group = tile / lane_tiles;
  c.first_lane = (tile - c.group * lane_tiles) << job.log_lanes;
  const std::int64_t left = job.lane.count - c.first_lane;
  c.lanes_here = left < (std::int64_t{1} << job.log_lanes) ? static_cast<int>(left) : (1 << job.log_lanes);
  return c;
}

// Element e of the tile in load/store order: consecutive threads take
// consecutive lanes (lanes_fast) or consecutive points.
__device__ __forceinline__ void element_of(int e, bool lanes_fast, int n, const FastDivisor& n_divisor,
                                           int log_lanes, int& lane, int& point) {
  if (lanes_fast) {
    lane = e & ((1 << log_lanes) - 1);
    point = e >> log_lanes;
  } else if (log_lanes == 0) {
    point = e;
    lane = 0;
  } else {
    lane = divide(e, n_divisor);
    point = e - lane * n;
  }
}

// Loads the tile; points at or past `valid` (Bluestein's zero padding) and
// lanes past the end read as zero. Bluestein multiplies by the chirp here.
// Global loads a thread issues before it stores any to shared memory: one
// load in flight per thread would cap the kernel near a third of the memory
// bandwidth (Little's law: ~14 KB must be in flight per SM).
template <class T>
inline constexpr int loads_in_flight = sizeof(T) == 4 ? 8 : 4;

// Loads the tile; points at or past `valid` (Bluestein's zero padding) and
// lanes past the end read as zero. Bluestein multiplies by the chirp here.
template <class T, bool Chirp>
__device__ __forceinline__ void load_tile(T* re, T* im, const TileLayout& layout, const TileJob<T>& job,
                                          const TileCoordinates& c, int valid) {
  constexpr int U = loads_in_flight<T>;
  const int total = job.n << job.log_lanes;
  const int threads = blockDim.x;
  const Complex<T>* base = job.in + c.first_lane * job.lane.in + c.group * job.group.in;
  for (int first = threadIdx.x; first < total; first += U * threads) {
    Complex<T> z[U];
    int lane[U], point[U];
OOCFFT_UNROLL
    for (int u = 0; u < U; ++u) {
      const int e = first + u * threads;
      z[u] = {T(0), T(0)};
      if (e < total) {
        element_of(e, job.lanes_fast_in, job.n, job.n_divisor, job.log_lanes, lane[u], point[u]);
        if (lane[u] < c.lanes_here && point[u] < valid)
          z[u] = load(base + lane[u] * job.lane.in + point[u] * job.point_in);
      }
    }
OOCFFT_UNROLL
    for (int u = 0; u < U; ++u) {
      if (first + u * threads < total) {
        if constexpr (Chirp) {
          if (lane[u] < c.lanes_here && point[u] < valid) {
            if (job.conjugate) z[u] = conj(z[u]);
            z[u] = z[u] * load_table(job.chirp + point[u]);
          }
        }
        const int at = skew<T>(layout.position(lane[u], point[u]));
        re[at] = z[u].re;
        im[at] = z[u].im;
      }
    }
  }
  __syncthreads();
}

template <class T, bool Inverse, bool Chirp>
__device__ __forceinline__ void store_tile(const T* re, const T* im, const TileLayout& layout,
                                           const TileJob<T>& job, const TileCoordinates& c, int valid) {
  const int total = job.n << job.log_lanes;
  Complex<T>* base = job.out + c.first_lane * job.lane.out + c.group * job.group.out;
  for (int e = threadIdx.x; e < total; e += blockDim.x) {
    int lane, point;
    element_of(e, job.lanes_fast_out, job.n, job.n_divisor, job.log_lanes, lane, point);
    if (lane >= c.lanes_here || point >= valid) continue;
    const int at = skew<T>(layout.position(lane, point));
    Complex<T> z = {re[at], im[at]};
    if constexpr (Chirp) {
      z = z * load_table(job.chirp + point);
      if (job.conjugate) z = conj(z);
    } else if (job.post == TilePost::twiddle_by_lane || job.post == TilePost::twiddle_by_group) {
      const std::int64_t index = job.post == TilePost::twiddle_by_lane ? c.first_lane + lane : c.group;
      const std::int64_t e_full = index * point;  // < N, the four-step length
      const std::int64_t mask = (std::int64_t{1} << job.post_log_block) - 1;
      const Complex<T> w =
          load_table(job.post_low + (e_full & mask)) * load_table(job.post_high + (e_full >> job.post_log_block));
      z = twiddle<Inverse>(z, w);
    } else if (job.post == TilePost::table) {
      z = z * load_table(job.post_table + point * job.table_point + (c.first_lane + lane) * job.table_lane +
                         c.group * job.table_group);
    }
    store(base + lane * job.lane.out + point * job.point_out, job.scale * z);
  }
}

// The tile of this block: one block per tile, block (x, y) taking tile
// y * gridDim.x + x (tile_grid in schedule_geometry.hpp). No tile kernel
// loops over tiles: in a grid-stride loop ptxas hoisted thread-invariant
// shared-memory offsets out of the loop and kept them live through every
// pass (a compiled schedule of 1470 = 2 3 5 7 7 held 168 registers, 48
// without the loop).
__device__ __forceinline__ std::int64_t this_tile() {
  return static_cast<std::int64_t>(blockIdx.y) * gridDim.x + blockIdx.x;
}

// DirectPrimes: the line has a direct prime pass (has_direct_prime_pass);
// its tile is point-major whatever the load mapping (direct_prime_items).
template <class T, bool Inverse, bool DirectPrimes>
__global__ void __launch_bounds__(max_tile_threads<T>, min_tile_blocks<T>) stockham_tile_kernel(const __grid_constant__ TileJob<T> job) {
  extern __shared__ unsigned char shared_raw[];
  const int total = job.n << job.log_lanes;
  // Two halves (Stockham ping-pong) of real parts, then two of imaginary.
  const int half = skew<T>(total) + 1;
  T* re = reinterpret_cast<T*>(shared_raw);
  T* im = re + 2 * half;
  const TileLayout layout{job.n, job.log_lanes, job.lanes_fast_in || DirectPrimes};
  const std::int64_t lane_tiles = (job.lane.count + (1 << job.log_lanes) - 1) >> job.log_lanes;
  const std::int64_t tile = this_tile();
  if (tile >= lane_tiles * job.group.count) return;  // the last grid row's spare blocks
  const TileCoordinates c = tile_coordinates(job, tile, lane_tiles);
  load_tile<T, false>(re, im, layout, job, c, job.n);
  const int at = run_passes<T, Inverse, DirectPrimes>(re, im, half, 0, layout, job);
  store_tile<T, Inverse, false>(re + at * half, im + at * half, layout, job, c, job.n);
}

// Bluestein (SC08 section IV-E) in one kernel when M fits a tile: chirp and
// zero padding on load, forward FFT_M, times FFT_M(b)/M, inverse FFT_M,
// chirp on store. The inverse transform is conj(forward(conj x)), folded
// into the two chirp multiplies.
template <class T>
__global__ void __launch_bounds__(max_tile_threads<T>, min_tile_blocks<T>) bluestein_tile_kernel(const __grid_constant__ TileJob<T> job) {
  extern __shared__ unsigned char shared_raw[];
  const int total = job.n << job.log_lanes;
  const int half = skew<T>(total) + 1;
  T* re = reinterpret_cast<T*>(shared_raw);
  T* im = re + 2 * half;
  const TileLayout layout{job.n, job.log_lanes, job.lanes_fast_in};
  const std::int64_t lane_tiles = (job.lane.count + (1 << job.log_lanes) - 1) >> job.log_lanes;
  const std::int64_t tile = this_tile();
  if (tile >= lane_tiles * job.group.count) return;  // the last grid row's spare blocks
  const TileCoordinates c = tile_coordinates(job, tile, lane_tiles);
  load_tile<T, true>(re, im, layout, job, c, job.valid);
  int at = run_passes<T, false, false>(re, im, half, 0, layout, job);
  T* hr = re + at * half;
  T* hi = im + at * half;
  for (int e = threadIdx.x; e < total; e += blockDim.x) {
    int lane, point;
    element_of(e, layout.point_major, job.n, job.n_divisor, job.log_lanes, lane, point);
    const int k = skew<T>(layout.position(lane, point));
    const Complex<T> z = Complex<T>{hr[k], hi[k]} * load_table(job.spectrum + point);
    hr[k] = z.re;
    hi[k] = z.im;
  }
  __syncthreads();
  at = run_passes<T, true, false>(re, im, half, at, layout, job);
  store_tile<T, false, true>(re + at * half, im + at * half, layout, job, c, job.valid);
}

template <class T>
__global__ void chirp_pad_kernel(const Complex<T>* data, LineBatch lines, std::int64_t first, std::int64_t count,
                                 const Complex<T>* chirp, bool conjugate, Complex<T>* work, std::int64_t m) {
  const std::int64_t total = count * m;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < total;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const std::int64_t row = i / m;
    const std::int64_t point = i - row * m;
    Complex<T> z = {T(0), T(0)};
    if (point < lines.signed_length()) {
      const std::int64_t q = first + row;
      const std::int64_t group = q / lines.lane_count();
      const std::int64_t lane = q - group * lines.lane_count();
      z = load(data + lane * lines.lane_distance + group * lines.group_distance + point * lines.point_stride);
      if (conjugate) z = conj(z);
      z = z * load_table(chirp + point);
    }
    store(work + i, z);
  }
}

template <class T>
__global__ void chirp_unpad_kernel(const Complex<T>* work, std::int64_t m, const Complex<T>* chirp, bool conjugate,
                                   T scale, Complex<T>* data, LineBatch lines, std::int64_t first,
                                   std::int64_t count) {
  const std::int64_t length = lines.signed_length();
  const std::int64_t total = count * length;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < total;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const std::int64_t row = i / length;
    const std::int64_t point = i - row * length;
    Complex<T> z = load(work + row * m + point) * load_table(chirp + point);
    if (conjugate) z = conj(z);
    const std::int64_t q = first + row;
    const std::int64_t group = q / lines.lane_count();
    const std::int64_t lane = q - group * lines.lane_count();
    store(data + lane * lines.lane_distance + group * lines.group_distance + point * lines.point_stride, scale * z);
  }
}

template <class T>
__global__ void scale_kernel(Complex<T>* data, std::int64_t count, T scale) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x)
    store(data + i, scale * load(data + i));
}

}  // namespace oocfft::kernels::cuda::detail
