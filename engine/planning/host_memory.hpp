#pragma once
// How much host memory a transform may take when the caller sets no budget,
// and the smallest budget a streamed run over a file can make progress in.
#include <cstddef>
#include <functional>
#include <string>

#include "oocfft/options.hpp"
#include "oocfft/shape.hpp"

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

// A streamed run over a file makes an HDF5 call per brick, and where a
// brick cuts the file's chunks, a read and a write of every chunk it cuts:
// tiny bricks cost their count, not their bytes. Measured on the host
// backend, 512 MiB through a budget of 64 KiB (196,608 bricks of 8 KiB)
// took 55 s, 256 KiB (49,152) 17 s, 1 MiB (12,288) 7.7 s, against 2.2 s
// through 16 MiB. A budget whose run takes more bricks than this, all its
// passes together, is refused with the smallest that does not.
inline constexpr std::size_t most_streamed_bricks = 16384;

// The bricks a streamed run takes under a host budget, all passes together;
// SIZE_MAX where no plan fits the budget.
using BricksForBudget = std::function<std::size_t(std::size_t host_budget)>;

// The bricks, all passes together, of the streamed plan of `volume`
// (elements of `element_bytes`; `real_x`: a real transform's half
// spectrum) for `options` on `backend` with `staging` bytes of staging (and,
// on the host backend, as much "device"), as the engine plans it; SIZE_MAX
// where no plan fits.
std::size_t streamed_bricks(const Shape& volume, std::size_t element_bytes, const Options& options, Backend backend,
                            std::size_t staging, bool real_x = false);

// Throws Error(out_of_memory) when the run under `budget` takes more
// than most_streamed_bricks (or no plan fits it), naming `what` ("streaming
// FILE:/DATASET (512.0 MiB)"), the bricks it would take, and the smallest
// budget up to `ceiling` that takes at most that many (a budget of
// `ceiling` always works: the volume in memory, say). The budget is the
// library's host_memory_budget, the command's --host-memory.
void check_streaming_budget(std::size_t budget, std::size_t ceiling, const std::string& what,
                            const BricksForBudget& bricks);

}  // namespace oocfft::engine
