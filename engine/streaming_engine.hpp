#pragma once
// StreamingEngine: the out-of-core side of a Plan. Built with the plan, it
// resolves the budgets, chooses the passes (pass_planner.hpp), builds the
// device kernels of each pass on the CUDA backend, and on execute() streams
// the caller's array through the pipeline of the plan's backend. It owns the
// staging buffers between executions (an explicit cache, not global state).
#include <tbb/task_arena.h>

#include <memory>
#include <string>

#include "engine/axis_plans.hpp"
#include "engine/pass_planner.hpp"
#include "engine/stream_pipeline.hpp"
#include "kernels/complex.hpp"
#include "oocfft/options.hpp"
#include "oocfft/run_report.hpp"
#include "oocfft/shape.hpp"
#include "transpose/staging_buffer.hpp"

namespace oocfft::engine {

// The duplex PCIe bandwidth each way measured on the reference machine
// (DESIGN.md, "Measured ceilings": pinned H2D + D2H at once, 45.8 GB/s):
// the floor of a streamed transform is passes x |volume| / this.
inline constexpr double pcie_duplex_bytes_per_second = 45.8e9;

class CudaStreaming;  // the CUDA backend's kernels and pipeline (CUDA builds)
struct BrickKernelFactory;  // brick_kernels.hpp (CUDA builds)

class StreamingEngine {
 public:
  StreamingEngine(const Shape& shape, Precision precision, const Options& options, Backend backend);
  // The same pipeline with other device kernels on the CUDA backend, for the
  // benchmark's peer only (brick_kernels.hpp says why this is not public).
  StreamingEngine(const Shape& shape, Precision precision, const Options& options, Backend backend,
                  const BrickKernelFactory& kernels);
  ~StreamingEngine();
  StreamingEngine(const StreamingEngine&) = delete;
  StreamingEngine& operator=(const StreamingEngine&) = delete;

  const PassPlan& plan() const { return plan_; }
  // True when execute() is not needed: the host backend transforms in place.
  bool host_in_place() const { return plan_.host_in_place; }

  template <class T>
  void execute(const AxisPlans<T>& plans, kernels::Complex<T>* data, bool inverse, T scale, tbb::task_arena& arena,
               RunReport* report) const;

  // Strategy, passes, brick shapes, pinned and device bytes, PCIe floor.
  std::string describe() const;
  double pcie_floor_seconds() const;

 private:
  // What the registration policy will do for this plan, for describe().
  std::string registration_summary() const;
  StreamingEngine(const Shape& shape, Precision precision, const Options& options, Backend backend,
                  const BrickKernelFactory* kernels);

  Shape shape_;
  Precision precision_;
  Options options_;
  Backend backend_;
  PassPlan plan_;
  std::size_t device_tables_ = 0;
  std::size_t device_workspace_ = 0;  // per stream
  mutable transpose::StagingPool pool_;
  std::unique_ptr<CudaStreaming> cuda_;
};

extern template void StreamingEngine::execute<float>(const AxisPlans<float>&, kernels::Complex<float>*, bool, float,
                                                     tbb::task_arena&, RunReport*) const;
extern template void StreamingEngine::execute<double>(const AxisPlans<double>&, kernels::Complex<double>*, bool,
                                                      double, tbb::task_arena&, RunReport*) const;

}  // namespace oocfft::engine
