#pragma once
// How much host memory a transform may take when the caller sets no budget.
#include <cstddef>

namespace oocfft::engine {

// The kernel's estimate of memory available to new work without swapping
// (MemAvailable in /proc/meminfo), in bytes; 0 when it cannot be read.
std::size_t available_host_memory() noexcept;

// The host's physical memory in bytes (sysconf); 0 when unknown.
std::size_t physical_host_memory() noexcept;

// The default host memory budget: 80% of MemAvailable, the rest left to the
// process's other needs, the page cache the file I/O goes through, and
// other users. Throws Error(unsupported) when MemAvailable cannot be read.
std::size_t default_host_memory_budget();

}  // namespace oocfft::engine
