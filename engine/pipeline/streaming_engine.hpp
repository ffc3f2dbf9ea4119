#pragma once
// StreamingEngine: the execution side of a Plan. Built with the plan, it
// makes the backend, resolves the device budget, chooses the passes
// (pass_planner.hpp) and builds the backend's kernels for them, fitting the
// plan to the budget in one place (fit()); execute() streams a volume store
// through the backend. It owns the staging buffers between executions (an
// explicit cache, not global state).
#include <tbb/task_arena.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/pipeline/execution_backend.hpp"
#include "engine/planning/pass_planner.hpp"
#include "oocfft/options.hpp"
#include "oocfft/run_report.hpp"
#include "oocfft/shape.hpp"
#include "volume/staging_pool.hpp"
#include "volume/volume_store.hpp"

namespace oocfft::engine {

class StreamingEngine {
 public:
  StreamingEngine(const Shape& shape, Precision precision, const Options& options, Backend backend);
  // The same pipeline with other device kernels on the CUDA backend, for the
  // benchmark's peer only (brick_kernels.hpp says why this is not public).
  StreamingEngine(const Shape& shape, Precision precision, const Options& options, Backend backend,
                  const BrickKernelFactory& kernels);
  // A plane program (pass_planner.hpp): `plane_program` run on every z
  // plane along x and y; execute() then needs the multiply's stage.
  StreamingEngine(const Shape& shape, Precision precision, const Options& options, Backend backend,
                  std::vector<Stage> plane_program);
  // The z lines alone (PlannerInput::z_lines_only), in the run's
  // direction: the distributed plan's y-slabs, transformed along x and y
  // already, through the devices.
  struct ZLinesOnly {};
  StreamingEngine(const Shape& shape, Precision precision, const Options& options, Backend backend, ZLinesOnly);
  // A real or trigonometric transform (kernels/volume_transform.hpp). Real:
  // `spectrum_shape` is
  // the half spectrum (nz, ny, nx/2+1) the passes see, `transform` says
  // the real length of x. execute() then streams a store of that shape
  // (volume/real_spectrum_store.hpp, or FFTW's padded array as it lies);
  // an inverse runs the passes in reverse order, so that the x stage
  // comes last. Trigonometric: `spectrum_shape` is the real volume, whose
  // elements are real values.
  StreamingEngine(const Shape& spectrum_shape, Precision precision, const Options& options, Backend backend,
                  const kernels::VolumeTransform& transform);
  // The real transform of every z plane along x and y alone (a stack of
  // numpy's rfft2 / irfft2: the distributed real plan's planes): the
  // plane program `plane_program` (the lone stage `transform`) over the
  // planes' half spectrum `spectrum_shape`, its x stage the real rows of
  // `transform` as above; an inverse runs the passes in reverse order.
  StreamingEngine(const Shape& spectrum_shape, Precision precision, const Options& options, Backend backend,
                  const kernels::VolumeTransform& transform, std::vector<Stage> plane_program);
  // A backend made by the caller: the tests' backend whose device refuses
  // buffers, to drive the re-plan path without a GPU.
  StreamingEngine(const Shape& shape, Precision precision, const Options& options,
                  std::unique_ptr<ExecutionBackend> backend);
  // The same for a real or trigonometric transform: the tests' backend
  // whose device refuses buffers, under a real inverse.
  StreamingEngine(const Shape& shape, Precision precision, const Options& options,
                  std::unique_ptr<ExecutionBackend> backend, const kernels::VolumeTransform& transform);
  ~StreamingEngine();
  StreamingEngine(const StreamingEngine&) = delete;
  StreamingEngine& operator=(const StreamingEngine&) = delete;

  // The plan the next execution starts from: the one made with the engine,
  // or the smaller one an execution fell back to when the device could not
  // hold its buffers.
  PassPlan plan() const { return fitted().plan; }
  Backend backend() const { return backend_->kind(); }
  // True when the plan transforms a host array where it lies
  // (execute_in_place) instead of streaming it.
  bool host_in_place() const { return fitted().plan.host_in_place; }
  // Page-locks host memory for the backend's device; null on the host backend.
  const volume::PageLocker* page_locker() const { return backend_->page_locker(); }

  // Streams `store` (shape and element size of the plan) through the passes;
  // `scale` is applied by the last pass. When the device buffers cannot be
  // allocated it fits smaller bricks (fit()) and tries again, before any
  // data has moved; the plan that ran then becomes the engine's plan, which
  // `report` and describe() show.
  void execute(volume::VolumeStore& store, bool inverse, double scale, tbb::task_arena& arena, RunReport* report,
               const kernels::PointwiseStage* multiply = nullptr) const;
  // True when some pass has a pointwise multiply stage.
  bool multiplies() const;
  // The host backend's in-core plan on a host array, in place.
  void execute_in_place(std::byte* data, bool inverse, double scale, tbb::task_arena& arena, RunReport* report) const;

  // Strategy, passes, brick shapes, staging and device bytes, PCIe floor,
  // and the kernels of each axis or pass, of plan(); after a re-plan, also
  // why it is not the first plan.
  std::string describe() const;
  // The plan's PCIe floor on the backend's link (ExecutionBackend::
  // link_rates: measured by a device backend, the reference figures on the
  // host backend).
  double pcie_floor_seconds() const;

 private:
  StreamingEngine(const Shape& shape, Precision precision, const Options& options,
                  std::unique_ptr<ExecutionBackend> backend, std::vector<Stage> plane_program,
                  const kernels::VolumeTransform& transform = {}, bool z_lines_only = false);
  // The plan for device budgets of `budgets` bytes (one per device of the
  // backend, in its order), with the kernels built on each device for it:
  // planned with the kernels' real tables and workspace, and planned again
  // until every device holds its part. Throws Error(out_of_memory) when it
  // cannot.
  FittedPlan fit(const std::vector<std::size_t>& budgets) const;
  RunContext run_context(bool inverse, double scale, tbb::task_arena& arena,
                         const kernels::PointwiseStage* multiply) const;
  // The centring phases of a run (Options::shift), or none.
  std::optional<kernels::CentringTables> centring_tables(bool inverse) const;
  // A copy of the current plan, taken under fitted_mutex_.
  FittedPlan fitted() const;
  // What the registration policy will do for this plan, for describe().
  std::string registration_summary(const PassPlan& plan) const;
  double pcie_floor_seconds(const PassPlan& plan, const LinkRates& link) const;
  // Bytes of one element of the volume the passes see: complex, or real
  // for the trigonometric transforms.
  std::size_t element_bytes() const;
  // describe()'s floor line: seconds, and the rates with their source.
  std::string floor_summary(const PassPlan& plan) const;
  // describe()'s devices: which, as the options named them, and the lanes;
  // on several, how the exchange crosses between them.
  std::string devices_summary(const PassPlan& plan) const;

  Shape shape_;
  Precision precision_;
  Options options_;
  std::vector<Stage> plane_program_;
  bool z_lines_only_ = false;
  kernels::VolumeTransform transform_;
  bool budget_given_;
  std::unique_ptr<ExecutionBackend> backend_;
  // The plan executions start from; an execution that had to re-plan
  // replaces it (with replan_note_) under the mutex, so a concurrent
  // describe() sees one plan or the other, whole.
  mutable std::mutex fitted_mutex_;
  mutable FittedPlan fitted_;
  mutable std::string replan_note_;
  // After backend_: page-locked buffers are unlocked through its locker.
  mutable volume::StagingPool pool_;
};

}  // namespace oocfft::engine
