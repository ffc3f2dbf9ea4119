#include "engine/streaming_engine.hpp"

#include <cstdio>
#include <limits>

#include "engine/host_pipeline.hpp"
#include "oocfft/error.hpp"

#if OOCFFT_HAVE_CUDA
#include "engine/cuda_streaming.hpp"
#endif

namespace oocfft::engine {

#if !OOCFFT_HAVE_CUDA
// Never constructed without CUDA; complete so unique_ptr can destroy it.
class CudaStreaming {};
#endif

namespace {

std::size_t element_bytes_of(Precision p) { return p == Precision::single ? 8 : 16; }

PlannerInput planner_input(const Shape& shape, Precision precision, const Options& options, Backend backend,
                           std::size_t budget) {
  PlannerInput in;
  in.volume = {shape.nz, shape.ny, shape.nx};
  in.element_bytes = element_bytes_of(precision);
  in.device_budget = budget;
  in.staging_budget = options.host_staging_budget;
  in.streams = options.streams;
  in.requested = options.strategy;
  in.host_backend = backend == Backend::host;
  return in;
}

}  // namespace

StreamingEngine::StreamingEngine(const Shape& shape, Precision precision, const Options& options, Backend backend)
    : StreamingEngine(shape, precision, options, backend, nullptr) {}

StreamingEngine::StreamingEngine(const Shape& shape, Precision precision, const Options& options, Backend backend,
                                 const BrickKernelFactory& kernels)
    : StreamingEngine(shape, precision, options, backend, &kernels) {}

StreamingEngine::StreamingEngine(const Shape& shape, Precision precision, const Options& options, Backend backend,
                                 [[maybe_unused]] const BrickKernelFactory* kernels)
    : shape_(shape), precision_(precision), options_(options), backend_(backend) {
  std::size_t budget = options.device_memory_budget;
  if (backend == Backend::host) {
    // No device: without a budget, everything is in core (in place).
    if (budget == 0) budget = std::numeric_limits<std::size_t>::max() / 4;
    plan_ = plan_passes(planner_input(shape, precision, options, backend, budget));
    return;
  }
#if OOCFFT_HAVE_CUDA
  if (budget == 0) budget = default_device_budget();
  PlannerInput in = planner_input(shape, precision, options, backend, budget);
  plan_ = plan_passes(in);
  cuda_ = std::make_unique<CudaStreaming>(plan_, precision, kernels);
  // The kernels' real workspace and tables may exceed the planner's
  // estimate (one brick of workspace, no tables): plan again with them.
  for (int attempt = 0; attempt < 3; ++attempt) {
    const std::size_t need = plan_.streams * (plan_.brick_bytes + cuda_->workspace_bytes()) + cuda_->table_bytes();
    if (need <= budget) break;
    in.table_bytes = cuda_->table_bytes();
    in.workspace_ratio = plan_.brick_bytes == 0 ? 1.0 : double(cuda_->workspace_bytes()) / double(plan_.brick_bytes);
    in.workspace_ratio *= 1.05;  // rounding of brick extents
    plan_ = plan_passes(in);
    cuda_ = std::make_unique<CudaStreaming>(plan_, precision, kernels);
  }
  device_tables_ = cuda_->table_bytes();
  device_workspace_ = cuda_->workspace_bytes();
#else
  throw Error(ErrorKind::unsupported, "the CUDA backend is not in this build");
#endif
}

StreamingEngine::~StreamingEngine() = default;

double StreamingEngine::pcie_floor_seconds() const {
  if (backend_ == Backend::host) return 0;
  return double(plan_.passes.size()) * double(shape_.bytes(element_bytes_of(precision_))) /
         pcie_duplex_bytes_per_second;
}

// Mirrors the policy in cuda_streaming.cpp.
std::string StreamingEngine::registration_summary() const {
  const HostRegistration r = options_.register_host_memory;
  if (!plan_.natural_layout_only() || r == HostRegistration::off) return "every brick staged";
  if (r == HostRegistration::automatic) return "staged unless the caller page-locked the array";
  return "the array page-locked in chunks during the call, bricks DMA'd from it";
}

std::string StreamingEngine::describe() const {
  std::string s = describe_passes(plan_);
  const std::size_t staging = plan_.host_in_place ? 0 : plan_.streams * plan_.staging_bytes;
  if (backend_ == Backend::host) {
    s += "  host brick buffers: " + format_bytes(double(staging)) + " (" + std::to_string(plan_.streams) + " x " +
         format_bytes(double(plan_.staging_bytes)) + ")\n";
    return s;
  }
  const std::size_t device = plan_.streams * (plan_.brick_bytes + device_workspace_) + device_tables_;
  s += "  pinned staging: " + format_bytes(double(staging)) + " (" + std::to_string(plan_.streams) + " x " +
       format_bytes(double(plan_.staging_bytes)) + ") at most, allocated only when a brick stages (register_host_memory " +
       to_string(options_.register_host_memory) + ": " + registration_summary() + ")\n";
  s += "  device memory: " + format_bytes(double(device)) + " of a budget of " +
       format_bytes(double(plan_.device_budget)) + " (bricks " + format_bytes(double(plan_.brick_bytes)) +
       " + workspace " + format_bytes(double(device_workspace_)) + " per stream, tables " +
       format_bytes(double(device_tables_)) + ")\n";
  char floor[160];
  std::snprintf(floor, sizeof floor, "  PCIe floor: %.3f s (%zu passes x %s / 45.8 GB/s duplex)\n",
                pcie_floor_seconds(), plan_.passes.size(),
                format_bytes(double(shape_.bytes(element_bytes_of(precision_)))).c_str());
  s += floor;
#if OOCFFT_HAVE_CUDA
  s += cuda_->describe();
#endif
  return s;
}

template <class T>
void StreamingEngine::execute(const AxisPlans<T>& plans, kernels::Complex<T>* data, bool inverse, T scale,
                              tbb::task_arena& arena, RunReport* report) const {
  const BrickShape volume{shape_.nz, shape_.ny, shape_.nx};
  if (report != nullptr) {
    report->strategy = plan_.strategy;
    report->backend = backend_;
    report->passes = static_cast<unsigned>(plan_.passes.size());
    report->streams = plan_.streams;
    report->timeline.clear();
  }
  if (backend_ == Backend::host) {
    execute_host_pipeline(plan_, plans, data, volume, inverse, scale, arena, pool_, options_, report);
    return;
  }
#if OOCFFT_HAVE_CUDA
  cuda_->execute(plan_, data, volume, inverse, scale, arena, pool_, options_, report);
#endif
}

template void StreamingEngine::execute<float>(const AxisPlans<float>&, kernels::Complex<float>*, bool, float,
                                              tbb::task_arena&, RunReport*) const;
template void StreamingEngine::execute<double>(const AxisPlans<double>&, kernels::Complex<double>*, bool, double,
                                               tbb::task_arena&, RunReport*) const;

}  // namespace oocfft::engine
