#pragma once
// Plan::pin: a caller's array page-locked for the device (PinnedMemory in
// plan.hpp).
#include <cstddef>

#include "oocfft/plan.hpp"

namespace oocfft::engine {

PinnedMemory pin_for_device(void* data, std::size_t bytes, Backend backend);

}  // namespace oocfft::engine
