#include "kernels/cuda/plan_time_schedules.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_library.hpp"
#include "kernels/cuda/device_limits.hpp"
#include "oocfft/error.hpp"

namespace oocfft::kernels::cuda {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string format_seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f s", s);
  return text;
}

bool power_of_two(int n) { return n > 0 && (n & (n - 1)) == 0; }

bool real_ends(ScheduleUse use) {
  return use == ScheduleUse::real_split || use == ScheduleUse::real_merge || use == ScheduleUse::real_pairs_forward ||
         use == ScheduleUse::real_pairs_inverse;
}

// The kernels that keep the whole tile in shared memory between their
// steps: Bluestein's convolution (between its two transforms) and the real
// transform's ends (between the split or merge and the passes). They run
// the Stockham tile of the settled schedule (convolution_shape).
bool whole_tile_in_shared(ScheduleUse use) { return use == ScheduleUse::bluestein || real_ends(use); }

// Shared bytes a launch of `key`'s kernel needs.
std::size_t launch_shared_bytes(const ScheduleKey& key, const ScheduleShape& g) {
  if (!whole_tile_in_shared(key.use)) return g.shared_bytes;
  return key.type == ElementType::complex_float ? bluestein_shared_bytes<float>(g) : bluestein_shared_bytes<double>(g);
}

// Why no compiled tile serves `key` on a device of compute capability
// `arch` (90 for sm_90) with `optin` bytes of shared memory per block, or
// none. The conditions the kernels' static_asserts check at compile time,
// read at run time, so that NVRTC is never asked for a kernel that cannot
// exist.
std::optional<std::string> no_tile(const ScheduleKey& key, const ScheduleShape& g, int arch, std::size_t optin) {
  if (g.passes == 0) return "the length has a prime factor above 13";
  if (g.threads == 0) return "no block size keeps a thread's values within the register budget";
  if (!g.valid) return "a tile needs more shared memory than a block has";
  const bool strided = key.layout == ScheduleLayout::strided;
  if (key.use == ScheduleUse::four_step_twiddled && !strided) return "four-step step A runs on strided lanes";
  if (key.use == ScheduleUse::four_step_transposed && (strided || !g.uses_shared))
    return "four-step step B stages contiguous lines through shared memory";
  if (g.in_place && key.use != ScheduleUse::transform) return "the in-place tile transforms whole lines only";
  if (g.cluster > 1 && arch < 90)
    return "the cluster tile needs thread-block clusters (compute capability 9.0), the device has " +
           std::to_string(arch / 10) + "." + std::to_string(arch % 10);
  const std::size_t bytes = launch_shared_bytes(key, g);
  if (bytes > optin)
    return "a tile needs " + std::to_string(bytes) + " bytes of shared memory, the device allows " +
           std::to_string(optin);
  return std::nullopt;
}

}  // namespace

const char* to_string(PlanTimeSource source) noexcept {
  switch (source) {
    case PlanTimeSource::compiled: return "compiled by NVRTC";
    case PlanTimeSource::disk_cache: return "loaded from the disk cache";
    case PlanTimeSource::memory_cache: return "taken from the memory cache";
    case PlanTimeSource::failed: return "not available, general kernel instead";
  }
  return "?";
}

std::string describe(const PlanTimeOutcome& o) {
  std::string d = describe(o.key) + ": " + to_string(o.source);
  switch (o.source) {
    case PlanTimeSource::compiled: d += " in " + format_seconds(o.compile_seconds) + " (cache miss)"; break;
    case PlanTimeSource::disk_cache:
    case PlanTimeSource::memory_cache: d += " in " + format_seconds(o.load_seconds) + " (cache hit)"; break;
    case PlanTimeSource::failed: break;
  }
  if (!o.note.empty()) d += " (" + o.note + ")";
  return d;
}

std::optional<std::string> outside_plan_time_family(const ScheduleKey& key) {
  const bool strided = key.layout == ScheduleLayout::strided;
  if (key.length < 9) return std::string(to_string(key.use)) + " schedules are built for lengths from 9 only";
  // Bluestein's whole convolution in one tile, and a whole contiguous line
  // in one tile: any length whose tile fits a block (no_tile says which do
  // not). One kernel moves the data once where four steps or Bluestein's
  // padded rows move it several times (bench/RESULTS.md, "Bluestein: one
  // prime per convolution length").
  if (key.use == ScheduleUse::bluestein || (!strided && key.use == ScheduleUse::transform)) return std::nullopt;
  // The real transform's ends: contiguous rows whose half length a tile
  // holds, never compiled ahead of time (real_schedule_kernels.cuh).
  if (real_ends(key.use))
    return strided ? std::optional<std::string>(std::string(to_string(key.use)) + " schedules run on contiguous rows only")
                   : std::nullopt;
  // The four-step steps of powers of two up to 4096: what the full set
  // builds.
  if (key.use != ScheduleUse::transform && power_of_two(key.length) && key.length <= 4096) return std::nullopt;
  // Strided transforms, and the four-step steps of other lengths (15625 =
  // 125 x 125, 16807 = 343 x 49, ...), which no set builds ahead of time:
  // the lengths of the full set's transforms. Against four-step on the
  // general kernel, 14 of 18 long lengths measured ran 1.3-2.2x faster, and
  // four 1.4-1.8x slower (7776 and 12000 complex<float>, 4500 and 6000
  // complex<double>): no rule separates them yet.
  const int longest = strided ? 1024 : 4096;
  if (key.length > longest)
    return std::string(to_string(key.use)) + " schedules of " + to_string(key.layout) +
           " lines are built for lengths 9.." + std::to_string(longest) + " only";
  return std::nullopt;
}

ScheduleShape shape_of(const ScheduleKey& key) {
  const bool strided = key.layout == ScheduleLayout::strided;
  const bool single = key.type == ElementType::complex_float;
  if (whole_tile_in_shared(key.use))
    return single ? convolution_shape<float>(key.length, strided) : convolution_shape<double>(key.length, strided);
  return single ? schedule_shape<float>(key.length, strided) : schedule_shape<double>(key.length, strided);
}

namespace {

// Compiles `key` and writes the cubin over its cache entry; `outcome` says
// it was compiled, and how long it took.
CompiledCubin compile_into_cache(const ScheduleKey& key, const PlanTimeCompiler& compiler, CubinCache& cache,
                                 PlanTimeOutcome& outcome) {
  const auto start = std::chrono::steady_clock::now();
  CompiledCubin cubin = compiler.compile(key);
  outcome.compile_seconds = seconds_since(start);
  outcome.source = PlanTimeSource::compiled;
  cache.write(key, compiler.fingerprint(), cubin);
  return cubin;
}

}  // namespace

CompiledCubin obtain_cubin(const ScheduleKey& key, const PlanTimeCompiler& compiler, CubinCache& cache,
                           PlanTimeOutcome& outcome) {
  outcome.key = key;
  const std::string fingerprint = compiler.fingerprint();
  const auto start = std::chrono::steady_clock::now();
  CacheRead read = cache.read(key, fingerprint);
  if (read.outcome == CacheLookup::memory_hit || read.outcome == CacheLookup::disk_hit) {
    outcome.source = read.outcome == CacheLookup::memory_hit ? PlanTimeSource::memory_cache : PlanTimeSource::disk_cache;
    outcome.load_seconds = seconds_since(start);
    return std::move(read.cubin);
  }
  if (read.outcome == CacheLookup::corrupt) outcome.note = "damaged cache entry replaced: " + read.reason;
  return compile_into_cache(key, compiler, cache, outcome);
}

struct PlanTimeSchedules::Loaded {
  CudaLibrary library;
  cudaKernel_t kernel = nullptr;
  ScheduleShape shape;
  std::size_t shared_bytes = 0;
};

PlanTimeSchedules::PlanTimeSchedules(CubinCache cache)
    : PlanTimeSchedules(std::move(cache), PlanTimeCompiler::for_current_device()) {}

PlanTimeSchedules::PlanTimeSchedules(CubinCache cache, PlanTimeCompiler compiler)
    : compiler_(std::move(compiler)), cache_(std::move(cache)) {
  shared_optin_ = DeviceLimits::current().shared_per_block_optin;
}

PlanTimeSchedules::~PlanTimeSchedules() {
  // Kernels of these libraries may still run on a caller's stream, and a
  // library unloaded under a running kernel is undefined: wait for the
  // device first, as the cudaFree of a plan's tables does implicitly.
  if (!loaded_.empty()) (void)cudaDeviceSynchronize();
}

std::unique_ptr<const PlanTimeSchedules::Loaded> PlanTimeSchedules::load(const ScheduleKey& key,
                                                                         const CompiledCubin& cubin,
                                                                         PlanTimeOutcome& outcome) const {
  const auto start = std::chrono::steady_clock::now();
  const ScheduleShape shape = shape_of(key);
  auto l = std::make_unique<Loaded>(
      Loaded{CudaLibrary(cubin.image.data(), describe(key)), nullptr, shape, launch_shared_bytes(key, shape)});
  l->kernel = l->library.kernel(cubin.kernel_name);
  // Raised once, to what the launch needs, as allow_shared
  // (tile_launchers.cuh) does for the ahead-of-time kernels. The runtime
  // takes a cudaKernel_t where it takes a kernel's address.
  if (l->shared_bytes > 48 * 1024)
    check_cuda(cudaFuncSetAttribute(reinterpret_cast<const void*>(l->kernel),
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(l->shared_bytes)),
               "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
  outcome.load_seconds += seconds_since(start);
  return l;
}

std::unique_ptr<const PlanTimeSchedules::Loaded> PlanTimeSchedules::obtain_and_load(const ScheduleKey& key,
                                                                                    PlanTimeOutcome& outcome) {
  try {
    CompiledCubin cubin = obtain_cubin(key, compiler_, cache_, outcome);
    try {
      return load(key, cubin, outcome);
    } catch (const Error& e) {
      if (outcome.source == PlanTimeSource::compiled || e.kind() != ErrorKind::cuda) throw;
      // A cached cubin whose checksum holds but which the runtime refuses:
      // compiled once more, and written over the entry.
      outcome.note = std::string("cached cubin refused (") + e.what() + "), compiled again";
      return load(key, compile_into_cache(key, compiler_, cache_, outcome), outcome);
    }
  } catch (const std::exception& e) {
    // NVRTC refused, the load failed, or memory ran out: the general kernel
    // serves, and the plan report says why.
    outcome.source = PlanTimeSource::failed;
    outcome.note = e.what();
    return nullptr;
  }
}

bool PlanTimeSchedules::prepare(const ScheduleKey& key) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (outcomes_.count(key) != 0) return loaded_.count(key) != 0;
  }
  // Compiled and loaded without the lock: a compile takes a fraction of a
  // second to seconds, and launches of other schedules must not wait.
  PlanTimeOutcome outcome;
  outcome.key = key;
  std::unique_ptr<const Loaded> loaded;
  if (const auto why = outside_plan_time_family(key)) {
    outcome.note = *why;
  } else if (const auto none = no_tile(key, shape_of(key), compiler_.arch(), shared_optin_)) {
    outcome.note = "no compiled tile: " + *none;
  } else {
    loaded = obtain_and_load(key, outcome);
  }
  if (!loaded) outcome.source = PlanTimeSource::failed;
  std::lock_guard<std::mutex> lock(mutex_);
  if (outcomes_.count(key) != 0) return loaded_.count(key) != 0;  // another thread prepared it first
  outcomes_[key] = outcome;
  if (loaded) loaded_[key] = std::move(loaded);
  return loaded_.count(key) != 0;
}

bool PlanTimeSchedules::ready(const ScheduleKey& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return loaded_.count(key) != 0;
}

template <class T>
void PlanTimeSchedules::launch(const ScheduleKey& key, const TileJob<T>& job, bool inverse,
                               cudaStream_t stream) const {
  const Loaded* l = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = loaded_.find(key);
    if (it != loaded_.end()) l = it->second.get();
  }
  if (l == nullptr)
    throw Error(ErrorKind::invalid_argument, "plan-time schedule " + describe(key) + " was not prepared");
  const int cluster = l->shape.cluster;
  const TileGrid grid = tile_grid(job.lane.count, l->shape.log_lanes, job.group.count, cluster);
  TileJob<T> job_parameter = job;
  bool inverse_parameter = inverse;
  void* transform_parameters[] = {&job_parameter, &inverse_parameter};
  void* bluestein_parameters[] = {&job_parameter};
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid.x, grid.y);
  config.blockDim = dim3(static_cast<unsigned>(l->shape.threads));
  config.dynamicSmemBytes = l->shared_bytes;
  config.stream = stream;
  cudaLaunchAttribute cluster_size{};
  cluster_size.id = cudaLaunchAttributeClusterDimension;
  cluster_size.val.clusterDim.x = static_cast<unsigned>(cluster);
  cluster_size.val.clusterDim.y = 1;
  cluster_size.val.clusterDim.z = 1;
  config.attrs = &cluster_size;
  config.numAttrs = cluster > 1 ? 1 : 0;
  check_cuda(cudaLaunchKernelExC(&config, reinterpret_cast<const void*>(l->kernel),
                                 key.use == ScheduleUse::bluestein ? bluestein_parameters : transform_parameters),
             "cudaLaunchKernelExC (plan-time schedule)");
}

std::optional<PlanTimeOutcome> PlanTimeSchedules::outcome(const ScheduleKey& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = outcomes_.find(key);
  if (it == outcomes_.end()) return std::nullopt;
  return it->second;
}

std::vector<PlanTimeOutcome> PlanTimeSchedules::outcomes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<PlanTimeOutcome> list;
  for (const auto& [key, outcome] : outcomes_) list.push_back(outcome);
  return list;
}

std::string PlanTimeSchedules::summary() const {
  int compiled = 0, hits = 0, failed = 0;
  for (const PlanTimeOutcome& o : outcomes()) {
    if (o.source == PlanTimeSource::compiled) ++compiled;
    else if (o.source == PlanTimeSource::failed) ++failed;
    else ++hits;
  }
  return "plan-time kernels: NVRTC " + compiler_.nvrtc_version() + " for sm_" + std::to_string(compiler_.arch()) +
         ", cache " + cache_.status() + "; " + std::to_string(compiled) + " compiled, " + std::to_string(hits) +
         " from the cache, " + std::to_string(failed) + " not available";
}

template void PlanTimeSchedules::launch<float>(const ScheduleKey&, const TileJob<float>&, bool, cudaStream_t) const;
template void PlanTimeSchedules::launch<double>(const ScheduleKey&, const TileJob<double>&, bool, cudaStream_t) const;

}  // namespace oocfft::kernels::cuda
