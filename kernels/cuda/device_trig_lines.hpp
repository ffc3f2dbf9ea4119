#pragma once
// DeviceTrigLines<T>: scipy.fft's dct/dst of types 2 and 3 (norm "backward"
// for TrigNorm::none, "ortho" for TrigNorm::ortho) along any batch of real
// lines on the device, in place, times a scale. Makhoul's mapping (1980)
// onto one complex FFT of the same length, two real lines per complex line
// (trig_lines.cu): pack into the workspace, a DeviceLinePlan, unpack with
// the twiddle w_4n^k into the real lines. The workspace keeps the lines'
// fast dimension fast (trig_lines_kernels.hpp, TrigLayout), so the y and z
// lines of a brick (lanes = x positions) stay coalesced, and their FFT runs
// as strided lines with lanes = pairs.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/device_limits.hpp"
#include "kernels/cuda/device_line_plan.hpp"
#include "kernels/cuda/schedule_key.hpp"
#include "kernels/cuda/tile_kernel_choice.hpp"
#include "kernels/line_batch.hpp"
#include "kernels/volume_transform.hpp"

namespace oocfft::kernels::cuda {

class PlanTimeSchedules;

const char* to_string(TrigKind kind) noexcept;
const char* to_string(TrigNorm norm) noexcept;

template <class T>
class DeviceTrigLines {
 public:
  DeviceTrigLines(std::size_t n, TrigKind kind, TrigNorm norm, const DeviceLimits& limits, TileKernels kernels);

  std::size_t length() const { return n_; }
  TrigKind kind() const { return kind_; }
  TrigNorm norm() const { return norm_; }
  // `lines` in units of T over the real data.
  std::size_t workspace_bytes(const LineBatch& lines) const;
  std::size_t table_bytes() const;
  // In place on the real lines, as scipy.fft.dct/dst(x, type=2|3,
  // norm="backward" | "ortho"), times scale. Asynchronous on `stream`;
  // every launch checked. `workspace` holds workspace_bytes(lines) bytes.
  void execute(T* data, const LineBatch& lines, void* workspace, T scale, cudaStream_t stream) const;
  std::string describe() const;

  // The complex lines of the workspace that the FFT runs on.
  LineBatch complex_lines(const LineBatch& lines) const;
  std::vector<ScheduleKey> plan_time_keys(const LineBatch& lines) const;
  void use_plan_time(std::shared_ptr<const PlanTimeSchedules> plan_time);
  const DeviceLinePlan<T>* line_plan() const { return line_ ? &*line_ : nullptr; }

 private:
  std::size_t n_;
  TrigKind kind_;
  TrigNorm norm_;
  std::optional<DeviceLinePlan<T>> line_;  // none for n == 1
  DeviceBuffer twiddles_;                  // w_4n^k, k < n
};

extern template class DeviceTrigLines<float>;
extern template class DeviceTrigLines<double>;

}  // namespace oocfft::kernels::cuda
