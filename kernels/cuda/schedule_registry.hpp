#pragma once
// The compiled schedules of this build and the one function that picks the
// kernel of a tile job. Which lengths are compiled ahead of time is the CMake
// choice OOCFFT_KERNEL_SET (kernels/cuda/CMakeLists.txt):
//   pow2  powers of two: contiguous lines 32..8192 (and 16384 for
//         complex<float>), strided lines 16..1024;
//   ci    pow2, plus the 7-smooth lengths the tests and benchmarks use;
//   full  (the default) every 7-smooth length: contiguous 9..4096, strided
//         9..1024, and the long powers of two.
// Lengths outside the set take a schedule compiled at plan time by NVRTC
// where the plan has a PlanTimeSchedules (TileKernels::compiled_where_available),
// the general run-time-length kernel otherwise.
// Host-visible (no device code).
#include <cuda_runtime_api.h>

#include <optional>
#include <vector>

#include "kernels/cuda/schedule_geometry.hpp"
#include "kernels/cuda/schedule_key.hpp"
#include "kernels/cuda/tile_job.hpp"

namespace oocfft::kernels::cuda {

// The name of the compiled set ("pow2", "ci" or "full").
const char* kernel_set() noexcept;

// A compiled schedule for lines of length n (lanes_fast: the lanes are the
// contiguous dimension), and the lanes one of its tiles holds.
struct CompiledSchedule {
  int length = 0;
  bool lanes_fast = false;
  int lanes = 0;
};

// Every schedule compiled for element type T and `use`, in length order.
template <class T>
std::vector<CompiledSchedule> compiled_schedules(ScheduleUse use = ScheduleUse::transform);

// Whether this build compiled a schedule of length n for type T (either
// layout): a device plan for a line longer than the general kernel's tile
// keeps a tile plan beside its four-step one only then.
template <class T>
bool has_compiled_schedule(int n);

// The compiled schedule that would serve a tile job, whether or not one is
// compiled: the job says which use it needs (a Bluestein job carries a
// chirp; a four-step step A job, strided lanes and a twiddle post-multiply;
// a step B job, contiguous points in and contiguous lanes out; a transform,
// the same layout both ways and no post-multiply), its fast dimensions have
// stride 1, its passes are the schedule's, and the batch fills at least one
// tile of lanes (smaller batches waste most of a fixed tile; the general
// kernel sizes its tiles to the batch). None otherwise (Bluestein's table
// post-multiply in four steps included). Device plans prepare the
// plan-time schedules of these keys.
template <class T>
std::optional<ScheduleKey> schedule_key_for(const TileJob<T>& job);

// The kernel a tile job runs on: the build's compiled schedule of
// schedule_key_for(job) where the plan allows one (job.kernels) and the
// build has it; else, under compiled_where_available, the one the plan
// compiled at plan time (job.plan_time, ready); else the general kernel.
template <class T>
TileKernel choose_tile_kernel(const TileJob<T>& job);

// Launches the compiled schedule choose_tile_kernel(job) would pick and
// returns true (`inverse` is ignored for Bluestein jobs, which carry
// job.conjugate); returns false, launching nothing, when none serves.
template <class T>
bool launch_compiled_schedule(const TileJob<T>& job, bool inverse, cudaStream_t stream);

// One compiled schedule and one Bluestein convolution: defined in
// compiled_schedule_kernels.cuh, instantiated in the generated .cu files.
template <class T, int N, bool LanesFast, ScheduleStore Store>
void launch_schedule(const TileJob<T>& job, bool inverse, cudaStream_t stream);
template <class T, int M, bool LanesFast>
void launch_bluestein_schedule(const TileJob<T>& job, cudaStream_t stream);

}  // namespace oocfft::kernels::cuda
