#pragma once
// DeviceBrickKernels<T>: what the CUDA pipeline calls to transform one brick
// in device memory along a pass's axes. The library always uses its own
// kernels (DeviceBrickPlan); the seam exists so that the benchmark can run
// the very same pipeline with another FFT (cuFFT) and tell pipeline quality
// from kernel quality. It is engine-internal on purpose: nothing in
// include/oocfft/ lets a user swap the kernels, whose correctness, memory
// accounting and OOM behaviour the engine would then no longer control.
// Compiled only when the library is built with CUDA.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "core/geometry.hpp"
#include "kernels/complex.hpp"

namespace oocfft::engine {

template <class T>
class DeviceBrickKernels {
 public:
  virtual ~DeviceBrickKernels() = default;
  // Device scratch bytes execute() needs besides the data (per stream).
  virtual std::size_t workspace_bytes() const = 0;
  // Device bytes held by the kernels themselves (tables, plans).
  virtual std::size_t table_bytes() const = 0;
  // Transforms `data` (device, shape `shape` up to the shape the kernels were
  // built for, C order) in place along the built axes and multiplies by
  // `scale`; asynchronous on `stream`. Called from several stream threads
  // at once, each with its own stream and workspace.
  virtual void execute(kernels::Complex<T>* data, oocfft::Shape shape, void* workspace, bool inverse, T scale,
                       cudaStream_t stream) const = 0;
  virtual std::string describe() const = 0;
};

// Builds the kernels of one pass: its largest (staged) brick and its axes.
// An empty function means the library's own kernels.
struct BrickKernelFactory {
  std::function<std::unique_ptr<DeviceBrickKernels<float>>(oocfft::Shape, oocfft::AxisSet)> single;
  std::function<std::unique_ptr<DeviceBrickKernels<double>>(oocfft::Shape, oocfft::AxisSet)> twice;
};

}  // namespace oocfft::engine
