// The one place that knows which backends this build has.
#include <string>

#include "engine/pipeline/execution_backend.hpp"
#include "engine/backends/host/host_backend.hpp"
#include "oocfft/error.hpp"

#if OOCFFT_HAVE_CUDA
#include "engine/backends/cuda/cuda_backend.hpp"
#endif

namespace oocfft {

namespace {
// Empty when a CUDA device is usable, else the reason it is not.
std::string cuda_unavailable() {
#if OOCFFT_HAVE_CUDA
  return engine::cuda_unavailable_reason();
#else
  return "this build of oocfft has no CUDA backend (configured with OOCFFT_CUDA=OFF or no nvcc)";
#endif
}
}  // namespace

namespace engine {

bool cuda_usable() noexcept {
  try {
    return cuda_unavailable().empty();
  } catch (...) {
    return false;
  }
}

int cuda_devices_visible() noexcept {
#if OOCFFT_HAVE_CUDA
  return cuda_device_count_reported();
#else
  return 0;
#endif
}

Backend resolve_backend(Backend requested) {
  if (requested == Backend::host) return Backend::host;
  const std::string reason = cuda_unavailable();
  if (requested == Backend::automatic) return reason.empty() ? Backend::cuda : Backend::host;
  if (!reason.empty()) throw Error(ErrorKind::unsupported, "Backend::cuda requested but " + reason);
  return Backend::cuda;
}

std::unique_ptr<ExecutionBackend> make_execution_backend(Backend kind, const Shape& shape, Precision precision,
                                                         [[maybe_unused]] const BrickKernelFactory* kernels,
                                                         [[maybe_unused]] const std::filesystem::path& kernel_cache,
                                                         const kernels::VolumeTransform& transform,
                                                         const Devices& devices) {
  if (kind == Backend::host) return make_host_backend(shape, precision, transform, devices);
#if OOCFFT_HAVE_CUDA
  return make_cuda_backend(precision, kernels, kernel_cache, transform, devices);
#else
  throw Error(ErrorKind::unsupported, "the CUDA backend is not in this build");
#endif
}

std::unique_ptr<volume::PageLocker> make_device_page_locker() {
#if OOCFFT_HAVE_CUDA
  if (cuda_usable()) return make_cuda_page_locker();
#endif
  return nullptr;
}

}  // namespace engine
}  // namespace oocfft
