#include "kernels/cuda/spectrum_multiply.hpp"

#include <algorithm>

#include "kernels/cuda/cuda_check.hpp"

namespace oocfft::kernels::cuda {
namespace {

// The planes of one launch travel by value in the kernel's parameters
// (4 KiB at most): 64 planes of 24 bytes, so a brick of many small planes
// is a few launches, not one per plane.
constexpr unsigned planes_per_launch = 64;
struct PlaneBatch {
  FilterPlane plane[planes_per_launch];
};

constexpr unsigned threads_per_block = 256;

// One thread per sample of a row, rows strided over the grid's y (at most
// 65535 blocks, fewer than the rows of a 32K^2 field padded 2x), one plane
// per grid z.
template <class T>
__global__ void multiply_planes(Complex<T>* brick, std::size_t ny, std::size_t nx, BrickOrigin origin,
                                optics::TransferFunction h, PlaneBatch batch) {
  const std::size_t x = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (x >= nx) return;
  const FilterPlane p = batch.plane[blockIdx.z];
  const double fx = optics::TransferFunction::frequency(origin.x0 + x, h.nx, h.pitch_x);
  Complex<T>* plane = brick + std::size_t(blockIdx.z) * ny * nx;
  for (std::size_t y = blockIdx.y; y < ny; y += gridDim.y) {
    const double fy = optics::TransferFunction::frequency(origin.y0 + y, h.ny, h.pitch_y);
    const Complex<double> w = h.at(fx, fy, p.z, p.edge_x, p.edge_y);
    Complex<T>& v = plane[y * nx + x];
    const Complex<double> r = Complex<double>{double(v.re), double(v.im)} * w;
    v = {T(r.re), T(r.im)};
  }
}

}  // namespace

template <class T>
void multiply_brick(Complex<T>* brick, const Shape& extent, const BrickOrigin& origin,
                    const SpectrumFilter& filter, cudaStream_t stream) {
  const std::size_t plane = extent.ny * extent.nx;
  for (std::size_t z = 0; z < extent.nz; z += planes_per_launch) {
    const unsigned planes = static_cast<unsigned>(std::min<std::size_t>(planes_per_launch, extent.nz - z));
    PlaneBatch batch{};
    for (unsigned j = 0; j < planes; ++j) batch.plane[j] = filter.planes[origin.z0 + z + j];
    const dim3 grid(static_cast<unsigned>((extent.nx + threads_per_block - 1) / threads_per_block),
                    static_cast<unsigned>(std::min<std::size_t>(extent.ny, 65535)), planes);
    multiply_planes<T><<<grid, threads_per_block, 0, stream>>>(brick + z * plane, extent.ny, extent.nx, origin,
                                                              filter.h, batch);
    check_launch("multiply_planes (angular-spectrum transfer function)");
  }
}

template void multiply_brick<float>(Complex<float>*, const Shape&, const BrickOrigin&, const SpectrumFilter&,
                                    cudaStream_t);
template void multiply_brick<double>(Complex<double>*, const Shape&, const BrickOrigin&, const SpectrumFilter&,
                                     cudaStream_t);

}  // namespace oocfft::kernels::cuda
