#pragma once
// Compiled-schedule tile kernels: the shared-memory Stockham tile kernel of
// general_tile_kernels.cuh (run-time length) with the line length N a
// template parameter, for every 13-smooth length a tile holds. Included by the generated .cu files that
// instantiate the lengths of OOCFFT_KERNEL_SET (kernels/cuda/CMakeLists.txt).
//
// Why: the general kernel decodes run-time lengths, pass descriptors and
// layouts for every value it moves and switches on the radix per pass, which
// makes it instruction-bound on mixed radices (ncu). Here the
// radix schedule (radix_schedule.hpp, shared with the host plan), spans, tile
// shape, block size and every shared-memory index are compile-time, so index
// arithmetic folds into shifts, multiplies by constants and immediate offsets.
// Twiddles still come from the LinePlan table (long double on the host); only
// their per-pass offsets are read from the job.
//
// Stockham indexing as SC08 (Govindaraju et al.), Fig. 2: butterfly j of a
// pass of radix R and span Ns reads points j + r n/R and writes points
// (j div Ns) Ns R + (j mod Ns) + r Ns. In the first pass (Ns = 1) the reads
// and in the last (Ns = n/R) the writes are points j + r n/R, i.e. runs of
// consecutive points across consecutive threads: those two passes go straight
// between global memory and registers, and shared memory carries only the
// exchanges between passes (SC08 IV-B's FftShMem, minus the staging copies).
// Strided lines of one radix (16, 13, ...) never touch shared memory.
// Uniform tiles (long_line_tiles.hpp) run some passes in stages: the
// passes of a stage keep a thread's values in registers (stage_pass), so
// shared memory carries only the exchanges between stages.
// Contiguous lines whose first or last pass has fewer than 4 butterflies per
// line stage that side through shared memory (ScheduleGeometry::staged_*).
//
// A thread reads all the values of its butterflies of a pass before any is
// written back: one shared buffer (not a ping-pong pair) and two barriers per
// exchange, which halves the shared memory of a tile. The inverse transform
// is conj(F(conj x)): one instantiation serves both directions, the two
// conjugations folded into the global load and store.
//
// The same header is compiled twice over: by nvcc for the lengths of
// OOCFFT_KERNEL_SET, and at plan time by NVRTC (plan_time_compiler.cpp) for
// any other length a tile holds. NVRTC sees only the device code: the
// standard names come from nvrtc_std.hpp and the host launchers below are
// left out (plan_time_schedules.cpp launches those kernels itself).
#if defined(__CUDACC_RTC__)
#include "kernels/cuda/nvrtc_std.hpp"  // NVRTC has no C++ library
#else
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#endif

#include "kernels/butterfly.hpp"
#include "kernels/unit_roots.hpp"
#include "kernels/cuda/schedule_geometry.hpp"
#include "kernels/cuda/warp_partners.hpp"
#if defined(__CUDACC_RTC__)
#include "kernels/cuda/general_tile_kernels.cuh"
#else
#include "kernels/cuda/tile_launchers.cuh"
#endif
#include "kernels/cuda/in_place_kernels.cuh"

namespace oocfft::kernels::cuda::detail {

// Shared-memory position of (lane, point): point-major for strided lines,
// lane-major for contiguous ones, as the general kernel (TileLayout).
template <class G, bool LanesFast>
__device__ __forceinline__ int schedule_position(int lane, int point) {
  if constexpr (LanesFast) {
    return (point << G::log_lanes) + lane;
  } else {
    return lane * (G::points / G::lanes) + point;
  }
}

// Word of shared-memory index i in a tile's buffers: skewed by one spare
// word every 2^G::shift (skew() in general_tile_kernels.cuh), or left as it is where
// the shape unskews the buffers (G::shift 0, tile_skew_shift in
// stockham_tile.hpp says where and why).
template <class G>
__device__ __forceinline__ int tile_word(int i) {
  if constexpr (G::shift == 0) {
    return i;
  } else {
    return i + (i >> G::shift);
  }
}

// Butterfly `item` of a pass with Q butterflies per line: lane and j.
// Consecutive threads take consecutive lanes (strided lines) or consecutive
// j (contiguous lines), so the global accesses of the first and last pass
// run along memory.
template <class G, bool LanesFast, int Q>
__device__ __forceinline__ void schedule_decode(int item, int& lane, int& j) {
  if constexpr (LanesFast) {
    lane = item & (G::lanes - 1);
    j = item >> G::log_lanes;
  } else {
    // Unsigned: a signed division by a constant needs a sign fix-up, and
    // those few extra live values made ptxas spill at 64 registers.
    lane = static_cast<int>(static_cast<unsigned>(item) / static_cast<unsigned>(Q));
    j = item - lane * Q;
  }
}

// Address of point `point` of tile lane `lane` (base: the tile's first lane);
// the fast dimension has stride 1 (the launcher checks).
template <bool LanesFast, class C>
__device__ __forceinline__ C* schedule_address(C* base, int lane, int point, std::int64_t lane_stride,
                                               std::int64_t point_stride) {
  if constexpr (LanesFast) {
    return base + lane + point * point_stride;
  } else {
    return base + lane * lane_stride + point;
  }
}

// Element e of a tile in copy order: consecutive threads take consecutive
// lanes (strided lines) or consecutive points (contiguous lines), so global
// accesses run along memory; the shared-memory position of element e is e
// in both layouts (schedule_position).
template <class G, bool LanesFast, int N>
__device__ __forceinline__ void tile_element(unsigned e, int& lane, int& point) {
  if constexpr (LanesFast) {
    lane = static_cast<int>(e & (G::lanes - 1));
    point = static_cast<int>(e >> G::log_lanes);
  } else {
    lane = static_cast<int>(e / N);
    point = static_cast<int>(e % N);
  }
}

// Where tile `tile` of a job starts, and how many of its lanes exist.
template <class T>
struct TileSite {
  const Complex<T>* in;
  Complex<T>* out;
  int lanes_here;
  std::int64_t first_lane;  // of the job's lanes
  std::int64_t group;
};

template <class G, class T>
__device__ __forceinline__ TileSite<T> tile_site(const TileJob<T>& job, std::int64_t tile, std::int64_t lane_tiles) {
  const std::int64_t group = tile / lane_tiles;
  const std::int64_t first_lane = (tile - group * lane_tiles) << G::log_lanes;
  const std::int64_t left = job.lane.count - first_lane;
  return {job.in + group * job.group.in + first_lane * job.lane.in,
          job.out + group * job.group.out + first_lane * job.lane.out,
          left < G::lanes ? static_cast<int>(left) : G::lanes, first_lane, group};
}

// Calls visit(e, lane, point) for every element of the tile this thread
// copies, in copy order.
template <class G, bool LanesFast, int N, class Visit>
__device__ __forceinline__ void for_each_element(Visit&& visit) {
  constexpr int U = (G::points + G::threads - 1) / G::threads;
OOCFFT_UNROLL
  for (int u = 0; u < U; ++u) {
    const unsigned e = threadIdx.x + u * G::threads;
    if (e >= static_cast<unsigned>(G::points)) break;
    int lane, point;
    tile_element<G, LanesFast, N>(e, lane, point);
    visit(e, lane, point);
  }
}

// Copies a tile in: fetch(lane, point) for every element this thread copies,
// all issued before the first put(e, point, z) (one load in flight per
// thread ran n = 9 at half the speed of the direct first pass), then a
// barrier.
template <class G, bool LanesFast, int N, class T, class Fetch, class Put>
__device__ __forceinline__ void copy_tile_in(Fetch&& fetch, Put&& put) {
  constexpr int U = (G::points + G::threads - 1) / G::threads;
  Complex<T> z[U];
OOCFFT_UNROLL
  for (int u = 0; u < U; ++u) {
    const unsigned e = threadIdx.x + u * G::threads;
    int lane, point;
    tile_element<G, LanesFast, N>(e, lane, point);
    z[u] = e < static_cast<unsigned>(G::points) ? fetch(lane, point) : Complex<T>{T(0), T(0)};
  }
OOCFFT_UNROLL
  for (int u = 0; u < U; ++u) {
    const unsigned e = threadIdx.x + u * G::threads;
    if (e >= static_cast<unsigned>(G::points)) break;
    int lane, point;  // recomputed: an array of them beside z spilled registers
    tile_element<G, LanesFast, N>(e, lane, point);
    put(e, point, z[u]);
  }
  __syncthreads();
}

// Puts element e of a tile (copy order) into shared memory, conjugated
// where `conjugate` (the inverse's first conjugation).
template <class G, class T>
__device__ __forceinline__ void put_tile_value(T* re, T* im, unsigned e, Complex<T> z, bool conjugate) {
  const int at = tile_word<G>(static_cast<int>(e));
  re[at] = z.re;
  im[at] = conjugate ? -z.im : z.im;
}

// Where the passes of a schedule read their first and write their last
// values, global memory always where the geometry allows (not staged_load /
// staged_store):
// - direct: a plain transform; the last stage stores as ScheduleStore says.
// - convolution_first: Bluestein's first transform. The first stage reads
//   x_p chirp_p (x conjugated first for the inverse) for p < valid and zero
//   past it; the last stage leaves its values times the kernel spectrum,
//   conjugated, in shared memory for the second (bluestein_schedule_kernel).
// - convolution_second: Bluestein's second transform, from shared memory;
//   the last stage stores conj(value) chirp_p (conjugated for the inverse)
//   times scale, for p < valid.
// Folding the chirp and spectrum products into the passes leaves shared
// memory only the exchanges between stages, as a plain transform: a
// separate load, multiply and store step each cost one more trip through
// shared memory and one or two barriers.
// - to_shared: the last stage leaves its values in shared memory, in
//   natural order, for a step after the passes (the real split).
// - from_shared: the first stage reads shared memory, where a step before
//   the passes left the tile (the real merge).
// - real_rows_in: the first stage reads a lane's two real rows as one
//   complex line (packed_rows_input); the last stage as to_shared.
// - real_rows_out: the first stage as from_shared; the last stage writes
//   the real parts to the lane's first row and the imaginary parts to its
//   second.
// The last two replace a copy between shared memory and the rows and a
// barrier: the real-pairs tile issued about 1.6 times the instructions of
// the complex tile of the same length and was bound by them (ncu: SM
// throughput 80%, DRAM 43%). Reading the half spectra straight into the
// first stage (two loads a point where the pairwise copy makes one, and a
// twiddle) ran slower than the copy: the inverse pairs keep it.
// - real_merge_in: the even real inverse (real_schedule_kernels.cuh) where
//   its first stage allows it (merge_in_first_stage): the first stage reads
//   the half spectrum X once, a thread's R points at j + r q, and merges
//   each X[k] with its partner X[M - k], which the thread of butterfly
//   q - j holds (mirrored_butterfly puts it 16 lanes away in the same warp: a
//   shuffle), into 2Z[k] (merged_spectrum); the last stage as direct. It
//   replaces the merge's trip through shared memory and its barrier.
// - real_split_out: the even real forward where its last stage allows it
//   (split_in_last_stage): the first stage as direct; the last stage's
//   butterflies handed out as real_merge_in's first, each thread splits
//   its values Z[k] with their partners Z[M - k] into X[k] (split_spectrum)
//   and writes them.
enum class PassIo {
  direct,
  convolution_first,
  convolution_second,
  to_shared,
  from_shared,
  real_rows_in,
  real_rows_out,
  real_merge_in,
  real_split_out
};

// The two real rows of lane `lane` of a real-pairs tile (TilePost::
// real_pairs_*): the first at the lane's start, the second one row pitch
// (half the lane stride: lane.in reals) past it; `second` is false where
// an odd row count leaves it out.
template <class R>
struct RowPair {
  R* a;
  R* b;
  bool second;
};

template <class T>
__device__ __forceinline__ RowPair<const T> input_rows(const TileJob<T>& job, const TileSite<T>& at, int lane) {
  const T* a = reinterpret_cast<const T*>(at.in + lane * job.lane.in);
  return {a, a + job.lane.in, 2 * (at.first_lane + lane) + 1 < job.real_rows};
}

template <class T>
__device__ __forceinline__ RowPair<T> output_rows(const TileJob<T>& job, const TileSite<T>& at, int lane) {
  T* a = reinterpret_cast<T*>(at.out + lane * job.lane.out);
  return {a, a + job.lane.out, 2 * (at.first_lane + lane) + 1 < job.real_rows};
}

// Point p of the complex line z = a + i b of two real rows (a missing second
// row reads as zero).
template <class T>
__device__ __forceinline__ Complex<T> packed_rows_input(const RowPair<const T>& rows, int p) {
  return {rows.a[p], rows.second ? rows.b[p] : T(0)};
}

// w_L^s = exp(-2 pi i s / L), a constant (UnitRoots).
template <class T, int L>
__device__ __forceinline__ Complex<T> root_of_unity(int s) {
  return {static_cast<T>(UnitRoots<L>::cos(s)), static_cast<T>(-UnitRoots<L>::sin(s))};
}

// 2Z[k] from X[k] = a and X[M - k] = b, t = w_n^k (n = 2M), conjugated,
// since the passes compute the inverse as conj(F(conj x)): the real merge
// after Numerical Recipes, 3rd ed., section 12.3.2, eq. 12.3.6-12.3.7 (as
// real_rows.cu), 2Z[k] = e + i o, e = a + conj b, o = conj(t) (a - conj b).
template <class T>
__device__ __forceinline__ Complex<T> merged_pair(Complex<T> a, Complex<T> b, Complex<T> t) {
  const Complex<T> e = {a.re + b.re, a.im - b.im};
  const Complex<T> d = {a.re - b.re, a.im + b.im};
  const Complex<T> o = conj(t) * d;
  return {e.re - o.im, -(e.im + o.re)};
}

// real_merge_in: a thread's R values of X (x[r] = X[j + r Q], M = R Q) ->
// conj 2Z at the same points. Slots s and R - 1 - s hold partners, in this
// thread (j = 0 and j = Q/2) or in its partner's (the shuffles). The
// thread of j = 0 reads its upper slots one point on (slot m >= R/2 holds
// X[(m + 1) Q], slot R - 1 X[M], which pairs with X[0]) and X[M/2], its own
// partner, apart (`middle`: 2Z[M/2] = 2 conj X[M/2]); it puts its values
// back in natural order after the merge. Im X[0] and Im X[M] are ignored,
// as numpy's irfft does. Twiddles: w_n^(j + s Q) = w_n^j w_(2R)^s, `wj`
// from the table (loaded with the values) and the second a constant, as a
// pass's own twiddles at span 1 (stage_pass): loading one entry a slot, two
// a step of the merge, left the steps waiting on them.
template <class T, int R, int Q>
__device__ __forceinline__ void merged_spectrum(Complex<T>* x, int j, Complex<T> wj, Complex<T> middle) {
  const bool ends = j == 0;
  const bool own = ends || j == Q / 2;
  if (ends) x[0].im = x[R - 1].im = T(0);
  OOCFFT_UNROLL
  for (int s = 0; s < R / 2; ++s) {
    const int m = R - 1 - s;
    Complex<T> ps = {__shfl_xor_sync(0xffffffffu, x[m].re, 16), __shfl_xor_sync(0xffffffffu, x[m].im, 16)};
    Complex<T> pm = {__shfl_xor_sync(0xffffffffu, x[s].re, 16), __shfl_xor_sync(0xffffffffu, x[s].im, 16)};
    if (own) {
      ps = x[m];
      pm = x[s];
    }
    const Complex<T> ts = s == 0 ? wj : wj * root_of_unity<T, 2 * R>(s);
    // Slot m of j = 0 holds point (m + 1) Q.
    const Complex<T> tm = ends ? root_of_unity<T, 2 * R>(m + 1) : wj * root_of_unity<T, 2 * R>(m);
    const Complex<T> zs = merged_pair(x[s], ps, ts);
    const Complex<T> zm = merged_pair(x[m], pm, tm);
    x[s] = zs;
    x[m] = zm;
  }
  if (ends) {  // slot m holds point m + 1 (m >= R/2), slot R - 1 X[M]: natural order, 2Z[M/2] in its place
    OOCFFT_UNROLL
    for (int r = R - 1; r > R / 2; --r) x[r] = x[r - 1];
    x[R / 2] = {T(2) * middle.re, T(2) * middle.im};
  }
}

// real_split_out: a thread's R values of the half-length spectrum (x[r] =
// Z[k], k = j + r Q, M = R Q) -> X[k] = scale (e + w_n^k o) into `row`
// (n = 2M; e = (Z[k] + conj Z[M-k]) / 2, o = (Z[k] - conj Z[M-k]) / (2i):
// the split of real_rows.cu), X[M] too from the thread of j = 0. The
// partner Z[M - k] is slot R - 1 - r of the partner thread (the
// shuffles), or of this thread for j = Q/2, or slot (R - r) mod R of this
// thread for j = 0. Twiddles as merged_spectrum's. Every thread of the
// warp takes part in the shuffles; only `writes` ones store.
template <class T, int M, int R, int Q>
__device__ __forceinline__ void split_spectrum(const Complex<T>* x, int j, Complex<T> wj, Complex<T>* row, bool writes,
                                               T scale) {
  const bool ends = j == 0, middle = j == Q / 2;
  const T half = T(0.5) * scale;
  OOCFFT_UNROLL
  for (int r = 0; r < R; ++r) {
    Complex<T> b = {__shfl_xor_sync(0xffffffffu, x[R - 1 - r].re, 16),
                    __shfl_xor_sync(0xffffffffu, x[R - 1 - r].im, 16)};
    if (middle) b = x[R - 1 - r];
    if (ends) b = x[(R - r) % R];
    const Complex<T> a = x[r];
    const Complex<T> e = {half * (a.re + b.re), half * (a.im - b.im)};
    const Complex<T> o = {half * (a.im + b.im), half * (b.re - a.re)};
    const Complex<T> wo = (r == 0 ? wj : wj * root_of_unity<T, 2 * R>(r)) * o;
    if (writes) {
      store(row + j + r * Q, Complex<T>{e.re + wo.re, e.im + wo.im});
      if (r == 0 && ends) store(row + M, Complex<T>{e.re - wo.re, wo.im - e.im});  // X[M] = conj(e - wo) at k = 0
    }
  }
}

// Bluestein's chirp products, at the first transform's load (x_p chirp_p,
// x conjugated first for the inverse) and at the second transform's store
// (conj of its value, completing the inverse, times chirp_p, conjugated
// for the inverse, times scale), for points p < job.valid: the same in the
// passes (PassIo) and in the staged copies (bluestein_copy_in / _out).
template <class T>
__device__ __forceinline__ Complex<T> chirped_input(const TileJob<T>& job, int point, Complex<T> x) {
  return (job.conjugate ? conj(x) : x) * load_table(job.chirp + point);
}

template <class T>
__device__ __forceinline__ Complex<T> chirped_output(const TileJob<T>& job, int point, Complex<T> value) {
  const Complex<T> z = conj(value) * load_table(job.chirp + point);
  return job.scale * (job.conjugate ? conj(z) : z);
}

// Four-step step A's twiddle w_n^(index * point), n the whole line, index
// the lane (lines contiguous) or the group (lines strided): two short tables
// as the general kernel (TilePost, tile_job.hpp).
template <class T>
__device__ __forceinline__ Complex<T> four_step_twiddle(const TileJob<T>& job, const TileSite<T>& at, int lane,
                                                        int point) {
  const std::int64_t index = job.post == TilePost::twiddle_by_lane ? at.first_lane + lane : at.group;
  const std::int64_t e = index * point;  // < n
  const std::int64_t mask = (std::int64_t{1} << job.post_log_block) - 1;
  return load_table(job.post_low + (e & mask)) * load_table(job.post_high + (e >> job.post_log_block));
}

// Pass P of a stage of passes P0..P1-1 on the D values x of one group
// (D the product of the stage's radices; `within` the group's place in the
// span S of pass P0). Indices after SC08's Stockham pass (above): with L
// the product of the stage's radices before P and Q = D / (L R) that after
// it, butterfly (sigma, alpha) of the group (sigma < L, alpha < Q) reads
// its values r at x[sigma + L (alpha + r Q)] and writes them to
// x[sigma + r L + L R alpha]; its twiddles are the pass's table entries at
// within + sigma S. The first pass (L = 1) reads x[alpha + r Q], the
// group's points in the stage's input order, and the last (Q = 1) leaves
// x[sigma + r L] in the stage's output order: the group is one radix-D
// butterfly of span S to the passes around it, with the plan's passes and
// twiddles and no trip through shared memory in between.
template <class T, int N, bool LanesFast, int P0, int P1, int P>
__device__ __forceinline__ void stage_pass(Complex<T>* x, const TileJob<T>& job, int within) {
  using G = ScheduleGeometry<T, N, LanesFast>;
  constexpr int R = G::schedule.radices[P];
  constexpr int S = G::schedule.span(P0);
  constexpr int span = G::schedule.span(P);
  constexpr int L = span / S;
  constexpr int D = G::schedule.span(P1 - 1) * G::schedule.radices[P1 - 1] / S;
  constexpr int Q = D / (L * R);
  const Complex<T>* tw = job.twiddles + job.passes[P].twiddle_offset;
  // A later pass of a stage past span 1 takes the entry at within + sigma S
  // as the product of the entries at within (this thread's, R - 1 of them)
  // and at sigma S (the same for every thread: L1 hits), since w^(r (within
  // + sigma S)) = w^(r within) w^(r sigma S): the L (R - 1) entries a
  // thread would otherwise wait on after the passes before, from L2 (the
  // tables of long lines outgrow L1), shrink to R - 1 loaded up front.
  constexpr bool split = L > 1 && S > 1;
  constexpr bool factored = factored_twiddles<T>(R, span, false);
  Complex<T> own[split ? R : 1];
  if constexpr (split) {
    const PassTwiddles<R, span, T, factored> twiddle(tw, within);
OOCFFT_UNROLL
    for (int r = 1; r < R; ++r) own[r] = twiddle[r];
  }
  Complex<T> y[D];
OOCFFT_UNROLL
  for (int sigma = 0; sigma < L; ++sigma) {
OOCFFT_UNROLL
    for (int alpha = 0; alpha < Q; ++alpha) {
      Complex<T> u[R];
OOCFFT_UNROLL
      for (int r = 0; r < R; ++r) u[r] = x[sigma + L * (alpha + r * Q)];
      if constexpr (split) {
OOCFFT_UNROLL
        for (int r = 1; r < R; ++r)
          u[r] = u[r] * (sigma == 0 ? own[r] : own[r] * load_table(tw + (r - 1) * span + sigma * S));
      } else if constexpr (S == 1 && L > 1) {
        // At span 1 (within = 0) the entries are w_{L R}^(r sigma): constants,
        // as a composite butterfly's own. Loaded (the same entries for every
        // thread), ptxas spilled more (12288 complex<float> 304 bytes, 192
        // as constants) and ran slower. Measured: bench/RESULTS.md, section
        // Kernel tuning table (sm_90).
        using Roots = UnitRoots<L * R>;
OOCFFT_UNROLL
        for (int r = 1; r < R; ++r) {
          const int m = (r * sigma) % (L * R);
          if (m != 0) u[r] = u[r] * Complex<T>{static_cast<T>(Roots::cos(m)), static_cast<T>(-Roots::sin(m))};
        }
      } else if constexpr (span > 1) {
        const PassTwiddles<R, span, T, factored> twiddle(tw, within + sigma * S);
OOCFFT_UNROLL
        for (int r = 1; r < R; ++r) u[r] = u[r] * twiddle[r];
      }
      radix_butterfly<R, false>(u);
OOCFFT_UNROLL
      for (int r = 0; r < R; ++r) y[sigma + r * L + L * R * alpha] = u[r];
    }
  }
OOCFFT_UNROLL
  for (int i = 0; i < D; ++i) x[i] = y[i];
}

template <class T, int N, bool LanesFast, int P0, int P1, int... Ks>
__device__ __forceinline__ void stage_passes(Complex<T>* x, const TileJob<T>& job, int within,
                                             std::integer_sequence<int, Ks...>) {
  (stage_pass<T, N, LanesFast, P0, P1, P0 + Ks>(x, job, within), ...);
}

// Stage `Stage` of the schedule (one pass, or passes in registers) for the
// butterflies this thread owns: read (global memory in a direct first
// stage, shared memory otherwise), twiddle, butterfly, write (global memory
// in a direct last stage, shared memory otherwise). The inverse's
// conjugations happen at the global accesses.
template <class T, int N, bool LanesFast, int Stage, PassIo Io, ScheduleStore Store>
__device__ __forceinline__ void schedule_stage(T* re, T* im, const TileJob<T>& job, const TileSite<T>& at,
                                               bool inverse) {
  const Complex<T>* in = at.in;
  Complex<T>* out = at.out;
  const int lanes_here = at.lanes_here;
  using G = ScheduleGeometry<T, N, LanesFast>;
  constexpr int P0 = G::first_pass(Stage);
  constexpr int P1 = G::first_pass(Stage + 1);
  // A stage is a radix-R pass of span `span` to the tile: a group of R
  // points in, R out, wherever its passes run (stage_pass).
  constexpr int R = G::stage_points(Stage);
  constexpr int span = G::schedule.span(P0);
  constexpr int q = N / R;
  constexpr int butterflies = G::lanes * q;
  constexpr int B = (butterflies + G::threads - 1) / G::threads;
  constexpr bool whole = butterflies % G::threads == 0;
  constexpr bool from_global = Io != PassIo::convolution_second && Io != PassIo::from_shared &&
                               Io != PassIo::real_rows_out && P0 == 0 && !G::staged_load;
  constexpr bool to_global = Io != PassIo::convolution_first && Io != PassIo::to_shared &&
                             Io != PassIo::real_rows_in && P1 == G::passes && !G::staged_store &&
                             Store != ScheduleStore::transposed;
  constexpr bool times_spectrum = Io == PassIo::convolution_first && P1 == G::passes;
  constexpr bool merge_in = from_global && Io == PassIo::real_merge_in;
  constexpr bool split_out = to_global && Io == PassIo::real_split_out;
  static_assert(!(merge_in || split_out) || (!LanesFast && whole && R % 2 == 0 && q % 32 == 0),
                "real_merge_in and real_split_out need merge_in_first_stage's and split_in_last_stage's geometry");
  Complex<T> v[B * R];
  Complex<T> middle[merge_in ? B : 1], wj[merge_in || split_out ? B : 1];
  int lane[B], j[B];
OOCFFT_UNROLL
  for (int b = 0; b < B; ++b) {
    const int item = static_cast<int>(threadIdx.x) + b * G::threads;
    if constexpr (merge_in || split_out) {
      const LaneAndButterfly at_item = mirrored_butterfly<q>(item);
      lane[b] = at_item.lane;
      j[b] = at_item.j;
    } else {
      schedule_decode<G, LanesFast, q>(item, lane[b], j[b]);
    }
    if constexpr (split_out) wj[b] = load_table(job.post_table + j[b]);
    if (!whole && item >= butterflies) continue;
    if constexpr (from_global) {
      // Every load of the pass issued before the first use (memory-level
      // parallelism: up to B * R loads in flight per thread).
      if (lane[b] < lanes_here) {
        if constexpr (merge_in) {
          // The thread of j = 0 reads its upper slots one point on and the
          // middle apart (merged_spectrum).
          const Complex<T>* row = in + lane[b] * job.lane.in;
          const bool ends = j[b] == 0;
OOCFFT_UNROLL
          for (int r = 0; r < R; ++r) v[b * R + r] = load(row + j[b] + (r + (ends && r >= R / 2 ? 1 : 0)) * q);
          middle[b] = ends ? load(row + N / 2) : Complex<T>{T(0), T(0)};
          wj[b] = load_table(job.post_table + j[b]);
        } else if constexpr (Io == PassIo::real_rows_in) {
          const RowPair<const T> rows = input_rows(job, at, lane[b]);
OOCFFT_UNROLL
          for (int r = 0; r < R; ++r) v[b * R + r] = packed_rows_input(rows, j[b] + r * q);
        } else {
OOCFFT_UNROLL
          for (int r = 0; r < R; ++r) {
            const int point = j[b] + r * q;
            if (Io == PassIo::convolution_first && point >= job.valid) {  // constant-folded for the others
              v[b * R + r] = {T(0), T(0)};
            } else {
              v[b * R + r] = load(schedule_address<LanesFast>(in, lane[b], point, job.lane.in, job.point_in));
            }
          }
        }
      } else {
OOCFFT_UNROLL
        for (int r = 0; r < R; ++r) v[b * R + r] = {T(0), T(0)};
        if constexpr (merge_in) middle[b] = wj[b] = {T(0), T(0)};
      }
    } else {
OOCFFT_UNROLL
      for (int r = 0; r < R; ++r) {
        const int at = tile_word<G>(schedule_position<G, LanesFast>(lane[b], j[b] + r * q));
        v[b * R + r] = {re[at], im[at]};
      }
    }
  }
  if constexpr (!from_global && !to_global) __syncthreads();  // every read of this stage before any write
OOCFFT_UNROLL
  for (int b = 0; b < B; ++b) {
    if (!whole && static_cast<int>(threadIdx.x) + b * G::threads >= butterflies) continue;
    Complex<T>* x = v + b * R;
    if constexpr (from_global && Io == PassIo::convolution_first) {
OOCFFT_UNROLL
      for (int r = 0; r < R; ++r) {
        const int point = j[b] + r * q;
        if (point < job.valid) x[r] = chirped_input(job, point, x[r]);
      }
    } else if constexpr (merge_in) {
      merged_spectrum<T, R, q>(x, j[b], wj[b], middle[b]);  // conjugated already
    } else if constexpr (from_global) {
      if (inverse) {
OOCFFT_UNROLL
        for (int r = 0; r < R; ++r) x[r] = conj(x[r]);
      }
    }
    const int within = static_cast<int>(static_cast<unsigned>(j[b]) % static_cast<unsigned>(span));  // unsigned: as above
    if constexpr (P1 - P0 > 1) {
      stage_passes<T, N, LanesFast, P0, P1>(x, job, within, std::make_integer_sequence<int, P1 - P0>{});
    } else {
      if constexpr (span > 1) {
        // Consecutive threads read consecutive entries (PassTwiddles).
        constexpr bool factored = factored_twiddles<T>(R, span, false);
        const PassTwiddles<R, span, T, factored> twiddle(job.twiddles + job.passes[P0].twiddle_offset, within);
OOCFFT_UNROLL
        for (int r = 1; r < R; ++r) x[r] = x[r] * twiddle[r];
      }
      radix_butterfly<R, false>(x);
    }
    const int target = (j[b] - within) * R + within;
    if constexpr (!to_global) {
OOCFFT_UNROLL
      for (int r = 0; r < R; ++r) {
        const int at = tile_word<G>(schedule_position<G, LanesFast>(lane[b], target + r * span));
        if constexpr (times_spectrum) {
          // Times FFT_M(b)/M, then conjugated: the second transform's forward
          // passes then compute the inverse, IFFT(y) = conj(F(conj y)).
          const Complex<T> z = x[r] * load_table(job.spectrum + target + r * span);
          re[at] = z.re;
          im[at] = -z.im;
        } else {
          re[at] = x[r].re;
          im[at] = x[r].im;
        }
      }
    } else if constexpr (Io == PassIo::convolution_second) {
      if (lane[b] < lanes_here) {
OOCFFT_UNROLL
        for (int r = 0; r < R; ++r) {
          const int point = target + r * span;
          if (point < job.valid)
            store(schedule_address<LanesFast>(out, lane[b], point, job.lane.out, job.point_out),
                  chirped_output(job, point, x[r]));
        }
      }
    } else if constexpr (split_out) {
      split_spectrum<T, N, R, q>(x, j[b], wj[b], out + lane[b] * job.lane.out, lane[b] < lanes_here, job.scale);
    } else if constexpr (Io == PassIo::real_rows_out) {
      if (lane[b] < lanes_here) {
        const RowPair<T> rows = output_rows(job, at, lane[b]);
OOCFFT_UNROLL
        for (int r = 0; r < R; ++r) {
          const int point = target + r * span;
          const Complex<T> z = inverse ? conj(x[r]) : x[r];
          rows.a[point] = job.scale * z.re;
          if (rows.second) rows.b[point] = job.scale * z.im;
        }
      }
    } else if (lane[b] < lanes_here) {
      // Last pass: target = j, points j + r q, consecutive across threads.
OOCFFT_UNROLL
      for (int r = 0; r < R; ++r) {
        Complex<T> z = x[r];
        // The inverse's twiddle is conj(w): conj(F(conj x) w) = conj(F(conj x)) conj(w).
        if constexpr (Store == ScheduleStore::twiddled) z = z * four_step_twiddle(job, at, lane[b], target + r * span);
        if (inverse) z = conj(z);
        store(schedule_address<LanesFast>(out, lane[b], target + r * span, job.lane.out, job.point_out),
              job.scale * z);
      }
    }
  }
  if constexpr (!to_global) __syncthreads();  // this stage's writes before the next reads
}

// Coalesced copies between a tile of contiguous lines and shared memory, for
// schedules whose first or last pass would touch 32 rows per warp access:
// consecutive threads take consecutive points, lanes past the batch read as
// zero and are not written.
template <class T, int N>
__device__ __forceinline__ void schedule_copy_in(T* re, T* im, const TileJob<T>& job, const Complex<T>* in,
                                                 int lanes_here, bool inverse) {
  using G = ScheduleGeometry<T, N, false>;
  copy_tile_in<G, false, N, T>(
      [&](int lane, int point) {
        return lane < lanes_here ? load(in + lane * job.lane.in + point) : Complex<T>{T(0), T(0)};
      },
      [&](unsigned e, int, Complex<T> z) { put_tile_value<G>(re, im, e, z, inverse); });
}

template <class T, int N>
__device__ __forceinline__ void schedule_copy_out(const T* re, const T* im, const TileJob<T>& job, Complex<T>* out,
                                                  int lanes_here, bool inverse) {
  using G = ScheduleGeometry<T, N, false>;
  for_each_element<G, false, N>([&](unsigned e, int lane, int point) {
    if (lane >= lanes_here) return;
    const int at = tile_word<G>(static_cast<int>(e));
    const Complex<T> z = {re[at], inverse ? -im[at] : im[at]};
    store(out + lane * job.lane.out + point, job.scale * z);
  });
}

// Four-step step B's store: a tile of contiguous lines written with the
// lanes contiguous (X[k2 + n2 k1]: lane k2, point k1), so consecutive threads
// take consecutive lanes of one point (SC08 IV-C's transpose, fused).
template <class T, int N>
__device__ __forceinline__ void schedule_copy_out_transposed(const T* re, const T* im, const TileJob<T>& job,
                                                             Complex<T>* out, int lanes_here, bool inverse) {
  using G = ScheduleGeometry<T, N, false>;
  // The lanes-contiguous copy order; the tile sits lane-major in shared memory.
  for_each_element<G, true, N>([&](unsigned, int lane, int point) {
    if (lane >= lanes_here) return;
    const int at = tile_word<G>(schedule_position<G, false>(lane, point));
    const Complex<T> z = {re[at], inverse ? -im[at] : im[at]};
    store(out + lane * job.lane.out + point * job.point_out, job.scale * z);
  });
}

template <class T, int N, bool LanesFast, PassIo Io, ScheduleStore Store, int... Stages>
__device__ __forceinline__ void schedule_stages(T* re, T* im, const TileJob<T>& job, const TileSite<T>& at,
                                                bool inverse, std::integer_sequence<int, Stages...>) {
  (schedule_stage<T, N, LanesFast, Stages, Io, Store>(re, im, job, at, inverse), ...);
}

template <class T, int N, bool LanesFast, ScheduleStore Store>
__global__ void __launch_bounds__(ScheduleGeometry<T, N, LanesFast>::line.threads,
                                  ScheduleGeometry<T, N, LanesFast>::line.min_blocks)
    schedule_kernel(const __grid_constant__ TileJob<T> job, bool inverse) {
  using G = ScheduleGeometry<T, N, LanesFast>;
  static_assert(Store != ScheduleStore::twiddled || LanesFast, "four-step step A runs on strided lanes");
  static_assert(Store != ScheduleStore::transposed || (!LanesFast && G::uses_shared),
                "four-step step B stages contiguous lines through shared memory");
  extern __shared__ unsigned char shared_raw[];
  T* re = reinterpret_cast<T*>(shared_raw);
  const std::int64_t tile = this_tile();
  if constexpr (G::in_place) {
    static_assert(Store == ScheduleStore::plain && !LanesFast, "the in-place tile transforms whole contiguous lines");
    // One line per tile, a tile of G::line.cluster consecutive blocks (a
    // cluster, whose blocks all return here or none does).
    constexpr int C = G::line.cluster;
    const std::int64_t line = tile / C;
    if (line >= job.lane.count * job.group.count) return;  // the last grid row's spare blocks
    const std::int64_t group = line / job.lane.count;
    const std::int64_t lane = line - group * job.lane.count;
    int rank = 0;
    if constexpr (C > 1) rank = cluster_block_rank();  // sm_90 only: never emitted for C = 1
    in_place_stages<T, N>(re, re + G::line.shared_words, job, job.in + group * job.group.in + lane * job.lane.in,
                          job.out + group * job.group.out + lane * job.lane.out, inverse, rank,
                          std::make_integer_sequence<int, G::line.stages>{});
  } else {
    T* im = re + G::shared_words;
    const std::int64_t lane_tiles = (job.lane.count + G::lanes - 1) >> G::log_lanes;
    if (tile >= lane_tiles * job.group.count) return;  // the last grid row's spare blocks
    const TileSite<T> at = tile_site<G>(job, tile, lane_tiles);
    if constexpr (G::staged_load) schedule_copy_in<T, N>(re, im, job, at.in, at.lanes_here, inverse);
    schedule_stages<T, N, LanesFast, PassIo::direct, Store>(re, im, job, at, inverse,
                                                            std::make_integer_sequence<int, G::stages>{});
    if constexpr (Store == ScheduleStore::transposed) {
      schedule_copy_out_transposed<T, N>(re, im, job, at.out, at.lanes_here, inverse);
    } else if constexpr (G::staged_store) {
      schedule_copy_out<T, N>(re, im, job, at.out, at.lanes_here, inverse);
    }
  }
}

// Bluestein (SC08 section IV-E) in one compiled kernel when M fits a tile:
// the two transforms of the convolution, the chirp and spectrum products
// folded into their first and last stages (PassIo). Geometries that stage
// a contiguous tile's first or last pass through shared memory
// (staged_load, staged_store) copy the tile in or out here instead; those
// are contiguous tiles of M <= 48, and Bluestein runs primes above
// largest_direct_prime (M >= 193), so today no convolution takes them.

// Staged load: chirped_input for p < n, zero for n <= p < M.
template <class T, int M, bool LanesFast>
__device__ __forceinline__ void bluestein_copy_in(T* re, T* im, const TileJob<T>& job, const Complex<T>* in,
                                                  int lanes_here) {
  using G = ScheduleGeometry<T, M, LanesFast>;
  copy_tile_in<G, LanesFast, M, T>(
      [&](int lane, int point) {
        return lane < lanes_here && point < job.valid
                   ? load(schedule_address<LanesFast>(in, lane, point, job.lane.in, job.point_in))
                   : Complex<T>{T(0), T(0)};
      },
      [&](unsigned e, int point, Complex<T> w) {
        if (point < job.valid) w = chirped_input(job, point, w);
        put_tile_value<G>(re, im, e, w, false);
      });
}

// Staged store: chirped_output for p < n.
template <class T, int M, bool LanesFast>
__device__ __forceinline__ void bluestein_copy_out(const T* re, const T* im, const TileJob<T>& job, Complex<T>* out,
                                                   int lanes_here) {
  using G = ScheduleGeometry<T, M, LanesFast>;
  for_each_element<G, LanesFast, M>([&](unsigned e, int lane, int point) {
    if (lane >= lanes_here || point >= job.valid) return;
    const int at = tile_word<G>(static_cast<int>(e));
    store(schedule_address<LanesFast>(out, lane, point, job.lane.out, job.point_out),
          chirped_output(job, point, Complex<T>{re[at], im[at]}));
  });
}

// One of the convolution's two transforms. Not inlined: with two inlined
// copies in one kernel ptxas spilled 500-900 bytes per thread (it
// interleaved the two copies' index and twiddle set-up); one call each
// keeps the allocation of one. The tile's site comes by value: a
// TileSite passed by reference to a call lives in local memory (40 bytes
// of stack per thread).
template <class T, int M, bool LanesFast, PassIo Io>
__device__ __noinline__ void bluestein_transform(T* re, T* im, const TileJob<T>& job, const Complex<T>* in,
                                                 Complex<T>* out, int lanes_here) {
  using G = ScheduleGeometry<T, M, LanesFast>;
  const TileSite<T> at{in, out, lanes_here, 0, 0};  // first_lane, group: four-step stores only
  schedule_stages<T, M, LanesFast, Io, ScheduleStore::plain>(re, im, job, at, false,
                                                              std::make_integer_sequence<int, G::stages>{});
}

template <class T, int M, bool LanesFast>
__global__ void __launch_bounds__(ScheduleGeometry<T, M, LanesFast>::threads,
                                  ScheduleGeometry<T, M, LanesFast>::min_blocks)
    bluestein_schedule_kernel(const __grid_constant__ TileJob<T> job) {
  using G = ScheduleGeometry<T, M, LanesFast>;
  static_assert(G::threads > 0 && G::shared_bytes <= max_schedule_shared_bytes,
                "Bluestein's convolution runs the Stockham tile of its settled schedule (convolution_shape)");
  extern __shared__ unsigned char shared_raw[];
  T* re = reinterpret_cast<T*>(shared_raw);
  T* im = re + skewed_words(G::points, G::shift);
  const std::int64_t lane_tiles = (job.lane.count + G::lanes - 1) >> G::log_lanes;
  const std::int64_t tile = this_tile();
  if (tile >= lane_tiles * job.group.count) return;  // the last grid row's spare blocks
  const TileSite<T> at = tile_site<G>(job, tile, lane_tiles);
  if constexpr (G::staged_load) bluestein_copy_in<T, M, LanesFast>(re, im, job, at.in, at.lanes_here);
  bluestein_transform<T, M, LanesFast, PassIo::convolution_first>(re, im, job, at.in, at.out, at.lanes_here);
  bluestein_transform<T, M, LanesFast, PassIo::convolution_second>(re, im, job, at.in, at.out, at.lanes_here);
  if constexpr (G::staged_store) bluestein_copy_out<T, M, LanesFast>(re, im, job, at.out, at.lanes_here);
}

}  // namespace oocfft::kernels::cuda::detail

#if !defined(__CUDACC_RTC__)
namespace oocfft::kernels::cuda {

// Launches the compiled schedule of length N on `job`; the registry
// (launch_compiled_schedule) has checked that it serves the job.
template <class T, int N, bool LanesFast, ScheduleStore Store>
void launch_schedule(const TileJob<T>& job, bool inverse, cudaStream_t stream) {
  constexpr ScheduleShape g = ScheduleGeometry<T, N, LanesFast>::line;
  static_assert(g.cluster == 1,
                "the cluster tile runs lines past 4096 but powers of two, which no kernel set compiles ahead of time");
  const TileGrid grid = tile_grid(job.lane.count, g.log_lanes, job.group.count);
  detail::allow_shared(detail::schedule_kernel<T, N, LanesFast, Store>, g.shared_bytes);
  detail::schedule_kernel<T, N, LanesFast, Store>
      <<<dim3(grid.x, grid.y), g.threads, g.shared_bytes, stream>>>(job, inverse);
  check_launch("schedule_kernel");
}

// Launches Bluestein's convolution with the compiled schedule of length M
// on `job` (job.n == M, job.valid the line length, chirp, spectrum and
// conjugate set); the registry has checked that it serves the job.
template <class T, int M, bool LanesFast>
void launch_bluestein_schedule(const TileJob<T>& job, cudaStream_t stream) {
  using G = ScheduleGeometry<T, M, LanesFast>;
  const TileGrid grid = tile_grid(job.lane.count, G::log_lanes, job.group.count);
  constexpr std::size_t bytes = bluestein_shared_bytes<T>(G::shape);
  detail::allow_shared(detail::bluestein_schedule_kernel<T, M, LanesFast>, bytes);
  detail::bluestein_schedule_kernel<T, M, LanesFast><<<dim3(grid.x, grid.y), G::threads, bytes, stream>>>(job);
  check_launch("bluestein_schedule_kernel");
}

}  // namespace oocfft::kernels::cuda
#endif  // !__CUDACC_RTC__

// Explicit instantiation of one compiled schedule: used by the generated .cu
// files, one line per length and layout.
#define OOCFFT_INSTANTIATE_STORE(T, N, LANES_FAST, STORE)                                                 \
  template void oocfft::kernels::cuda::launch_schedule<T, N, LANES_FAST, oocfft::kernels::cuda::ScheduleStore::STORE>( \
      const oocfft::kernels::cuda::TileJob<T>&, bool, cudaStream_t);
#define OOCFFT_INSTANTIATE_SCHEDULE(T, N, LANES_FAST) OOCFFT_INSTANTIATE_STORE(T, N, LANES_FAST, plain)
#define OOCFFT_INSTANTIATE_TWIDDLED(T, N, LANES_FAST) OOCFFT_INSTANTIATE_STORE(T, N, LANES_FAST, twiddled)
#define OOCFFT_INSTANTIATE_TRANSPOSED(T, N, LANES_FAST) OOCFFT_INSTANTIATE_STORE(T, N, LANES_FAST, transposed)
#define OOCFFT_INSTANTIATE_BLUESTEIN(T, M, LANES_FAST)                                                    \
  template void oocfft::kernels::cuda::launch_bluestein_schedule<T, M, LANES_FAST>(                         \
      const oocfft::kernels::cuda::TileJob<T>&, cudaStream_t);
