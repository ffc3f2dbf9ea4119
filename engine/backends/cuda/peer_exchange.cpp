#include "engine/backends/cuda/peer_exchange.hpp"

#include <cuda_runtime_api.h>

#include "kernels/cuda/cuda_check.hpp"
#include "oocfft/error.hpp"

namespace oocfft::engine {

namespace kc = kernels::cuda;

PeerExchange::PeerExchange(std::vector<int> devices)
    : devices_(std::move(devices)), peer_(devices_.size() * devices_.size(), 0) {
  for (std::size_t a = 0; a < devices_.size(); ++a)
    for (std::size_t b = 0; b < devices_.size(); ++b) {
      if (a == b) continue;
      int can = 0;
      kc::check_cuda(cudaDeviceCanAccessPeer(&can, devices_[a], devices_[b]), "cudaDeviceCanAccessPeer");
      peer_[a * devices_.size() + b] = can != 0 ? 1 : 0;
    }
}

std::string PeerExchange::route() const {
  if (devices_.size() < 2) return "none (one device)";
  std::string without;  // the pairs the runtime stages through the host
  std::size_t pairs = 0, staged = 0;
  for (std::size_t a = 0; a < devices_.size(); ++a)
    for (std::size_t b = a + 1; b < devices_.size(); ++b) {
      ++pairs;
      if (peer(a, b) && peer(b, a)) continue;
      ++staged;
      without += (without.empty() ? "" : ", ") + std::to_string(devices_[a]) + "-" + std::to_string(devices_[b]);
    }
  if (staged == 0)
    return "peer copies (cudaMemcpy3DPeerAsync, peer access enabled between every pair of devices)";
  if (staged == pairs)
    return "through the host (no pair of devices has peer access; the runtime stages cudaMemcpy3DPeerAsync "
           "through host memory)";
  return "peer copies (cudaMemcpy3DPeerAsync) where peer access allows; through the host between devices " + without;
}

void PeerExchange::enable() const {
  if (devices_.size() < 2) return;
  int current = 0;
  kc::check_cuda(cudaGetDevice(&current), "cudaGetDevice");
  for (std::size_t a = 0; a < devices_.size(); ++a) {
    kc::check_cuda(cudaSetDevice(devices_[a]), "cudaSetDevice");
    for (std::size_t b = 0; b < devices_.size(); ++b) {
      if (a == b || !peer(a, b)) continue;
      const cudaError_t status = cudaDeviceEnablePeerAccess(devices_[b], 0);
      if (status == cudaErrorPeerAccessAlreadyEnabled) {
        (void)cudaGetLastError();  // enabled by an earlier plan: the state is what we want
        continue;
      }
      kc::check_cuda(status, ("cudaDeviceEnablePeerAccess (device " + std::to_string(devices_[a]) + " to device " +
                              std::to_string(devices_[b]) + ")")
                                 .c_str());
    }
  }
  kc::check_cuda(cudaSetDevice(current), "cudaSetDevice");
}

}  // namespace oocfft::engine
