#pragma once
// What the CUDA kernel suites share: the skip without a device, the error
// constants, the tuning table's entries, a runner that reuses device
// buffers across cases, and the check of a batch of contiguous lines
// against fftwl.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "kernels/cuda/device_brick_plan.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/plan_time_schedules.hpp"
#include "kernels/cuda/stream.hpp"
#include "kernels/cuda/tuning.hpp"
#include "kernels/line_factorization.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {

namespace kc = kernels::cuda;

#define SKIP_WITHOUT_CUDA() \
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device: the CUDA kernels are not exercised here"

inline constexpr double c_stockham = 4.0;
inline constexpr double c_four_step = 6.0;
inline constexpr double c_bluestein = 12.0;

// Stockham, four-step (lengths past one tile: above 4096 here) or Bluestein.
inline double c_for_line(std::size_t n) {
  const auto f = kernels::choose_line_algorithm(n, kernels::CompositeRadices::up_to_fifteen);
  if (f.algorithm == kernels::LineAlgorithm::bluestein) return c_bluestein;
  return n > 4096 ? c_four_step : c_stockham;
}

// The entries of the tuning table that override `what`, and the lengths of
// those of one type in ascending order: tests derive their cases from the
// table rather than copy it.
inline std::vector<kc::TuningEntry> tuned_lines(kc::Tuned what) {
  std::vector<kc::TuningEntry> lines;
  for (int i = 0; i < kc::tuning_entry_count; ++i)
    if (kc::tuning_entries[i].what == what) lines.push_back(kc::tuning_entries[i]);
  return lines;
}

inline std::vector<int> tuned_lengths(kc::Tuned what, kc::TunedType type) {
  std::vector<int> lengths;
  for (const kc::TuningEntry& e : tuned_lines(what))
    if (e.type == type) lengths.push_back(e.length);
  std::sort(lengths.begin(), lengths.end());
  return lengths;
}

// Device buffers and a stream reused across runs (allocation and the
// synchronising cudaFree would otherwise dominate the many small cases).
template <class T>
class DeviceRunner {
 public:
  // Upload, execute, download, all on the runner's stream.
  std::vector<std::complex<T>> run(const kc::DeviceBrickPlan<T>& plan, const std::vector<std::complex<T>>& x,
                                   Shape shape, bool inverse, T scale) {
    const std::size_t bytes = x.size() * sizeof(std::complex<T>);
    if (data_.bytes() < bytes) data_ = kc::DeviceBuffer(bytes, "test volume");
    if (work_.bytes() < plan.workspace_bytes()) work_ = kc::DeviceBuffer(plan.workspace_bytes(), "test workspace");
    const cudaStream_t s = stream_.get();
    // 0xff bytes are NaN in both precisions: a read of unwritten scratch shows.
    kc::check_cuda(cudaMemsetAsync(work_.get(), 0xff, work_.bytes(), s), "cudaMemsetAsync");
    kc::check_cuda(cudaMemcpyAsync(data_.get(), x.data(), bytes, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync");
    plan.execute(data_.as<kernels::Complex<T>>(), shape, work_.get(), inverse, scale, s);
    std::vector<std::complex<T>> y(x.size());
    poison(y);
    kc::check_cuda(cudaMemcpyAsync(y.data(), data_.get(), bytes, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
    stream_.synchronize();
    return y;
  }

 private:
  kc::Stream stream_;
  kc::DeviceBuffer data_, work_;
};

template <class T>
std::vector<std::complex<T>> run_brick(const std::vector<std::complex<T>>& x, Shape shape, AxisSet axes,
                                       bool inverse, T scale) {
  DeviceRunner<T> runner;
  return runner.run(kc::DeviceBrickPlan<T>(shape, axes), x, shape, inverse, scale);
}

// `lines` x lines of length n, forward and inverse, against fftwl; the
// plan takes `plan_time` where given, else makes its own (disk-cached).
template <class T>
void check_lines(DeviceRunner<T>& runner, std::size_t n, std::size_t lines, std::uint64_t seed,
                 double* worst_ratio = nullptr, std::shared_ptr<kc::PlanTimeSchedules> plan_time = nullptr) {
  const auto x = random_signal(n * lines, seed);
  std::vector<LongComplex> fwd(x.size()), inv(x.size());
  for (std::size_t l = 0; l < lines; ++l) {
    const std::vector<LongComplex> line(x.begin() + l * n, x.begin() + (l + 1) * n);
    const auto f = fftwl_dft(line, {static_cast<int>(n)}, FFTW_FORWARD);
    const auto b = fftwl_dft(line, {static_cast<int>(n)}, FFTW_BACKWARD);
    std::copy(f.begin(), f.end(), fwd.begin() + l * n);
    std::copy(b.begin(), b.end(), inv.begin() + l * n);
  }
  const double tol = tolerance<T>(c_for_line(n), n);
  // x lines only: the lines are rows of a [1][lines][n] brick.
  const Shape shape{1, lines, n};
  const kc::DeviceBrickPlan<T> plan(shape, AxisSet{false, false, true}, kc::TileKernels::compiled_where_available,
                                    std::move(plan_time));
  const auto in = to_precision<T>(x);
  const double ef = relative_l2(runner.run(plan, in, shape, false, T(1)), fwd);
  // Inverse with the backward norm (1/n) against the scaled reference.
  const double ei = relative_l2(runner.run(plan, in, shape, true, T(1) / T(n)), inv,
                                      1.0L / static_cast<long double>(n));
  EXPECT_LE(ef, tol) << "forward n=" << n << " (" << sizeof(T) * 8 << "-bit)";
  EXPECT_LE(ei, tol) << "inverse n=" << n << " (" << sizeof(T) * 8 << "-bit)";
  if (worst_ratio != nullptr) *worst_ratio = std::max({*worst_ratio, ef / tol, ei / tol});
}

// One plan-time cache (memory only) per parameterised suite `Suite`: the
// cases of a suite share their kernels, so each length compiles once.
template <class Suite>
std::shared_ptr<kc::PlanTimeSchedules> suite_plan_time() {
  static const auto schedules = std::make_shared<kc::PlanTimeSchedules>(kc::CubinCache::memory_only());
  return schedules;
}

}  // namespace oocfft::test
