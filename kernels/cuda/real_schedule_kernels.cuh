#pragma once
// The real transform's ends folded into a compiled schedule's tile: numpy's
// rfft / irfft on rows in FFTW's padded layout, one kernel and one trip
// through memory (DeviceRealRows, for rows too long for the fused register
// kernel of real_rows_fused_kernel.cuh).
// Even n = 2M (real_schedule_kernel):
//   forward  the tile's M-point FFT of z[p] = x[2p] + i x[2p+1] leaves its
//            values in shared memory (PassIo::to_shared); each thread then
//            splits a pair (Z[k], Z[M-k]) into (X[k], X[M-k]) on its way to
//            global memory, X[M] into the row's padding slot (pair 0, which
//            also takes the middle X[M/2] where that saves a round:
//            middle_in_pair0);
//   inverse  where the first stage's butterflies fill whole warps
//            (merge_in_first_stage), the first stage reads X itself and
//            merges each X[k] with X[M-k], held by a thread of the same
//            warp, into 2Z[k] (PassIo::real_merge_in: shuffles instead of
//            a trip through shared memory and a barrier); otherwise each
//            thread merges a pair (X[k], X[M-k]) into (2Z[k], 2Z[M-k]) on
//            its way into shared memory, and the tile's inverse FFT starts
//            there (PassIo::from_shared).
// The split and merge are those of the separate kernels (real_rows.cu,
// after Numerical Recipes, 3rd ed., section 12.3.2, eq. 12.3.6-12.3.7);
// `job.post_table` holds w_n^k = exp(-2 pi i k / n), k = 0..M/2 at least.
// Odd n = N, and the even lengths DeviceRealRows runs in pairs
// (real_pairs_kernel): two rows a and b per complex line of N, as the
// separate pack and unpack kernels do for odd N (real_rows_kernels.hpp):
//   forward  z = a + i b read straight into the first stage
//            (PassIo::real_rows_in), the FFT, then A[k] = (Z[k] + conj
//            Z[N-k]) / 2 and B[k] = (Z[k] - conj Z[N-k]) / (2i) unpacked
//            from shared memory to the two rows;
//   inverse  Z[k] = A[k] + i B[k] (A and B extended by Hermitian symmetry)
//            packed into shared memory, the inverse FFT, whose last stage
//            writes Re z and Im z to the two rows (PassIo::real_rows_out).
// Geometries that stage a first or last pass through shared memory
// (ScheduleGeometry::staged_*) pack and unpack there instead.
// A tile owns the rows it reads and writes, so the transform runs in place
// (job.in == job.out: DeviceLinePlan::execute_real_ends).
//
// Compiled at plan time only (NVRTC, ScheduleUse::real_*): the Stockham tile
// of the settled schedule, as Bluestein's convolution runs it
// (convolution_shape), contiguous rows.
#include "kernels/cuda/compiled_schedule_kernels.cuh"
#include "kernels/cuda/real_pairs_blocks.hpp"

namespace oocfft::kernels::cuda::detail {

// The rounds a tile's threads take over `pairs` pairs of each lane.
template <class G>
constexpr int pair_rounds(int pairs) {
  return (G::lanes * pairs + G::threads - 1) / G::threads;
}

// Calls visit(lane, k) for k = 0..Pairs-1 of each of the tile's lanes
// below `lanes_here` that this thread takes: consecutive threads take
// consecutive k of one lane, so the accesses at k and at its partner
// (M - k, N - k) both run along memory (the latter backwards).
template <class G, int Pairs, class Visit>
__device__ __forceinline__ void for_each_pair(int lanes_here, Visit&& visit) {
  constexpr int total = G::lanes * Pairs;
  constexpr int U = pair_rounds<G>(Pairs);
  OOCFFT_UNROLL
  for (int u = 0; u < U; ++u) {
    const int e = static_cast<int>(threadIdx.x) + u * G::threads;
    // Unsigned: a division by a constant, without a signed fix-up.
    const int lane = static_cast<int>(static_cast<unsigned>(e) / static_cast<unsigned>(Pairs));
    if (e >= total || lane >= lanes_here) break;  // e only grows
    visit(lane, e - lane * Pairs);
  }
}

// The pairs (k, M - k) of an even row's half length M: k = 0..M/2, pair 0
// also taking X[M]; for even M the middle k = M/2 is its own partner. Or,
// where that saves the tile's threads a round, k = 0..M/2-1, pair 0 also
// taking the middle (w_n^(M/2) = -i: X[M/2] = conj Z[M/2]): where M and
// the tile are powers of two, the lanes' M/2 pairs fill the threads'
// rounds evenly, and M/2 + 1 took a round more for a few pairs. Where it
// saves none, the middle's extra step in pair 0 made the split slower.
template <class G, int M>
constexpr bool middle_in_pair0 = M % 2 == 0 && pair_rounds<G>(M / 2) < pair_rounds<G>(M / 2 + 1);

// Forward: the tile's spectra Z (shared memory, natural order) -> the half
// spectra X of the real rows, times job.scale, into global memory.
template <class T, int M>
__device__ __forceinline__ void real_split_copy_out(const T* re, const T* im, const TileJob<T>& job,
                                                    Complex<T>* out, int lanes_here) {
  using G = ScheduleGeometry<T, M, false>;
  const T s = job.scale;
  constexpr bool middle = middle_in_pair0<G, M>;
  for_each_pair<G, middle ? M / 2 : M / 2 + 1>(lanes_here, [&](int lane, int k) {
    Complex<T>* row = out + lane * job.lane.out;
    const int at = tile_word<G>(schedule_position<G, false>(lane, k));
    const Complex<T> a = {re[at], im[at]};
    if (k == 0) {
      store(row, Complex<T>{s * (a.re + a.im), T(0)});
      store(row + M, Complex<T>{s * (a.re - a.im), T(0)});
      if constexpr (middle) {
        const int mt = tile_word<G>(schedule_position<G, false>(lane, M / 2));
        store(row + M / 2, Complex<T>{s * re[mt], -s * im[mt]});
      }
      return;
    }
    const int j = M - k;
    const int bt = tile_word<G>(schedule_position<G, false>(lane, j));
    const Complex<T> b = {re[bt], im[bt]};
    const Complex<T> e = {T(0.5) * (a.re + b.re), T(0.5) * (a.im - b.im)};  // (a + conj b) / 2
    const Complex<T> o = {T(0.5) * (a.im + b.im), T(0.5) * (b.re - a.re)};  // (a - conj b) / (2i)
    const Complex<T> wo = load_table(job.post_table + k) * o;
    store(row + k, Complex<T>{s * (e.re + wo.re), s * (e.im + wo.im)});
    if (j != k) store(row + j, Complex<T>{s * (e.re - wo.re), s * (wo.im - e.im)});  // conj(e - wo)
  });
}

// Inverse, where the first stage cannot merge (merge_in_first_stage): the
// half spectra X of the rows (global memory; Im X[0] and
// Im X[M] ignored, as numpy's irfft does) -> 2Z in shared memory,
// conjugated, since the passes compute the inverse as conj(F(conj x)).
// Every load of the thread is issued before the first is used, as
// copy_tile_in does (a loop that loaded, merged and stored one pair at a
// time ran at about half the split's speed). Lanes past the batch hold
// zeros. A barrier before the passes read.
// Tiles of at most four lanes (long rows) also load their twiddles up
// front where the pairs and their twiddles take at most three quarters of
// the tile's register target (past that ptxas spilled up to 192 bytes);
// then, where that saves a round of pairs, pair 0 also takes the middle
// X[M/2], as the split does (without it the twiddles spilled at the
// powers of two). In tiles of more lanes both made the inverse slower, the
// middle's third load in pair 0 most (bench/RESULTS.md, the real
// kernels' table).
template <class T, int M>
__device__ __forceinline__ void real_merge_copy_in(T* re, T* im, const TileJob<T>& job, const Complex<T>* in,
                                                   int lanes_here) {
  using G = ScheduleGeometry<T, M, false>;
  constexpr bool saves_a_round = middle_in_pair0<G, M>;
  constexpr int fewest_rounds = pair_rounds<G>(saves_a_round ? M / 2 : M / 2 + 1);
  constexpr int words = 3 * fewest_rounds * static_cast<int>(sizeof(Complex<T>) / 4);  // a, b, w
  constexpr bool twiddles_first = G::lanes <= 4 && 4 * words <= 3 * G::register_target;
  constexpr bool middle = twiddles_first && saves_a_round;
  constexpr int pairs = middle ? M / 2 : M / 2 + 1;
  constexpr int total = G::lanes * pairs;
  constexpr int U = pair_rounds<G>(pairs);
  for (int e = static_cast<int>(threadIdx.x) + lanes_here * M; e < G::points; e += G::threads) {
    const int at = tile_word<G>(e);
    re[at] = T(0);
    im[at] = T(0);
  }
  // Pair k of a lane: X[k] and X[M - k] (k = 0: X[0] and X[M]). Taking the
  // middle, pair 0 needs only Re X[0] and Re X[M], and holds X[M/2] in
  // their imaginary parts' places: a = (Re X[0], Re X[M/2]), b = (Re X[M],
  // Im X[M/2]).
  Complex<T> a[U], b[U], w[twiddles_first ? U : 1];
  OOCFFT_UNROLL
  for (int u = 0; u < U; ++u) {
    const int e = static_cast<int>(threadIdx.x) + u * G::threads;
    // Unsigned: a division by a constant, without a signed fix-up.
    const int lane = static_cast<int>(static_cast<unsigned>(e) / static_cast<unsigned>(pairs));
    const int k = e - lane * pairs;
    if (e < total && lane < lanes_here) {
      const Complex<T>* row = in + lane * job.lane.in;
      if constexpr (twiddles_first) w[u] = load_table(job.post_table + k);
      if (middle && k == 0) {
        const T* reals = reinterpret_cast<const T*>(row);
        a[u] = {reals[0], reals[M]};
        b[u] = {reals[2 * M], reals[M + 1]};
      } else {
        a[u] = load(row + k);
        b[u] = load(row + (M - k));
      }
    }
  }
  OOCFFT_UNROLL
  for (int u = 0; u < U; ++u) {
    const int e = static_cast<int>(threadIdx.x) + u * G::threads;
    const int lane = static_cast<int>(static_cast<unsigned>(e) / static_cast<unsigned>(pairs));
    const int k = e - lane * pairs;
    if (e >= total || lane >= lanes_here) continue;
    const int at = tile_word<G>(schedule_position<G, false>(lane, k));
    if (k == 0) {
      re[at] = a[u].re + b[u].re;
      im[at] = -(a[u].re - b[u].re);
      if constexpr (middle) {  // 2Z[M/2] = 2 conj X[M/2], stored conjugated
        const int mt = tile_word<G>(schedule_position<G, false>(lane, M / 2));
        re[mt] = T(2) * a[u].im;
        im[mt] = T(2) * b[u].im;
      }
      continue;
    }
    const int j = M - k;
    const Complex<T> ev = {a[u].re + b[u].re, a[u].im - b[u].im};  // a + conj b
    const Complex<T> d = {a[u].re - b[u].re, a[u].im + b[u].im};   // a - conj b
    Complex<T> t;
    if constexpr (twiddles_first) t = w[u];
    else t = load_table(job.post_table + k);
    const Complex<T> o = conj(t) * d;
    re[at] = ev.re - o.im;  // 2Z[k] = e + i o, stored conjugated
    im[at] = -(ev.im + o.re);
    if (j != k) {
      const int bt = tile_word<G>(schedule_position<G, false>(lane, j));
      re[bt] = ev.re + o.im;  // 2Z[M-k] = conj e + i conj o, stored conjugated
      im[bt] = -(o.re - ev.im);
    }
  }
  __syncthreads();
}

template <class T, int M, bool Inverse>
__global__ void __launch_bounds__(ScheduleGeometry<T, M, false>::threads, ScheduleGeometry<T, M, false>::min_blocks)
    real_schedule_kernel(const __grid_constant__ TileJob<T> job, bool) {
  using G = ScheduleGeometry<T, M, false>;
  static_assert(G::threads > 0 && G::shared_bytes <= max_schedule_shared_bytes,
                "the real ends run the Stockham tile of the settled schedule (convolution_shape)");
  extern __shared__ unsigned char shared_raw[];
  T* re = reinterpret_cast<T*>(shared_raw);
  T* im = re + skewed_words(G::points, G::shift);
  const std::int64_t lane_tiles = (job.lane.count + G::lanes - 1) >> G::log_lanes;
  const std::int64_t tile = this_tile();
  if (tile >= lane_tiles * job.group.count) return;  // the last grid row's spare blocks
  const TileSite<T> at = tile_site<G>(job, tile, lane_tiles);
  if constexpr (Inverse && merge_in_first_stage<G>()) {
    schedule_stages<T, M, false, PassIo::real_merge_in, ScheduleStore::plain>(
        re, im, job, at, true, std::make_integer_sequence<int, G::stages>{});
    if constexpr (G::staged_store) schedule_copy_out<T, M>(re, im, job, at.out, at.lanes_here, true);
  } else if constexpr (Inverse) {
    real_merge_copy_in<T, M>(re, im, job, at.in, at.lanes_here);
    schedule_stages<T, M, false, PassIo::from_shared, ScheduleStore::plain>(
        re, im, job, at, true, std::make_integer_sequence<int, G::stages>{});
    if constexpr (G::staged_store) schedule_copy_out<T, M>(re, im, job, at.out, at.lanes_here, true);
  } else if constexpr (split_in_last_stage<G>()) {
    if constexpr (G::staged_load) schedule_copy_in<T, M>(re, im, job, at.in, at.lanes_here, false);
    schedule_stages<T, M, false, PassIo::real_split_out, ScheduleStore::plain>(
        re, im, job, at, false, std::make_integer_sequence<int, G::stages>{});
  } else {
    if constexpr (G::staged_load) schedule_copy_in<T, M>(re, im, job, at.in, at.lanes_here, false);
    schedule_stages<T, M, false, PassIo::to_shared, ScheduleStore::plain>(
        re, im, job, at, false, std::make_integer_sequence<int, G::stages>{});
    real_split_copy_out<T, M>(re, im, job, at.out, at.lanes_here);
  }
}

// Forward, in: z = a + i b of each lane's two rows into shared memory
// (every load of the thread issued first: copy_tile_in). Lanes past the
// batch read as zero.
template <class T, int N>
__device__ __forceinline__ void real_pairs_copy_in_rows(T* re, T* im, const TileJob<T>& job, const TileSite<T>& at) {
  using G = ScheduleGeometry<T, N, false>;
  copy_tile_in<G, false, N, T>(
      [&](int lane, int point) {
        if (lane >= at.lanes_here) return Complex<T>{T(0), T(0)};
        return packed_rows_input(input_rows(job, at, lane), point);
      },
      [&](unsigned e, int, Complex<T> z) { put_tile_value<G>(re, im, e, z, false); });
}

// Inverse, in: Z[k] = A[k] + i B[k] and Z[N-k] = conj A[k] + i conj B[k]
// (the Hermitian extension) from one load of A[k] and B[k], k = 0..N/2,
// Im A[0] and Im B[0] (and for even N, Im A[N/2] and Im B[N/2], whose
// position is its own partner) ignored as numpy's irfft does; stored conjugated,
// since the passes compute the inverse as conj(F(conj x)). Every load of
// the thread is issued first, as real_merge_copy_in does. Lanes past the
// batch hold zeros. A barrier before the passes read.
template <class T, int N>
__device__ __forceinline__ void real_pairs_copy_in_spectra(T* re, T* im, const TileJob<T>& job,
                                                           const TileSite<T>& at) {
  using G = ScheduleGeometry<T, N, false>;
  constexpr int pairs = N / 2 + 1;
  constexpr int total = G::lanes * pairs;
  constexpr int U = (total + G::threads - 1) / G::threads;
  for (int e = static_cast<int>(threadIdx.x) + at.lanes_here * N; e < G::points; e += G::threads) {
    const int w = tile_word<G>(e);
    re[w] = T(0);
    im[w] = T(0);
  }
  Complex<T> a[U], b[U];
  OOCFFT_UNROLL
  for (int u = 0; u < U; ++u) {
    const int e = static_cast<int>(threadIdx.x) + u * G::threads;
    // Unsigned: a division by a constant, without a signed fix-up.
    const int lane = static_cast<int>(static_cast<unsigned>(e) / static_cast<unsigned>(pairs));
    const int k = e - lane * pairs;
    if (e < total && lane < at.lanes_here) {
      const RowPair<const T> rows = input_rows(job, at, lane);
      a[u] = load(reinterpret_cast<const Complex<T>*>(rows.a) + k);
      b[u] = rows.second ? load(reinterpret_cast<const Complex<T>*>(rows.b) + k) : Complex<T>{T(0), T(0)};
    }
  }
  OOCFFT_UNROLL
  for (int u = 0; u < U; ++u) {
    const int e = static_cast<int>(threadIdx.x) + u * G::threads;
    const int lane = static_cast<int>(static_cast<unsigned>(e) / static_cast<unsigned>(pairs));
    const int k = e - lane * pairs;
    if (e >= total || lane >= at.lanes_here) continue;
    if (k == 0 || 2 * k == N) a[u].im = b[u].im = T(0);
    const int base = schedule_position<G, false>(lane, 0);
    const int p = tile_word<G>(base + k);
    re[p] = a[u].re - b[u].im;  // A + i B, conjugated
    im[p] = -(a[u].im + b[u].re);
    if (k != 0) {
      const int q = tile_word<G>(base + N - k);
      re[q] = a[u].re + b[u].im;  // conj A + i conj B, conjugated
      im[q] = -(b[u].re - a[u].im);
    }
  }
  __syncthreads();
}

template <class T, int N, bool Inverse>
__global__ void __launch_bounds__(ScheduleGeometry<T, N, false>::threads, (real_pairs_min_blocks<T, N, Inverse>()))
    real_pairs_kernel(const __grid_constant__ TileJob<T> job, bool) {
  using G = ScheduleGeometry<T, N, false>;
  static_assert(G::threads > 0 && G::shared_bytes <= max_schedule_shared_bytes,
                "the real ends run the Stockham tile of the settled schedule (convolution_shape)");
  extern __shared__ unsigned char shared_raw[];
  T* re = reinterpret_cast<T*>(shared_raw);
  T* im = re + skewed_words(G::points, G::shift);
  const std::int64_t lane_tiles = (job.lane.count + G::lanes - 1) >> G::log_lanes;
  const std::int64_t tile = this_tile();
  if (tile >= lane_tiles * job.group.count) return;  // the last grid row's spare blocks
  const TileSite<T> at = tile_site<G>(job, tile, lane_tiles);
  const T s = job.scale;
  if constexpr (Inverse) {
    real_pairs_copy_in_spectra<T, N>(re, im, job, at);
    // The last stage writes the rows (PassIo::real_rows_out), or, where the
    // geometry stages it, leaves the tile in shared memory for this copy:
    // z = conj of the tile's values; Re z to row a, Im z to row b.
    schedule_stages<T, N, false, PassIo::real_rows_out, ScheduleStore::plain>(
        re, im, job, at, true, std::make_integer_sequence<int, G::stages>{});
    if constexpr (G::staged_store) {
      for_each_element<G, false, N>([&](unsigned e, int lane, int point) {
        if (lane >= at.lanes_here) return;
        const int w = tile_word<G>(static_cast<int>(e));
        const RowPair<T> rows = output_rows(job, at, lane);
        rows.a[point] = s * re[w];
        if (rows.second) rows.b[point] = -s * im[w];
      });
    }
  } else {
    // The first stage reads the rows (PassIo::real_rows_in), or, where the
    // geometry stages it, the copy of them in shared memory.
    if constexpr (G::staged_load) real_pairs_copy_in_rows<T, N>(re, im, job, at);
    schedule_stages<T, N, false, PassIo::real_rows_in, ScheduleStore::plain>(
        re, im, job, at, false, std::make_integer_sequence<int, G::stages>{});
    // Out: pair k = 0..N/2 of a lane, A[k] to row a, B[k] to row b.
    for_each_pair<G, N / 2 + 1>(at.lanes_here, [&](int lane, int k) {
      const int base = schedule_position<G, false>(lane, 0);
      const int p = tile_word<G>(base + k), q = tile_word<G>(base + (k == 0 ? 0 : N - k));
      const Complex<T> z = {re[p], im[p]}, c = {re[q], -im[q]};  // Z[k], conj Z[N-k]
      const RowPair<T> rows = output_rows(job, at, lane);
      store(reinterpret_cast<Complex<T>*>(rows.a) + k, Complex<T>{s * T(0.5) * (z.re + c.re), s * T(0.5) * (z.im + c.im)});
      // (Z - conj Z') / (2i) = (Im(Z - c), -Re(Z - c)) / 2
      if (rows.second)
        store(reinterpret_cast<Complex<T>*>(rows.b) + k,
              Complex<T>{s * T(0.5) * (z.im - c.im), -s * T(0.5) * (z.re - c.re)});
    });
  }
}

}  // namespace oocfft::kernels::cuda::detail
