#include "engine/cuda_backend.hpp"

#include <cuda_runtime_api.h>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_brick_plan.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/stream.hpp"

namespace oocfft::engine {

namespace kc = kernels::cuda;

template <class T>
struct CudaInCoreTransform<T>::Impl {
  Shape shape;
  kc::DeviceBrickPlan<T> plan;
  kc::Stream stream;

  explicit Impl(const Shape& s)
      : shape(s), plan(kernels::BrickShape{s.nz, s.ny, s.nx}, kernels::AxisSet::all()) {}

  std::size_t volume_bytes() const { return shape.bytes(sizeof(kernels::Complex<T>)); }
};

template <class T>
CudaInCoreTransform<T>::CudaInCoreTransform(const Shape& shape) : impl_(std::make_unique<Impl>(shape)) {}
template <class T>
CudaInCoreTransform<T>::~CudaInCoreTransform() = default;
template <class T>
CudaInCoreTransform<T>::CudaInCoreTransform(CudaInCoreTransform&&) noexcept = default;
template <class T>
CudaInCoreTransform<T>& CudaInCoreTransform<T>::operator=(CudaInCoreTransform&&) noexcept = default;

template <class T>
std::size_t CudaInCoreTransform<T>::device_bytes() const {
  return impl_->volume_bytes() + impl_->plan.workspace_bytes() + impl_->plan.table_bytes();
}

template <class T>
void CudaInCoreTransform<T>::execute(kernels::Complex<T>* data, bool inverse, T scale) const {
  const Impl& p = *impl_;
  const std::size_t volume = p.volume_bytes();
  const std::size_t workspace = p.plan.workspace_bytes();
  std::size_t free_bytes = 0, total_bytes = 0;
  kc::check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  if (volume + workspace > free_bytes)
    throw Error(ErrorKind::out_of_memory,
                "volume " + p.shape.to_string() + " needs " + std::to_string(volume) + " bytes plus " +
                    std::to_string(workspace) + " bytes of workspace on the device, which has " +
                    std::to_string(free_bytes) + " bytes free; the CUDA backend transforms in-core volumes only");
  const kc::DeviceBuffer device_volume(volume, "volume");
  const kc::DeviceBuffer device_workspace(workspace, "workspace");
  auto* values = device_volume.as<kernels::Complex<T>>();
  const cudaStream_t stream = p.stream.get();
  kc::check_cuda(cudaMemcpyAsync(values, data, volume, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
  p.plan.execute(values, kernels::BrickShape{p.shape.nz, p.shape.ny, p.shape.nx}, device_workspace.get(), inverse,
                 scale, stream);
  kc::check_cuda(cudaMemcpyAsync(data, values, volume, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  p.stream.synchronize();
}

template <class T>
std::string CudaInCoreTransform<T>::describe() const {
  return impl_->plan.describe() + "  device bytes: " + std::to_string(device_bytes()) + " (volume, workspace, tables)\n";
}

template class CudaInCoreTransform<float>;
template class CudaInCoreTransform<double>;

}  // namespace oocfft::engine
