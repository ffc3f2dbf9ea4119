#pragma once
// The pointwise step of angular-spectrum propagation on the host: a padded
// spectrum (ny, nx, fftfreq order) times H(fx, fy; z), with H computed per
// sample (optics/transfer_function.hpp), optionally added into a sum (the
// layer-based hologram).
#include <cstddef>

#include "kernels/complex.hpp"
#include "optics/transfer_function.hpp"

namespace oocfft::kernels {

enum class SpectrumUpdate { assign, accumulate };

// out = in * H(z)            (assign; out may be in)
// out += in * H(z)           (accumulate)
template <class T>
void multiply_by_transfer_function(const Complex<T>* in, Complex<T>* out, const optics::TransferFunction& h, double z,
                                   SpectrumUpdate update);

}  // namespace oocfft::kernels
