// The direct short-row kernel (real_rows_direct_kernel.cuh) for float rows.
#include "kernels/cuda/real_rows_direct_kernel.cuh"

namespace oocfft::kernels::cuda {

template void launch_real_rows_direct<float>(float*, std::int64_t, std::int64_t, std::int64_t, const Complex<float>*, bool, float,
                                          cudaStream_t);

}  // namespace oocfft::kernels::cuda
