#pragma once
// The host executor: batched 1D Stockham (and Bluestein) transforms of lines
// with arbitrary strides, parallel over blocks of neighbouring lines with
// oneTBB. Each task gathers a block of lines into split real/imaginary
// scratch laid out [point][lane], so the butterflies of all lanes run as one
// vectorisable loop, then scatters the result back with the scale applied.
// Runs in the caller's TBB arena (the engine limits threads with one).
#include "kernels/complex.hpp"
#include "kernels/line_batch.hpp"
#include "kernels/line_plan.hpp"

namespace oocfft::kernels {

// Transforms every line of `batch` in `data` in place and multiplies the
// result by `scale`. plan.length() must equal batch.length.
template <class T>
void execute_lines_host(const LinePlan<T>& plan, Complex<T>* data, const LineBatch& batch, bool inverse, T scale);

extern template void execute_lines_host<float>(const LinePlan<float>&, Complex<float>*, const LineBatch&, bool,
                                               float);
extern template void execute_lines_host<double>(const LinePlan<double>&, Complex<double>*, const LineBatch&, bool,
                                                double);

}  // namespace oocfft::kernels
