#pragma once
// PlanTimeSchedules: the compiled schedules a plan built at plan time with
// NVRTC, for the lengths the build did not compile ahead of time
// (OOCFFT_KERNEL_SET). The plan asks for each schedule its tile jobs need
// (prepare); the cubin comes from the cache (CubinCache) or the compiler
// (PlanTimeCompiler), is loaded (CudaLibrary) and stays loaded while the
// object lives; the launcher then finds it by key. Every outcome is
// recorded, a failure with its reason, so that a plan can say which kernel
// each axis runs and why (describe()); a failure is never an error of the
// transform: the general kernel serves instead.
//
// An explicit object, owned by the plan or shared by several plans
// (std::shared_ptr), never global. prepare() belongs to planning; ready()
// and launch() may run from several threads at once, also while another
// plan sharing the object prepares.
#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "kernels/cuda/cubin_cache.hpp"
#include "kernels/cuda/plan_time_compiler.hpp"
#include "kernels/cuda/schedule_geometry.hpp"
#include "kernels/cuda/schedule_key.hpp"
#include "kernels/cuda/tile_job.hpp"

namespace oocfft::kernels::cuda {

// Where a plan-time schedule's cubin came from, or that there is none.
enum class PlanTimeSource { compiled, disk_cache, memory_cache, failed };

const char* to_string(PlanTimeSource source) noexcept;

struct PlanTimeOutcome {
  ScheduleKey key;
  PlanTimeSource source = PlanTimeSource::failed;
  double compile_seconds = 0;  // NVRTC (0 for a cache hit)
  double load_seconds = 0;     // cache read and cudaLibraryLoadData
  std::string note;            // why it failed, or that a damaged entry was replaced
};

// "complex<float> n=300 contiguous transform: compiled by NVRTC in 0.41 s
// (cache miss)", "...: loaded from the disk cache in 0.002 s (cache hit)",
// or "...: not available, general kernel instead (<why>)".
std::string describe(const PlanTimeOutcome& outcome);

// Why NVRTC is not asked for `key`, or none. Plan-time schedules are the
// family the kernel sets compile ahead of time (cmake/KernelSet.cmake,
// "full"), widened from 7-smooth to 13-smooth: transforms of contiguous
// lines from 9 and strided lines 9..1024, and the four-step steps of powers
// of two up to 4096; beyond the sets, whole contiguous lines longer than
// 4096 and Bluestein convolutions of any length M in one tile (where the
// tile fits a block: no compiled tile otherwise), and four-step steps of
// other lengths up to 4096 (strided 1024), as transforms (checked against
// fftwl in test_plan_time_kernels.cpp). Strided transforms past 1024 were
// never built or tested as compiled schedules.
std::optional<std::string> outside_plan_time_family(const ScheduleKey& key);

// The cubin of `key`: from the cache when it holds a valid entry, else
// compiled and written to the cache. No GPU needed. Throws what the
// compiler throws; `outcome` says where the cubin came from.
CompiledCubin obtain_cubin(const ScheduleKey& key, const PlanTimeCompiler& compiler, CubinCache& cache,
                           PlanTimeOutcome& outcome);

class PlanTimeSchedules {
 public:
  // For the current device, with `cache`.
  explicit PlanTimeSchedules(CubinCache cache);
  PlanTimeSchedules(CubinCache cache, PlanTimeCompiler compiler);
  ~PlanTimeSchedules();
  PlanTimeSchedules(const PlanTimeSchedules&) = delete;
  PlanTimeSchedules& operator=(const PlanTimeSchedules&) = delete;

  // Makes the schedule of `key` ready to launch, compiling or loading it
  // once (a second call returns the first one's answer). False, with the
  // reason recorded, when the key is outside the plan-time family, no tile
  // holds the length on this device, or NVRTC or the load failed.
  bool prepare(const ScheduleKey& key);
  // Whether prepare(key) succeeded.
  bool ready(const ScheduleKey& key) const;
  // Launches the prepared schedule of `key` on `job` (the registry has
  // checked that it serves the job); `inverse` is ignored by Bluestein.
  template <class T>
  void launch(const ScheduleKey& key, const TileJob<T>& job, bool inverse, cudaStream_t stream) const;

  // The outcome of prepare(key), if it ran.
  std::optional<PlanTimeOutcome> outcome(const ScheduleKey& key) const;
  // The outcome of every schedule prepared so far, in key order.
  std::vector<PlanTimeOutcome> outcomes() const;
  const CubinCache& cache() const { return cache_; }
  const PlanTimeCompiler& compiler() const { return compiler_; }
  // One line for plan reports: the compiler, the cache and the counts.
  std::string summary() const;

 private:
  struct Loaded;
  std::unique_ptr<const Loaded> obtain_and_load(const ScheduleKey& key, PlanTimeOutcome& outcome);
  std::unique_ptr<const Loaded> load(const ScheduleKey& key, const CompiledCubin& cubin,
                                     PlanTimeOutcome& outcome) const;
  PlanTimeCompiler compiler_;
  CubinCache cache_;
  std::size_t shared_optin_ = 0;
  mutable std::mutex mutex_;
  std::map<ScheduleKey, std::unique_ptr<const Loaded>> loaded_;
  std::map<ScheduleKey, PlanTimeOutcome> outcomes_;
};

// The shape of the tile of `key` (a run-time call of the geometry the
// kernel was compiled with).
ScheduleShape shape_of(const ScheduleKey& key);

}  // namespace oocfft::kernels::cuda
