// The direct short-row kernel (real_rows_direct_kernel.cuh) for double rows.
#include "kernels/cuda/real_rows_direct_kernel.cuh"

namespace oocfft::kernels::cuda {

template void launch_real_rows_direct<double>(double*, std::int64_t, std::int64_t, std::int64_t, const Complex<double>*, bool, double,
                                          cudaStream_t);

}  // namespace oocfft::kernels::cuda
