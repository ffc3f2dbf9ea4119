#pragma once
// How the short-row kernels of DeviceRealRows (real_rows_direct_kernel.cuh,
// real_rows_fused_kernel.cuh) move their rows: a block of staged_rows<N>
// threads stages its rows in shared memory with coalesced accesses, each
// thread transforms one row or a few there in registers, and the block
// writes the rows back. One read and one write of the data, in place.
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include <cuda_pipeline.h>
#include <cuda_runtime_api.h>

#include "kernels/cuda/complex_vector.cuh"
#include "kernels/cuda/cuda_check.hpp"
#include "oocfft/error.hpp"

namespace oocfft::kernels::cuda::staging {

// Threads per block: 128 for the shortest rows, 64 beyond 32 reals so that
// a block's tile stays under 48 KiB of static shared memory and the
// register-heavy longer rows keep several blocks per SM.
template <int N>
constexpr int staged_rows = N <= 32 ? 128 : 64;

// Copies `Width` reals of `rows` rows between global rows (`pitch` reals
// apart) and the tile (rows `Stride` reals apart), by a block of `Threads`.
// Paired: 8- or 16-byte global accesses (Width even, rows aligned to two
// reals: paired_rows); the tile's odd stride takes scalar accesses.
// Where a row's accesses nearly divide the block, each thread keeps one
// column and steps down the rows by pointer increments: no division and
// no 64-bit multiply an access, which had taken more registers and
// instructions than the transform (ncu, f32 n = 12: 104 registers and 42%
// of DRAM's throughput, against 53 and 73%). Else the block walks the
// flat index.
template <bool ToTile, bool Paired, int Threads, int Width, int Stride, class T>
__device__ __forceinline__ void copy_rows(T* global, std::int64_t pitch, T* tile, int rows) {
  constexpr int Each = Paired ? 2 : 1;  // reals an access moves
  constexpr int Columns = Width / Each;
  constexpr int Step = Threads / Columns;  // rows a sweep of the block covers
  auto move = [](T* g, T* t) {
    if constexpr (Paired) {
      using P = typename Vec2<T>::type;
      if constexpr (ToTile) {
        const P v = *reinterpret_cast<const P*>(g);
        t[0] = v.x;
        t[1] = v.y;
      } else {
        *reinterpret_cast<P*>(g) = P{t[0], t[1]};
      }
    } else {
      if constexpr (ToTile)
        *t = *g;
      else
        *g = *t;
    }
  };
  if constexpr (Step >= 1 && 8 * Step * Columns >= 7 * Threads) {
    const int column = int(threadIdx.x) % Columns;
    int r = int(threadIdx.x) / Columns;
    if (r >= Step) return;  // the block's last few threads, past whole columns
    T* g = global + r * pitch + Each * column;
    T* t = tile + r * Stride + Each * column;
    const std::int64_t global_step = Step * pitch;
#pragma unroll 8
    for (; r < rows; r += Step, g += global_step, t += Step * Stride) move(g, t);
  } else {
    const int total = rows * Columns;
#pragma unroll 8
    for (int e = threadIdx.x; e < total; e += Threads) {
      const int r = e / Columns, c = Each * (e - r * Columns);
      move(global + r * pitch + c, tile + r * Stride + c);
    }
  }
}

// Starts copying `Width` reals of `rows` rows from global rows (`pitch`
// reals apart) into the tile (rows `Stride` reals apart), by a block of
// `Threads`, as asynchronous copies (cp.async) of one real each: the whole
// tile's reads are in flight at once and hold no registers. For the fused
// kernel, whose registers leave an SM few threads, this ran 5-24% faster
// than copy_rows, which keeps a few loads a thread in flight; for the
// direct kernel's short rows, with twice the copy instructions, mostly
// 3-11% slower (one H200, bench/RESULTS.md, "Device kernels").
// finish_rows_to_tile waits for them.
template <int Threads, int Width, int Stride, class T>
__device__ __forceinline__ void start_rows_to_tile(const T* global, std::int64_t pitch, T* tile, int rows) {
  constexpr int Step = Threads / Width;
  if constexpr (Step >= 1 && 8 * Step * Width >= 7 * Threads) {
    const int column = int(threadIdx.x) % Width;
    int r = int(threadIdx.x) / Width;
    if (r < Step) {
      const T* g = global + r * pitch + column;
      T* t = tile + r * Stride + column;
      const std::int64_t global_step = Step * pitch;
#pragma unroll 8
      for (; r < rows; r += Step, g += global_step, t += Step * Stride) __pipeline_memcpy_async(t, g, sizeof(T));
    }
  } else {
    const int total = rows * Width;
#pragma unroll 8
    for (int e = threadIdx.x; e < total; e += Threads) {
      const int r = e / Width, c = e - r * Width;
      __pipeline_memcpy_async(tile + r * Stride + c, global + r * pitch + c, sizeof(T));
    }
  }
  __pipeline_commit();
}

// Waits for this thread's copies of start_rows_to_tile; the __syncthreads
// after it publishes the block's.
__device__ __forceinline__ void finish_rows_to_tile() { __pipeline_wait_prior(0); }

// Rows whose every access can pair two reals.
template <class T>
bool paired_rows(const T* data, std::int64_t pitch) {
  return reinterpret_cast<std::uintptr_t>(data) % (2 * sizeof(T)) == 0 && pitch % 2 == 0;
}

// Asks for the SM's whole shared-memory carveout for `kernel`: the staged
// tiles, not L1, bound how many blocks, and so how many bytes in flight, an
// SM holds.
template <class Kernel>
void prefer_shared_memory(Kernel* kernel) {
  check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                  cudaSharedmemCarveoutMaxShared),
             "cudaFuncSetAttribute (short-row kernel's shared-memory carveout)");
}

// Blocks of `rows` rows each for `count` rows (at least one).
inline unsigned staged_blocks(std::int64_t count, int rows) {
  const std::int64_t blocks = (count + rows - 1) / rows;
  return static_cast<unsigned>(std::clamp<std::int64_t>(blocks, 1, std::int64_t{1} << 30));
}

// The rows of a block's grid-stride share, RowsPerThread a thread:
// staged (AsyncLoad: start_rows_to_tile, else copy_rows), `transform(row)`
// on each (the row's N reals, or forward its half
// spectrum, at `row` in shared memory), written back. Called by a kernel
// of staged_rows<N> threads.
template <class T, int N, bool Inverse, bool Paired, int RowsPerThread, bool AsyncLoad, class Transform>
__device__ __forceinline__ void transform_staged_rows(T* data, std::int64_t count, std::int64_t pitch,
                                                      const Transform& transform) {
  constexpr int Threads = staged_rows<N>;
  constexpr int Rows = Threads * RowsPerThread;
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
  for (std::int64_t row0 = std::int64_t(blockIdx.x) * Rows; row0 < count; row0 += std::int64_t(gridDim.x) * Rows) {
    const int rows = static_cast<int>(count - row0 < Rows ? count - row0 : Rows);
    T* base = data + row0 * pitch;
    if constexpr (AsyncLoad) {
      start_rows_to_tile<Threads, In, S>(base, pitch, tile, rows);
      finish_rows_to_tile();
    } else {
      copy_rows<true, Paired, Threads, In, S>(base, pitch, tile, rows);
    }
    __syncthreads();
    // One row after another: unrolled, a thread's rows took their registers
    // together, and the registers, not the tile, then bounded the blocks an
    // SM holds.
#pragma unroll 1
    for (int i = 0; i < RowsPerThread; ++i) {
      const int r = int(threadIdx.x) + i * Threads;
      if (r < rows) transform(tile + r * S);
    }
    __syncthreads();
    copy_rows<false, Paired, Threads, Out, S>(base, pitch, tile, rows);
    __syncthreads();
  }
}

// Calls launch(inverse, paired) with both as std::bool_constant: the four
// instantiations a short-row kernel has for one length.
template <class Launch>
void for_direction_and_pairing(bool inverse, bool paired, const Launch& launch) {
  if (inverse) {
    if (paired)
      launch(std::true_type{}, std::true_type{});
    else
      launch(std::true_type{}, std::false_type{});
  } else {
    if (paired)
      launch(std::false_type{}, std::true_type{});
    else
      launch(std::false_type{}, std::false_type{});
  }
}

// Calls launch(std::integral_constant<int, N>) for the N of `lengths` that
// equals n, then checks the launch; `kernel` names it in the errors. A
// length not listed is refused (Error(invalid_argument)).
template <int... Ns, class Launch>
void launch_for_length(std::integer_sequence<int, Ns...>, std::int64_t n, const char* kernel,
                       const Launch& launch) {
  if (!((n == Ns ? (launch(std::integral_constant<int, Ns>{}), true) : false) || ...))
    throw Error(ErrorKind::invalid_argument, std::string(kernel) + ": length " + std::to_string(n));
  check_launch(kernel);
}

template <int... Ns>
constexpr bool listed(std::integer_sequence<int, Ns...>, std::int64_t n) {
  return ((n == Ns) || ...);
}

}  // namespace oocfft::kernels::cuda::staging
