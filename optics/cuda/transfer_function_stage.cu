// The device multiply of TransferFunctionStage: the pointwise kernel of
// kernels/cuda/pointwise_multiply.cuh with H(fx, fy; z) as its factor, the
// same inline code (transfer_function.hpp) the host multiply evaluates.
#include "kernels/cuda/pointwise_multiply.cuh"
#include "optics/transfer_function_stage.hpp"

namespace oocfft::optics {
namespace {

struct TransferFactor {
  using Plane = FilterPlane;
  TransferFunction h;

  __device__ kernels::Complex<double> at(std::size_t x, std::size_t y, const FilterPlane& p) const {
    return h.at(TransferFunction::frequency(x, h.nx, h.pitch_x), TransferFunction::frequency(y, h.ny, h.pitch_y), p.z,
                p.edge_x, p.edge_y);
  }
};

}  // namespace

void TransferFunctionStage::multiply_on_device(kernels::Complex<float>* brick, const Shape& extent,
                                               const kernels::BrickOrigin& origin, CUstream_st* stream) const {
  kernels::cuda::multiply_brick(brick, extent, origin, TransferFactor{h_}, planes_.data(), stream,
                                "multiply_planes (angular-spectrum transfer function)");
}

void TransferFunctionStage::multiply_on_device(kernels::Complex<double>* brick, const Shape& extent,
                                               const kernels::BrickOrigin& origin, CUstream_st* stream) const {
  kernels::cuda::multiply_brick(brick, extent, origin, TransferFactor{h_}, planes_.data(), stream,
                                "multiply_planes (angular-spectrum transfer function)");
}

}  // namespace oocfft::optics
