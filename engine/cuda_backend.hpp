#pragma once
// The CUDA backend's in-core path: a volume that fits device memory is
// copied to the GPU, transformed along every axis there by the in-house
// kernels (DeviceBrickPlan: x lines, then strided y and z lines, no
// transpose) and copied back. A volume that does not fit is refused with
// Error(out_of_memory); streaming it through the GPU is the out-of-core
// engine's job. Compiled only when the library is built with CUDA; this
// header names no CUDA type.
#include <cstddef>
#include <memory>
#include <string>

#include "kernels/complex.hpp"
#include "oocfft/shape.hpp"

namespace oocfft::engine {

template <class T>
class CudaInCoreTransform {
 public:
  // Plans every axis and uploads the twiddle tables to the current device.
  explicit CudaInCoreTransform(const Shape& shape);
  ~CudaInCoreTransform();
  CudaInCoreTransform(CudaInCoreTransform&&) noexcept;
  CudaInCoreTransform& operator=(CudaInCoreTransform&&) noexcept;

  // In place on the host array `data` (the plan's shape): copy in, transform,
  // multiply by `scale`, copy out. Blocks until the result is in `data`.
  void execute(kernels::Complex<T>* data, bool inverse, T scale) const;

  // Device bytes an execute() needs: the volume, the workspace, the tables.
  std::size_t device_bytes() const;
  std::string describe() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class CudaInCoreTransform<float>;
extern template class CudaInCoreTransform<double>;

}  // namespace oocfft::engine
