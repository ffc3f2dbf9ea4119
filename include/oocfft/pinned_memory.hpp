#pragma once
// oocfft::PinnedMemory: a caller's array page-locked for a plan's device
// (Plan::pin returns one).
#include <memory>
#include <string>

namespace oocfft {

// A caller's array page-locked for the GPU by Plan::pin: while the handle
// lives, executions DMA bricks straight from the array (the default
// register_host_memory = automatic uses locked memory as it is), so
// repeated transforms of a malloc'd array pay the locking once, about
// 0.05 s/GiB on the H100 machine. Move-only; the destructor unlocks.
class PinnedMemory {
 public:
  PinnedMemory() noexcept;
  ~PinnedMemory();
  PinnedMemory(PinnedMemory&&) noexcept;
  PinnedMemory& operator=(PinnedMemory&&) noexcept;
  PinnedMemory(const PinnedMemory&) = delete;
  PinnedMemory& operator=(const PinnedMemory&) = delete;

  // True when this handle page-locked the range. False on the host
  // backend, when the range was page-locked already (by the caller, who
  // keeps it so), or when the system refused; reason() then says which.
  bool locked() const noexcept;
  std::string reason() const;

  class Impl;
  explicit PinnedMemory(std::unique_ptr<Impl> impl) noexcept;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace oocfft
