#pragma once
// DeviceRealRows<T>: numpy's rfft / irfft of length n along rows of real
// values on the device, in FFTW's padded in-place layout: row r starts at
// data + r * row_pitch (units of T; row_pitch even and at least
// 2 * (n/2 + 1)); forward, the row's n reals become its n/2 + 1 complex
// values (interleaved) over the same row; inverse, the reverse, with no
// implicit 1/n (`scale` carries the normalisation, applied once).
//   even n  one complex FFT of length n/2 on the row itself (the reals as
//           n/2 complex values) and the split (real_rows.cu, Numerical
//           Recipes section 12.3), or the merge and the inverse half-length
//           FFT: in one kernel where a plan-time schedule folds the split or
//           merge into the FFT's tile (real_schedule_kernels.cuh), else as
//           a separate kernel in place; a few even lengths and directions
//           run in pairs as odd n does, where that tile measured faster
//           (device_real_rows.cpp, even_pairs_*);
//   odd n   two rows per complex line of length n (z = a + i b), unpacked
//           by Z[k] +- conj Z[n-k]: packed and unpacked in the FFT's tile
//           where a plan-time schedule serves the batch
//           (real_schedule_kernels.cuh), else packed into the workspace by
//           separate kernels;
//   n <= 16 (real_rows_direct_max) one kernel: rows staged in shared
//           memory, a direct real DFT per row in registers (no inner
//           complex FFT, no workspace);
//   short 7-smooth n (FusedLengths<T>, real_rows_kernels.hpp: to 128 in
//           float, 64 in double and 90) one fused kernel: rows staged in
//           shared memory, each row's half-length FFT and split (or, odd
//           n, its complex FFT) in registers; one read and one write, no
//           workspace. Both ways but for the few lengths and directions
//           where the tile measured faster (device_real_rows.cpp,
//           tile_faster_*), which run the tile, but for rows that do not
//           start on a complex value: the fused kernel takes them as they
//           are.
// The twiddles w_n^k come from roots_of_unity (long double on the host),
// uploaded once; the complex FFT is a DeviceLinePlan.
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

namespace oocfft::kernels::cuda {

class PlanTimeSchedules;

template <class T>
class DeviceRealRows {
 public:
  DeviceRealRows(std::size_t n, const DeviceLimits& limits, TileKernels kernels);

  std::size_t length() const { return n_; }
  // Complex values of a row's half spectrum: n/2 + 1.
  std::size_t spectrum_length() const { return n_ / 2 + 1; }
  // The least row pitch (reals) of the padded layout: 2 * (n/2 + 1).
  std::size_t min_row_pitch() const { return 2 * spectrum_length(); }
  std::size_t workspace_bytes(std::size_t rows, std::size_t row_pitch) const;
  std::size_t table_bytes() const;
  // Rows r < rows at data + r * row_pitch, in place. forward: n reals ->
  // n/2 + 1 complex values, times scale. inverse: n/2 + 1 complex values
  // (Im X[0] and, for even n, Im X[n/2] ignored, as numpy's irfft does) ->
  // n reals, sign +, times scale (no implicit 1/n); the row's slots past
  // its n reals, up to 2 (n/2 + 1), are unspecified afterwards (the
  // short-row kernels write back what they read there), and nothing past
  // them is written, either way. Asynchronous on
  // `stream`; every launch checked. `workspace` holds
  // workspace_bytes(rows, row_pitch) device bytes (null if that is 0).
  // `data` must start on a complex value (2 * sizeof(T) bytes) unless the
  // direct or fused kernel serves n (Error(invalid_argument) otherwise).
  void execute(T* data, std::size_t rows, std::size_t row_pitch, void* workspace, bool inverse, T scale,
               cudaStream_t stream) const;
  std::string describe() const;

  // The complex lines the inner FFT runs on for this batch of rows.
  LineBatch complex_lines(std::size_t rows, std::size_t row_pitch) const;
  // The plan-time schedules the inner FFT wants for this batch (see
  // DeviceLinePlan::plan_time_keys), with both directions' folded ends
  // (DeviceLinePlan::real_ends_keys: the split and merge, or the packing
  // of row pairs); and the schedules to take them from.
  std::vector<ScheduleKey> plan_time_keys(std::size_t rows, std::size_t row_pitch) const;
  void use_plan_time(std::shared_ptr<const PlanTimeSchedules> plan_time);
  // The kernel that runs the FFT with the real ends folded in on this batch
  // (even n: the split or merge; odd n, and the even lengths that run in
  // pairs in this direction: the packing of row pairs): a
  // plan-time schedule, or general where none serves and the separate
  // kernels run (short and direct lengths too; rows not aligned to a
  // complex value are not asked about). Tests assert it, so that a silent
  // fallback cannot pass for the folded path.
  TileKernel ends_kernel(std::size_t rows, std::size_t row_pitch, bool inverse) const;
  // Whether one short-row kernel (the direct DFT, n <= 16, or the fused
  // kernel) runs the whole transform in this direction, without the inner
  // FFT.
  bool short_row_kernel(bool inverse) const;
  // The inner FFT (null where its length is 1).
  const DeviceLinePlan<T>* line_plan() const { return line_ ? &*line_ : nullptr; }

 private:
  void check_rows(std::size_t row_pitch) const;
  // The lines the folded kernel runs on in this direction (even n:
  // complex_lines; row pairs: the rows in place, two to a lane).
  LineBatch folded_lines(std::size_t rows, std::size_t row_pitch, bool inverse) const;
  // The plan whose tile folds the real ends in this direction: pairs_line_
  // where even rows run in pairs, else line_ (null where there is none).
  const DeviceLinePlan<T>* folding_plan(bool inverse) const;
  std::size_t n_;
  std::optional<DeviceLinePlan<T>> line_;  // length n/2 (even n) or n (odd n); none where that is 1 or n is short
  std::optional<DeviceLinePlan<T>> pairs_line_;  // length n: the even lengths that run as row pairs somewhere
  DeviceBuffer twiddles_;                  // even n: w_n^k, k = 0..n/2; fused n: k = 0..n-1
  std::vector<Complex<T>> direct_roots_;   // direct n: w_n^k, k = 0..n-1, a kernel argument
};

extern template class DeviceRealRows<float>;
extern template class DeviceRealRows<double>;

}  // namespace oocfft::kernels::cuda
