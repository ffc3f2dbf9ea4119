// The compiled-schedule kernels (schedule_kernels.cuh): every schedule this
// build compiled (OOCFFT_KERNEL_SET), in both precisions and directions, as
// contiguous lines and as strided z lines, in batches of two whole tiles
// plus a partial one, against fftwl. Each case first asserts that the plan
// runs the compiled schedule, so a silent fallback to the general kernel
// cannot pass for the fast path; the selection rules are checked too.
// Outputs are poisoned with NaN before every run. Skipped, with the reason,
// where no GPU is present.
#include <gtest/gtest.h>

#include "kernels/cuda/device_limits.hpp"
#include "kernels/cuda/device_line_plan.hpp"
#include "kernels/cuda/schedule_registry.hpp"
#include "tests/cuda_test_support.hpp"

namespace oocfft::test {
namespace {

using kc::TileKernel;

template <class T>
TileKernel kernel_for(std::size_t n, const kc::StridedLines& lines,
                      kc::TileKernels allowed = kc::TileKernels::compiled_where_available) {
  return kc::DeviceLinePlan<T>(n, kc::DeviceLimits::current(), allowed).tile_kernel(lines);
}

// z lines of a [n][1][lanes] brick, forward and inverse against fftwl along z.
template <class T>
void check_z_lines(DeviceRunner<T>& runner, std::size_t n, std::size_t lanes, std::uint64_t seed) {
  const BrickShape shape{n, 1, lanes};
  const auto x = random_signal(shape.elements(), seed);
  std::vector<LongComplex> fwd(x.size()), inv(x.size());
  for (std::size_t l = 0; l < lanes; ++l) {
    std::vector<LongComplex> line(n);
    for (std::size_t z = 0; z < n; ++z) line[z] = x[z * lanes + l];
    const auto f = fftwl_dft(line, {static_cast<int>(n)}, FFTW_FORWARD);
    const auto b = fftwl_dft(line, {static_cast<int>(n)}, FFTW_BACKWARD);
    for (std::size_t z = 0; z < n; ++z) {
      fwd[z * lanes + l] = f[z];
      inv[z * lanes + l] = b[z];
    }
  }
  const kc::DeviceBrickPlan<T> plan(shape, AxisSet::only_z());
  const auto in = to_precision<T>(x);
  const double tol = tolerance<T>(c_stockham, n);
  EXPECT_LE(relative_l2_error(runner.run(plan, in, shape, false, T(1)), fwd), tol)
      << "forward z lines n=" << n << " (" << sizeof(T) * 8 << "-bit)";
  EXPECT_LE(relative_l2_error(runner.run(plan, in, shape, true, T(1) / T(n)), inv, 1.0L / static_cast<long double>(n)),
            tol)
      << "inverse z lines n=" << n << " (" << sizeof(T) * 8 << "-bit)";
}

template <class T>
void check_every_schedule() {
  const auto schedules = kc::compiled_schedules<T>();
  ASSERT_FALSE(schedules.empty()) << "no compiled schedule in set " << kc::kernel_set();
  DeviceRunner<T> runner;
  std::size_t checked = 0;
  for (const kc::CompiledSchedule& s : schedules) {
    const auto n = static_cast<std::size_t>(s.length);
    const auto lanes = static_cast<std::size_t>(2 * s.lanes + 1);  // two whole tiles and one lane
    const std::uint64_t seed = 31 * n + (s.lanes_fast ? 1 : 0);
    if (s.lanes_fast) {
      const kc::StridedLines z{n, static_cast<std::int64_t>(lanes), static_cast<std::int64_t>(lanes), 1, 1, 0};
      ASSERT_EQ(kernel_for<T>(n, z), TileKernel::compiled_schedule) << "strided n=" << n;
      check_z_lines(runner, n, lanes, seed);
    } else {
      const kc::StridedLines x{n, 1, static_cast<std::int64_t>(lanes), static_cast<std::int64_t>(n), 1, 0};
      ASSERT_EQ(kernel_for<T>(n, x), TileKernel::compiled_schedule) << "contiguous n=" << n;
      check_lines(runner, n, lanes, seed);
    }
    ++checked;
  }
  std::printf("[ info ] %zu compiled schedules checked (%zu-bit, set %s)\n", checked, sizeof(T) * 8,
              kc::kernel_set());
}

TEST(CudaSchedules, EveryCompiledScheduleAgainstFftwLongDouble) {
  SKIP_WITHOUT_CUDA();
  check_every_schedule<float>();
  check_every_schedule<double>();
}

TEST(CudaSchedules, EverySetHoldsThePowersOfTwo) {
  SKIP_WITHOUT_CUDA();
  const auto schedules = kc::compiled_schedules<float>();
  auto has = [&](int n, bool lanes_fast) {
    return std::any_of(schedules.begin(), schedules.end(),
                       [&](const kc::CompiledSchedule& s) { return s.length == n && s.lanes_fast == lanes_fast; });
  };
  for (int n = 32; n <= 4096; n *= 2) EXPECT_TRUE(has(n, false)) << "contiguous " << n;
  for (int n = 16; n <= 1024; n *= 2) EXPECT_TRUE(has(n, true)) << "strided " << n;
}

TEST(CudaSchedules, SelectionFallsBackWhereNoScheduleServes) {
  SKIP_WITHOUT_CUDA();
  // 1024 contiguous lines, whole tiles: compiled.
  const kc::StridedLines rows{1024, 1, 64, 1024, 1, 0};
  EXPECT_EQ(kernel_for<float>(1024, rows), TileKernel::compiled_schedule);
  // The plan field forbids compiled schedules.
  EXPECT_EQ(kernel_for<float>(1024, rows, kc::TileKernels::general_only), TileKernel::general);
  // Fewer lines than one tile holds (4096 / 32 = 128 lines of 32 per tile).
  EXPECT_EQ(kernel_for<float>(32, kc::StridedLines{32, 1, 3, 32, 1, 0}), TileKernel::general);
  // A length with a prime factor above 13 (Bluestein) and one past a tile
  // (four-step) never take a schedule.
  EXPECT_EQ(kernel_for<float>(1009, kc::StridedLines{1009, 1, 64, 1009, 1, 0}), TileKernel::general);
  EXPECT_EQ(kernel_for<float>(16384, kc::StridedLines{16384, 1, 4, 16384, 1, 0}), TileKernel::general);
  // Strided lines whose lanes are not contiguous (lane stride 2).
  EXPECT_EQ(kernel_for<float>(64, kc::StridedLines{64, 4096, 64, 2, 1, 0}), TileKernel::general);
}

}  // namespace
}  // namespace oocfft::test
