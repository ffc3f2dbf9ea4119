#pragma once
// The multiply stage of an angular-spectrum pass program on the device: a
// natural-layout brick of the padded spectrum volume, already on the
// device, times H(fx, fy; z) computed per sample in double precision
// (optics/transfer_function.hpp, the host filter's code). Asynchronous on
// the caller's stream; every launch is checked.
#include <cuda_runtime_api.h>

#include "kernels/spectrum_multiply.hpp"

namespace oocfft::kernels::cuda {

template <class T>
void multiply_brick(Complex<T>* brick, const Shape& extent, const BrickOrigin& origin,
                    const SpectrumFilter& filter, cudaStream_t stream);

}  // namespace oocfft::kernels::cuda
