// The fused short-row kernel (real_rows_fused_kernel.cuh) for double rows.
#include "kernels/cuda/real_rows_fused_kernel.cuh"

namespace oocfft::kernels::cuda {

template bool real_rows_fused_supported<double>(std::int64_t);
template void launch_real_rows_fused<double>(double*, std::int64_t, std::int64_t, std::int64_t, const Complex<double>*, bool, double,
                                         cudaStream_t);

}  // namespace oocfft::kernels::cuda
