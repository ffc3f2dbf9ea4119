// The measurement program of the in-place tile's trials (bench/RESULTS.md,
// issue 10, section "The in-place tile"): a standalone decimation-in-
// frequency tile of one contiguous line per block in one skewed shared
// buffer, a thread holding one group's R values at a time (the product's
// version is kernels/cuda/in_place_kernels.cuh), with the radices, block
// size, resident blocks and groups per batch as template parameters, timed
// against cuFFT in the same run on 1 GiB of lines (median of 10 after two
// warm-up calls). The output is checked against cuFFT's on 8 lines.
//
// Not part of the default build: `cmake --build build --target
// in_place_tile_trials` (CUDA builds), then `in_place_tile_trials first`,
// `batch`, `two_blocks`, `cluster` or `edge` for the trials of that section
// and of "The cluster tile" (`cluster N`, `edge N`: length N only); SMALL=1 runs 8 lines per
// case (for compute-sanitizer).
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cufft.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "kernels/butterfly.hpp"
#include "kernels/cuda/general_tile_kernels.cuh"

using oocfft::kernels::Complex;
using oocfft::kernels::radix_butterfly;

#define CK(x)                                                                       \
  do {                                                                              \
    cudaError_t e = (x);                                                            \
    if (e != cudaSuccess) {                                                         \
      std::printf("CUDA %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e));      \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

template <int... Rs>
struct Radices {
  static constexpr int count = sizeof...(Rs);
  static constexpr int r[count] = {Rs...};
  static constexpr int radix(int s) {
    constexpr int v[] = {Rs...};
    return v[s];
  }
  static constexpr int n() {
    int p = 1;
    for (int i = 0; i < count; ++i) p *= r[i];
    return p;
  }
  // Block size M_s of stage s: N / (R_0 ... R_{s-1}).
  static constexpr int block(int s) {
    int m = n();
    for (int i = 0; i < s; ++i) m /= r[i];
    return m;
  }
};

// The product's skew and vector accesses (general_tile_kernels.cuh).
using oocfft::kernels::cuda::detail::skew;
template <class T>
__device__ __forceinline__ Complex<T> ld(const Complex<T>* p) {
  return oocfft::kernels::cuda::detail::load(p);
}
template <class T>
__device__ __forceinline__ Complex<T> ldt(const Complex<T>* p) {
  return oocfft::kernels::cuda::detail::load_table(p);
}
template <class T>
__device__ __forceinline__ void st(Complex<T>* p, Complex<T> z) {
  oocfft::kernels::cuda::detail::store(p, z);
}

// The position of the last stage's group k0 = r_0 + R_0 (r_1 + R_1 (...)):
// sum r_s M'_s.
template <class Rs, int S>
inline constexpr int radix_of = Rs::radix(S);
template <class Rs, int S>
inline constexpr int sub_block_of = Rs::block(S) / Rs::radix(S);

template <class Rs, int... S>
__device__ __forceinline__ int digit_position(int k, std::integer_sequence<int, S...>) {
  int base = 0;
  ((base += (k % radix_of<Rs, S>) * sub_block_of<Rs, S>, k /= radix_of<Rs, S>), ...);
  return base;
}

// Stage s: groups g < N / R; block b = g / M', j = g % M'; points
// b M + j + M' r. DIF: butterfly, then twiddle w_M^(j r) (table of stage s,
// entry (r - 1) M' + j). The first stage reads global memory; the last
// (M' = 1) writes global memory at the digit-reversed index, its thread
// mapping chosen so that the stores are consecutive across threads.
template <class T, class Rs, int Threads, int Batch, int S>
__device__ __forceinline__ void dif_stage(T* re, T* im, const Complex<T>* in, Complex<T>* out,
                                          const Complex<T>* const* tables) {
  constexpr int N = Rs::n();
  constexpr int R = Rs::radix(S);
  constexpr int M = Rs::block(S);
  constexpr int Mp = M / R;
  constexpr int groups = N / R;
  constexpr int iterations = (groups + Threads - 1) / Threads;
  constexpr bool first = S == 0;
  constexpr bool last = S == Rs::count - 1;
  const Complex<T>* tw = tables[S];
  constexpr int batches = (iterations + Batch - 1) / Batch;
#pragma unroll
  for (int c = 0; c < batches; ++c) {
    Complex<T> u[Batch][R];
    int base[Batch], g[Batch];
    bool live[Batch];
#pragma unroll
    for (int q = 0; q < Batch; ++q) {
      g[q] = static_cast<int>(threadIdx.x) + (c * Batch + q) * Threads;
      live[q] = (c * Batch + q < iterations) && (groups % Threads == 0 || g[q] < groups);
      if (!live[q]) continue;
      if constexpr (last) {
        base[q] = digit_position<Rs>(g[q], std::make_integer_sequence<int, Rs::count - 1>{});
      } else {
        base[q] = (g[q] / Mp) * M + g[q] % Mp;
      }
#pragma unroll
      for (int r = 0; r < R; ++r) {
        if constexpr (first) {
          u[q][r] = ld(in + base[q] + r * Mp);
        } else {
          const int at = skew<T>(base[q] + r * Mp);
          u[q][r] = {re[at], im[at]};
        }
      }
    }
#pragma unroll
    for (int q = 0; q < Batch; ++q) {
      if (!live[q]) continue;
      radix_butterfly<R, false>(u[q]);
      if constexpr (last) {
#pragma unroll
        for (int r = 0; r < R; ++r) st(out + g[q] + r * (N / R), u[q][r]);
      } else {
        const int j = g[q] % Mp;
#pragma unroll
        for (int r = 0; r < R; ++r) {
          Complex<T> z = u[q][r];
          if (r > 0 && Mp > 1) z = z * ldt(tw + (r - 1) * Mp + j);
          const int at = skew<T>(base[q] + r * Mp);
          re[at] = z.re;
          im[at] = z.im;
        }
      }
    }
  }
  if constexpr (!last) __syncthreads();
}

template <class T, class Rs, int Threads, int Batch, int... S>
__device__ __forceinline__ void dif_stages(T* re, T* im, const Complex<T>* in, Complex<T>* out,
                                           const Complex<T>* const* tables, std::integer_sequence<int, S...>) {
  (dif_stage<T, Rs, Threads, Batch, S>(re, im, in, out, tables), ...);
}

template <class T>
struct Tables {
  const Complex<T>* stage[8];
};

template <class T, class Rs, int Threads, int Batch, int Blocks>
__global__ void __launch_bounds__(Threads, Blocks) dif_kernel(Complex<T>* data, Tables<T> tables) {
  constexpr int N = Rs::n();
  extern __shared__ unsigned char raw[];
  T* re = reinterpret_cast<T*>(raw);
  T* im = re + (N + (N >> (sizeof(T) == 4 ? 5 : 4)) + 1);
  Complex<T>* line = data + static_cast<long>(blockIdx.x) * N;
  dif_stages<T, Rs, Threads, Batch>(re, im, line, line, tables.stage, std::make_integer_sequence<int, Rs::count>{});
}


// The cluster trial: one line per cluster of C blocks, each block holding
// N / C points in its own shared memory, so that blocks of several lines
// share an SM. Stage 0 (radix R_0, C | R_0) reads global memory; block c
// takes groups [c G / C, (c + 1) G / C) of its G = N / R_0 and writes output
// r of each to sub-block r of the line, which block r / (R_0 / C) holds
// (distributed shared memory, written through map_shared_rank). After a
// cluster barrier, each block's R_0 / C sub-blocks are independent lines
// of N / R_0 points: the later stages run in the block's own buffer as in
// dif_stage, and the last writes outputs k = r_0 + R_0 m of its r_0, so
// consecutive threads write runs of R_0 / C consecutive points.
template <class Rs, int... S>
__device__ __forceinline__ int later_digit_position(int k, std::integer_sequence<int, S...>) {
  int base = 0;
  ((base += (k % radix_of<Rs, S + 1>) * sub_block_of<Rs, S + 1>, k /= radix_of<Rs, S + 1>), ...);
  return base;
}

template <class T, class Rs, int Threads, int C, int S>
__device__ __forceinline__ void cluster_stage(T* re, T* im, int words, const Complex<T>* in, Complex<T>* out,
                                              const Complex<T>* const* tables) {
  namespace cg = cooperative_groups;
  constexpr int N = Rs::n();
  constexpr int L = N / C;
  constexpr int R = Rs::radix(S);
  constexpr int M = Rs::block(S);
  constexpr int Mp = M / R;
  constexpr int R0 = Rs::radix(0);
  constexpr int Q = R0 / C;
  static_assert(R0 % C == 0 && Rs::count >= 2, "the cluster splits the first stage's sub-blocks");
  constexpr bool first = S == 0;
  constexpr bool last = S == Rs::count - 1;
  const Complex<T>* tw = tables[S];
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = static_cast<int>(cluster.block_rank());
  if constexpr (first) {
    constexpr int groups = N / R;
    constexpr int share = (groups + C - 1) / C;
    const int lo = rank * share;
    const int hi = min(groups, lo + share);
    cluster.sync();  // every block of the cluster runs before any writes another's shared memory
    for (int g = lo + static_cast<int>(threadIdx.x); g < hi; g += Threads) {
      Complex<T> u[R];
#pragma unroll
      for (int r = 0; r < R; ++r) u[r] = ld(in + g + r * Mp);
      radix_butterfly<R, false>(u);
#pragma unroll
      for (int r = 0; r < R; ++r) {
        Complex<T> z = u[r];
        if (r > 0) z = z * ldt(tw + (r - 1) * Mp + g);
        const int owner = r / Q;
        T* to = owner == rank ? re : cluster.map_shared_rank(re, owner);
        const int at = skew<T>((r % Q) * Mp + g);
        to[at] = z.re;
        to[words + at] = z.im;
      }
    }
    cluster.sync();
  } else {
    constexpr int groups = L / R;
    constexpr int iterations = (groups + Threads - 1) / Threads;
#pragma unroll
    for (int c = 0; c < iterations; ++c) {
      const int g = static_cast<int>(threadIdx.x) + c * Threads;
      if (groups % Threads != 0 && g >= groups) break;
      int base;
      if constexpr (last) {
        base = (g % Q) * (N / R0) +
               later_digit_position<Rs>(g / Q, std::make_integer_sequence<int, Rs::count - 2>{});
      } else {
        base = (g / Mp) * M + g % Mp;
      }
      Complex<T> u[R];
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const int at = skew<T>(base + r * Mp);
        u[r] = {re[at], im[at]};
      }
      radix_butterfly<R, false>(u);
      if constexpr (last) {
        const int k0 = rank * Q + g % Q + R0 * (g / Q);
#pragma unroll
        for (int r = 0; r < R; ++r) st(out + k0 + r * (N / R), u[r]);
      } else {
        const int j = g % Mp;
#pragma unroll
        for (int r = 0; r < R; ++r) {
          Complex<T> z = u[r];
          if (r > 0 && Mp > 1) z = z * ldt(tw + (r - 1) * Mp + j);
          const int at = skew<T>(base + r * Mp);
          re[at] = z.re;
          im[at] = z.im;
        }
      }
    }
    if constexpr (!last) __syncthreads();
  }
}

template <class T, class Rs, int Threads, int C, int... S>
__device__ __forceinline__ void cluster_stages(T* re, T* im, int words, const Complex<T>* in, Complex<T>* out,
                                               const Complex<T>* const* tables, std::integer_sequence<int, S...>) {
  (cluster_stage<T, Rs, Threads, C, S>(re, im, words, in, out, tables), ...);
}

template <class T, class Rs, int Threads, int C, int Blocks>
__global__ void __launch_bounds__(Threads, Blocks) cluster_kernel(Complex<T>* data, Tables<T> tables) {
  constexpr int L = Rs::n() / C;
  constexpr int words = L + (L >> (sizeof(T) == 4 ? 5 : 4)) + 1;
  extern __shared__ unsigned char raw[];
  T* re = reinterpret_cast<T*>(raw);
  Complex<T>* line = data + static_cast<long>(blockIdx.x / C) * Rs::n();
  cluster_stages<T, Rs, Threads, C>(re, re + words, words, line, line, tables.stage,
                                    std::make_integer_sequence<int, Rs::count>{});
}

template <class T>
struct CufftType;
template <>
struct CufftType<float> {
  static constexpr cufftType type = CUFFT_C2C;
  static cufftResult exec(cufftHandle p, void* d) {
    return cufftExecC2C(p, (cufftComplex*)d, (cufftComplex*)d, CUFFT_FORWARD);
  }
};
template <>
struct CufftType<double> {
  static constexpr cufftType type = CUFFT_Z2Z;
  static cufftResult exec(cufftHandle p, void* d) {
    return cufftExecZ2Z(p, (cufftDoubleComplex*)d, (cufftDoubleComplex*)d, CUFFT_FORWARD);
  }
};

template <class F>
float median_ms(F&& f, int reps = 10) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  f();
  f();
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

double g_copy_gbs = 0;
int g_only_length = 0;  // the cluster trial's optional second argument: that length only

template <class T, class Rs, int Threads, int Batch = 1, int Blocks = 1, int Cluster = 1>
void run_case() {
  constexpr int N = Rs::n();
  if (g_only_length != 0 && g_only_length != N) return;
  const long lines = std::getenv("SMALL") ? 8 : (1L << 30) / (2 * sizeof(T) * N);
  const long total = lines * N;
  std::vector<Complex<T>> host(total);
  std::mt19937_64 rng(12345 + N);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (auto& z : host) z = {static_cast<T>(dist(rng)), static_cast<T>(dist(rng))};
  Complex<T>* d;
  Complex<T>* ref;
  CK(cudaMalloc(&d, total * sizeof(Complex<T>)));
  CK(cudaMalloc(&ref, total * sizeof(Complex<T>)));
  // Stage tables: entry (r - 1) M' + j = w_M^(j r).
  std::vector<Complex<T>*> dev_tables;
  Tables<T> tables{};
  for (int s = 0; s < Rs::count; ++s) {
    const int M = Rs::block(s), R = Rs::r[s], Mp = M / R;
    std::vector<Complex<T>> t(std::max(1, (R - 1) * Mp));
    for (int r = 1; r < R; ++r)
      for (int j = 0; j < Mp; ++j) {
        const long double a = -2.0L * 3.14159265358979323846264338327950288L * ((long)j * r % M) / M;
        t[(r - 1) * Mp + j] = {static_cast<T>(std::cos(a)), static_cast<T>(std::sin(a))};
      }
    Complex<T>* p;
    CK(cudaMalloc(&p, t.size() * sizeof(Complex<T>)));
    CK(cudaMemcpy(p, t.data(), t.size() * sizeof(Complex<T>), cudaMemcpyHostToDevice));
    tables.stage[s] = p;
    dev_tables.push_back(p);
  }
  constexpr int L = N / Cluster;
  const size_t shared = 2 * sizeof(T) * (L + (L >> (sizeof(T) == 4 ? 5 : 4)) + 1);
  void (*kernel)(Complex<T>*, Tables<T>);
  if constexpr (Cluster == 1) {
    kernel = dif_kernel<T, Rs, Threads, Batch, Blocks>;
  } else {
    kernel = cluster_kernel<T, Rs, Threads, Cluster, Blocks>;
  }
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  cudaLaunchAttribute cluster_dim[1];
  cluster_dim[0].id = cudaLaunchAttributeClusterDimension;
  cluster_dim[0].val.clusterDim.x = Cluster;
  cluster_dim[0].val.clusterDim.y = 1;
  cluster_dim[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>(lines * Cluster));
  config.blockDim = dim3(Threads);
  config.dynamicSmemBytes = shared;
  config.attrs = cluster_dim;
  config.numAttrs = Cluster == 1 ? 0 : 1;
  int clusters = 0;
  if (Cluster > 1) CK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
  const auto launch = [&] { CK(cudaLaunchKernelEx(&config, kernel, d, tables)); };
  cufftHandle plan;
  if (cufftPlan1d(&plan, N, CufftType<T>::type, lines) != CUFFT_SUCCESS) {
    std::printf("cufft plan failed\n");
    std::exit(1);
  }
  // Correctness: both on the same input.
  CK(cudaMemcpy(d, host.data(), total * sizeof(Complex<T>), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(ref, host.data(), total * sizeof(Complex<T>), cudaMemcpyHostToDevice));
  launch();
  CufftType<T>::exec(plan, ref);
  CK(cudaDeviceSynchronize());
  std::vector<Complex<T>> a(total), b(total);
  CK(cudaMemcpy(a.data(), d, total * sizeof(Complex<T>), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b.data(), ref, total * sizeof(Complex<T>), cudaMemcpyDeviceToHost));
  double num = 0, den = 0;
  for (long i = 0; i < std::min<long>(total, 8L * N); ++i) {
    const double dr = double(a[i].re) - b[i].re, di = double(a[i].im) - b[i].im;
    num += dr * dr + di * di;
    den += double(b[i].re) * b[i].re + double(b[i].im) * b[i].im;
  }
  const float ours = median_ms(launch);
  const float theirs = median_ms([&] { CufftType<T>::exec(plan, ref); });
  const double bytes = 2.0 * total * sizeof(Complex<T>);
  std::printf("%-7s k%d b%d c%d/%3d n=%6d threads=%4d regs=%3d local=%3zu shared=%6zu  ours %.3f ms (%.2f of copy)  "
              "cufft %.3f ms (%.2f of copy)  ratio %.2f  diff %.1e\n",
              sizeof(T) == 4 ? "c64" : "c128", Blocks, Batch, Cluster, clusters, N, Threads, attr.numRegs,
              attr.localSizeBytes, shared, ours, bytes / ours / 1e6 / g_copy_gbs, theirs, bytes / theirs / 1e6 / g_copy_gbs,
              theirs / ours, std::sqrt(num / den));
  cufftDestroy(plan);
  for (auto p : dev_tables) cudaFree(p);
  cudaFree(d);
  cudaFree(ref);
}

void measure_copy() {
  void *a, *b;
  const size_t bytes = 1L << 30;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  const float ms = median_ms([&] { CK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice)); });
  g_copy_gbs = 2.0 * bytes / ms / 1e6;
  std::printf("copy %.0f GB/s (read + write)\n", g_copy_gbs);
  cudaFree(a);
  cudaFree(b);
}

// The first trial: long lines past one Stockham tile, radix orders and
// block sizes.
void first_trial() {
  run_case<float, Radices<16, 16, 16, 4>, 1024>();
  run_case<float, Radices<16, 16, 16, 4>, 512>();
  run_case<float, Radices<16, 16, 9, 9>, 1024>();
  run_case<float, Radices<16, 16, 9, 9>, 512>();
  run_case<float, Radices<16, 14, 14, 7>, 1024>();
  run_case<float, Radices<16, 14, 14, 7>, 512>();
  run_case<float, Radices<16, 16, 14, 7>, 1024>();
  run_case<float, Radices<16, 16, 14, 7>, 512>();
  run_case<float, Radices<16, 16, 10, 10>, 1024>();
  run_case<float, Radices<25, 25, 5, 7>, 512>();
  run_case<float, Radices<27, 27, 9, 4>, 512>();
  run_case<float, Radices<27, 27, 27>, 512>();
  run_case<float, Radices<16, 14, 9, 9>, 1024>();
  run_case<float, Radices<15, 15, 15, 8>, 1024>();
  run_case<float, Radices<16, 10, 15, 9>, 1024>();
  run_case<float, Radices<9, 7, 7, 7, 7>, 1024>();
  run_case<float, Radices<16, 16, 16, 5>, 1024>();
  run_case<double, Radices<16, 15, 7, 7>, 512>();
  run_case<double, Radices<16, 15, 7, 7>, 256>();
  run_case<double, Radices<16, 27, 27>, 512>();
  run_case<double, Radices<27, 25, 5, 4>, 512>();
  run_case<double, Radices<16, 16, 7, 7>, 512>();
  run_case<double, Radices<16, 16, 7, 7>, 256>();
}

// The second: two groups per batch, and the radix order.
void batch_trial() {
  run_case<float, Radices<16, 16, 9, 9>, 512, 1>();
  run_case<float, Radices<16, 16, 9, 9>, 512, 2>();
  run_case<float, Radices<16, 16, 9, 9>, 1024, 2>();
  run_case<float, Radices<9, 9, 16, 16>, 512, 1>();
  run_case<float, Radices<9, 9, 16, 16>, 512, 2>();
  run_case<float, Radices<16, 14, 14, 7>, 512, 2>();
  run_case<float, Radices<7, 14, 14, 16>, 512, 2>();
  run_case<float, Radices<16, 16, 14, 7>, 512, 2>();
  run_case<float, Radices<7, 14, 16, 16>, 512, 2>();
  run_case<float, Radices<16, 16, 14, 7>, 1024, 2>();
  run_case<float, Radices<16, 16, 10, 10>, 512, 2>();
  run_case<float, Radices<25, 25, 5, 7>, 512, 2>();
  run_case<float, Radices<27, 27, 9, 4>, 512, 2>();
  run_case<float, Radices<27, 27, 27>, 512, 2>();
  run_case<float, Radices<27, 27, 27>, 1024, 1>();
  run_case<float, Radices<16, 14, 9, 9>, 512, 2>();
  run_case<float, Radices<16, 10, 15, 9>, 512, 2>();
  run_case<float, Radices<16, 15, 10, 9>, 512, 1>();
  run_case<float, Radices<16, 16, 16, 5>, 512, 2>();
  run_case<float, Radices<16, 16, 16, 5>, 512, 1>();
  run_case<float, Radices<16, 25, 25>, 512, 1>();
  run_case<float, Radices<16, 25, 25>, 512, 2>();
  run_case<float, Radices<16, 16, 16>, 512, 2>();
  run_case<float, Radices<16, 16, 16>, 256, 2>();
  run_case<double, Radices<16, 15, 7, 7>, 512, 1>();
  run_case<double, Radices<16, 15, 7, 7>, 512, 2>();
  run_case<double, Radices<16, 27, 27>, 512, 1>();
  run_case<double, Radices<16, 9, 9, 9>, 512, 2>();
  run_case<double, Radices<16, 16, 7, 7>, 512, 2>();
  run_case<double, Radices<16, 16, 7, 7>, 1024, 1>();
  run_case<double, Radices<15, 15, 10, 6>, 512, 2>();
  run_case<double, Radices<16, 16, 16, 2>, 512, 2>();
}

// The third: lines one Stockham tile holds, as two in-place blocks of 256
// threads per SM (or three of 128, or one of 512).
void two_blocks_trial() {
  run_case<float, Radices<25, 25, 16>, 256, 1, 2>();
  run_case<float, Radices<16, 16, 16>, 256, 1, 2>();
  run_case<float, Radices<16, 16, 16, 2>, 256, 1, 2>();
  run_case<float, Radices<16, 16, 9, 5>, 256, 1, 2>();
  run_case<float, Radices<16, 14, 9, 7>, 256, 1, 2>();
  run_case<float, Radices<25, 25, 25>, 512, 1, 1>();
  run_case<float, Radices<14, 14, 9, 9>, 512, 1, 1>();
  run_case<float, Radices<27, 27, 14>, 256, 1, 2>();
  run_case<float, Radices<27, 27, 15>, 256, 1, 2>();
  run_case<float, Radices<27, 27, 15>, 512, 1, 1>();
  run_case<float, Radices<16, 14, 7, 7>, 256, 1, 2>();
  run_case<float, Radices<16, 14, 7, 7>, 512, 1, 1>();
  run_case<float, Radices<25, 25, 9>, 256, 1, 2>();
  run_case<float, Radices<25, 25, 9>, 128, 1, 3>();
  run_case<float, Radices<16, 9, 9, 7>, 256, 1, 2>();
  run_case<float, Radices<16, 9, 9, 7>, 512, 1, 1>();
  run_case<double, Radices<27, 25, 8>, 256, 1, 2>();
  run_case<double, Radices<15, 15, 6, 4>, 256, 1, 2>();
  run_case<double, Radices<27, 25, 8>, 512, 1, 1>();
}

// The fourth: one line per cluster of blocks (cluster_kernel), for the
// lines that ran below 0.8x cuFFT with one block per SM.
void cluster_trial() {
  run_case<float, Radices<16, 16, 9, 9>, 256, 1, 2, 2>();
  run_case<float, Radices<16, 16, 9, 9>, 512, 1, 1, 1>();
  run_case<float, Radices<16, 14, 14, 7>, 256, 1, 2, 2>();
  run_case<float, Radices<16, 16, 14, 7>, 256, 1, 2, 2>();
  run_case<float, Radices<6, 27, 27, 6>, 256, 1, 2, 2>();
  run_case<float, Radices<27, 27, 9, 4>, 128, 1, 4, 3>();
  run_case<float, Radices<27, 27, 27>, 128, 1, 4, 3>();
  run_case<float, Radices<16, 14, 9, 9>, 256, 1, 2, 2>();
  run_case<float, Radices<16, 16, 16, 5>, 256, 1, 2, 2>();
  run_case<float, Radices<16, 15, 15, 6>, 256, 1, 2, 2>();
  run_case<float, Radices<25, 25, 25>, 128, 1, 4, 5>();
  run_case<float, Radices<14, 27, 27>, 128, 1, 4, 2>();
  run_case<double, Radices<16, 14, 7, 7>, 256, 1, 2, 2>();
  run_case<double, Radices<16, 7, 7, 14>, 256, 1, 2, 2>();
  run_case<double, Radices<16, 9, 9, 9>, 256, 1, 2, 2>();
  run_case<double, Radices<16, 15, 7, 7>, 256, 1, 2, 2>();
  run_case<double, Radices<16, 16, 7, 7>, 256, 1, 2, 2>();
  run_case<double, Radices<10, 15, 15, 6>, 256, 1, 2, 2>();
  run_case<double, Radices<16, 15, 15, 4>, 128, 1, 4, 4>();
  run_case<double, Radices<15, 25, 25>, 128, 1, 4, 3>();
  run_case<double, Radices<15, 25, 27>, 128, 1, 4, 3>();
  run_case<double, Radices<15, 27, 27>, 128, 1, 4, 3>();
  run_case<double, Radices<14, 25, 25>, 128, 1, 3, 2>();
  run_case<double, Radices<16, 16, 10, 4>, 256, 1, 2, 2>();
  run_case<double, Radices<10, 15, 15, 5>, 256, 1, 2, 2>();
  run_case<double, Radices<10, 15, 6, 6>, 128, 1, 4, 2>();
}

// The fifth: the lines still short of issue 10's targets at the end of
// the cluster tile's work: 2187 and 5625 complex64 (Stockham tiles at
// 0.89x and 0.79-0.80x cuFFT) as in-place blocks, several per SM; 19683,
// 26244 and 10206 complex64 in the cluster tile with other block sizes.
void edge_trial() {
  run_case<float, Radices<9, 9, 9, 3>, 256, 1, 4>();
  run_case<float, Radices<3, 9, 9, 9>, 256, 1, 4>();
  run_case<float, Radices<3, 9, 9, 9>, 128, 1, 8>();
  run_case<float, Radices<27, 27, 3>, 128, 1, 4>();
  run_case<float, Radices<27, 27, 3>, 96, 1, 6>();
  run_case<float, Radices<27, 27, 3>, 64, 1, 8>();
  run_case<float, Radices<27, 9, 9>, 128, 1, 4>();
  run_case<float, Radices<27, 9, 9>, 96, 1, 6>();
  run_case<float, Radices<9, 9, 27>, 128, 1, 4>();
  run_case<float, Radices<25, 25, 9>, 128, 1, 4>();
  run_case<float, Radices<25, 9, 25>, 128, 1, 4>();
  run_case<float, Radices<25, 15, 15>, 128, 1, 4>();
  run_case<float, Radices<15, 15, 25>, 128, 1, 4>();
  run_case<float, Radices<25, 25, 9>, 192, 1, 3>();
  run_case<float, Radices<27, 27, 27>, 128, 1, 4, 3>();
  run_case<float, Radices<27, 27, 27>, 96, 1, 4, 3>();
  run_case<float, Radices<27, 27, 27>, 81, 1, 4, 3>();
  run_case<float, Radices<27, 27, 27>, 256, 1, 2, 3>();
  run_case<float, Radices<27, 27, 9, 4>, 128, 1, 4, 3>();
  run_case<float, Radices<27, 27, 9, 4>, 96, 1, 4, 3>();
  run_case<float, Radices<27, 27, 9, 4>, 160, 1, 3, 3>();
  run_case<float, Radices<14, 27, 27>, 128, 1, 4, 2>();
  run_case<float, Radices<14, 27, 27>, 96, 1, 4, 2>();
}

int main(int argc, char** argv) {
  const std::string trial = argc > 1 ? argv[1] : "";
  if (trial != "first" && trial != "batch" && trial != "two_blocks" && trial != "cluster" &&
      trial != "edge") {
    std::fprintf(stderr, "usage: in_place_tile_trials first|batch|two_blocks|cluster|edge\n");
    return 2;
  }
  if (argc > 2) g_only_length = std::atoi(argv[2]);
  measure_copy();
  if (trial == "first") first_trial();
  if (trial == "batch") batch_trial();
  if (trial == "two_blocks") two_blocks_trial();
  if (trial == "cluster") cluster_trial();
  if (trial == "edge") edge_trial();
}
