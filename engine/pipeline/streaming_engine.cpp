#include "engine/pipeline/streaming_engine.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "engine/planning/host_memory.hpp"
#include "engine/planning/pcie_floor.hpp"
#include "engine/pipeline/stream_pipeline.hpp"
#include "oocfft/error.hpp"

namespace oocfft::engine {

namespace {

std::size_t element_bytes_of(Precision p) { return p == Precision::single ? 8 : 16; }

// Attempts of fit(): each plans with the tables and workspace the previous
// plan's kernels turned out to need; brick extents round, so two or three
// suffice.
constexpr int fit_attempts = 4;
// Halvings of the bricks after device allocations fail at execution.
constexpr int shrink_attempts = 8;

// Bytes of planning work per point of an axis: the line plan's tables in
// the working precision, and the long-double values they are computed from
// (32 bytes a point), counted once.
constexpr double planning_bytes_per_point = 32;

// Refuses, before any table is built, an axis whose tables could not fit
// the host's memory: planning a length of 2^59 once grew until the kernel
// ended the process. Names the axis.
void check_axis_tables_fit(const Shape& shape) {
  const std::size_t memory = physical_host_memory();
  if (memory == 0) return;
  const std::pair<const char*, std::size_t> axes[] = {{"z", shape.nz}, {"y", shape.ny}, {"x", shape.nx}};
  for (const auto& [name, n] : axes)
    if (double(n) * planning_bytes_per_point > double(memory))
      throw Error(ErrorKind::out_of_memory, std::string("axis ") + name + " of length " + std::to_string(n) +
                                                " needs about " + format_bytes(double(n) * planning_bytes_per_point) +
                                                " to plan, more than this host's " + format_bytes(double(memory)));
}

// Centred transforms (Options::shift): the input's phases before the
// first pass transforms, the output's after the last one has.
void centre(PassPlan& plan) {
  plan.passes.front().stages.insert(plan.passes.front().stages.begin(), Stage::centre_input);
  plan.passes.back().stages.push_back(Stage::centre_output);
}

}  // namespace

std::size_t StreamingEngine::element_bytes() const {
  const std::size_t complex = element_bytes_of(precision_);
  return transform_.kind == kernels::TransformKind::trig ? complex / 2 : complex;
}

std::size_t FittedPlan::device_bytes_of(unsigned device) const {
  if (device >= device_kernels.size()) return 0;
  const PassKernelSet& kernels = *device_kernels[device];
  const std::size_t plane = plan.resident_planes == 0 ? 0 : plan.resident_bytes / plan.resident_planes;
  return plan.streams * (plan.brick_bytes + kernels.workspace_bytes()) + kernels.table_bytes() +
         plan.devices[device].resident_planes() * plane;
}

std::size_t FittedPlan::device_bytes() const {
  std::size_t most = 0;
  for (unsigned d = 0; d < plan.devices.size(); ++d) most = std::max(most, device_bytes_of(d));
  return most;
}

namespace {
// The backend, once the axes are known to be plannable on this host.
std::unique_ptr<ExecutionBackend> checked_backend(const Shape& shape, Precision precision, const Options& options,
                                                  Backend backend, const BrickKernelFactory* kernels,
                                                  const kernels::VolumeTransform& transform = {}) {
  check_axis_tables_fit(transform.kind == kernels::TransformKind::real
                            ? Shape{shape.nz, shape.ny, transform.real_length}
                            : shape);
  return make_execution_backend(backend, shape, precision, kernels, options.kernel_cache_directory, transform,
                                options.devices);
}
}  // namespace

StreamingEngine::StreamingEngine(const Shape& shape, Precision precision, const Options& options, Backend backend)
    : StreamingEngine(shape, precision, options, checked_backend(shape, precision, options, backend, nullptr),
                      std::vector<Stage>{}) {}

StreamingEngine::StreamingEngine(const Shape& shape, Precision precision, const Options& options, Backend backend,
                                 const BrickKernelFactory& kernels)
    : StreamingEngine(shape, precision, options, checked_backend(shape, precision, options, backend, &kernels),
                      std::vector<Stage>{}) {}

StreamingEngine::StreamingEngine(const Shape& shape, Precision precision, const Options& options, Backend backend,
                                 std::vector<Stage> plane_program)
    : StreamingEngine(shape, precision, options, checked_backend(shape, precision, options, backend, nullptr),
                      std::move(plane_program)) {}

StreamingEngine::StreamingEngine(const Shape& shape, Precision precision, const Options& options, Backend backend,
                                 ZLinesOnly)
    : StreamingEngine(shape, precision, options, checked_backend(shape, precision, options, backend, nullptr),
                      std::vector<Stage>{}, kernels::VolumeTransform{}, true) {}

StreamingEngine::StreamingEngine(const Shape& spectrum_shape, Precision precision, const Options& options,
                                 Backend backend, const kernels::VolumeTransform& transform)
    : StreamingEngine(spectrum_shape, precision, options,
                      checked_backend(spectrum_shape, precision, options, backend, nullptr, transform),
                      std::vector<Stage>{},
                      transform) {}

StreamingEngine::StreamingEngine(const Shape& spectrum_shape, Precision precision, const Options& options,
                                 Backend backend, const kernels::VolumeTransform& transform,
                                 std::vector<Stage> plane_program)
    : StreamingEngine(spectrum_shape, precision, options,
                      checked_backend(spectrum_shape, precision, options, backend, nullptr, transform),
                      std::move(plane_program), transform) {}

StreamingEngine::StreamingEngine(const Shape& shape, Precision precision, const Options& options,
                                 std::unique_ptr<ExecutionBackend> backend, const kernels::VolumeTransform& transform)
    : StreamingEngine(shape, precision, options, std::move(backend), std::vector<Stage>{}, transform) {}

StreamingEngine::StreamingEngine(const Shape& shape, Precision precision, const Options& options,
                                 std::unique_ptr<ExecutionBackend> backend)
    : StreamingEngine(shape, precision, options, (check_axis_tables_fit(shape), std::move(backend)),
                      std::vector<Stage>{}) {}

StreamingEngine::StreamingEngine(const Shape& shape, Precision precision, const Options& options,
                                 std::unique_ptr<ExecutionBackend> backend, std::vector<Stage> plane_program,
                                 const kernels::VolumeTransform& transform, bool z_lines_only)
    : shape_(shape),
      precision_(precision),
      options_(options),
      plane_program_(std::move(plane_program)),
      z_lines_only_(z_lines_only),
      transform_(transform),
      budget_given_(options.device_memory_budget != 0),
      backend_(std::move(backend)) {
  if (transform_.kind == kernels::TransformKind::real && options_.shift)
    throw Error(ErrorKind::unsupported,
                "options.shift is not supported for real transforms: apply numpy's fftshift over the first two "
                "axes of the half spectrum instead");
  if (transform_.kind == kernels::TransformKind::trig && options_.shift)
    throw Error(ErrorKind::unsupported, "options.shift has no meaning for the DCT and DST (they have no negative "
                                        "frequencies to centre)");
  // Each device's budget: the one given, or what that device has free.
  std::vector<std::size_t> budgets;
  for (const int device : backend_->devices())
    budgets.push_back(budget_given_ ? options.device_memory_budget : backend_->default_device_budget(device));
  fitted_ = fit(budgets);
  if (fitted_.plan.host_in_place && !budget_given_)
    fitted_.plan.reason = "host backend with no device_memory_budget: the volume is transformed where it lies";
}

StreamingEngine::~StreamingEngine() = default;

FittedPlan StreamingEngine::fit(const std::vector<std::size_t>& budgets) const {
  PlannerInput in;
  in.volume = {shape_.nz, shape_.ny, shape_.nx};
  in.element_bytes = element_bytes();
  in.device_budget = *std::min_element(budgets.begin(), budgets.end());
  in.device_budgets = budgets;
  in.devices = backend_->devices();
  in.staging_budget = options_.host_staging_budget;
  in.streams = options_.streams;
  in.requested = options_.strategy;
  in.host_backend = backend_->kind() == Backend::host;
  in.host_available = available_host_memory();
  in.plane_program = plane_program_;
  in.z_lines_only = z_lines_only_;
  in.real_x = transform_.kind == kernels::TransformKind::real;
  // The in-house kernels need no workspace for most lengths; the first plan
  // assumes none and the kernels built for it say what they need.
  in.workspace_ratio = 0;
  FittedPlan fitted;
  unsigned over = 0;  // a device whose part does not fit its budget
  for (int attempt = 0; attempt < fit_attempts; ++attempt) {
    fitted.plan = plan_passes(in);
    if (options_.shift) centre(fitted.plan);
    fitted.device_kernels.clear();
    std::size_t tables = 0, workspace = 0;
    for (const DevicePlacement& device : fitted.plan.devices) {
      fitted.device_kernels.push_back(backend_->build(fitted.plan, device.ordinal));
      tables = std::max(tables, fitted.device_kernels.back()->table_bytes());
      workspace = std::max(workspace, fitted.device_kernels.back()->workspace_bytes());
    }
    over = 0;
    while (over < fitted.plan.devices.size() &&
           fitted.device_bytes_of(over) <= fitted.plan.devices[over].budget)
      ++over;
    if (over == fitted.plan.devices.size()) return fitted;
    in.table_bytes = tables;
    const std::size_t brick = std::max<std::size_t>(1, fitted.plan.brick_bytes);
    in.workspace_ratio = double(workspace) / double(brick) * 1.05;  // brick extents round
  }
  const std::string which =
      fitted.plan.devices.size() > 1 ? " on device " + std::to_string(fitted.plan.devices[over].ordinal) : "";
  throw Error(ErrorKind::out_of_memory, "the plan for " + shape_.to_string() + " needs " +
                                            format_bytes(double(fitted.device_bytes_of(over))) +
                                            " of device memory" + which +
                                            " (bricks, workspace, tables), more than the budget of " +
                                            format_bytes(double(fitted.plan.devices[over].budget)));
}

FittedPlan StreamingEngine::fitted() const {
  std::lock_guard<std::mutex> lock(fitted_mutex_);
  return fitted_;
}

bool StreamingEngine::multiplies() const {
  const FittedPlan fitted = this->fitted();
  for (const PassSpec& pass : fitted.plan.passes)
    for (const Stage st : pass.stages)
      if (st == Stage::multiply) return true;
  return false;
}

void StreamingEngine::execute(volume::VolumeStore& store, bool inverse, double scale, tbb::task_arena& arena,
                              RunReport* report, const kernels::PointwiseStage* multiply) const {
  FittedPlan current = fitted();
  if (current.plan.host_in_place)
    throw Error(ErrorKind::unsupported, "this plan transforms host arrays in place and cannot stream a volume store; "
                                        "give the host backend a device_memory_budget");
  if (multiplies() && (multiply == nullptr || multiply->depth() != shape_.nz))
    throw Error(ErrorKind::invalid_argument, "this plan multiplies by a pointwise stage: give one with a factor "
                                             "for each of its " + std::to_string(shape_.nz) + " planes");
  const std::optional<kernels::CentringTables> centring = centring_tables(inverse);
  RunContext run = run_context(inverse, scale, arena, multiply);
  run.centring = centring ? &*centring : nullptr;
  const std::size_t first_budget = current.plan.device_budget;
  std::string shortage_seen;
  for (int attempt = 0;; ++attempt) {
    if (report != nullptr) {
      report->replans = static_cast<unsigned>(attempt);
      report->brick_bytes = current.plan.brick_bytes;
      report->device_budget = current.plan.device_budget;
      report->strategy = current.plan.strategy;
      report->backend = backend_->kind();
      report->passes = static_cast<unsigned>(current.plan.passes.size());
      report->streams = current.plan.streams;
      report->devices = static_cast<unsigned>(current.plan.devices.size());
      report->exchanged_bytes = 0;
      report->resident_bytes = 0;
      report->host_scratch_bytes = 0;
      report->timeline.clear();
    }
    try {
      store.run_starting(static_cast<unsigned>(current.plan.passes.size()));
      if (transform_.kind == kernels::TransformKind::real && inverse) {
        // The x stage, the half spectrum back to real rows, comes last.
        FittedPlan reversed = current;
        reversed.plan = reversed_passes(current.plan);
        backend_->execute(reversed, store, run, report);
      } else {
        backend_->execute(current, store, run, report);
      }
      if (attempt > 0) {
        // What ran is what the device holds: later executions start there.
        std::lock_guard<std::mutex> lock(fitted_mutex_);
        fitted_ = std::move(current);
        replan_note_ = "  re-planned at execution: the device could not hold the buffers of the plan for a budget "
                       "of " + format_bytes(double(first_budget)) + " (" + shortage_seen + "); after " +
                       std::to_string(attempt) + " smaller fit" + (attempt == 1 ? "" : "s") +
                       ", the plan above ran\n";
      }
      return;
    } catch (const DeviceBuffersUnavailable& shortage) {
      if (shortage_seen.empty()) shortage_seen = shortage.message;
      // Nothing has moved yet: the same fit, for half the memory the plan held.
      const std::size_t held = current.device_bytes();
      if (attempt + 1 >= shrink_attempts || held < 2)
        throw Error(ErrorKind::out_of_memory, shortage.message + " (after " + std::to_string(attempt + 1) +
                                                  " plans, the last holding " + format_bytes(double(held)) + ")");
      try {
        current = fit(std::vector<std::size_t>(current.plan.devices.size(), held / 2));
      } catch (const Error& error) {
        throw Error(ErrorKind::out_of_memory, shortage.message + "; no smaller plan fits: " + error.what());
      }
    }
  }
}

void StreamingEngine::execute_in_place(std::byte* data, bool inverse, double scale, tbb::task_arena& arena,
                                       RunReport* report) const {
  const std::optional<kernels::CentringTables> centring = centring_tables(inverse);
  RunContext run = run_context(inverse, scale, arena, nullptr);
  run.centring = centring ? &*centring : nullptr;
  const Clock::time_point start = Clock::now();
  if (!backend_->transform_in_place(data, run))
    throw Error(ErrorKind::unsupported, "the " + std::string(to_string(backend_->kind())) +
                                            " backend cannot transform an array in place");
  if (report != nullptr) {
    const bool record = report->record_timeline;
    *report = RunReport{};
    report->record_timeline = record;
    report->backend = backend_->kind();
    report->passes = 1;
    report->streams = 1;
    report->seconds = seconds_since(start);
  }
}

std::optional<kernels::CentringTables> StreamingEngine::centring_tables(bool inverse) const {
  if (!options_.shift) return std::nullopt;
  return kernels::CentringTables::make({shape_.nz, shape_.ny, shape_.nx}, inverse);
}

RunContext StreamingEngine::run_context(bool inverse, double scale, tbb::task_arena& arena,
                                        const kernels::PointwiseStage* multiply) const {
  RunContext run;
  run.multiply = multiply;
  run.inverse = inverse;
  run.scale = scale;
  run.arena = &arena;
  run.pool = &pool_;
  run.options = &options_;
  return run;
}

double StreamingEngine::pcie_floor_seconds() const {
  return pcie_floor_seconds(fitted().plan, backend_->link_rates());
}

// The plan's devices' links together (aggregate_link).
double StreamingEngine::pcie_floor_seconds(const PassPlan& plan, const LinkRates& link) const {
  return engine::pcie_floor_seconds(static_cast<unsigned>(plan.passes.size()), shape_.bytes(element_bytes()),
                                    plan.resident_bytes,
                                    aggregate_link(link.bandwidth, static_cast<unsigned>(plan.devices.size())));
}

std::string StreamingEngine::floor_summary(const PassPlan& plan) const {
  const LinkRates link = backend_->link_rates();
  const unsigned devices = static_cast<unsigned>(plan.devices.size());
  char floor[160];
  std::snprintf(floor, sizeof floor, "  PCIe floor: %.3f s (%zu passes over %s, %s of it resident between them), ",
                pcie_floor_seconds(plan, link), plan.passes.size(),
                format_bytes(double(shape_.bytes(element_bytes()))).c_str(),
                format_bytes(double(plan.resident_bytes)).c_str());
  if (devices == 1) return floor + ("at " + describe_link(link.bandwidth) + ": " + link.source + "\n");
  return floor + ("at " + describe_link(aggregate_link(link.bandwidth, devices)) + " for " + std::to_string(devices) +
                  " links together (each " + describe_link(link.bandwidth) + ": " + link.source +
                  "; all of them within what the reference node's host fed four GPUs at once)\n");
}

std::string StreamingEngine::devices_summary(const PassPlan& plan) const {
  std::vector<int> ordinals;
  for (const DevicePlacement& d : plan.devices) ordinals.push_back(d.ordinal);
  const bool host = backend_->kind() == Backend::host;
  const std::size_t n = plan.devices.size();
  std::string s = "  devices: " + Devices::list(ordinals).to_string() + " (options.devices " + options_.devices.to_string() +
                  (options_.devices == Devices{} ? ", the default" : "") + "; " + std::to_string(n) +
                  (host ? " emulated" : "") + (n == 1 ? " device" : " devices") + ", " +
                  std::to_string(plan.lanes()) + (plan.lanes() == 1 ? " lane" : " lanes") + ")\n";
  if (n > 1 && plan.resident_planes > 0) s += "  exchange route: " + backend_->exchange_route() + "\n";
  return s;
}

// Mirrors HostVolume::open_direct_access and the CUDA backend.
std::string StreamingEngine::registration_summary(const PassPlan& plan) const {
  const HostRegistration r = options_.register_host_memory;
  if (!plan.natural_layout_only() || r == HostRegistration::off) return "every brick staged";
  if (r == HostRegistration::automatic) return "staged unless the memory is page-locked already";
  return "a host array page-locked in chunks during the call, bricks DMA'd from it";
}

std::string StreamingEngine::describe() const {
  std::string note;
  FittedPlan fitted;
  {
    std::lock_guard<std::mutex> lock(fitted_mutex_);
    fitted = fitted_;
    note = replan_note_;
  }
  const PassPlan& plan = fitted.plan;
  const bool several = plan.devices.size() > 1;
  std::string s = describe_passes(plan, backend_->kind() == Backend::host ? "in host memory"
                                        : several                        ? "on the devices"
                                                                         : "on the device");
  s += devices_summary(plan);
  if (backend_->kind() == Backend::host) {
    if (!plan.host_in_place)
      s += "  host brick buffers: " + format_bytes(double(plan.lanes() * plan.staging_bytes)) + " (" +
           std::to_string(plan.lanes()) + " x " + format_bytes(double(plan.staging_bytes)) + ")\n" +
           floor_summary(plan);
    return s + note + fitted.kernels_of(0).describe();
  }
  // Every lane of every device has its staging buffer.
  const std::size_t staging = plan.lanes() * plan.staging_bytes;
  const std::size_t workspace = fitted.kernels_of(0).workspace_bytes();
  s += "  pinned staging: " + format_bytes(double(staging)) + " (" + std::to_string(plan.lanes()) + " x " +
       format_bytes(double(plan.staging_bytes)) +
       (plan.natural_layout_only()
            ? ", rings of " + std::to_string(plan.staging_bytes / plan.staging_slot_bytes()) + " slots of " +
                  format_bytes(double(plan.staging_slot_bytes())) + ": bricks staged in pieces"
            : std::string()) +
       ") at most, allocated only when a brick stages (register_host_memory " +
       to_string(options_.register_host_memory) + ": " + registration_summary(plan) + ")\n";
  s += "  device memory: " + format_bytes(double(fitted.device_bytes())) + (several ? " on each device at most" : "") +
       " of a budget of " +
       format_bytes(double(plan.device_budget)) + " (bricks " + format_bytes(double(plan.brick_bytes)) +
       " + workspace " + format_bytes(double(workspace)) + " per stream, tables " +
       format_bytes(double(fitted.kernels_of(0).table_bytes())) +
       (plan.resident_bytes > 0
            ? ", resident " + format_bytes(double(plan.resident_bytes)) +
                  (backend_->kind() == Backend::cuda ? ", kept from one execution to the next" : "")
            : std::string()) +
       ")\n";
  s += floor_summary(plan);
  // Every device builds the same kernels for the plan: the first's say which.
  return s + note + fitted.kernels_of(0).describe();
}

}  // namespace oocfft::engine
