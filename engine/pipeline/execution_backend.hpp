#pragma once
// ExecutionBackend: what runs a plan's passes. The host backend (the host
// executor on plain brick buffers) and the CUDA backend (the library's
// kernels on four streams) implement the same interface; the streaming
// engine plans, fits the budget and hands each backend a volume store,
// never a pointer. backend_factory.cpp is the one place that knows which
// backends this build has.
#include <tbb/task_arena.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "engine/planning/pass_planner.hpp"
#include "engine/planning/pcie_floor.hpp"
#include "kernels/centring.hpp"
#include "kernels/pointwise_stage.hpp"
#include "kernels/volume_transform.hpp"
#include "oocfft/options.hpp"
#include "oocfft/run_report.hpp"
#include "oocfft/shape.hpp"
#include "volume/page_locker.hpp"
#include "volume/staging_pool.hpp"
#include "volume/volume_store.hpp"

namespace oocfft::engine {

struct BrickKernelFactory;  // brick_kernels.hpp (CUDA builds): the benchmark's kernel peer

// The kernels a backend built for the passes of one plan: device tables
// and per-stream workspace, for the budget.
class PassKernelSet {
 public:
  virtual ~PassKernelSet() = default;
  virtual std::size_t table_bytes() const = 0;
  virtual std::size_t workspace_bytes() const = 0;  // one stream's, the largest over the passes
  virtual std::string describe() const = 0;
};

// A plan fitted to its devices' budgets with the kernels built for it.
struct FittedPlan {
  PassPlan plan;
  // The kernels built on each device of the plan, in the order of
  // plan.devices: each device runs its own.
  std::vector<std::shared_ptr<const PassKernelSet>> device_kernels;
  const PassKernelSet& kernels_of(unsigned device) const { return *device_kernels.at(device); }
  // Device bytes the plan holds on device `device` (an index into
  // plan.devices): streams x (brick + workspace) + tables + the planes it
  // keeps between the passes.
  std::size_t device_bytes_of(unsigned device) const;
  // The same on its fullest device.
  std::size_t device_bytes() const;
};

// What one execution needs besides the plan and the store.
struct RunContext {
  bool inverse = false;
  double scale = 1;  // applied by the last pass
  tbb::task_arena* arena = nullptr;
  volume::StagingPool* pool = nullptr;
  const Options* options = nullptr;
  // The pointwise stage (the ASM transfer function, say), passed down by
  // whoever built the program; required by plans whose passes multiply.
  const kernels::PointwiseStage* multiply = nullptr;
  // The centring phases; required by plans with centring stages.
  const kernels::CentringTables* centring = nullptr;
};

// Thrown by ExecutionBackend::execute when the device buffers of the plan
// cannot be allocated; nothing has been read or written yet, so the engine
// fits a smaller plan and tries again.
struct DeviceBuffersUnavailable {
  std::string message;
};

class ExecutionBackend {
 public:
  virtual ~ExecutionBackend() = default;
  virtual Backend kind() const = 0;
  // The budget of device `device` (one of devices()) when the caller sets
  // none.
  virtual std::size_t default_device_budget(int device) const = 0;
  // The devices this backend runs the plan on, in lane order: what the
  // options named (Options::devices), resolved and checked when the
  // backend was made.
  virtual std::vector<int> devices() const = 0;
  // How the resident planes of a plan on several devices cross from one
  // device to another, for describe(): peer copies, through the host, or
  // (host backend) copies between the emulated devices' memories.
  virtual std::string exchange_route() const = 0;
  // Builds the kernels of every pass of `plan` on device `device` (one of
  // devices()).
  virtual std::shared_ptr<const PassKernelSet> build(const PassPlan& plan, int device) const = 0;
  // Streams `store` through the plan's passes. Throws
  // DeviceBuffersUnavailable before any data moves when the device buffers
  // cannot be had, and oocfft::Error for everything else.
  virtual void execute(const FittedPlan& fitted, volume::VolumeStore& store, const RunContext& run,
                       RunReport* report) const = 0;
  // The in-core plan of the host backend transforms a host array where it
  // lies, with no brick buffer the size of the volume: Plan::execute(T*)
  // hands its array here when plan.host_in_place. False when this backend
  // has no such path.
  virtual bool transform_in_place(std::byte* data, const RunContext& run) const {
    (void)data;
    (void)run;
    return false;
  }
  // Page-locks host memory for this backend's device; null when the backend
  // has no device (host memory then stays pageable).
  virtual const volume::PageLocker* page_locker() const = 0;
  // The host <-> device link's rates for the PCIe floor, with their source.
  // A device backend answers its device's figures from the process-wide
  // cache of measured links (the CUDA backend: link_probe.hpp; the first
  // request for a device measures it, never during a transform on it); the
  // host backend has no link and answers the reference figures, labelled as
  // such. Not called while executing: the floor is for describe() and the
  // caller's reports.
  virtual LinkRates link_rates() const = 0;
};

// The backend of `kind` (never automatic) for volumes of `shape` in
// `precision` (for a real transform, `shape` is the half spectrum the
// passes see and `transform` says the real length of x); `kernels` (may be
// null) replaces the CUDA kernels for the benchmark's peer; `kernel_cache`
// is Options::kernel_cache_directory; `devices` is Options::devices,
// checked here: Error(invalid_argument) names a device this backend does
// not have, Error(unsupported) says when it cannot run as many. Throws
// Error(unsupported) when this build lacks the backend.
std::unique_ptr<ExecutionBackend> make_execution_backend(Backend kind, const Shape& shape, Precision precision,
                                                         const BrickKernelFactory* kernels,
                                                         const std::filesystem::path& kernel_cache,
                                                         const kernels::VolumeTransform& transform = {},
                                                         const Devices& devices = {});

// Page-locks host memory for the CUDA device, or null when this build has
// no CUDA backend or no device is usable (memory then stays pageable).
std::unique_ptr<volume::PageLocker> make_device_page_locker();

// True when this build has the CUDA backend and a CUDA device is usable
// (oocfft::cuda_available()).
bool cuda_usable() noexcept;
// The CUDA devices the process sees; 0 when this build has no CUDA backend
// or the runtime answers with an error (oocfft::cuda_device_count()).
int cuda_devices_visible() noexcept;

// Never returns Backend::automatic. Throws Error(unsupported) when the CUDA
// backend is asked for and is not usable, naming why.
Backend resolve_backend(Backend requested);

}  // namespace oocfft::engine
