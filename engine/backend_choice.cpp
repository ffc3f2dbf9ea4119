#include "engine/backend_choice.hpp"

#include <string>

#include "oocfft/error.hpp"
#include "oocfft/plan.hpp"

#if OOCFFT_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace oocfft {

namespace {
// Empty when a CUDA device is usable, else the reason it is not.
std::string cuda_unavailable_reason() {
#if OOCFFT_HAVE_CUDA
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error so later calls start clean
    return std::string("no usable CUDA device: ") + cudaGetErrorString(status);
  }
  if (count == 0) return "no CUDA device present";
  return "";
#else
  return "this build of oocfft has no CUDA backend (configured with OOCFFT_CUDA=OFF or no nvcc)";
#endif
}
}  // namespace

bool cuda_available() noexcept {
  try {
    return cuda_unavailable_reason().empty();
  } catch (...) {
    return false;
  }
}

namespace engine {

Backend resolve_backend(Backend requested) {
  if (requested == Backend::host) return Backend::host;
  const std::string reason = cuda_unavailable_reason();
  if (requested == Backend::automatic) return reason.empty() ? Backend::cuda : Backend::host;
  if (!reason.empty()) throw Error(ErrorKind::unsupported, "Backend::cuda requested but " + reason);
  return Backend::cuda;
}

}  // namespace engine
}  // namespace oocfft
