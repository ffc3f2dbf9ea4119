// The fused short-row kernel (real_rows_fused_kernel.cuh) for float rows.
#include "kernels/cuda/real_rows_fused_kernel.cuh"

namespace oocfft::kernels::cuda {

template bool real_rows_fused_supported<float>(std::int64_t);
template void launch_real_rows_fused<float>(float*, std::int64_t, std::int64_t, std::int64_t, const Complex<float>*, bool, float,
                                         cudaStream_t);

}  // namespace oocfft::kernels::cuda
