#pragma once
// CudaStreaming: the CUDA side of the streaming engine. It holds the device
// kernels of each pass (one DeviceBrickPlan per pass, built for the pass's
// largest brick and axes, behind the DeviceBrickKernels seam of
// brick_kernels.hpp so the benchmark can put cuFFT in their place) and
// runs the pipeline with one CUDA stream per BrickLane: gather into the
// lane's pinned staging buffer (TBB run copies), cudaMemcpyAsync up, the
// kernels, cudaMemcpyAsync down, scatter, ordered by the stream and timed
// with events, never by device-wide syncs. With a page-locked array
// (register_host_memory) bricks DMA straight between the caller's array and
// the device with cudaMemcpy2DAsync/3DAsync and no staging copies.
//
// Registration policy. automatic: DMA directly only when the caller's
// array is already page-locked, else stage. on: page-lock the array in
// 256 MiB chunks from a thread beside the pipeline
// (engine/chunked_registration.hpp), each brick waiting for its chunks, and
// unlock it before returning. Measured on the H100 machine
// (bench/RESULTS.md, "Out-of-core engine"), 16 GiB two-pass, 4 GiB budget,
// plan reused: staged 1.36-1.52 s; `on` 1.37-1.96 s (locking sets the
// first pass's pace, unlocking adds 0.25 s, and in some runs locking the
// first chunks stalled 0.8 s); an array the caller page-locked once
// 0.73-0.82 s. On a plan's first execution `on` is the faster (1.42-2.15 s
// against 2.24-2.54 s) because it page-locks no staging: staging buffers
// are page-locked only when a brick needs one. At 96 GiB `on` is slower
// (10.6 s against 8.3 s staged). Staging stays the default because it is
// the steadier.
// Compiled only when the library is built with CUDA.
#include <tbb/task_arena.h>

#include <memory>
#include <string>

#include "engine/brick_kernels.hpp"
#include "engine/pass_planner.hpp"
#include "kernels/complex.hpp"
#include "oocfft/options.hpp"
#include "oocfft/run_report.hpp"
#include "transpose/staging_buffer.hpp"

namespace oocfft::engine {

// Free device memory minus a margin for the CUDA context's own allocations
// and other users: max(512 MiB, 5% of the device).
std::size_t default_device_budget();

class CudaStreaming {
 public:
  // Builds the device kernels of every pass of `plan` on the current device:
  // the library's own, or those of `factory` where it is given and set for
  // `precision` (the benchmark's cuFFT peer; see brick_kernels.hpp).
  CudaStreaming(const PassPlan& plan, Precision precision, const BrickKernelFactory* factory = nullptr);
  ~CudaStreaming();
  CudaStreaming(const CudaStreaming&) = delete;
  CudaStreaming& operator=(const CudaStreaming&) = delete;

  std::size_t table_bytes() const;
  std::size_t workspace_bytes() const;  // one stream's, the largest over the passes

  template <class T>
  void execute(const PassPlan& plan, kernels::Complex<T>* data, const BrickShape& volume, bool inverse, T scale,
               tbb::task_arena& arena, transpose::StagingPool& pool, const Options& options,
               RunReport* report) const;

  std::string describe() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace oocfft::engine

namespace oocfft::engine {
extern template void CudaStreaming::execute<float>(const PassPlan&, kernels::Complex<float>*, const BrickShape&, bool,
                                                   float, tbb::task_arena&, transpose::StagingPool&, const Options&,
                                                   RunReport*) const;
extern template void CudaStreaming::execute<double>(const PassPlan&, kernels::Complex<double>*, const BrickShape&,
                                                    bool, double, tbb::task_arena&, transpose::StagingPool&,
                                                    const Options&, RunReport*) const;
}  // namespace oocfft::engine
