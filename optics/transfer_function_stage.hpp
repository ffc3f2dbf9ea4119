#pragma once
// TransferFunctionStage: the angular-spectrum transfer function as the
// pointwise stage of a pass program (kernels/pointwise_stage.hpp): a brick
// of a padded spectrum volume (planes (ny, nx) in fftfreq order, each plane
// at its own distance) times H(fx, fy; z), with H computed per sample
// (transfer_function.hpp) in double precision. The host multiply is in the
// .cpp, the device one in cuda/transfer_function_stage.cu (CUDA builds).
#include <cstddef>
#include <vector>

#include "kernels/pointwise_stage.hpp"
#include "optics/transfer_function.hpp"

namespace oocfft::optics {

// One plane of the volume under the filter: its distance and the band
// edges that follow from it (computed once per plane, not per sample).
struct FilterPlane {
  double z = 0;
  double edge_x = 0, edge_y = 0;
};

class TransferFunctionStage final : public kernels::PointwiseStage {
 public:
  // `planes` z planes: plane j at distances[j], or every plane at
  // distances[0] when `count` is 1.
  TransferFunctionStage(const TransferFunction& h, const double* distances, std::size_t count, std::size_t planes);

  std::size_t depth() const override { return planes_.size(); }
  void multiply(kernels::Complex<float>* brick, const Shape& extent,
                const kernels::BrickOrigin& origin) const override;
  void multiply(kernels::Complex<double>* brick, const Shape& extent,
                const kernels::BrickOrigin& origin) const override;
  void multiply_on_device(kernels::Complex<float>* brick, const Shape& extent,
                          const kernels::BrickOrigin& origin, CUstream_st* stream) const override;
  void multiply_on_device(kernels::Complex<double>* brick, const Shape& extent,
                          const kernels::BrickOrigin& origin, CUstream_st* stream) const override;

  const TransferFunction& function() const { return h_; }
  const std::vector<FilterPlane>& planes() const { return planes_; }

 private:
  template <class T>
  void multiply_host(kernels::Complex<T>* brick, const Shape& extent,
                     const kernels::BrickOrigin& origin) const;

  TransferFunction h_;
  std::vector<FilterPlane> planes_;  // one per z plane of the volume
};

}  // namespace oocfft::optics
