#pragma once
// The device side of a pointwise stage (kernels/pointwise_stage.hpp): a
// natural-layout brick, already on the device, times a factor computed per
// sample. The factor is the stage author's type, compiled into the author's
// own .cu (optics/cuda/transfer_function_stage.cu), so these kernels know
// nothing of what they multiply by:
//   struct Factor {
//     using Plane = ...;  // what one z plane needs, computed on the host
//     __device__ Complex<double> at(std::size_t x, std::size_t y, const Plane&) const;
//   };
// (x, y are indices in the volume.) Asynchronous on the caller's stream;
// every launch is checked. Include from .cu files only.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/pointwise_stage.hpp"

namespace oocfft::kernels::cuda {

// The planes of one launch travel by value in the kernel's parameters
// (4 KiB at most), so a brick of many small planes is a few launches, not
// one per plane.
template <class Plane>
struct PlaneBatch {
  static constexpr unsigned capacity = 3072 / sizeof(Plane) < 64 ? unsigned(3072 / sizeof(Plane)) : 64u;
  Plane plane[capacity];
};

constexpr unsigned pointwise_threads_per_block = 256;

// One thread per sample of a row, rows strided over the grid's y (at most
// 65535 blocks, fewer than the rows of a 32K^2 field padded 2x), one plane
// per grid z.
template <class T, class Factor>
__global__ void multiply_planes(Complex<T>* brick, std::size_t ny, std::size_t nx, BrickOrigin origin, Factor factor,
                                PlaneBatch<typename Factor::Plane> batch) {
  const std::size_t x = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (x >= nx) return;
  const typename Factor::Plane& p = batch.plane[blockIdx.z];
  Complex<T>* plane = brick + std::size_t(blockIdx.z) * ny * nx;
  for (std::size_t y = blockIdx.y; y < ny; y += gridDim.y) {
    const Complex<double> w = factor.at(origin.x0 + x, origin.y0 + y, p);
    Complex<T>& v = plane[y * nx + x];
    const Complex<double> r = Complex<double>{double(v.re), double(v.im)} * w;
    v = {T(r.re), T(r.im)};
  }
}

// brick *= factor, `planes[z]` the plane data of volume plane z.
template <class T, class Factor>
void multiply_brick(Complex<T>* brick, const Shape& extent, const BrickOrigin& origin, const Factor& factor,
                    const typename Factor::Plane* planes, cudaStream_t stream, const char* what) {
  using Batch = PlaneBatch<typename Factor::Plane>;
  const std::size_t plane = extent.ny * extent.nx;
  for (std::size_t z = 0; z < extent.nz; z += Batch::capacity) {
    const unsigned count = static_cast<unsigned>(std::min<std::size_t>(Batch::capacity, extent.nz - z));
    Batch batch{};
    for (unsigned j = 0; j < count; ++j) batch.plane[j] = planes[origin.z0 + z + j];
    const dim3 grid(static_cast<unsigned>((extent.nx + pointwise_threads_per_block - 1) / pointwise_threads_per_block),
                    static_cast<unsigned>(std::min<std::size_t>(extent.ny, 65535)), count);
    multiply_planes<T, Factor><<<grid, pointwise_threads_per_block, 0, stream>>>(brick + z * plane, extent.ny,
                                                                                 extent.nx, origin, factor, batch);
    check_launch(what);
  }
}

}  // namespace oocfft::kernels::cuda
