#pragma once
// The CUDA backend: the library's device kernels (one DeviceBrickPlan per
// pass, built for the pass's largest brick and axes, behind the
// DeviceBrickKernels seam of brick_kernels.hpp so the benchmark can put
// cuFFT in their place) and one CUDA stream per lane (CudaBrickLane,
// cuda_brick_lane.hpp): a brick is read from the volume store into the
// lane's pinned staging buffer, copied up with cudaMemcpyAsync,
// transformed, copied down and written back, ordered
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
// Several devices (Options::devices, device_placement.hpp): each device has
// its own lanes (streams, events, brick buffers), its own kernels built on
// it, its own resident planes and direction turns; lanes of all devices
// share the staging pool and the store's direct access (registrations are
// portable). Resident planes another device keeps cross by peer copies
// (peer_exchange.hpp). A device that cannot allocate, or fails mid-run, is
// named in the error; every lane stops after its brick in flight, and
// every stream is drained before host memory is unlocked.
//
// Registration policy (HostRegistration, decided by the store). automatic:
// DMA directly only when the memory is page-locked already, else stage. on:
// page-lock a host array in 256 MiB chunks from a thread beside the
// pipeline, each brick waiting for its chunks, and unlock it before
// returning. Measured on the H100 machine (bench/RESULTS.md, "16 GiB through
// a 4 GiB device budget (two passes)"): staged through the rings 1.04 s (1.12 s
// on a plan's first execution); `on` 1.71-1.81 s (locking sets the first
// pass's pace and unlocking adds about 0.3 s); an array the caller
// page-locked once 0.80 s. Staging stays the default: it is the faster.
// Staged bricks go through a StagingRing per stream (staging_ring.hpp),
// and staged lanes take turns per direction (DirectionTurns).
// Compiled only when the library is built with CUDA.
#include <filesystem>
#include <memory>

#include "engine/pipeline/execution_backend.hpp"

namespace oocfft::engine {

// `kernels` (may be null) replaces the library's kernels (the benchmark's
// cuFFT peer). `devices` names the CUDA devices (Options::devices; the
// default is the current one): Error(invalid_argument) names one this
// process does not see.
std::unique_ptr<ExecutionBackend> make_cuda_backend(Precision precision, const BrickKernelFactory* kernels,
                                                    const std::filesystem::path& kernel_cache,
                                                    const kernels::VolumeTransform& transform,
                                                    const Devices& devices);

// cudaHostRegister (portable) on the current device, behind PageLocker.
std::unique_ptr<volume::PageLocker> make_cuda_page_locker();

// The CUDA runtime's answer to "is a device usable": empty when yes, else
// the reason.
std::string cuda_unavailable_reason();

// cudaGetDeviceCount's count; 0 when it answers with an error (cleared).
int cuda_device_count_reported() noexcept;

}  // namespace oocfft::engine
