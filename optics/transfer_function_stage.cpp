#include "optics/transfer_function_stage.hpp"

#include <tbb/parallel_for.h>

#include "oocfft/error.hpp"

namespace oocfft::optics {

TransferFunctionStage::TransferFunctionStage(const TransferFunction& h, const double* distances, std::size_t count,
                                             std::size_t planes)
    : h_(h), planes_(planes) {
  for (std::size_t j = 0; j < planes; ++j) {
    const double z = count == 1 ? distances[0] : distances[j];
    planes_[j] = {z, TransferFunction::band_edge(h.k, h.nx, h.pitch_x, z),
                  TransferFunction::band_edge(h.k, h.ny, h.pitch_y, z)};
  }
}

template <class T>
void TransferFunctionStage::multiply_host(kernels::Complex<T>* brick, const Shape& extent,
                                          const kernels::BrickOrigin& origin) const {
  using kernels::Complex;
  tbb::parallel_for(std::size_t{0}, extent.nz * extent.ny, [&](std::size_t row) {
    const std::size_t z = row / extent.ny, y = row % extent.ny;
    const FilterPlane& plane = planes_[origin.z0 + z];
    const double fy = TransferFunction::frequency(origin.y0 + y, h_.ny, h_.pitch_y);
    Complex<T>* line = brick + row * extent.nx;
    for (std::size_t x = 0; x < extent.nx; ++x) {
      const Complex<double> w = h_.at(TransferFunction::frequency(origin.x0 + x, h_.nx, h_.pitch_x), fy, plane.z,
                                      plane.edge_x, plane.edge_y);
      const Complex<double> p = Complex<double>{double(line[x].re), double(line[x].im)} * w;
      line[x] = {T(p.re), T(p.im)};
    }
  });
}

void TransferFunctionStage::multiply(kernels::Complex<float>* brick, const Shape& extent,
                                     const kernels::BrickOrigin& origin) const {
  multiply_host(brick, extent, origin);
}

void TransferFunctionStage::multiply(kernels::Complex<double>* brick, const Shape& extent,
                                     const kernels::BrickOrigin& origin) const {
  multiply_host(brick, extent, origin);
}

#if !OOCFFT_HAVE_CUDA
// Without CUDA the device multiply is cuda/transfer_function_stage.cu's
// absence; no backend of such a build calls it.
void TransferFunctionStage::multiply_on_device(kernels::Complex<float>*, const Shape&,
                                               const kernels::BrickOrigin&, CUstream_st*) const {
  throw Error(ErrorKind::unsupported, "the angular-spectrum multiply on a device: this build has no CUDA backend");
}
void TransferFunctionStage::multiply_on_device(kernels::Complex<double>*, const Shape&,
                                               const kernels::BrickOrigin&, CUstream_st*) const {
  throw Error(ErrorKind::unsupported, "the angular-spectrum multiply on a device: this build has no CUDA backend");
}
#endif

}  // namespace oocfft::optics
