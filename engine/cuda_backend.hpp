#pragma once
// The CUDA backend: the library's device kernels (one DeviceBrickPlan per
// pass, built for the pass's largest brick and axes, behind the
// DeviceBrickKernels seam of brick_kernels.hpp so the benchmark can put
// cuFFT in their place) and one CUDA stream per BrickLane: a brick is read
// from the volume store into the lane's pinned staging buffer, copied up
// with cudaMemcpyAsync, transformed, copied down and written back, ordered
// by the stream and timed with events, never by device-wide syncs. When the
// store offers direct DMA (volume_store.hpp), natural bricks move straight
// between its page-locked memory and the device with no staging copy; a
// staged brick larger than the staging moves in pieces through its two
// slots, one slot's host copy overlapping the other's DMA. A carry-over
// plan (pass_planner.hpp) keeps its resident planes in one device buffer:
// pass 1 transforms those z-slabs there and writes nothing back, pass 2
// copies them into each y-slab device to device (cudaMemcpy3DAsync) and
// reads only the rest from the volume.
//
// Registration policy (HostRegistration, decided by the store). automatic:
// DMA directly only when the memory is page-locked already, else stage. on:
// page-lock a host array in 256 MiB chunks from a thread beside the
// pipeline, each brick waiting for its chunks, and unlock it before
// returning. Measured on the H100 machine (bench/RESULTS.md, "Out-of-core
// engine"), 16 GiB two-pass, 4 GiB budget, plan reused: staged
// 1.36-1.52 s; `on` 1.37-1.96 s (locking sets the first pass's pace,
// unlocking adds 0.25 s, and in some runs locking the first chunks stalled
// 0.8 s); an array the caller page-locked once 0.73-0.82 s. On a plan's
// first execution `on` is the faster (1.42-2.15 s against 2.24-2.54 s)
// because it page-locks no staging: staging buffers are page-locked only
// when a brick needs one. At 96 GiB `on` is slower (10.6 s against 8.3 s
// staged). Staging stays the default because it is the steadier.
// Compiled only when the library is built with CUDA.
#include <filesystem>
#include <memory>

#include "engine/execution_backend.hpp"

namespace oocfft::engine {

// `kernels` (may be null) replaces the library's kernels (the benchmark's
// cuFFT peer).
std::unique_ptr<ExecutionBackend> make_cuda_backend(Precision precision, const BrickKernelFactory* kernels,
                                                    const std::filesystem::path& kernel_cache);

// cudaHostRegister (portable) on the current device, behind PageLocker.
std::unique_ptr<volume::PageLocker> make_cuda_page_locker();

// The CUDA runtime's answer to "is a device usable": empty when yes, else
// the reason.
std::string cuda_unavailable_reason();

}  // namespace oocfft::engine
