#pragma once
// TileJob<T>: one launch of the shared-memory Stockham kernel. A block loads
// a tile of `lanes_per_tile` neighbouring lines of length n into shared
// memory (coalesced along whichever of points or lanes is contiguous), runs
// every radix pass there (a thread holds one butterfly's R values in
// registers; passes ping-pong between two shared buffers, one barrier each),
// and writes the tile back, possibly to another buffer with other strides.
// That one kernel serves as:
//   - the batched kernel for contiguous lines (x lines);
//   - the strided-axis kernel for y and z lines, where a tile holds lines at
//     neighbouring x positions so loads run along x (SC08 FftShMemCol);
//   - both steps of the four-step kernel for long lines, the twiddle of
//     step A and the transpose of step B fused into the stores;
//   - Bluestein's whole convolution when M fits (bluestein launcher).
// Lengths, strides and passes are run-time fields of the job; the radix of
// each pass is a template parameter of its butterfly code (a switch per pass).
// So six kernels (Stockham forward and inverse, Bluestein, per precision)
// serve every length 1..4096 and every tile geometry, and the CUDA build stays
// a few minutes on two cores. That generality costs index arithmetic on every
// value moved; the lengths a build compiles ahead of time (OOCFFT_KERNEL_SET,
// schedule_registry.hpp) take kernels with compile-time lengths instead
// (compiled schedules, compiled_schedule_kernels.cuh), which read the same job.
// Host-visible (no device code): device_line_plan.cpp fills it.
#if defined(__CUDACC_RTC__)
#include "kernels/cuda/nvrtc_std.hpp"  // NVRTC has no C++ library
#else
#include <cuda_runtime_api.h>

#include <cstdint>
#endif

#include "kernels/cuda/tile_kernel_choice.hpp"
#include "kernels/complex.hpp"
#include "kernels/line_batch.hpp"
#include "kernels/radix_schedule.hpp"

namespace oocfft::kernels::cuda {

// Block size: about one thread per this many points of a tile (a thread
// does one radix-16 butterfly, two radix-8 ones, five radix-3 ones ... per
// pass), capped at max_tile_threads<T>; the pass loops cover any remainder.
inline constexpr int values_per_thread = 16;
// complex<float>: at most 256 threads and three blocks per SM (80 registers,
// a few spilled): measured faster than 512 threads at 123 registers, where
// registers allowed only two blocks. complex<double>: up to 512 threads with
// 128 registers each, enough for a radix-16 butterfly and its twiddles.
template <class T>
inline constexpr int max_tile_threads = sizeof(T) == 4 ? 256 : 512;
template <class T>
inline constexpr int min_tile_blocks = sizeof(T) == 4 ? 3 : 1;
inline constexpr int max_tile_passes = max_schedule_passes;

class PlanTimeSchedules;
struct ScheduleShapes;

// One dimension of the tile grid: how many, and the element distance between
// neighbours in the input and in the output buffer.
struct TileDim {
  std::int64_t count = 1;
  std::int64_t in = 0;
  std::int64_t out = 0;
};

// x / d for 0 <= x < 2^31 by a multiply and a shift (Granlund and
// Montgomery 1994; the form of CUTLASS's FastDivmod): m = ceil(2^p / d) with
// p = 31 + ceil(log2 d), x / d = umulhi(x, m) >> (p - 32). Index arithmetic
// is most of a tile kernel's instructions; a hardware-less integer divide
// costs about twenty.
struct FastDivisor {
  std::uint32_t divisor = 1;
  std::uint32_t multiplier = 0;
  std::uint32_t shift = 0;
  FastDivisor() = default;
  explicit FastDivisor(std::uint32_t d) : divisor(d) {
    if (d <= 1) return;
    std::uint32_t log = 0;
    while ((std::uint64_t{1} << log) < d) ++log;
    const std::uint32_t p = 31 + log;
    multiplier = static_cast<std::uint32_t>(((std::uint64_t{1} << p) + d - 1) / d);
    shift = p - 32;
  }
};

struct TilePass {
  int radix = 1;
  int span = 1;
  int twiddle_offset = 0;
  FastDivisor span_divisor;     // j / span
  FastDivisor quarter_divisor;  // item / (n / radix)
};

// What multiplies each output value before the store (besides `scale`).
enum class TilePost : int {
  none,
  // Four-step twiddle w_N^(point * lane) or w_N^(point * group), N = the
  // whole line; w_N^e = post_low[e mod 2^post_log_block] * post_high[e >>
  // post_log_block] (two short tables, as FFTW's kernel/trig.c).
  twiddle_by_lane,
  twiddle_by_group,
  // post_table[point * table_point + lane * table_lane + group * table_group]
  // (Bluestein's kernel spectrum, at the output position of step B).
  table,
  // The ends of an even-length real transform on contiguous rows
  // (real_schedule_kernels.cuh): the forward FFT's values split into the
  // half spectrum on their way out, or the half spectrum merged on its way
  // in before the inverse FFT; post_table holds w_n^k, n = 2 * length.
  real_split,
  real_merge,
  // An odd-length real transform, two rows per complex line (lane p: rows
  // 2p and 2p + 1, the second lane.in / 2 complex values past the first;
  // real_rows of them): forward, z = a + i b packed on the way in and the
  // two half spectra unpacked on the way out; inverse, the half spectra
  // packed on the way in and the real and imaginary parts unpacked.
  real_pairs_forward,
  real_pairs_inverse,
};

template <class T>
struct TileJob {
  const Complex<T>* in = nullptr;
  Complex<T>* out = nullptr;
  int n = 1;                // transform length held in shared memory
  FastDivisor n_divisor;    // e / n
  int log_lanes = 0;        // lanes per tile = 1 << log_lanes
  int threads = 32;         // block size
  TileKernels kernels = TileKernels::compiled_where_available;
  // The schedules the plan compiled at plan time (NVRTC), or null: where the
  // build compiled none ahead of time for this job, the launcher looks here
  // before it takes the general kernel. Host-side only; never read on the
  // device.
  const PlanTimeSchedules* plan_time = nullptr;
  // The compiled tiles' shapes of length n (schedule_shapes), computed once
  // by the plan, or null: the launcher computes them. Host-side only.
  const ScheduleShapes* shapes = nullptr;
  bool lanes_fast_in = false;   // load mapping: lanes (true) or points contiguous
  bool lanes_fast_out = false;  // store mapping
  std::int64_t point_in = 1;
  std::int64_t point_out = 1;
  TileDim lane;
  TileDim group;
  int pass_count = 0;
  TilePass passes[max_tile_passes];
  // Each pass's twiddles from passes[p].twiddle_offset, r-major: entry
  // (k, r) of butterfly k at (r - 1) * span + k (by_radix_digit in
  // device_line_plan.cpp), unlike the host plan's k-major table.
  const Complex<T>* twiddles = nullptr;

  TilePost post = TilePost::none;
  const Complex<T>* post_low = nullptr;
  const Complex<T>* post_high = nullptr;
  int post_log_block = 0;
  const Complex<T>* post_table = nullptr;
  std::int64_t table_point = 0, table_lane = 0, table_group = 0;
  T scale = T(1);

  // Bluestein only: points [0, valid) are read (times chirp, conjugated
  // first for the inverse) and written (times chirp, conjugated after for
  // the inverse); points [valid, n) are zero on load.
  int valid = 0;
  const Complex<T>* chirp = nullptr;
  const Complex<T>* spectrum = nullptr;
  bool conjugate = false;

  // Real pairs only (TilePost::real_pairs_*): the real rows; an odd count
  // leaves the last lane's second row out (read as zero, never written).
  std::int64_t real_rows = 0;

  int lanes_per_tile() const { return 1 << log_lanes; }
};

// Shared memory bytes of a tile of `points` values: two buffers (Stockham
// ping-pong) of split real and imaginary arrays, each skewed by one word
// every 32 banks (see general_tile_kernels.cuh).
template <class T>
constexpr std::size_t tile_shared_bytes(std::size_t points) {
  const std::size_t shift = sizeof(T) == 4 ? 5 : 4;
  return 4 * sizeof(T) * (points + (points >> shift) + 1);
}

#if !defined(__CUDACC_RTC__)
// Launchers: check the job, raise the dynamic shared-memory limit where
// needed, launch on `stream`, check the launch. Throw Error(cuda).
// launch_stockham_tiles runs the kernel choose_tile_kernel() picks
// (schedule_registry.hpp): a compiled schedule, or the general kernel.
template <class T>
void launch_stockham_tiles(const TileJob<T>& job, bool inverse, cudaStream_t stream);
template <class T>
void launch_bluestein_tiles(const TileJob<T>& job, cudaStream_t stream);

// Bluestein's first step when M does not fit a tile: lines [first,
// first+count) of `lines` in `data`, times chirp (conjugated first for the
// inverse), into `work` as contiguous rows of m points, zero-padded.
template <class T>
void launch_chirp_pad(const Complex<T>* data, const LineBatch& lines, std::int64_t first, std::int64_t count,
                      const Complex<T>* chirp, bool conjugate, Complex<T>* work, std::int64_t m,
                      cudaStream_t stream);
// And its last: the first `length` points of each row, times chirp,
// conjugated for the inverse, times scale, back into `data`.
template <class T>
void launch_chirp_unpad(const Complex<T>* work, std::int64_t m, const Complex<T>* chirp, bool conjugate, T scale,
                        Complex<T>* data, const LineBatch& lines, std::int64_t first, std::int64_t count,
                        cudaStream_t stream);
// data[i] *= scale for i < count.
template <class T>
void launch_scale(Complex<T>* data, std::int64_t count, T scale, cudaStream_t stream);

#endif  // !__CUDACC_RTC__

}  // namespace oocfft::kernels::cuda
