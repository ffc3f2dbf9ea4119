#pragma once
// A memcpy whose stores bypass the cache (non-temporal stores). A brick
// gather or scatter writes hundreds of MiB that are not read again by this
// core soon: the staging buffer goes to the device by DMA, and the volume is
// not touched again until the next pass. Ordinary stores first read every
// destination cache line (a read for ownership), so a copy moves three bytes
// of DRAM traffic per byte copied; streaming stores make it two. On the
// staged out-of-core path the host copies are what bound the run
// (bench/RESULTS.md, "Out-of-core engine"), so that third is time.
//
// The stores are weakly ordered: a thread must call store_fence() after its
// last streaming copy and before another thread or a DMA engine may read the
// destination.
#include <cstddef>

namespace oocfft::transpose {

void copy_streaming(std::byte* to, const std::byte* from, std::size_t bytes) noexcept;
void store_fence() noexcept;

}  // namespace oocfft::transpose
