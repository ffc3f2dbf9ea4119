#pragma once
// Launchers of the tile and element-wise kernels (declared in tile_job.hpp).
// Included by one .cu file per element type, which instantiates them.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/schedule_registry.hpp"
#include "kernels/cuda/general_tile_kernels.cuh"

namespace oocfft::kernels::cuda {
namespace detail {

// The default dynamic shared memory limit is 48 KB; a larger tile must raise
// the kernel's own limit first. The limit is raised to the device's opt-in
// maximum, the same value from every caller: the engine launches from several
// host threads at once, and a per-launch value could be lowered by one
// thread between another's cudaFuncSetAttribute and its launch.
template <class Kernel>
void allow_shared(Kernel kernel, std::size_t bytes) {
  if (bytes <= 48 * 1024) return;
  int device = 0, optin = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "cudaDeviceGetAttribute");
  if (bytes > static_cast<std::size_t>(optin))
    throw Error(ErrorKind::invalid_argument, "tile kernel: " + std::to_string(bytes) +
                                                 " bytes of shared memory exceed the device's " + std::to_string(optin));
  check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin),
             "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
}

template <class T>
void check_job(const TileJob<T>& job) {
  if (job.threads < 32 || job.threads > max_tile_threads<T> || job.threads % 32 != 0 || job.n < 1 ||
      job.pass_count > max_tile_passes || job.lane.count < 1 || job.group.count < 1)
    throw Error(ErrorKind::invalid_argument,
                "tile kernel: bad geometry (n=" + std::to_string(job.n) + ", threads=" + std::to_string(job.threads) +
                    ")");
}

template <class T>
dim3 grid_for(const TileJob<T>& job) {
  const TileGrid grid = tile_grid(job.lane.count, job.log_lanes, job.group.count);
  return dim3(grid.x, grid.y);
}

inline unsigned elementwise_grid(std::int64_t count, unsigned threads) {
  const std::int64_t blocks = (count + threads - 1) / threads;
  return static_cast<unsigned>(std::clamp<std::int64_t>(blocks, 1, 1 << 20));
}

// Lines with a direct prime pass run their own instance of the general
// kernel (stockham_tile_kernel's DirectPrimes).
template <class T>
bool has_direct_prime_pass(const TileJob<T>& job) {
  for (int p = 0; p < job.pass_count; ++p)
    if (is_direct_prime(job.passes[p].radix)) return true;
  return false;
}

template <class T, bool Inverse, bool DirectPrimes>
void launch_general_tiles(const TileJob<T>& job, cudaStream_t stream) {
  const std::size_t bytes = tile_shared_bytes<T>(static_cast<std::size_t>(job.n) << job.log_lanes);
  allow_shared(stockham_tile_kernel<T, Inverse, DirectPrimes>, bytes);
  stockham_tile_kernel<T, Inverse, DirectPrimes><<<grid_for(job), job.threads, bytes, stream>>>(job);
}

}  // namespace detail

template <class T>
void launch_stockham_tiles(const TileJob<T>& job, bool inverse, cudaStream_t stream) {
  detail::check_job(job);
  if (launch_compiled_schedule(job, inverse, stream)) return;
  const bool direct = detail::has_direct_prime_pass(job);
  if (inverse) {
    direct ? detail::launch_general_tiles<T, true, true>(job, stream)
           : detail::launch_general_tiles<T, true, false>(job, stream);
  } else {
    direct ? detail::launch_general_tiles<T, false, true>(job, stream)
           : detail::launch_general_tiles<T, false, false>(job, stream);
  }
  check_launch("stockham_tile_kernel");
}

template <class T>
void launch_bluestein_tiles(const TileJob<T>& job, cudaStream_t stream) {
  detail::check_job(job);
  if (launch_compiled_schedule(job, false, stream)) return;
  const std::size_t bytes = tile_shared_bytes<T>(static_cast<std::size_t>(job.n) << job.log_lanes);
  detail::allow_shared(detail::bluestein_tile_kernel<T>, bytes);
  detail::bluestein_tile_kernel<T><<<detail::grid_for(job), job.threads, bytes, stream>>>(job);
  check_launch("bluestein_tile_kernel");
}

template <class T>
void launch_chirp_pad(const Complex<T>* data, const LineBatch& lines, std::int64_t first, std::int64_t count,
                      const Complex<T>* chirp, bool conjugate, Complex<T>* work, std::int64_t m,
                      cudaStream_t stream) {
  detail::chirp_pad_kernel<T><<<detail::elementwise_grid(count * m, 256), 256, 0, stream>>>(
      data, lines, first, count, chirp, conjugate, work, m);
  check_launch("chirp_pad_kernel");
}

template <class T>
void launch_chirp_unpad(const Complex<T>* work, std::int64_t m, const Complex<T>* chirp, bool conjugate, T scale,
                        Complex<T>* data, const LineBatch& lines, std::int64_t first, std::int64_t count,
                        cudaStream_t stream) {
  detail::chirp_unpad_kernel<T><<<detail::elementwise_grid(count * lines.signed_length(), 256), 256, 0, stream>>>(
      work, m, chirp, conjugate, scale, data, lines, first, count);
  check_launch("chirp_unpad_kernel");
}

template <class T>
void launch_scale(Complex<T>* data, std::int64_t count, T scale, cudaStream_t stream) {
  if (count <= 0) return;
  detail::scale_kernel<T><<<detail::elementwise_grid(count, 256), 256, 0, stream>>>(data, count, scale);
  check_launch("scale_kernel");
}

}  // namespace oocfft::kernels::cuda

// Explicit instantiation of every launcher for one element type.
#define OOCFFT_INSTANTIATE_TILE_LAUNCHERS(T)                                                                    \
  template void oocfft::kernels::cuda::launch_stockham_tiles<T>(const TileJob<T>&, bool, cudaStream_t);       \
  template void oocfft::kernels::cuda::launch_bluestein_tiles<T>(const TileJob<T>&, cudaStream_t);            \
  template void oocfft::kernels::cuda::launch_chirp_pad<T>(const Complex<T>*, const LineBatch&, std::int64_t,   \
                                                           std::int64_t, const Complex<T>*, bool, Complex<T>*, \
                                                           std::int64_t, cudaStream_t);                        \
  template void oocfft::kernels::cuda::launch_chirp_unpad<T>(const Complex<T>*, std::int64_t, const Complex<T>*, \
                                                             bool, T, Complex<T>*, const LineBatch&, std::int64_t, \
                                                             std::int64_t, cudaStream_t);                      \
  template void oocfft::kernels::cuda::launch_scale<T>(Complex<T>*, std::int64_t, T, cudaStream_t);
