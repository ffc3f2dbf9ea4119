#pragma once
// The streaming pipeline on the host backend: each stream's "device" is a
// plain host brick buffer and its kernel is the host executor. Everything
// else (planning, bricks, gathers, scatters, threads, progress,
// cancellation) is the same code the CUDA backend runs, so CI covers every
// strategy with small budgets.
#include <tbb/task_arena.h>

#include "engine/axis_plans.hpp"
#include "engine/pass_planner.hpp"
#include "kernels/complex.hpp"
#include "oocfft/options.hpp"
#include "oocfft/run_report.hpp"
#include "transpose/staging_buffer.hpp"

namespace oocfft::engine {

template <class T>
void execute_host_pipeline(const PassPlan& plan, const AxisPlans<T>& plans, kernels::Complex<T>* data,
                           const BrickShape& volume, bool inverse, T scale, tbb::task_arena& arena,
                           transpose::StagingPool& pool, const Options& options, RunReport* report);

extern template void execute_host_pipeline<float>(const PassPlan&, const AxisPlans<float>&, kernels::Complex<float>*,
                                                  const BrickShape&, bool, float, tbb::task_arena&,
                                                  transpose::StagingPool&, const Options&, RunReport*);
extern template void execute_host_pipeline<double>(const PassPlan&, const AxisPlans<double>&,
                                                   kernels::Complex<double>*, const BrickShape&, bool, double,
                                                   tbb::task_arena&, transpose::StagingPool&, const Options&,
                                                   RunReport*);

}  // namespace oocfft::engine
