#pragma once
// The centring phases (kernels/centring.hpp) on the device: the tables of
// one execution uploaded once, and the pointwise multiply of a brick that
// is on the device, in any staged layout. Asynchronous on the caller's
// stream; every launch is checked.
#include <cuda_runtime_api.h>

#include "kernels/centring.hpp"
#include "kernels/cuda/device_buffer.hpp"

namespace oocfft::kernels::cuda {

// Device pointers to the six tables of CentringTables.
struct CentringView {
  const Complex<double>* input[3] = {};
  const Complex<double>* output[3] = {};
};

// The tables of one execution in device memory (one buffer).
class DeviceCentringTables {
 public:
  explicit DeviceCentringTables(const CentringTables& tables);
  const CentringView& view() const { return view_; }

 private:
  DeviceBuffer buffer_;
  CentringView view_;
};

template <class T>
void centre_brick(Complex<T>* brick, const Shape& staged, const BrickOrigin& origin, const StagedAxes& axes,
                  const CentringView& tables, CentringSide side, cudaStream_t stream);

}  // namespace oocfft::kernels::cuda
