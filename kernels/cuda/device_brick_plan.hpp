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
//
// The transform (volume_transform.hpp) is complex by default. real: the
// brick is the half spectrum (nz, ny, nx/2+1) complex, its x rows real in
// FFTW's padded layout where they are real (DeviceRealRows: forward first,
// inverse last); y and z are complex lines of the half spectrum. trig: the
// brick holds real values and execute_real() runs DCT/DST lines
// (DeviceTrigLines) along each axis.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>

#include "core/geometry.hpp"
#include "kernels/complex.hpp"
#include "kernels/cuda/device_line_plan.hpp"
#include "kernels/cuda/tile_kernel_choice.hpp"
#include "kernels/volume_transform.hpp"

namespace oocfft::kernels::cuda {

class PlanTimeSchedules;

// The lines of each axis of a [nz][ny][nx] brick. x lines are contiguous;
// y and z lines take the x positions as neighbouring lanes so that a tile
// reads whole rows (the strided-axis kernel, no transpose pass).
LineBatch x_lines(const Shape& s);
LineBatch y_lines(const Shape& s);
LineBatch z_lines(const Shape& s);

template <class T>
class DeviceBrickPlan {
 public:
  // Builds line plans for the transformed axes and uploads their twiddle and
  // chirp tables to the current device. Throws oocfft::Error(cuda) on a CUDA
  // failure, Error(out_of_memory) when the tables do not fit.
  // `kernels` says which tile kernels serve the lines (tile_kernel_choice.hpp).
  // Under compiled_where_available, the compiled schedules the axes need
  // that the build lacks are compiled here with NVRTC (or loaded from its
  // cache) into `plan_time`, which several plans may share; when it is null
  // and some schedule is needed, the plan makes its own, cached on disk in
  // `cache_directory` (empty: default_kernel_cache_directory()). A schedule
  // that cannot be had is no error: its axis runs the general kernel and
  // describe() says why.
  DeviceBrickPlan(Shape max_shape, AxisSet axes, TileKernels kernels = TileKernels::compiled_where_available,
                  std::shared_ptr<PlanTimeSchedules> plan_time = nullptr,
                  const std::filesystem::path& cache_directory = {});
  // The same for a real or trigonometric `transform`. real: `max_shape` is
  // the half-spectrum brick, max_shape.nx == transform.real_length / 2 + 1
  // (else Error(invalid_argument)). trig: `max_shape` is the real brick;
  // every axis in `axes` longer than one point is transformed. A point
  // alone only scales (a DCT-II of one point doubles it), and the engine
  // folds that factor into the run's scale, as the host backend does: a
  // volume of one point runs the scale alone.
  DeviceBrickPlan(Shape max_shape, AxisSet axes, const VolumeTransform& transform,
                  TileKernels kernels = TileKernels::compiled_where_available,
                  std::shared_ptr<PlanTimeSchedules> plan_time = nullptr,
                  const std::filesystem::path& cache_directory = {});
  ~DeviceBrickPlan();
  DeviceBrickPlan(DeviceBrickPlan&&) noexcept;
  DeviceBrickPlan& operator=(DeviceBrickPlan&&) noexcept;

  // Device scratch bytes that execute() needs besides the data itself.
  std::size_t workspace_bytes() const;
  // Device bytes held by the plan itself (tables).
  std::size_t table_bytes() const;

  // Transforms `data` (device pointer, shape `shape`, C order) in place and
  // multiplies by `scale`. `workspace` holds workspace_bytes() device bytes.
  // Asynchronous on `stream`; every launch is checked. Complex and real
  // transforms (real: `shape` is the half-spectrum brick; forward, x real
  // rows then y then z; inverse, z, y, then the real rows; the scale goes
  // with the last stage).
  void execute(Complex<T>* data, Shape shape, void* workspace, bool inverse, T scale,
               cudaStream_t stream) const;
  // Trigonometric transforms: `data` holds the real brick `shape`; the
  // DCT/DST lines run along x, y, z (those in the plan's axes), the scale
  // with the last.
  void execute_real(T* data, Shape shape, void* workspace, T scale, cudaStream_t stream) const;
  const VolumeTransform& transform() const;

  // One line per axis: kernel used (shared-memory, strided, four-step,
  // Bluestein), its geometry, and its tile kernel: compiled ahead of time,
  // compiled at plan time (NVRTC: compiled, or a cache hit) or general
  // (with the reason where a plan-time schedule was wanted).
  std::string describe() const;
  // The tile kernel of each axis on the plan's largest brick, x, y, z: 'S' a
  // schedule compiled ahead of time, 'P' one compiled at plan time (NVRTC),
  // 'G' the general kernel (four-step and Bluestein included), '-' not
  // transformed; for real x rows, 'F' where the forward split is folded
  // into a plan-time tile (DeviceRealRows::ends_kernel). For benchmark
  // reports and tests.
  std::string tile_kernels_used() const;
  // The plan-time schedules the plan uses, or null when it needs none.
  const PlanTimeSchedules* plan_time() const;
  // The same, to hand to the next plan (the passes of one engine plan share
  // them, so that a schedule is compiled or loaded once).
  std::shared_ptr<PlanTimeSchedules> shared_plan_time() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace oocfft::kernels::cuda
