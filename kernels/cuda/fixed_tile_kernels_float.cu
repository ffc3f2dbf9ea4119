// The fixed-length tile kernels for complex<float>: one element type per file,
// apart from the general kernels, so the four CUDA files compile in parallel.
#include "kernels/cuda/fixed_tile_kernels.cuh"

namespace oocfft::kernels::cuda {
template bool launch_fixed_stockham_tiles<float>(const TileJob<float>&, bool, cudaStream_t);
}  // namespace oocfft::kernels::cuda
