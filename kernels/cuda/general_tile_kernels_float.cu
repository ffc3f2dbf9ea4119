// The tile kernels (stockham forward/inverse, Bluestein) and element-wise
// kernels for complex<float>: one element type per file so the two compile in
// parallel.
#include "kernels/cuda/tile_launchers.cuh"

namespace oocfft::kernels::cuda {
OOCFFT_INSTANTIATE_TILE_LAUNCHERS(float)
}  // namespace oocfft::kernels::cuda
