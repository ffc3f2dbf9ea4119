#pragma once
// DeviceBrickPlan<T>: the device-pointer entry point of the CUDA kernels.
// It transforms bricks that are already in GPU memory, in place, along a set
// of axes, enqueued on a caller's stream. The engine uses it for in-core
// volumes (all axes) and for the streamed bricks of the out-of-core plans
// (x and y on z-slabs, z on y-slabs).
//
// Lengths along the transformed axes are fixed by the plan; the other
// extents may vary from call to call (the last brick of a pass is smaller),
// up to the extents the plan was built for, which size the workspace.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>

#include "kernels/brick.hpp"
#include "kernels/complex.hpp"
#include "kernels/cuda/tile_kernel_choice.hpp"

namespace oocfft::kernels::cuda {

template <class T>
class DeviceBrickPlan {
 public:
  // Builds line plans for the transformed axes and uploads their twiddle and
  // chirp tables to the current device. Throws oocfft::Error(cuda) on a CUDA
  // failure, Error(out_of_memory) when the tables do not fit.
  // `kernels` says which tile kernels serve the lines (tile_job.hpp).
  DeviceBrickPlan(BrickShape max_shape, AxisSet axes, TileKernels kernels = TileKernels::compiled_where_available);
  ~DeviceBrickPlan();
  DeviceBrickPlan(DeviceBrickPlan&&) noexcept;
  DeviceBrickPlan& operator=(DeviceBrickPlan&&) noexcept;

  // Device scratch bytes that execute() needs besides the data itself.
  std::size_t workspace_bytes() const;
  // Device bytes held by the plan itself (tables).
  std::size_t table_bytes() const;

  // Transforms `data` (device pointer, shape `shape`, C order) in place and
  // multiplies by `scale`. `workspace` holds workspace_bytes() device bytes.
  // Asynchronous on `stream`; every launch is checked.
  void execute(Complex<T>* data, BrickShape shape, void* workspace, bool inverse, T scale,
               cudaStream_t stream) const;

  // One line per axis: kernel used (shared-memory, strided, four-step,
  // Bluestein) and its geometry.
  std::string describe() const;
  // The tile kernel of each axis on the plan's largest brick, x, y, z: 'S' a
  // compiled schedule, 'G' the general kernel (four-step and Bluestein
  // included), '-' not transformed. For benchmark reports and tests.
  std::string tile_kernels_used() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace oocfft::kernels::cuda
