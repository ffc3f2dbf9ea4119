#pragma once
// PeerExchange: how the planes a plan keeps on several CUDA devices cross
// from the device that keeps them to the device that runs a y-slab (or
// back, in the reversed order): the exchange of device_placement.hpp. Each
// crossing is one cudaMemcpy3DPeerAsync on the y-slab lane's stream.
// Where cudaDeviceCanAccessPeer allows it, peer access is enabled and the
// copy goes straight between the devices (over NVLink where the GPUs are
// joined by it); where it does not, the runtime stages the same call
// through host memory. The route is read when the backend is made, so that
// describe() says it before any data moves; access is enabled when a plan
// on several devices first executes, not for a plan on one device, which
// exchanges nothing. Compiled only when the library is built with CUDA.
#include <string>
#include <vector>

namespace oocfft::engine {

class PeerExchange {
 public:
  // The CUDA devices of a plan, in lane order.
  explicit PeerExchange(std::vector<int> devices);

  // For describe(): peer copies, through the host, or which pairs go which way.
  std::string route() const;

  // Enables peer access from every device to every other that allows it
  // (access enabled earlier in the process is not an error). Leaves the
  // caller's current device as it was; Error(cuda) names the pair that
  // fails.
  void enable() const;

 private:
  bool peer(std::size_t from, std::size_t to) const { return peer_[from * devices_.size() + to] != 0; }

  std::vector<int> devices_;
  std::vector<char> peer_;  // devices x devices: whether `from` may access `to`
};

}  // namespace oocfft::engine
