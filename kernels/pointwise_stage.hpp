#pragma once
// PointwiseStage: the stage of a pass program that multiplies a brick,
// sample by sample, by a factor computed from the sample's place in the
// volume (never read from memory). The kernels define what a stage is; its
// author implements it (optics/transfer_function_stage.hpp: the ASM
// transfer function) and the engine passes it down to the backend's lanes.
// So the kernels and the engine know no physics, and a new pointwise stage
// touches neither.
#include <cstddef>

#include "core/geometry.hpp"
#include "kernels/complex.hpp"

struct CUstream_st;  // cudaStream_t without the CUDA headers

namespace oocfft::kernels {

// Where a brick lies in the volume.
struct BrickOrigin {
  std::size_t z0 = 0, y0 = 0, x0 = 0;
};

class PointwiseStage {
 public:
  virtual ~PointwiseStage() = default;

  // The z planes of the volume the stage has factors for.
  virtual std::size_t depth() const = 0;

  // brick[z][y][x] *= factor(z0 + z, y0 + y, x0 + x), for a natural-layout
  // brick of `extent` at `origin`, in host memory (the host backend).
  virtual void multiply(Complex<float>* brick, const Shape& extent, const BrickOrigin& origin) const = 0;
  virtual void multiply(Complex<double>* brick, const Shape& extent, const BrickOrigin& origin) const = 0;

  // The same on a brick in device memory, asynchronous on `stream` (the
  // CUDA backend). A stage built without CUDA throws Error(unsupported).
  virtual void multiply_on_device(Complex<float>* brick, const Shape& extent, const BrickOrigin& origin,
                                  CUstream_st* stream) const = 0;
  virtual void multiply_on_device(Complex<double>* brick, const Shape& extent, const BrickOrigin& origin,
                                  CUstream_st* stream) const = 0;
};

}  // namespace oocfft::kernels
