#pragma once
// How the short-row kernels of DeviceRealRows (real_rows_direct_kernel.cuh,
// real_rows_fused_kernel.cuh) move their rows: a block of staged_rows<N>
// threads (or each of its warps, with warp tiles) stages its rows in shared
// memory with coalesced accesses, each thread transforms one row or a few
// there in registers, and the rows are written back. One read and one
// write of the data, in place.
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

// Reals a row's half spectrum takes in FFTW's padded layout: its
// footprint, 2 (N/2 + 1).
template <int N>
constexpr int footprint = 2 * (N / 2 + 1);

// Calls move(g, t) for each access of `Each` reals that `Threads` threads,
// of which this is `thread`, make over `Width` reals of `rows` rows: g in
// the global rows (`pitch` reals apart), t in the tile (rows `Stride`
// reals apart). Where a row's accesses nearly divide the threads, each
// thread keeps one column and steps down the rows by pointer increments:
// no division and no 64-bit multiply an access, which had taken more
// registers and instructions than the transform (ncu, f32 n = 12: 104
// registers and 42% of DRAM's throughput, against 53 and 73%). Else the
// threads walk the flat index.
template <int Each, int Threads, int Width, int Stride, class G, class T, class Move>
__device__ __forceinline__ void for_each_access(G* global, std::int64_t pitch, T* tile, int rows, int thread,
                                                const Move& move) {
  static_assert(Width % Each == 0, "a row's accesses move whole vectors");
  constexpr int Columns = Width / Each;
  constexpr int Step = Threads / Columns;  // rows a sweep of the threads covers
  if constexpr (Step >= 1 && 8 * Step * Columns >= 7 * Threads) {
    const int column = thread % Columns;
    int r = thread / Columns;
    if (r >= Step) return;  // the last few threads, past whole columns
    G* g = global + r * pitch + Each * column;
    T* t = tile + r * Stride + Each * column;
    const std::int64_t global_step = Step * pitch;
#pragma unroll 8
    for (; r < rows; r += Step, g += global_step, t += Step * Stride) move(g, t);
  } else {
    const int total = rows * Columns;
#pragma unroll 8
    for (int e = thread; e < total; e += Threads) {
      const int r = e / Columns, c = Each * (e - r * Columns);
      move(global + r * pitch + c, tile + r * Stride + c);
    }
  }
}

// Copies `Width` reals of `rows` rows between global rows and the tile
// (for_each_access), each global access moving `Each` reals: 1, 2 (8- or
// 16-byte accesses: rows aligned to two reals) or 4 (float rows aligned to
// 16 bytes); the tile's odd stride takes scalar accesses.
template <bool ToTile, int Each, int Threads, int Width, int Stride, class T>
__device__ __forceinline__ void copy_rows(T* global, std::int64_t pitch, T* tile, int rows, int thread) {
  for_each_access<Each, Threads, Width, Stride>(global, pitch, tile, rows, thread, [](T* g, T* t) {
    if constexpr (Each == 4) {
      static_assert(sizeof(T) == sizeof(float), "four reals an access: float rows");
      if constexpr (ToTile) {
        const float4 v = *reinterpret_cast<const float4*>(g);
        t[0] = v.x;
        t[1] = v.y;
        t[2] = v.z;
        t[3] = v.w;
      } else {
        *reinterpret_cast<float4*>(g) = float4{t[0], t[1], t[2], t[3]};
      }
    } else if constexpr (Each == 2) {
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
  });
}

// Starts copying `Width` reals of `rows` rows from global rows into the
// tile (for_each_access) as asynchronous copies (cp.async) of one real
// each: the whole tile's reads are in flight at once and hold no
// registers. For the fused kernel, whose registers leave an SM few
// threads, this ran 5-24% faster than copy_rows, which keeps a few loads a
// thread in flight; for the direct kernel's short rows, with twice the
// copy instructions, mostly 3-11% slower (one H200, bench/RESULTS.md,
// "Device kernels"). finish_rows_to_tile waits for them.
template <int Threads, int Width, int Stride, class T>
__device__ __forceinline__ void start_rows_to_tile(const T* global, std::int64_t pitch, T* tile, int rows,
                                                   int thread) {
  for_each_access<1, Threads, Width, Stride>(global, pitch, tile, rows, thread,
                                             [](const T* g, T* t) { __pipeline_memcpy_async(t, g, sizeof(T)); });
  __pipeline_commit();
}

// Waits for this thread's copies of start_rows_to_tile; the barrier after
// it (sync_tile) publishes those of the threads that share the tile.
__device__ __forceinline__ void finish_rows_to_tile() { __pipeline_wait_prior(0); }

// Reals a global access of a short-row kernel moves for rows of W reals
// (the footprint) at `data`, `pitch` reals apart: four (16 bytes) for
// float rows aligned to them whose W is a multiple of 4, else two where
// every row starts on a pair, else one.
template <class T>
int access_width(const T* data, std::int64_t pitch, int w) {
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  if (sizeof(T) == sizeof(float) && w % 4 == 0 && address % 16 == 0 && pitch % 4 == 0) return 4;
  return address % (2 * sizeof(T)) == 0 && pitch % 2 == 0 ? 2 : 1;
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

// Barrier of a group of threads that share a tile: its warp, or the block.
template <bool WarpTiles>
__device__ __forceinline__ void sync_tile() {
  if constexpr (WarpTiles)
    __syncwarp();
  else
    __syncthreads();
}

// The rows of a block's grid-stride share, RowsPerThread a thread: staged
// in shared memory (AsyncLoad: start_rows_to_tile, else copy_rows with
// `Each` reals an access), `transform(row)` on each (the row's N reals,
// or forward its half spectrum, at `row` in shared memory), written back.
// Called by a kernel of staged_rows<N> threads. WarpTiles: each warp
// stages, transforms and writes its own share of the block's rows, with
// warp barriers only, so that one warp's transform overlaps another's
// copies; else the block moves its rows together.
template <class T, int N, bool Inverse, int Each, int RowsPerThread, bool AsyncLoad, bool WarpTiles,
          class Transform>
__device__ __forceinline__ void transform_staged_rows(T* data, std::int64_t count, std::int64_t pitch,
                                                      const Transform& transform) {
  constexpr int Threads = staged_rows<N>;
  constexpr int Rows = Threads * RowsPerThread;
  constexpr int Group = WarpTiles ? 32 : Threads;  // threads that share a tile
  constexpr int GroupRows = Group * RowsPerThread;
  constexpr int W = footprint<N>;
  constexpr int S = W + 1;  // tile row stride: odd, so a warp's rows start on different banks
  // Reals moved per row: the whole half spectrum's footprint W but where
  // the forward's N reals fill whole accesses. An odd N's rows take their
  // padding slot along; the inverse writes back the slots past its N reals
  // as it read them (Im X[N/2], or X[N/2] for even N, which numpy's irfft
  // ignores and FFTW's padded layout leaves unspecified). Rows written in
  // part leave sectors partly written, which cost the memory a read: the
  // whole footprint made the float inverses of 6, 10 and 14 12-32% faster
  // (one H200).
  constexpr int Reals = N % 2 == 0 && N % Each == 0 ? N : W;
  constexpr int In = Inverse ? W : Reals;
  constexpr int Out = W;
  static_assert(In % Each == 0 && Out % Each == 0, "rows move in whole accesses");
  __shared__ T tile[Rows * S];
  const int group = int(threadIdx.x) / Group, member = int(threadIdx.x) % Group;
  T* const group_tile = tile + group * GroupRows * S;
  for (std::int64_t row0 = std::int64_t(blockIdx.x) * Rows + group * GroupRows; row0 < count;
       row0 += std::int64_t(gridDim.x) * Rows) {
    const int rows = static_cast<int>(count - row0 < GroupRows ? count - row0 : GroupRows);
    T* base = data + row0 * pitch;
    if constexpr (AsyncLoad) {
      start_rows_to_tile<Group, In, S>(base, pitch, group_tile, rows, member);
      finish_rows_to_tile();
    } else {
      copy_rows<true, Each, Group, In, S>(base, pitch, group_tile, rows, member);
    }
    sync_tile<WarpTiles>();
    // One row after another: unrolled, a thread's rows took their registers
    // together, and the registers, not the tile, then bounded the blocks an
    // SM holds.
#pragma unroll 1
    for (int i = 0; i < RowsPerThread; ++i) {
      const int r = member + i * Group;
      if (r < rows) transform(group_tile + r * S);
    }
    sync_tile<WarpTiles>();
    copy_rows<false, Each, Group, Out, S>(base, pitch, group_tile, rows, member);
    sync_tile<WarpTiles>();
  }
}

// Calls launch(inverse, each) with inverse as std::bool_constant and each,
// the access_width of rows of length N at `data`, `pitch` reals apart, as
// std::integral_constant<int>: the instantiations a short-row kernel has
// for one length (4 only where the footprint allows it).
template <class T, int N, class Launch>
void for_direction_and_width(bool inverse, const T* data, std::int64_t pitch, const Launch& launch) {
  const int each = access_width(data, pitch, footprint<N>);
  auto with_width = [&](auto backward) {
    if constexpr (sizeof(T) == sizeof(float) && footprint<N> % 4 == 0) {
      if (each == 4) return launch(backward, std::integral_constant<int, 4>{});
    }
    if (each == 2) return launch(backward, std::integral_constant<int, 2>{});
    launch(backward, std::integral_constant<int, 1>{});
  };
  if (inverse)
    with_width(std::true_type{});
  else
    with_width(std::false_type{});
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
