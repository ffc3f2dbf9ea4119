#pragma once
// DeviceLinePlan<T>: a 1D transform of length n on the device, for any
// batch of lines laid out with strides in a device buffer. It picks one of
// four kernels (choose_device_line_kernel, the one place that decides):
//   shared_memory            the line (times a few lanes) fits one tile
//                            of the general kernel;
//   four_step                n = n1*n2, both fit: step A does n2-point
//                            transforms strided by n1 and twiddles, step B
//                            does n1-point transforms and stores transposed
//                            (Bailey's four-step; SC08 section IV-C's
//                            hierarchical FFT); workspace: one copy of a
//                            chunk of lines;
//   bluestein_shared_memory  Bluestein with M fitting a tile: one kernel;
//   bluestein_four_step      Bluestein with M done by four_step.
// A four-step plan (Bluestein's too) whose whole line, or M, fits the one
// buffer of a compiled schedule's tile runs that single kernel instead,
// where the build or the plan (NVRTC) has it; complex<double> lines past
// 10240 keep four steps (device_line_plan.cpp says why).
// Twiddle and chirp tables come from LinePlan<T> (long double on the host)
// and are uploaded once.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/complex.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/device_limits.hpp"
#include "kernels/cuda/schedule_geometry.hpp"
#include "kernels/line_batch.hpp"
#include "kernels/cuda/schedule_key.hpp"
#include "kernels/cuda/tile_job.hpp"
#include "kernels/line_plan.hpp"

namespace oocfft::kernels::cuda {

enum class LineKernel { shared_memory, four_step, bluestein_shared_memory, bluestein_four_step };

const char* to_string(LineKernel) noexcept;

// A Stockham plan whose lines fit a tile: passes and device twiddles.
template <class T>
class TileStockham {
 public:
  TileStockham(std::shared_ptr<const LinePlan<T>> plan, const DeviceLimits& limits, TileKernels kernels);
  int length() const { return n_; }
  // log2 of the lanes per tile for this batch shape, or -1 when not even
  // one line fits. lanes_fast: lanes are the contiguous dimension.
  int choose_log_lanes(std::int64_t lane_count, bool lanes_fast) const;
  // Fills length, passes, twiddles, threads for 2^log_lanes lanes.
  void fill(TileJob<T>& job, int log_lanes) const;
  std::size_t table_bytes() const { return twiddles_.bytes(); }
  const LinePlan<T>& host_plan() const { return *plan_; }
  // The plan-time schedules fill() hands to its jobs (null: none).
  void use_plan_time(const PlanTimeSchedules* plan_time) { plan_time_ = plan_time; }

 private:
  bool fits(int lanes) const;
  int threads_for(int lanes) const;
  std::shared_ptr<const LinePlan<T>> plan_;
  DeviceLimits limits_;
  TileKernels kernels_;
  int n_ = 1;
  ScheduleShapes shapes_;  // fill() hands them to its jobs
  int capacity_ = values_per_thread;  // fewest values a thread covers in any pass
  std::vector<TilePass> passes_;
  DeviceBuffer twiddles_;
  const PlanTimeSchedules* plan_time_ = nullptr;
};

template <class T>
class DeviceLinePlan {
 public:
  // `use`: LineUse::real_ends for the inner FFT of a real transform, whose
  // folded ends (execute_real_ends) run the Stockham tile of the settled
  // schedule, not the in-place tile a whole line may take.
  DeviceLinePlan(std::size_t n, const DeviceLimits& limits, TileKernels kernels,
                 LineUse use = LineUse::whole_line);
  ~DeviceLinePlan();
  DeviceLinePlan(DeviceLinePlan&&) noexcept;
  DeviceLinePlan& operator=(DeviceLinePlan&&) noexcept;

  std::size_t length() const;
  LineKernel kernel() const;
  std::size_t workspace_bytes(const LineBatch& lines) const;
  std::size_t table_bytes() const;
  // Transforms every line in place, times `scale`. Asynchronous on `stream`.
  void execute(Complex<T>* data, const LineBatch& lines, void* workspace, bool inverse, T scale,
               cudaStream_t stream) const;
  std::string describe() const;
  // The tile kernel execute() runs on `lines`: a compiled schedule (of the
  // line, of Bluestein's M in one kernel, or of both four-step steps),
  // compiled ahead of time or at plan time, or the general kernel. Tests
  // assert it, so a silent fallback cannot pass for the fast path.
  TileKernel tile_kernel(const LineBatch& lines) const;
  // The compiled schedules execute() would run on `lines` (the one-tile job,
  // or the two four-step steps of the first chunk) that this build did not
  // compile ahead of time: what a plan prepares at plan time.
  std::vector<ScheduleKey> plan_time_keys(const LineBatch& lines) const;
  // Lets the tile jobs take schedules compiled at plan time (held by the
  // caller, which keeps them alive while this plan runs); set while the
  // owning plan is built, before any execute().
  void use_plan_time(std::shared_ptr<const PlanTimeSchedules> plan_time);

  // The ends of a real transform (DeviceRealRows) folded into this plan's
  // one-tile kernel (real_schedule_kernels.cuh), in place, `ends` saying
  // which (TilePost::real_*):
  //   real_split, real_merge   rows twice this length, seen as complex
  //                            lines (`lines`): the FFT and the split, or
  //                            the merge and the FFT; `roots` w_(2n)^k for
  //                            k = 0..n/2 on the device;
  //   real_pairs_forward/_inverse  `real_rows` rows of this (odd) length,
  //                            two to a lane (`lines`: lane distance two
  //                            rows, in complex values); `roots` unused.
  // Launches it and returns true where a plan-time schedule serves the
  // batch; returns false, launching nothing, otherwise (the caller runs
  // the separate kernels).
  bool execute_real_ends(Complex<T>* data, const LineBatch& lines, TilePost ends, const Complex<T>* roots,
                         std::int64_t real_rows, T scale, cudaStream_t stream) const;
  // The kernel execute_real_ends runs on `lines` (general: none, the
  // separate kernels run).
  TileKernel real_ends_kernel(const LineBatch& lines, TilePost ends) const;
  // The plan-time schedules of `ends` (both directions of each) for `lines`.
  std::vector<ScheduleKey> real_ends_keys(const LineBatch& lines, const std::vector<TilePost>& ends) const;

  struct State;

 private:
  TileJob<T> one_tile_job(Complex<T>* data, const LineBatch& lines, T scale, bool inverse) const;
  // The real ends' job (real_split or real_merge), or none where this plan
  // has no tile of its own line (four steps only, or Bluestein).
  std::optional<TileJob<T>> real_ends_job(Complex<T>* data, const LineBatch& lines, TilePost ends,
                                          const Complex<T>* roots, std::int64_t real_rows, T scale) const;
  // The four-step plan's two jobs for the first chunk of `lines` (no data).
  std::pair<TileJob<T>, TileJob<T>> first_four_step_jobs(const LineBatch& lines) const;
  std::unique_ptr<State> state_;
};

extern template class TileStockham<float>;
extern template class TileStockham<double>;
extern template class DeviceLinePlan<float>;
extern template class DeviceLinePlan<double>;

}  // namespace oocfft::kernels::cuda
