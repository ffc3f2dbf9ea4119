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
// `batch` or `two_blocks` for the three trials of that section; SMALL=1 runs
// 8 lines per case (for compute-sanitizer).
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
#include "kernels/cuda/tile_kernels.cuh"

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

// The product's skew and vector accesses (tile_kernels.cuh).
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

template <class T, class Rs, int Threads, int Batch = 1, int Blocks = 1>
void run_case() {
  constexpr int N = Rs::n();
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
  const size_t shared = 2 * sizeof(T) * (N + (N >> (sizeof(T) == 4 ? 5 : 4)) + 1);
  auto kernel = dif_kernel<T, Rs, Threads, Batch, Blocks>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  cufftHandle plan;
  if (cufftPlan1d(&plan, N, CufftType<T>::type, lines) != CUFFT_SUCCESS) {
    std::printf("cufft plan failed\n");
    std::exit(1);
  }
  // Correctness: both on the same input.
  CK(cudaMemcpy(d, host.data(), total * sizeof(Complex<T>), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(ref, host.data(), total * sizeof(Complex<T>), cudaMemcpyHostToDevice));
  kernel<<<lines, Threads, shared>>>(d, tables);
  CK(cudaGetLastError());
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
  const float ours = median_ms([&] { kernel<<<lines, Threads, shared>>>(d, tables); });
  const float theirs = median_ms([&] { CufftType<T>::exec(plan, ref); });
  const double bytes = 2.0 * total * sizeof(Complex<T>);
  std::printf("%-7s k%d b%d n=%6d threads=%4d regs=%3d local=%3zu shared=%6zu  ours %.3f ms (%.2f of copy)  cufft %.3f ms "
              "(%.2f of copy)  ratio %.2f  diff %.1e\n",
              sizeof(T) == 4 ? "c64" : "c128", Blocks, Batch, N, Threads, attr.numRegs, attr.localSizeBytes, shared, ours,
              bytes / ours / 1e6 / g_copy_gbs, theirs, bytes / theirs / 1e6 / g_copy_gbs, theirs / ours,
              std::sqrt(num / den));
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

int main(int argc, char** argv) {
  const std::string trial = argc > 1 ? argv[1] : "";
  if (trial != "first" && trial != "batch" && trial != "two_blocks") {
    std::fprintf(stderr, "usage: in_place_tile_trials first|batch|two_blocks\n");
    return 2;
  }
  measure_copy();
  if (trial == "first") first_trial();
  if (trial == "batch") batch_trial();
  if (trial == "two_blocks") two_blocks_trial();
}
