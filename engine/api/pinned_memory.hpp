#pragma once
// Plan::pin: a caller's array page-locked for the device
// (include/oocfft/pinned_memory.hpp).
#include <cstddef>

#include "oocfft/options.hpp"
#include "oocfft/pinned_memory.hpp"

namespace oocfft::engine {

PinnedMemory pin_for_device(void* data, std::size_t bytes, Backend backend);

}  // namespace oocfft::engine
