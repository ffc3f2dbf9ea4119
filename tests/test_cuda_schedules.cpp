// The compiled-schedule kernels (compiled_schedule_kernels.cuh): every schedule this
// build compiled (OOCFFT_KERNEL_SET), every Bluestein convolution in one
// kernel and the four-step steps of power-of-two splits, in both precisions
// and directions, as contiguous lines and as strided z lines, in batches of
// at least one whole tile, against fftwl. Each case first asserts that the
// plan runs compiled schedules, so a silent fallback to the general kernel
// cannot pass for the fast path; the selection rules are checked too.
// Outputs are poisoned with NaN before every run. Skipped, with the reason,
// where no GPU is present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/cuda/cubin_cache.hpp"
#include "kernels/cuda/device_limits.hpp"
#include "kernels/cuda/device_line_plan.hpp"
#include "kernels/cuda/plan_time_schedules.hpp"
#include "kernels/cuda/schedule_registry.hpp"
#include "tests/cuda_test_support.hpp"

namespace oocfft::test {
namespace {

using kc::TileKernel;

template <class T>
TileKernel kernel_for(std::size_t n, const kernels::LineBatch& lines,
                      kc::TileKernels allowed = kc::TileKernels::compiled_where_available) {
  return kc::DeviceLinePlan<T>(n, kc::DeviceLimits::current(), allowed).tile_kernel(lines);
}

// z lines of a [n][1][lanes] brick, forward and inverse against fftwl along z.
template <class T>
void check_z_lines(DeviceRunner<T>& runner, std::size_t n, std::size_t lanes, std::uint64_t seed,
                   double c = c_stockham) {
  const Shape shape{n, 1, lanes};
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
  const double tol = tolerance<T>(c, n);
  EXPECT_LE(relative_l2(runner.run(plan, in, shape, false, T(1)), fwd), tol)
      << "forward z lines n=" << n << " (" << sizeof(T) * 8 << "-bit)";
  EXPECT_LE(relative_l2(runner.run(plan, in, shape, true, T(1) / T(n)), inv, 1.0L / static_cast<long double>(n)),
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
      const kernels::LineBatch z{n, static_cast<std::ptrdiff_t>(lanes), lanes, 1, 1, 0};
      ASSERT_EQ(kernel_for<T>(n, z), TileKernel::ahead_of_time) << "strided n=" << n;
      check_z_lines(runner, n, lanes, seed);
    } else {
      const kernels::LineBatch x{n, 1, lanes, static_cast<std::ptrdiff_t>(n), 1, 0};
      ASSERT_EQ(kernel_for<T>(n, x), TileKernel::ahead_of_time) << "contiguous n=" << n;
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

// The largest prime whose Bluestein convolution has length m (its prime
// factor above 13 forces Bluestein), or 0 when there is none.
std::size_t prime_with_convolution(std::size_t m) {
  for (std::size_t p = (m + 1) / 2; p > 13; --p) {
    bool prime = true;
    for (std::size_t d = 2; d * d <= p && prime; ++d) prime = p % d != 0;
    if (!prime) continue;
    const auto f = kernels::choose_line_algorithm(p, kernels::CompositeRadices::up_to_fifteen);
    if (f.algorithm == kernels::LineAlgorithm::bluestein && f.convolution_length == m) return p;
  }
  return 0;
}

// Bluestein in one kernel on every compiled convolution length M: a prime
// line of length n with M = bluestein_length(n), as contiguous lines and as
// strided z lines, two whole tiles and one lane.
template <class T>
void check_every_bluestein_schedule() {
  DeviceRunner<T> runner;
  std::size_t checked = 0;
  for (const kc::CompiledSchedule& s : kc::compiled_schedules<T>(kc::ScheduleUse::bluestein)) {
    const std::size_t n = prime_with_convolution(static_cast<std::size_t>(s.length));
    if (n == 0) continue;
    const auto lanes = static_cast<std::size_t>(2 * s.lanes + 1);
    if (s.lanes_fast) {
      const kernels::LineBatch z{n, static_cast<std::ptrdiff_t>(lanes), lanes, 1, 1, 0};
      ASSERT_EQ(kernel_for<T>(n, z), TileKernel::ahead_of_time) << "strided Bluestein n=" << n;
      check_z_lines(runner, n, lanes, 17 * n, c_bluestein);
    } else {
      const kernels::LineBatch x{n, 1, lanes, static_cast<std::ptrdiff_t>(n), 1, 0};
      ASSERT_EQ(kernel_for<T>(n, x), TileKernel::ahead_of_time) << "contiguous Bluestein n=" << n;
      check_lines(runner, n, lanes, 17 * n);
    }
    ++checked;
  }
  EXPECT_GT(checked, 0u) << "no Bluestein schedule exercised";
  std::printf("[ info ] %zu Bluestein schedules checked (%zu-bit)\n", checked, sizeof(T) * 8);
}

TEST(CudaSchedules, BluesteinInOneKernelAgainstFftwLongDouble) {
  SKIP_WITHOUT_CUDA();
  check_every_bluestein_schedule<float>();
  check_every_bluestein_schedule<double>();
}

// Four steps on compiled schedules (power-of-two splits): step A on strided
// lanes with the twiddle, step B on contiguous lines stored transposed (lines
// contiguous), or both on strided lanes (lines strided, as z axes).
template <class T>
void check_four_step_schedules() {
  DeviceRunner<T> runner;
  for (std::size_t n : {std::size_t{32768}, std::size_t{65536}}) {
    const kernels::LineBatch x{n, 1, 3, static_cast<std::ptrdiff_t>(n), 1, 0};
    ASSERT_EQ(kernel_for<T>(n, x), TileKernel::ahead_of_time) << "contiguous four-step n=" << n;
    check_lines(runner, n, 3, 5 * n);
  }
  // z lines of 16384 (complex<double>: no one-tile schedule; complex<float>
  // has one for contiguous lines only), 64 lanes: step A's tiles of 128
  // points hold up to 32 lanes, and a chunk must fill one.
  const std::size_t n = 16384, lanes = 64;
  const kernels::LineBatch z{n, static_cast<std::ptrdiff_t>(lanes), lanes, 1, 1, 0};
  ASSERT_EQ(kernel_for<T>(n, z), TileKernel::ahead_of_time) << "strided four-step n=" << n;
  check_z_lines(runner, n, lanes, 77, c_four_step);
}

TEST(CudaSchedules, FourStepStepsRunCompiledSchedules) {
  SKIP_WITHOUT_CUDA();
  check_four_step_schedules<float>();
  check_four_step_schedules<double>();
}

TEST(CudaSchedules, EverySetHoldsThePowersOfTwo) {
  SKIP_WITHOUT_CUDA();
  const auto schedules = kc::compiled_schedules<float>();
  auto has = [&](int n, bool lanes_fast) {
    return std::any_of(schedules.begin(), schedules.end(),
                       [&](const kc::CompiledSchedule& s) { return s.length == n && s.lanes_fast == lanes_fast; });
  };
  for (int n = 32; n <= 16384; n *= 2) EXPECT_TRUE(has(n, false)) << "contiguous " << n;
  for (int n = 16; n <= 1024; n *= 2) EXPECT_TRUE(has(n, true)) << "strided " << n;
}

// The launch grid of the tile kernels: one block per tile, a second grid
// dimension past the x limit, and no tile left out (host arithmetic: no
// device needed).
TEST(CudaSchedules, TileGridTakesEveryTileOnce) {
  EXPECT_EQ(kc::tile_grid(0, 3, 5).x, 0u);
  // 1000 lanes in tiles of 8 over 3 groups: 125 * 3 tiles; 1001 lanes: 126 * 3.
  EXPECT_EQ(kc::tile_grid(1000, 3, 3).x, 375u);
  EXPECT_EQ(kc::tile_grid(1001, 3, 3).x, 378u);
  for (const std::int64_t tiles :
       {std::int64_t{1}, std::int64_t{1000}, kc::max_grid_x, kc::max_grid_x + 1, 3 * kc::max_grid_x + 5}) {
    const kc::TileGrid grid = kc::tile_grid(tiles, 0, 1);
    const std::int64_t blocks = std::int64_t{grid.x} * grid.y;
    EXPECT_LE(std::int64_t{grid.x}, kc::max_grid_x) << tiles;
    EXPECT_LE(grid.y, 65535u) << tiles;
    EXPECT_GE(blocks, tiles) << tiles;                         // every tile has a block
    EXPECT_LT(blocks - tiles, std::int64_t{grid.x}) << tiles;  // spare blocks only in the last row
  }
  EXPECT_EQ(kc::tile_grid(kc::max_grid_x + 1, 0, 1).y, 2u);
}

// A contiguous one-line tile as the geometry rules below give it: block
// size, the most values a thread holds, registers and the blocks of
// __launch_bounds__. `what` names the length and precision in a failure.
void expect_tile(const char* what, const kc::ScheduleShape& g, int threads, int values, int registers,
                 int min_blocks) {
  EXPECT_TRUE(g.valid) << what;
  EXPECT_EQ(g.threads, threads) << what;
  EXPECT_EQ(g.values, values) << what;
  EXPECT_EQ(g.register_target, registers) << what;
  EXPECT_EQ(g.min_blocks, min_blocks) << what;
}

// The tile the Stockham rules give contiguous lines of length n (the
// settled schedule's; a whole line may run the in-place tile instead):
// uniform, ragged, or none (threads 0) where the paired schedule runs.
template <class T>
kc::UniformTile device_tile(int n) {
  return kc::settled_device_schedule<T>(static_cast<std::size_t>(n)).tile;
}

// The contiguous tile of n's paired schedule, which device_schedule weighs
// against the ragged tile where that runs instead.
template <class T>
kc::ScheduleShape paired_shape(int n) {
  return kc::shape_of_schedule<T>(n, kc::paired_radix_schedule<T>(static_cast<std::size_t>(n)), false);
}

// The tile of contiguous lines with odd radices: where the complex<float>
// 64-register tile would need more than 341 threads (two blocks per SM or
// fewer), fewer threads with more values at 96 registers, if as many blocks
// stay resident; where the complex<double> 96-register tile up to 4096 would
// be one block per SM, up to 16 values at 128 registers; elsewhere, and for
// strided tiles, the tiles as before (host arithmetic: no device needed).
TEST(CudaSchedules, CrowdedTilesTakeFewerThreads) {
  // 2016 = 8 4 9 7: 512 threads of at most 14 values at 64 registers (two
  // blocks per SM) without the rule; with it 224 threads of 24 at 96 (three).
  expect_tile("2016 complex<float>", kc::stockham_shape<float>(2016, false), 224, 24, 96, 3);
  // 2100 = 4 15 5 7: 160 threads, six blocks per SM at 64 registers: kept.
  const kc::ScheduleShape roomy = kc::stockham_shape<float>(2100, false);
  EXPECT_EQ(roomy.register_target, 64);
  EXPECT_EQ(roomy.threads, 160);
  // Lines past 4096: 5292 = 4 9 3 7 7, one block of 896 threads at 64
  // registers without the rule, two of 320 holding 21 values at 96 with it
  // (its lines run a ragged tile now, RaggedTilesWhereMeasured); 5880 = 8
  // 15 7 7 keeps two blocks of 448 at 64 registers.
  const kc::ScheduleShape long_crowded = paired_shape<float>(5292);
  EXPECT_EQ(long_crowded.register_target, 96);
  EXPECT_EQ(long_crowded.threads, 320);
  EXPECT_EQ(long_crowded.values, 21);
  EXPECT_EQ(kc::resident_blocks(long_crowded.threads, long_crowded.register_target), 2);
  const kc::ScheduleShape long_kept = kc::stockham_shape<float>(5880, false);
  EXPECT_EQ(long_kept.register_target, 64);
  EXPECT_EQ(long_kept.threads, 448);
  // complex<double> up to 4096: 2744 = 8 7 7 7, two blocks of 416 threads
  // holding 8 values at 72 registers without the rule (the two-block rule
  // below), two of 224 holding 16 at 128 with it.
  const kc::ScheduleShape double_crowded = kc::stockham_shape<double>(2744, false);
  EXPECT_EQ(double_crowded.register_target, 128);
  EXPECT_EQ(double_crowded.threads, 224);
  EXPECT_EQ(double_crowded.values, 16);
  // Powers of two and strided tiles keep theirs, as do complex<double> tiles
  // of two or more blocks and lines past 4096.
  EXPECT_EQ(kc::stockham_shape<float>(4096, false).register_target, 64);
  EXPECT_EQ(kc::stockham_shape<float>(2016, true).register_target, 64);
  EXPECT_EQ(kc::stockham_shape<double>(1400, false).register_target, 96);  // three blocks of 224
  EXPECT_EQ(kc::stockham_shape<double>(300, true).register_target, 96);
  EXPECT_EQ(kc::stockham_shape<double>(5400, false).register_target, 96);
  EXPECT_EQ(kc::stockham_shape<double>(2048, false).register_target, 128);
}

// Contiguous odd-radix tiles that would hold one block per SM by registers
// take the two-block tile where the shared memory of two fits; complex<double>
// tiles at two blocks get the register cap of three where their values fit
// (values_within); every contiguous tile stays within the register file,
// its register cap and 32 values (host arithmetic: no device needed).
TEST(CudaSchedules, OneBlockTilesTakeTwoAndTwoBlockTilesThree) {
  // complex<float> 8748 = 4 9 9 9 3: one block of 608 threads at 96
  // registers before; two of 352 holding 28 values at 88 (its lines run a
  // ragged tile now, RaggedTilesWhereMeasured).
  expect_tile("8748 complex<float>", paired_shape<float>(8748), 352, 28, 88, 2);
  // complex<double> 3780 = 4 9 3 5 7: one block of 544 at 96 before; two of
  // 256 holding 21 values at 128.
  const kc::ScheduleShape two = kc::stockham_shape<double>(3780, false);
  EXPECT_EQ(two.threads, 256);
  EXPECT_EQ(two.values, 21);
  EXPECT_EQ(two.register_target, 128);
  EXPECT_EQ(kc::resident_blocks(two.threads, two.register_target), 2);
  // complex<double> 1750 = 10 5 5 7: two blocks of 256 at 96 before; the
  // cap of three (80) holds its 10 values.
  const kc::ScheduleShape three = kc::stockham_shape<double>(1750, false);
  EXPECT_EQ(three.threads, 256);
  EXPECT_EQ(three.register_target, 80);
  EXPECT_EQ(three.min_blocks, 3);
  // Kept: 3780's 21 values do not fit the cap of three (80 registers);
  // 15625 = 25 25 25 complex<float> (126 KB) holds one block by shared
  // memory either way (640 threads holding 25 values); powers of two and
  // strided tiles.
  EXPECT_EQ(kc::stockham_shape<double>(3780, false).min_blocks, 2);
  EXPECT_EQ(kc::stockham_shape<float>(15625, false).threads, 640);
  EXPECT_EQ(kc::stockham_shape<float>(15625, false).min_blocks, 1);
  EXPECT_EQ(kc::stockham_shape<float>(8192, false).register_target, 64);
  EXPECT_EQ(kc::stockham_shape<double>(2520, true).threads, 672);  // one block of 4 strided lanes
  for (int n = 9; n <= 16384; ++n) {
    const kc::ScheduleShape g = kc::stockham_shape<float>(n, false);
    if (g.valid) {
      EXPECT_LE(g.threads * g.register_target * g.min_blocks, 65536) << n;
      EXPECT_LE(g.values, device_tile<float>(n).threads > 0 ? 64 : 32) << n;
      EXPECT_LE(g.register_target, 248) << n;
    }
    const kc::ScheduleShape d = kc::stockham_shape<double>(n, false);
    if (d.valid) {
      EXPECT_LE(d.threads * d.register_target * d.min_blocks, 65536) << n;
      EXPECT_LE(d.values, device_tile<double>(n).threads > 0 ? 50 : 32) << n;
      EXPECT_LE(d.register_target, 248) << n;
    }
  }
}

// One-line odd-radix tiles after the rules above take the block count
// measured best for them (stockham_tile.hpp): four blocks per SM up to
// 4096 from two (and complex<float> from three), three for complex<float>
// past 4096 from two, one block with fewer threads at more registers for
// complex<double> at one; 7-smooth lengths only (host arithmetic: no device
// needed).
TEST(CudaSchedules, TilesTakeTheResidentBlocksMeasuredBest) {
  // Four blocks for lines up to 4096: complex<float> 3150 = 9 5 5 14, two
  // blocks of 320 threads at 96 registers before, four of 160 holding 28
  // values; 2520 = 8 9 5 7, three blocks of 320 before, four of 192 holding
  // 18 at 80 (ptxas's cap for 24 warps); complex<double> 2100 = 4 3 5 5 7,
  // two blocks of 320 before, four of 160 holding 16 at 96.
  expect_tile("3150 complex<float>", kc::stockham_shape<float>(3150, false), 160, 28, 96, 4);
  EXPECT_EQ(kc::stockham_shape<float>(2520, false).threads, 192);
  EXPECT_EQ(kc::stockham_shape<float>(2520, false).register_target, 80);
  EXPECT_EQ(kc::stockham_shape<double>(2100, false).threads, 160);
  EXPECT_EQ(kc::stockham_shape<double>(2100, false).min_blocks, 4);
  // Three blocks for complex<float> past 4096: 4536 = 8 9 9 7, three of 256
  // threads holding 24 values at 80 registers (ptxas's cap for 24 warps).
  expect_tile("4536 complex<float>", kc::stockham_shape<float>(4536, false), 256, 24, 80, 3);
  // One block with fewer threads for complex<double>: 6804 = 4 9 9 3 7,
  // 512 threads at 128 registers; 9072, 352 holding 32 values at 168.
  const kc::ScheduleShape lone = kc::stockham_shape<double>(6804, false);
  EXPECT_EQ(lone.threads, 512);
  EXPECT_EQ(lone.register_target, 128);
  EXPECT_EQ(lone.min_blocks, 1);
  EXPECT_EQ(kc::stockham_shape<double>(9072, false).threads, 352);
  EXPECT_EQ(kc::stockham_shape<double>(9072, false).register_target, 168);
  // Kept: four blocks past 4096 (complex<float> 4116 stays at three blocks
  // of 320), complex<double> at three blocks (1750), complex<float> at one
  // block (9072, 672 threads), lengths with a factor 11 or 13 (2310 = 2 3 5
  // 7 11 complex<double> stays at two blocks of 256), powers of two.
  EXPECT_EQ(kc::stockham_shape<float>(4116, false).threads, 320);
  EXPECT_EQ(kc::stockham_shape<double>(2310, false).threads, 256);
  EXPECT_EQ(kc::stockham_shape<double>(2310, false).min_blocks, 2);
  EXPECT_EQ(kc::stockham_shape<double>(1750, false).min_blocks, 3);
  EXPECT_EQ(kc::stockham_shape<float>(9072, false).threads, 672);
  EXPECT_EQ(kc::stockham_shape<double>(4096, false).register_target, 128);
}

// A lone 3 joins a 9 as radix 27 only where the length is one measured
// (twenty_seven_measured), the tiles of the length hold the 27 values
// within the registers ptxas leaves them, and the strided tile exists where
// it did without (paired_radix_schedule, whose schedule lines without a
// uniform or ragged tile run; host arithmetic: no device needed).
template <class T>
void expect_twenty_seven_where_the_tiles_hold_it(int& joined) {
  for (int n = 27; n <= 16384; ++n) {
    const kernels::RadixSchedule s = kc::paired_radix_schedule<T>(static_cast<std::size_t>(n));
    if (std::find(s.radices, s.radices + s.count, 27) == s.radices + s.count) continue;
    if (kc::uniform_tile<T>(static_cast<std::size_t>(n)).threads > 0) continue;  // its own radices
    if (kc::tuned_stockham_schedule<T>(static_cast<std::size_t>(n)).count > 0) continue;  // measured (TuningTable*)
    ++joined;
    EXPECT_TRUE(kc::twenty_seven_measured<T>(static_cast<std::size_t>(n))) << n;
    const kc::ScheduleShape contiguous = kc::shape_of_schedule<T>(n, s, false);
    ASSERT_TRUE(contiguous.valid) << n;
    EXPECT_LE(contiguous.values, kc::values_within<T>(kc::capped_registers(contiguous))) << n;
    const kc::ScheduleShape strided = kc::shape_of_schedule<T>(n, s, true);
    const kernels::RadixSchedule own =
        kernels::radix_schedule(static_cast<std::size_t>(n), kernels::device_composite_radices<T>());
    if (kc::shape_of_schedule<T>(n, own, true).valid) {
      ASSERT_TRUE(strided.valid) << n;
      EXPECT_LE(strided.values, kc::values_within<T>(kc::capped_registers(strided))) << n;
    }
  }
}

// Pairs of 5s as radix 25 in complex128 lines 4097..10240 only where the
// tiles hold the 25 values within ptxas's cap (twenty_five_measured).
TEST(CudaSchedules, ComplexDoubleRadixTwentyFiveWhereTheTilesHoldIt) {
  int paired = 0;
  for (int n = 4097; n <= 10240; ++n) {
    // The settled schedule (6300 runs the in-place tile, its own radices).
    const kernels::RadixSchedule s = kc::convolution_radix_schedule<double>(static_cast<std::size_t>(n));
    const kernels::RadixSchedule plain =
        kernels::radix_schedule(static_cast<std::size_t>(n), kernels::device_composite_radices<double>());
    const bool has_25 = std::find(s.radices, s.radices + s.count, 25) != s.radices + s.count;
    if (!has_25 || std::find(plain.radices, plain.radices + plain.count, 25) != plain.radices + plain.count) continue;
    if (kc::uniform_tile<double>(static_cast<std::size_t>(n)).threads > 0) continue;  // its own radices
    ++paired;
    const kc::ScheduleShape g = kc::stockham_shape<double>(n, false);
    ASSERT_TRUE(g.valid) << n;
    EXPECT_LE(g.values, kc::values_within<double>(kc::capped_registers(g))) << n;
  }
  EXPECT_EQ(paired, 12);  // 4500 .. 8100 (8000 and 8575 run their uniform tiles)
  // 4500 = 4 9 25 5: two blocks of 192 threads holding 27 values at 168.
  expect_tile("4500 complex<double>", kc::stockham_shape<double>(4500, false), 192, 27, 168, 2);
}

// Pairs of 5s as radix 25 in complex64 lines 12000..16384 only where that
// leaves a single radix-25 pass and the tiles hold its values within
// ptxas's cap (twenty_five_measured, paired_radix_schedule). The five
// lengths paired now run ragged tiles (RaggedTilesWhereMeasured), which
// the rule of device_schedule weighs against these.
TEST(CudaSchedules, ComplexFloatRadixTwentyFivePast12000WhereTheTilesHoldIt) {
  std::vector<int> paired;
  for (int n = 12000; n <= 16384; ++n) {
    const kernels::RadixSchedule s = kc::paired_radix_schedule<float>(static_cast<std::size_t>(n));
    const kernels::RadixSchedule plain =
        kernels::radix_schedule(static_cast<std::size_t>(n), kernels::device_composite_radices<float>());
    const auto twenty_fives = [](const kernels::RadixSchedule& r) {
      return std::count(r.radices, r.radices + r.count, 25);
    };
    if (twenty_fives(s) == twenty_fives(plain) || kc::uniform_tile<float>(static_cast<std::size_t>(n)).threads > 0)
      continue;
    paired.push_back(n);
    EXPECT_EQ(twenty_fives(s), 1) << n;
    EXPECT_TRUE(device_tile<float>(n).ragged) << n;
    const kc::ScheduleShape g = kc::shape_of_schedule<float>(n, s, false);
    ASSERT_TRUE(g.valid) << n;
    EXPECT_LE(g.values, kc::values_within<float>(kc::capped_registers(g))) << n;
  }
  EXPECT_EQ(paired, (std::vector<int>{12000, 12250, 13125, 14000, 15750}));
  // 12500 = 4 5 5 5 5 5 would pair as 4 25 25 5 (two radix-25 passes) and
  // runs its uniform tile (10 5 | 25 | 10) instead, 12800 its uniform tile; 15000 (8 15 25 5 paired)
  // runs its one-block uniform tile, 15 10 10 10; 15625 = 25 25 25 pairs on
  // radix_schedule's own rule.
  EXPECT_EQ(kc::stockham_shape<float>(15625, false).passes, 3);
  EXPECT_TRUE(kc::same_schedule(kc::stockham_shape<float>(12500, false).schedule,
                                kc::uniform_tile<float>(12500).schedule));
}

// Every thread of a uniform tile holds the same values in every stage (each
// stage's radices multiply to a divisor of them), and a contiguous line runs
// that tile, in those stages.
template <class T>
void expect_uniform(int n, const kc::UniformTile& u) {
  EXPECT_EQ(u.threads * u.values, n);
  const kc::ScheduleShape g = kc::stockham_shape<T>(n, false);
  ASSERT_TRUE(g.valid) << n;
  EXPECT_TRUE(kc::same_schedule(g.schedule, u.schedule)) << n;
  EXPECT_EQ(g.fused, u.fused) << n;
  EXPECT_EQ(g.stages, u.stages) << n;
  EXPECT_EQ(u.stages, kc::stage_count(u.schedule.count, u.fused)) << n;
  for (int stage = 0; stage < u.stages; ++stage) EXPECT_EQ(u.values % kc::stage_points(g, stage), 0) << n;
  EXPECT_EQ(g.threads, u.threads) << n;
  EXPECT_EQ(g.values, u.values) << n;
  EXPECT_EQ(g.register_target, u.registers) << n;
  // The launch bounds may fit more blocks than the search asked for (5292
  // complex128 by stages: 126 threads at 248 registers, two blocks).
  EXPECT_GE(g.min_blocks, u.blocks) << n;
  EXPECT_LE(u.values, sizeof(T) == 4 ? 64 : 50) << n;
  std::int64_t product = 1;
  for (int p = 0; p < u.schedule.count; ++p) {
    EXPECT_EQ(u.values % u.schedule.radices[p], 0) << n;  // every thread full in every pass
    product *= u.schedule.radices[p];
  }
  EXPECT_EQ(product, n);
  EXPECT_EQ(kc::tile_work(n, u.schedule, u.threads).slots, static_cast<long>(n) * u.schedule.count) << n;
}

// Uniform tiles (uniform_tile) where measured: complex64 lines 4097..16384
// with two blocks of at least 192 threads per SM, in no more stages than
// radix_schedule's passes; one block per SM past 10240, complex64 in fewer
// stages than radix_schedule's passes, complex128 in at most one more;
// complex128 lines 4097..10240 whose tile holds one block per SM, in fewer
// stages than its passes and without radix 15. The lines are generated by
// the rules (UniformTile's cases), each checked here on the host and run
// against fftwl on a GPU (CudaUniformTile).
template <class T>
void expect_uniform_line(int n) {
  constexpr bool single = sizeof(T) == 4;
  const std::size_t length = static_cast<std::size_t>(n);
  const int passes = kernels::radix_schedule(length, kernels::device_composite_radices<T>()).count;
  const kc::UniformTile u = kc::uniform_tile<T>(length);
  ASSERT_GT(u.threads, 0) << n;
  if (single) {
    // 10368's tile is within 8 registers of its cap and yields to a
    // ragged one (RaggedTilesWhereMeasured).
    if (!device_tile<float>(n).ragged) expect_uniform<float>(n, u);
    if (u.blocks == 2) {
      EXPECT_GE(u.threads, 192) << n;
      EXPECT_LE(u.stages, passes) << n;
    } else {
      EXPECT_EQ(u.blocks, 1) << n;
      EXPECT_GT(n, 10240);
      EXPECT_LT(u.stages, passes) << n;
    }
    return;
  }
  expect_uniform<double>(n, u);
  EXPECT_EQ(u.blocks, 1) << n;
  if (n > 10240) {
    EXPECT_LE(u.stages, passes + 1) << n;
  } else {
    // Up to 10240: in place of a one-block tile, and in fewer stages.
    const kernels::RadixSchedule paired = kc::paired_radix_schedule<double>(length);
    const kc::ScheduleShape g = kc::shape_of_schedule<double>(n, paired, false);
    EXPECT_EQ(kc::resident_blocks((g.threads + 31) / 32 * 32, g.register_target), 1) << n;
    EXPECT_LT(u.stages, paired.count) << n;
    EXPECT_EQ(kc::passes_of_radix(u.schedule, 15), 0) << n;
  }
}

struct TiledLine {
  int length = 0;
  bool complex128 = false;
  bool operator==(const TiledLine& o) const { return length == o.length && complex128 == o.complex128; }
};

std::string tiled_line_name(const ::testing::TestParamInfo<TiledLine>& info) {
  return (info.param.complex128 ? "c128_" : "c64_") + std::to_string(info.param.length);
}

// A TiledLine on a GPU: three x lines on a compiled tile (ahead of time
// or at plan time, never the general kernel), forward and inverse against
// fftwl. One plan-time cache serves every case of a suite.
class CudaTiledLine : public ::testing::TestWithParam<TiledLine> {
 protected:
  static std::shared_ptr<kc::PlanTimeSchedules> plan_time() { return suite_plan_time<CudaTiledLine>(); }

  template <class T>
  static void check_tiled_line(std::size_t n) {
    const Shape shape{1, 3, n};
    const kc::DeviceBrickPlan<T> plan(shape, AxisSet{false, false, true}, kc::TileKernels::compiled_where_available,
                                      plan_time());
    EXPECT_NE(plan.tile_kernels_used()[0], 'G') << "n=" << n << "\n" << plan.describe();
    DeviceRunner<T> runner;
    check_lines(runner, n, 3, 6007 * n, nullptr, plan_time());
  }

  static void run_tiled_line(const TiledLine& line) {
    const auto n = static_cast<std::size_t>(line.length);
    if (line.complex128) {
      check_tiled_line<double>(n);
    } else {
      check_tiled_line<float>(n);
    }
  }
};

// The lines up to 20000 that have a uniform tile, of both types.
std::vector<TiledLine> uniform_lines() {
  std::vector<TiledLine> lines;
  for (int n = 4097; n <= 20000; ++n) {
    if (!kc::smooth_exponents(n).smooth) continue;
    if (kc::uniform_tile<float>(static_cast<std::size_t>(n)).threads > 0) lines.push_back({n, false});
    if (kc::uniform_tile<double>(static_cast<std::size_t>(n)).threads > 0) lines.push_back({n, true});
  }
  return lines;
}

class UniformTile : public ::testing::TestWithParam<TiledLine> {};

TEST_P(UniformTile, EveryThreadFullInEveryStage) {
  if (GetParam().complex128) {
    expect_uniform_line<double>(GetParam().length);
  } else {
    expect_uniform_line<float>(GetParam().length);
  }
}

INSTANTIATE_TEST_SUITE_P(Lines4097To20000, UniformTile, ::testing::ValuesIn(uniform_lines()), tiled_line_name);

class CudaUniformTile : public CudaTiledLine {};

TEST_P(CudaUniformTile, RunsAgainstFftwLongDouble) {
  SKIP_WITHOUT_CUDA();
  run_tiled_line(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Lines4097To20000, CudaUniformTile, ::testing::ValuesIn(uniform_lines()), tiled_line_name);

TEST(CudaSchedules, UniformTilesWhereMeasured) {
  // The rules serve lines up to 4096 without them.
  for (int n = 2; n <= 4096; ++n) {
    EXPECT_EQ(kc::uniform_tile<float>(static_cast<std::size_t>(n)).threads, 0) << n;
    EXPECT_EQ(kc::uniform_tile<double>(static_cast<std::size_t>(n)).threads, 0) << n;
  }
  // 9000 = 6 5 | 6 5 | 10: two blocks of 300 threads holding 30 values at
  // 96 registers (8 9 25 5 was one block of 608 holding 25).
  expect_tile("9000 complex<float>", kc::stockham_shape<float>(9000, false), 300, 30, 96, 2);
  EXPECT_EQ(kc::stockham_shape<float>(9000, false).stages, 3);
  // complex128 12500 = 10 5 | 25 | 10: one block of 250 threads holding 50
  // values at 248 registers (four steps before).
  expect_tile("12500 complex<double>", kc::stockham_shape<double>(12500, false), 250, 50, 248, 1);
}

// Uniform tiles run their passes in stages (first_stage_fused, and the
// searches by stages of uniform_tile): a stage's radices multiply to a
// divisor of the values per thread; stages past the first only in tiles
// found by stages (at most 49 complex64 values, 42 complex128), none whose
// writes put more than two of a warp on a bank (host arithmetic).
template <class T>
void expect_stages_where_measured() {
  for (int n = 4097; n <= 20000; ++n) {
    const kc::UniformTile u = kc::uniform_tile<T>(static_cast<std::size_t>(n));
    if (u.threads == 0 || u.stages == u.schedule.count) continue;
    const kc::StagedSchedule staged{u.schedule, u.fused, u.stages};
    EXPECT_LE(kc::staged_conflicts<T>(staged), 2) << n;
    const int first_end = kc::stage_first_pass(1, u.schedule.count, u.fused);
    const bool later_fused = (u.fused >> first_end) != 0;
    if (later_fused) EXPECT_LE(u.values, sizeof(T) == 4 ? 49 : 42) << n;
  }
}

TEST(CudaSchedules, UniformTilesRunInStagesWhereMeasured) {
  expect_stages_where_measured<float>();
  expect_stages_where_measured<double>();
  // 12500 complex<float>: 10 5 | 25 | 10, three exchanges through shared
  // memory where 25 10 10 5 made four.
  const kc::ScheduleShape g = kc::stockham_shape<float>(12500, false);
  EXPECT_EQ((std::vector<int>(g.schedule.radices, g.schedule.radices + g.passes)), (std::vector<int>{10, 5, 25, 10}));
  EXPECT_EQ(g.stages, 3);
  EXPECT_EQ(kc::stage_points(g, 0), 50);
  // 18000 complex<float>: one block of 600 threads holding 30 values in
  // 6 5 | 10 | 10 | 6 (672 threads of 16 9 5 5 5 before).
  const kc::ScheduleShape h = kc::stockham_shape<float>(18000, false);
  expect_tile("18000 complex<float>", h, 600, 30, 96, 1);
  EXPECT_EQ(h.stages, 4);
  // 5292 complex<double>: 7 6 | 7 6 | 3, 126 threads of 42 values.
  const kc::ScheduleShape d = kc::stockham_shape<double>(5292, false);
  EXPECT_EQ(d.threads, 126);
  EXPECT_EQ(d.stages, 3);
  EXPECT_EQ(d.passes, 5);
  // 10800 complex<double> = 10 6 6 6 5 keeps its passes: a first stage of
  // 6 5 would write 30 complex<double> apart, eight of a half warp to a bank.
  EXPECT_EQ(kc::stage_conflicts<double>(1, 30), 8);
  EXPECT_EQ(kc::stockham_shape<double>(10800, false).stages, 5);
  // 12005 complex<double> = 7 7 7 7 5 keeps its passes: by stages its 35
  // values leave no spare registers at 168 (stage_spare).
  EXPECT_EQ(kc::stockham_shape<double>(12005, false).stages, 5);
  // Strided tiles run one pass per stage.
  EXPECT_EQ(kc::stockham_shape<float>(12500, true).fused, 0u);
}

// Ragged tiles (ragged_tile) where measured (device_schedule): lines that
// have no tile of their own, where no stage has fewer than 6 points (else
// four steps); complex64 lines whose non-uniform tile holds
// one block per SM, where the ragged tile runs in fewer stages of at least
// 8 points; and complex64 lines whose tile holds two blocks per SM, where
// it runs in at least two stages fewer, of at least 6 points; the tile of
// the first search, else of the second (more threads); and the complex64
// line whose uniform tile is within 8 registers of its cap (10368), where
// the first search's tile runs in fewer stages. A thread holds the
// values of its groups of every stage, within the registers of its blocks;
// contiguous lines run the tile in those stages (host arithmetic: no device
// needed).
template <class T>
void expect_ragged_tile(int n) {
  constexpr bool single = sizeof(T) == 4;
  const kc::UniformTile u = device_tile<T>(n);
  ASSERT_TRUE(u.ragged) << n;
  // A uniform tile yields only where it is complex64 within 8 registers
  // of its cap (10368), or where ptxas spills it (SpilledTilesGiveWay).
  const kc::UniformTile uniform = kc::uniform_tile<T>(static_cast<std::size_t>(n));
  if (uniform.threads > 0 && !kc::tile_spills<T>(static_cast<std::size_t>(n), kc::TileSearch::uniform)) {
    EXPECT_TRUE(single) << n;
    EXPECT_LT(uniform.registers - 28 - 2 * uniform.values, 8) << n;
    EXPECT_LT(u.stages, uniform.stages) << n;
  }
  const kc::ScheduleShape before = paired_shape<T>(n);
  if (before.valid) {
    EXPECT_TRUE(single) << n;
    EXPECT_LE(before.min_blocks, 2) << n;
    // One stage fewer than a one-block tile, two fewer than a two-block one.
    EXPECT_LE(u.stages, before.stages - before.min_blocks) << n;
  }
  std::int64_t product = 1;
  for (int p = 0; p < u.schedule.count; ++p) product *= u.schedule.radices[p];
  EXPECT_EQ(product, n);
  EXPECT_EQ(u.stages, kc::stage_count(u.schedule.count, u.fused)) << n;
  EXPECT_LE(kc::staged_conflicts<T>(kc::StagedSchedule{u.schedule, u.fused, u.stages}), 2) << n;
  int held = 0;
  for (int stage = 0; stage < u.stages; ++stage) {
    const int points = kc::stage_points(u.schedule, u.fused, stage);
    EXPECT_GE(points, before.valid && before.min_blocks == 1 ? 8 : 6) << n;
    const int groups = n / points;
    held = std::max(held, (groups + u.threads - 1) / u.threads * points);
  }
  EXPECT_EQ(u.values, held) << n;
  EXPECT_LE(u.values, single ? 56 : 50) << n;
  // Within the register budget, but for the measured block sizes, whose
  // tiles hold their values past it (Tuned::ragged_threads).
  if (kc::measured_ragged_threads<T>(n) == 0) {
    EXPECT_LE(u.values * (single ? 2 : 4) + 28 + (single ? 0 : 16), u.registers) << n;
  } else {
    EXPECT_EQ(u.threads, kc::measured_ragged_threads<T>(n)) << n;
  }
  const kc::ScheduleShape g = kc::stockham_shape<T>(n, false);
  EXPECT_TRUE(g.valid) << n;
  if (!g.valid) return;
  EXPECT_TRUE(kc::same_schedule(g.schedule, u.schedule)) << n;
  EXPECT_EQ(g.fused, u.fused) << n;
  EXPECT_EQ(g.threads, u.threads) << n;
  EXPECT_EQ(g.values, u.values) << n;
  EXPECT_EQ(g.register_target, u.registers) << n;
  EXPECT_GE(g.min_blocks, u.blocks) << n;
  EXPECT_GE(g.threads * g.values, n) << n;
}

template <class T>
std::vector<int> expect_ragged_tiles_where_measured(int low, int high) {
  std::vector<int> ragged;
  for (int n = low; n <= high; ++n) {
    if (!device_tile<T>(n).ragged) continue;
    ragged.push_back(n);
    expect_ragged_tile<T>(n);
  }
  return ragged;
}

TEST(CudaSchedules, RaggedTilesWhereMeasured) {
  // The lines 4097..20000 that run ragged tiles are RaggedTile's cases
  // (every one checked there, and run against fftwl by CudaRaggedTile).
  // complex128: lines that had no tile (they ran four steps); 11760's
  // tiles, 48 | 49 | 5 by either search, have a stage of 5: no Stockham
  // tile holds it, and it runs the in-place tile.
  EXPECT_TRUE(device_tile<double>(10206).ragged);
  EXPECT_TRUE(kc::schedule_shape<double>(11760, false).in_place);
  // complex64 lines past 20000 have no tile of their own; those whose
  // ragged tiles have a stage of fewer than 6 points have no Stockham tile
  // (they run the in-place tile): 25088
  // = 49 | 2 | 2 | 2 | 2 | 2 | 2 | 2 | 2 | 2 by the first search (in 512
  // threads of up to 50 values, a stage of 4 or more points of its powers
  // of two would hold more), 21875, 21952, 23328, 23625, 23814, 24300,
  // 25600. 20480's first tile (16 | 16 | 16 | 5) is left out, its second
  // (16 | 16 | 10 | 8 in 512 threads) runs.
  const std::vector<int> past = expect_ragged_tiles_where_measured<float>(20001, 28000);
  for (int n : {21875, 21952, 23328, 23625, 23814, 24300, 25088, 25600}) {
    EXPECT_EQ(std::count(past.begin(), past.end(), n), 0) << n;
    EXPECT_GT(kc::ragged_tile<float>(static_cast<std::size_t>(n)).threads, 0) << n;
    EXPECT_TRUE(kc::schedule_shape<float>(n, false).in_place) << n;
  }
  EXPECT_EQ(std::count(past.begin(), past.end(), 20480), 1);
  expect_tile("20480 complex<float>", kc::stockham_shape<float>(20480, false), 512, 48, 128, 1);
  EXPECT_EQ(kc::stage_points(kc::ragged_tile<float>(20480).schedule, kc::ragged_tile<float>(20480).fused, 3), 5);
  // 10206 complex<float> = 27 27 14: 189 threads holding 56 values (the
  // 14s four groups each) at 168 registers, two blocks per SM; 9 9 9 14 was
  // one block of 736 threads in four passes.
  const kc::ScheduleShape f = kc::stockham_shape<float>(10206, false);
  expect_tile("10206 complex<float>", f, 189, 56, 168, 2);
  EXPECT_EQ((std::vector<int>(f.schedule.radices, f.schedule.radices + f.passes)), (std::vector<int>{27, 27, 14}));
  EXPECT_EQ(f.stages, 3);
  // 11520 complex<double> = 48 | 16 | 15: 256 threads of 48 values at 248
  // registers, one tile where it ran four steps; the tile of the second
  // search (the first's, 48 | 48 | 5, has a stage of 5).
  const kc::ScheduleShape d = kc::stockham_shape<double>(11520, false);
  expect_tile("11520 complex<double>", d, 256, 48, 248, 1);
  EXPECT_EQ(d.stages, 3);
  // 8748 complex<float> = 9 6 | 27 | 6: 162 threads holding 54 values at
  // 168 registers, two blocks per SM; its paired tile (4 9 9 9 3) was two
  // blocks of 352 threads in five stages.
  const kc::ScheduleShape two = kc::stockham_shape<float>(8748, false);
  expect_tile("8748 complex<float>", two, 162, 54, 168, 2);
  EXPECT_EQ(two.stages, 3);
  EXPECT_EQ(paired_shape<float>(8748).stages, 5);
  // The second search where the rule leaves the first one's tile out:
  // 14580 complex<float>, five stages of 992 threads in one block, is 9 6 |
  // 9 6 | 5 in 270 threads of 55 values by the first search (a stage of 5)
  // and runs 9 5 | 9 4 | 9 in 503 threads of 45 at 128 registers; the
  // second search's values stay within 30 registers plus 2 per value.
  const kc::UniformTile first = kc::ragged_tile<float>(14580);
  EXPECT_EQ(first.threads, 270);
  EXPECT_EQ(kc::stage_points(first.schedule, first.fused, first.stages - 1), 5);
  const kc::ScheduleShape second = kc::stockham_shape<float>(14580, false);
  expect_tile("14580 complex<float>", second, 503, 45, 128, 1);
  EXPECT_EQ(second.stages, 3);
  EXPECT_TRUE(device_tile<float>(14580).ragged);
  for (int n : {14580, 11760, 7840}) {
    const kc::UniformTile t = kc::ragged_tile<float>(static_cast<std::size_t>(n), kc::RaggedOrder::most_threads);
    EXPECT_EQ(device_tile<float>(n).threads, t.threads) << n;
    EXPECT_LE(t.values * 2 + 30, t.registers) << n;
  }
  // Left out: 15000 complex<float> keeps its uniform tile, and 5880 its
  // two-block tile (either ragged tile saves one stage of four).
  EXPECT_FALSE(device_tile<float>(15000).ragged);
  EXPECT_FALSE(device_tile<float>(5880).ragged);
  EXPECT_EQ(paired_shape<float>(5880).min_blocks, 2);
  EXPECT_EQ(paired_shape<float>(5880).stages, 4);
}

// The lines 4097..20000 whose contiguous tile is ragged, of both types, as
// the rules and the tuning table give them (generated, not listed):
// RaggedTile checks each tile's stages and registers on the host,
// CudaRaggedTile runs each line on a GPU against fftwl.
std::vector<TiledLine> ragged_lines() {
  std::vector<TiledLine> lines;
  for (int n = 4097; n <= 20000; ++n) {
    if (!kc::smooth_exponents(n).smooth) continue;
    if (device_tile<float>(n).ragged) lines.push_back({n, false});
    if (device_tile<double>(n).ragged) lines.push_back({n, true});
  }
  return lines;
}

// The lengths of the generated lines of one type.
std::vector<int> lengths_of(const std::vector<TiledLine>& lines, bool complex128) {
  std::vector<int> lengths;
  for (const TiledLine& line : lines)
    if (line.complex128 == complex128) lengths.push_back(line.length);
  return lengths;
}

// What the generated lists must hold, so that a rule change that drops or
// adds a line shows here instead of silently removing or adding a case
// (host arithmetic, no device needed): how many lines of each type, the
// first and the last, and lines the comments of this file and the tuning
// table name.
void expect_lines(const std::vector<int>& lengths, std::size_t count, int first, int last,
                  const std::vector<int>& members) {
  ASSERT_EQ(lengths.size(), count);
  EXPECT_EQ(lengths.front(), first);
  EXPECT_EQ(lengths.back(), last);
  for (int n : members) EXPECT_EQ(std::count(lengths.begin(), lengths.end(), n), 1) << n;
}

TEST(TiledLines, UniformLinesAreTheMeasuredOnes) {
  const std::vector<TiledLine> lines = uniform_lines();
  // complex64: 16 lines of two blocks (6561..12500) and 25 of one (10976..20000).
  expect_lines(lengths_of(lines, false), 41, 6561, 20000, {7776, 9000, 9216, 10240, 10368, 12288, 12500, 13500, 16384,
                                                           18000, 18225, 19208});
  expect_lines(lengths_of(lines, true), 26, 5292, 12500, {6561, 8000, 8575, 9216, 10000, 10240, 10800, 11250, 12005,
                                                          12288});
  // Not a uniform tile: 15625 and 10206 of either type.
  for (int n : {10206, 15625}) {
    EXPECT_EQ(std::count(lines.begin(), lines.end(), TiledLine{n, false}), 0) << n;
    EXPECT_EQ(std::count(lines.begin(), lines.end(), TiledLine{n, true}), 0) << n;
  }
}

TEST(TiledLines, RaggedLinesAreTheMeasuredOnes) {
  const std::vector<TiledLine> lines = ragged_lines();
  expect_lines(lengths_of(lines, false), 74, 5292, 19845, {6804, 8064, 8748, 8820, 9450, 10206, 10368, 10935, 11520,
                                                           11760, 13608, 14580, 17010, 19683});
  // complex128: the lines that had no tile (they ran four steps).
  EXPECT_EQ(lengths_of(lines, true), (std::vector<int>{9450, 10206, 10290, 10500, 11520, 12000}));
  // Left out by the rule: 15000 and 5880 complex64.
  for (int n : {5880, 15000}) EXPECT_EQ(std::count(lines.begin(), lines.end(), TiledLine{n, false}), 0) << n;
}

class RaggedTile : public ::testing::TestWithParam<TiledLine> {};

TEST_P(RaggedTile, HoldsItsStagesWithinItsRegisters) {
  if (GetParam().complex128) {
    expect_ragged_tile<double>(GetParam().length);
  } else {
    expect_ragged_tile<float>(GetParam().length);
  }
}

INSTANTIATE_TEST_SUITE_P(Lines4097To20000, RaggedTile, ::testing::ValuesIn(ragged_lines()), tiled_line_name);

class CudaRaggedTile : public CudaTiledLine {};

TEST_P(CudaRaggedTile, RunsAgainstFftwLongDouble) {
  SKIP_WITHOUT_CUDA();
  run_tiled_line(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Lines4097To20000, CudaRaggedTile, ::testing::ValuesIn(ragged_lines()), tiled_line_name);

// Tiles that ptxas spills (Tuned::spilled_tile in the tuning table) give way to the next
// choice: a uniform tile to the ragged rule, a first ragged tile to the
// second search, a second one to the paired schedule. Every entry names a
// tile the rules would run without it (host arithmetic: no device needed).
TEST(CudaSchedules, SpilledTilesGiveWay) {
  for (const kc::TuningEntry& spilled : tuned_lines(kc::Tuned::spilled_tile)) {
    ASSERT_EQ(spilled.type, kc::TunedType::complex64) << spilled.length;
    const auto n = static_cast<std::size_t>(spilled.length);
    const kc::ScheduleShape paired = paired_shape<float>(spilled.length);
    kc::UniformTile tile;
    switch (spilled.search) {
      case kc::TileSearch::uniform: tile = kc::uniform_tile<float>(n); break;
      case kc::TileSearch::first_ragged: tile = kc::ragged_tile<float>(n); break;
      case kc::TileSearch::second_ragged: tile = kc::ragged_tile<float>(n, kc::RaggedOrder::most_threads); break;
    }
    EXPECT_GT(tile.threads, 0) << n;
    if (spilled.search != kc::TileSearch::uniform) EXPECT_TRUE(kc::ragged_tile_taken(paired, tile)) << n;
    EXPECT_TRUE(kc::tile_spills<float>(n, spilled.search)) << n;
    EXPECT_FALSE(kc::tile_spills<double>(n, spilled.search)) << n;
  }
  // 8064 = 14 4 | 9 2 | 8 in 150 threads spilled 340 bytes; the second
  // search's tile runs, stages of 32, 28 and 9 points in 311 threads of 32
  // values at 96 registers, two blocks per SM.
  const kc::ScheduleShape second = kc::stockham_shape<float>(8064, false);
  expect_tile("8064 complex<float>", second, 311, 32, 96, 2);
  EXPECT_EQ(second.stages, 3);
  // 5760's second ragged tile (four blocks of 128 threads) spilled 508
  // bytes: it runs its paired schedule.
  EXPECT_FALSE(device_tile<float>(5760).ragged);
  EXPECT_EQ(kc::stockham_shape<float>(5760, false).stages, paired_shape<float>(5760).stages);
  // 10935's uniform tile (15 9 9 9, 243 threads of 45) spilled 172 bytes;
  // the ragged rule takes 27 | 27 | 15 in 405 threads of 30.
  expect_tile("10935 complex<float>", kc::stockham_shape<float>(10935, false), 405, 30, 128, 1);
  EXPECT_TRUE(device_tile<float>(10935).ragged);
  // 10125's uniform tile and the first ragged one, the same 225 threads of
  // 45 values, spilled 112 bytes; the second search's 254 threads run.
  EXPECT_EQ(kc::stockham_shape<float>(10125, false).threads, 254);
  // complex<double> tiles of these lengths are as the rules give them.
  EXPECT_EQ(kc::stockham_shape<double>(10935, false).threads, kc::uniform_tile<double>(10935).threads);
}

// The whole-line tiles of the contiguous lines 4097..30000 of a type
// (contiguous_shape; host arithmetic, no device needed), sorted into the
// lines of the cluster tile, of two in-place blocks and of one:
// - the cluster tile: the tuning table's Tuned::cluster_tile lines, its
//   Tuned::in_place_schedule lines in clusters, and those no Stockham tile
//   holds (they ran four steps) up to max_schedule_points but powers of two
//   and the table's Tuned::four_steps lines; its first stage's radix is one
//   its blocks divide, at least two of its blocks fit an SM, and its radices
//   are in_place_schedule's or the table's in-place schedule's;
// - two in-place blocks of 256 threads: the table's
//   Tuned::two_in_place_blocks lines;
// - one in-place block per line: the lines the table's in-place schedules
//   list so (every line the rule gave one the cluster tile serves).
// A listed line runs the listed block size, else in_place_threads shared
// among the resident blocks.
// Every such schedule is the whole line's plan's; Bluestein's convolution
// keeps the Stockham tile of the settled schedule, and its plan that
// schedule.
struct InPlaceTiles {
  std::vector<int> cluster, two_blocks, one_block;
};

template <class T>
InPlaceTiles expect_in_place_tiles() {
  InPlaceTiles served;
  for (int n = 4097; n <= 30000; ++n) {
    if (!kc::smooth_exponents(n).smooth) continue;
    const auto length = static_cast<std::size_t>(n);
    const kc::DeviceSchedule settled = kc::settled_device_schedule<T>(length);
    const kc::ScheduleShape stockham = kc::shape_of_schedule<T>(n, settled.schedule, false, settled.tile);
    const kc::ListedTile listed = kc::listed_tile<T>(n);
    const bool power_of_two = (n & (n - 1)) == 0;
    const kc::TuningEntry* measured = kc::measured_in_place_schedule<T>(n);
    EXPECT_EQ(measured != nullptr, listed == kc::ListedTile::measured_in_place) << n;
    const bool cluster_expected = !power_of_two && n <= kc::max_schedule_points &&
                                  ((!stockham.valid && listed == kc::ListedTile::none) ||
                                   listed == kc::ListedTile::cluster || (measured && measured->cluster > 1));
    const kc::ScheduleShape g = kc::schedule_shape<T>(n, false);
    EXPECT_EQ(g.cluster > 1, cluster_expected) << n;
    EXPECT_EQ(g.in_place, cluster_expected || listed == kc::ListedTile::two_in_place_blocks || measured) << n;
    if (listed == kc::ListedTile::four_steps) EXPECT_FALSE(g.valid) << n;
    EXPECT_FALSE(kc::schedule_shape<T>(n, true).in_place) << n;
    const kc::ScheduleShape convolution = kc::convolution_shape<T>(n, false);
    EXPECT_FALSE(convolution.in_place) << n;
    EXPECT_EQ(convolution.valid, stockham.valid) << n;
    EXPECT_EQ(convolution.threads, stockham.threads) << n;
    EXPECT_TRUE(kc::same_schedule(kc::convolution_radix_schedule<T>(length), settled.schedule)) << n;
    if (!g.in_place) {
      EXPECT_TRUE(kc::same_schedule(kc::device_radix_schedule<T>(length), settled.schedule)) << n;
      continue;
    }
    (g.cluster > 1                                      ? served.cluster
     : listed == kc::ListedTile::two_in_place_blocks ? served.two_blocks
                                                      : served.one_block)
        .push_back(n);
    EXPECT_TRUE(g.valid) << n;
    EXPECT_EQ(g.lanes, 1) << n;
    EXPECT_EQ(g.threads, measured && measured->threads > 0 ? measured->threads : 512 / g.min_blocks / 32 * 32) << n;
    if (measured && measured->resident > 0) EXPECT_EQ(g.min_blocks, measured->resident) << n;
    EXPECT_EQ(g.shared_bytes, 2 * sizeof(T) * static_cast<std::size_t>(kc::skewed_words(n / g.cluster, g.shift))) << n;
    // At least two blocks' buffers fit an SM's 228 KB, 1 KB of it reserved per block.
    EXPECT_GE(g.min_blocks, 2) << n;
    EXPECT_LE(static_cast<std::size_t>(g.min_blocks) * (g.shared_bytes + 1024), std::size_t{228 * 1024}) << n;
    EXPECT_TRUE(kc::same_schedule(kc::device_radix_schedule<T>(length), g.schedule)) << n;
    // The first stage (the last pass) splits among the cluster's blocks.
    EXPECT_EQ(g.schedule.radices[g.schedule.count - 1] % g.cluster, 0) << n;
    // in_place_schedule's radices, or those the table's in-place schedule lists.
    const kernels::RadixSchedule own = kc::in_place_schedule(length);
    std::vector<int> radices(g.schedule.radices, g.schedule.radices + g.schedule.count);
    std::vector<int> own_radices(own.radices, own.radices + own.count);
    if (measured) {
      own_radices.clear();
      for (int r : measured->radices.radices)
        if (r > 1) own_radices.push_back(r);
      EXPECT_EQ(g.cluster, measured->cluster) << n;
    }
    std::sort(radices.begin(), radices.end());
    std::sort(own_radices.begin(), own_radices.end());
    EXPECT_EQ(radices, own_radices) << n;
    long product = 1;
    for (int r : radices) product *= r;
    EXPECT_EQ(product, n);
  }
  return served;
}

// The radices of a tile in pass order.
std::vector<int> pass_radices(const kc::ScheduleShape& g) {
  return std::vector<int>(g.schedule.radices, g.schedule.radices + g.schedule.count);
}

TEST(CudaSchedules, ClusterTileWhereNoStockhamTileHoldsTheLineOrMeasured) {
  const InPlaceTiles single = expect_in_place_tiles<float>();
  const InPlaceTiles twice = expect_in_place_tiles<double>();
  // The cluster tile: 25 listed complex64 lines and the 29 up to
  // max_schedule_points (29056) no Stockham tile holds; 25 listed
  // complex128 lines (20 Tuned::cluster_tile, 5 with a Stockham tile
  // Tuned::in_place_schedule) and 112 such lines.
  EXPECT_EQ(single.cluster.size(), 54u);
  EXPECT_EQ(twice.cluster.size(), 137u);
  // One in-place block per line: complex64 5625, four per SM of 128
  // threads, and 10206, two per SM of 256.
  EXPECT_EQ(single.one_block, (std::vector<int>{5625, 10206}));
  EXPECT_TRUE(twice.one_block.empty());
  const kc::ScheduleShape one = kc::schedule_shape<float>(5625, false);
  EXPECT_EQ(one.min_blocks, 4);
  EXPECT_EQ(one.register_target, 128);
  EXPECT_EQ(pass_radices(one), (std::vector<int>{25, 15, 15}));
  const kc::ScheduleShape two = kc::schedule_shape<float>(10206, false);
  EXPECT_EQ(two.min_blocks, 2);
  EXPECT_EQ(two.threads, 256);
  EXPECT_EQ(pass_radices(two), (std::vector<int>{27, 27, 14}));
  // 8750 complex<double> in two blocks of 128 threads, three per SM (its
  // Stockham tile holds the line).
  const kc::ScheduleShape listed = kc::schedule_shape<double>(8750, false);
  EXPECT_EQ(listed.cluster, 2);
  EXPECT_EQ(listed.min_blocks, 3);
  EXPECT_EQ(listed.threads, 128);
  EXPECT_EQ(pass_radices(listed), (std::vector<int>{25, 25, 14}));
  EXPECT_TRUE(kc::stockham_shape<double>(8750, false).valid);
  // The listed cluster lines have Stockham tiles, the four-step ones none.
  for (const kc::TuningEntry& line : tuned_lines(kc::Tuned::cluster_tile)) {
    EXPECT_TRUE(line.type == kc::TunedType::complex128 ? kc::stockham_shape<double>(line.length, false).valid
                                : kc::stockham_shape<float>(line.length, false).valid)
        << line.length;
  }
  for (const kc::TuningEntry& line : tuned_lines(kc::Tuned::four_steps)) {
    EXPECT_EQ(line.type, kc::TunedType::complex128);
    EXPECT_FALSE(kc::stockham_shape<double>(line.length, false).valid) << line.length;
    EXPECT_FALSE(kc::schedule_shape<double>(line.length, false).valid) << line.length;
  }
  // Every two-block line of the tuning table is served, in its type only,
  // and no other line.
  EXPECT_EQ(single.two_blocks, tuned_lengths(kc::Tuned::two_in_place_blocks, kc::TunedType::complex64));
  EXPECT_EQ(twice.two_blocks, tuned_lengths(kc::Tuned::two_in_place_blocks, kc::TunedType::complex128));
  // The fewest blocks of which two fit an SM, with a radix they divide:
  // 21952 = 16 14 14 7 in two blocks of 256 threads, 16 first; 19683 = 27
  // 27 27 complex<double> in three of 256 (two per SM); 28125
  // complex<double> in five.
  const kc::ScheduleShape a = kc::schedule_shape<float>(21952, false);
  EXPECT_EQ(a.cluster, 2);
  EXPECT_EQ(a.threads, 256);
  EXPECT_EQ(a.schedule.radices[a.schedule.count - 1], 16);
  const kc::ScheduleShape b = kc::schedule_shape<double>(19683, false);
  EXPECT_EQ(b.cluster, 3);
  EXPECT_EQ(b.min_blocks, 2);
  EXPECT_EQ(b.threads, 256);
  EXPECT_EQ(kc::schedule_shape<double>(28125, false).cluster, 5);
  // 11664 complex<double> as its Tuned::in_place_schedule entry lists it: 16 9 9 9
  // (in pass order 9 9 9 16), not the rule's 16 27 27.
  const kc::ScheduleShape measured = kc::schedule_shape<double>(11664, false);
  EXPECT_EQ(measured.cluster, 2);
  EXPECT_EQ(pass_radices(measured), (std::vector<int>{9, 9, 9, 16}));
  EXPECT_TRUE(kc::same_schedule(kc::device_radix_schedule<double>(11664), measured.schedule));
  // 14400 complex<double> in four blocks as 16 10 10 9 (four steps before).
  const kc::ScheduleShape four = kc::schedule_shape<double>(14400, false);
  EXPECT_EQ(four.cluster, 4);
  EXPECT_EQ(four.min_blocks, 3);
  EXPECT_EQ(pass_radices(four), (std::vector<int>{9, 10, 10, 16}));
  // The largest radix the blocks divide runs first: 23328 = 27 27 8 4 in
  // two blocks runs 8 first (in pass order 4 27 27 8).
  const kc::ScheduleShape e = kc::schedule_shape<float>(23328, false);
  EXPECT_EQ(e.cluster, 2);
  EXPECT_EQ(pass_radices(e), (std::vector<int>{4, 27, 27, 8}));
  // 26244 complex<float> runs its measured 27 27 9 4 in three blocks (the
  // rule's 4 27 27 9 in two) of 128 threads (the rule's 160).
  const kc::ScheduleShape c = kc::schedule_shape<float>(26244, false);
  EXPECT_EQ(c.cluster, 3);
  EXPECT_EQ(c.min_blocks, 3);  // 70 KB each: three per SM
  EXPECT_EQ(c.threads, 128);
  EXPECT_EQ(c.register_target, 168);  // the launch bounds' cap: 65536 / (3 x 128)
  EXPECT_EQ(pass_radices(c), (std::vector<int>{4, 9, 27, 27}));
  // 10976 complex<double> as 14 14 8 7 (in pass order 7 8 14 14).
  const kc::ScheduleShape d = kc::schedule_shape<double>(10976, false);
  EXPECT_EQ(d.cluster, 2);
  EXPECT_EQ(pass_radices(d), (std::vector<int>{7, 8, 14, 14}));
  // Radices up to 16 where they take no more passes (20736's 16 16 9 9 ran
  // faster than 27 16 8 6), 25 and 27 where they save one; in pass order
  // smallest first, the order the decimation runs them reversed.
  auto radices = [](std::size_t n) {
    const kernels::RadixSchedule s = kc::in_place_schedule(n);
    return std::vector<int>(s.radices, s.radices + s.count);
  };
  EXPECT_EQ(radices(25088), (std::vector<int>{7, 14, 16, 16}));
  EXPECT_EQ(radices(20736), (std::vector<int>{9, 9, 16, 16}));
  EXPECT_EQ(radices(21875), (std::vector<int>{5, 7, 25, 25}));
  EXPECT_EQ(radices(11664), (std::vector<int>{16, 27, 27}));
  // A Stockham tile that holds the line keeps it but for the lists, and
  // lines up to 4096 and powers of two never take the in-place tiles.
  EXPECT_FALSE(kc::schedule_shape<float>(16807, false).in_place);  // seven blocks of radix 7: 0.95 -> 0.46x
  EXPECT_FALSE(kc::schedule_shape<float>(4096, false).in_place);
  EXPECT_FALSE(kc::schedule_shape<double>(16384, false).in_place);
  EXPECT_FALSE(kc::schedule_shape<double>(9216, false).in_place);  // measured slower in the cluster
  // Past max_schedule_points nothing changes: four steps.
  EXPECT_EQ(kc::schedule_shape<float>(28672, false).cluster, 4);  // two blocks of 14336 do not fit an SM twice
  EXPECT_FALSE(kc::schedule_shape<float>(29160, false).valid);
  EXPECT_FALSE(kc::schedule_shape<double>(29160, false).valid);
}

// Lines up to 4096 keep their Stockham tiles but the tuning table's
// Tuned::in_place_schedule lines: 2187 complex<float> runs one in-place block
// per line, four per SM of 256 threads (64 registers), 9 9 9 3 in
// decimation order (3 9 9 9 in pass order), which its plan takes; its
// Stockham tile (Bluestein's convolution of M = 2187) keeps 9 9 9 3. Every
// listed line is longer than the strided schedules (up to 1024), so no
// strided tile runs a plan whose passes are another tile's.
TEST(CudaSchedules, ShortLinesKeepStockhamTilesButMeasuredInPlaceLines) {
  for (int n = 2; n <= 4096; ++n) {
    if (!kc::smooth_exponents(n).smooth) continue;
    EXPECT_EQ(kc::schedule_shape<float>(n, false).in_place,
              kc::listed_tile<float>(n) == kc::ListedTile::measured_in_place)
        << n;
    EXPECT_FALSE(kc::schedule_shape<double>(n, false).in_place) << n;
  }
  const kc::ScheduleShape g = kc::schedule_shape<float>(2187, false);
  EXPECT_TRUE(g.valid);
  EXPECT_TRUE(g.in_place);
  EXPECT_EQ(g.cluster, 1);
  EXPECT_EQ(g.min_blocks, 4);
  EXPECT_EQ(g.threads, 256);
  EXPECT_EQ(g.register_target, 64);
  EXPECT_EQ(pass_radices(g), (std::vector<int>{3, 9, 9, 9}));
  EXPECT_TRUE(kc::same_schedule(kc::device_radix_schedule<float>(2187), g.schedule));
  const kc::ScheduleShape convolution = kc::convolution_shape<float>(2187, false);
  EXPECT_TRUE(convolution.valid);
  EXPECT_FALSE(convolution.in_place);
  EXPECT_EQ(pass_radices(convolution), (std::vector<int>{9, 9, 9, 3}));
  EXPECT_FALSE(kc::schedule_shape<float>(2187, true).in_place);
  for (const kc::TuningEntry& m : tuned_lines(kc::Tuned::in_place_schedule)) {
    EXPECT_GT(m.length, 1024);
    const kc::ScheduleShape listed =
        m.type == kc::TunedType::complex128 ? kc::schedule_shape<double>(m.length, false)
                                            : kc::schedule_shape<float>(m.length, false);
    EXPECT_TRUE(listed.valid && listed.in_place) << m.length;
    EXPECT_EQ(listed.cluster, m.cluster) << m.length;
  }
}

TEST(CudaSchedules, RadixTwentySevenWhereTheTilesHoldIt) {
  int joined = 0;
  expect_twenty_seven_where_the_tiles_hold_it<float>(joined);
  expect_twenty_seven_where_the_tiles_hold_it<double>(joined);
  EXPECT_EQ(joined, 13);  // 10 complex64 lengths up to 16384, 3 complex128 (945, 3375, 9261)
  // 3402 = 27 9 14 complex<float>: four blocks of 128 threads holding 28
  // values at 128 registers (9 9 3 14 was four of 160 at 96).
  expect_tile("3402 complex<float>", kc::stockham_shape<float>(3402, false), 128, 28, 128, 4);
  // 2187 = 9 9 9 3 complex<float>: as 27 9 9 seven blocks of 96 threads,
  // ptxas's cap 80 registers for 27 values: it keeps the lone 3.
  EXPECT_EQ(kc::stockham_shape<float>(2187, false).schedule.radices[3], 3);
  // 3375 = 27 5 5 5 complex<double>: two blocks of 192 threads at 144.
  expect_tile("3375 complex<double>", kc::stockham_shape<double>(3375, false), 192, 27, 144, 2);
}

// The Stockham tiles of contiguous lines keep their shared buffers
// unskewed where they hold one line with n % 4 != 0 or several lines of
// odd n, but for the measured exceptions; tiles of several lines of even
// n, those of the other lengths and every strided tile skew them, one
// spare word every 32 (complex<float>) or 16 (complex<double>) words
// (tile_skew_shift; host arithmetic: no device needed).
template <class T>
void expect_skew_by_length(int& unskewed) {
  const int skewed = kc::skewed_shift<T>();
  for (int n = 2; n <= 65536; ++n) {
    if (!kc::smooth_exponents(n).smooth) continue;
    const kc::ScheduleShape c = kc::stockham_shape<T>(n, false);
    if (c.valid && c.uses_shared) {
      const bool plain = (c.lanes == 1 ? n % 4 != 0 : n % 2 != 0) &&
                         !kc::is_tuned<T>(kc::Tuned::skewed_one_line_tile, n);
      EXPECT_EQ(c.shift, plain ? 0 : skewed) << n;
      EXPECT_EQ(c.shared_words, plain ? c.points : c.points + (c.points >> skewed) + 1) << n;
      EXPECT_EQ(c.shared_bytes, 2 * sizeof(T) * static_cast<std::size_t>(c.shared_words)) << n;
      unskewed += plain ? 1 : 0;
    }
    const kc::ScheduleShape z = kc::stockham_shape<T>(n, true);
    if (z.valid) EXPECT_EQ(z.shift, skewed) << n;
  }
}

TEST(CudaSchedules, OddLinesAndOneLineTilesNotDividedByFourAreUnskewed) {
  int unskewed_float = 0, unskewed_double = 0;
  expect_skew_by_length<float>(unskewed_float);
  expect_skew_by_length<double>(unskewed_double);
  EXPECT_EQ(unskewed_float, 128);  // 68 of them up to 4096
  EXPECT_EQ(unskewed_double, 113);  // 78 of them up to 4096
  // 6750 = 9 15 10 5 complex<double> in 480 threads: 108000 bytes, not
  // 114752; 15625 complex<float> as 25 25 25 in 640 threads: 125000, not
  // 128912.
  EXPECT_EQ(kc::stockham_shape<double>(6750, false).shared_bytes, std::size_t{108000});
  EXPECT_EQ(kc::stockham_shape<float>(15625, false).shared_bytes, std::size_t{125000});
  EXPECT_EQ(kc::stockham_shape<float>(18225, false).shift, 5);  // measured slower unskewed
  EXPECT_GT(kc::stockham_shape<float>(1250, false).lanes, 1);  // several lines, even n: skewed
  EXPECT_EQ(kc::stockham_shape<float>(1250, false).shift, 5);
  EXPECT_EQ(kc::stockham_shape<float>(81, false).lanes, 32);  // several lines, odd n: unskewed
  EXPECT_EQ(kc::stockham_shape<float>(81, false).shift, 0);
  EXPECT_GT(kc::stockham_shape<double>(243, false).lanes, 1);
  EXPECT_EQ(kc::stockham_shape<double>(243, false).shift, 0);
  EXPECT_EQ(kc::stockham_shape<float>(4096, false).shift, 5);
  EXPECT_EQ(kc::stockham_shape<double>(6750, true).shift, 4);
}

// A pass loads some of its twiddles and forms the others as products of
// two where its radix is a composite and its table passes 32 KB: in the
// in-place tiles for every composite, in the Stockham tiles for 25 and 27
// (factored_twiddles). 19683 complex<float> runs its measured ragged tile,
// whose last pass is such a pass (host arithmetic: no device needed).
TEST(CudaSchedules, TwiddlesFactoredWhereTablesPassL1) {
  // 19683 = 27 27 27: the pass of span 729 reads 26 x 729 entries (151632
  // bytes), the pass of span 27 reads 702 (5616 bytes).
  EXPECT_TRUE(kc::factored_twiddles<float>(27, 729, false));
  EXPECT_FALSE(kc::factored_twiddles<float>(27, 27, false));
  EXPECT_TRUE(kc::factored_twiddles<float>(25, 625, false));
  // Radices 6 to 15 in the in-place tiles only.
  EXPECT_FALSE(kc::factored_twiddles<float>(14, 729, false));
  EXPECT_TRUE(kc::factored_twiddles<float>(14, 729, true));
  EXPECT_FALSE(kc::factored_twiddles<double>(15, 4096, false));
  // 8 x 512 entries of 8 bytes are 32768 bytes, not past; of 16, past.
  EXPECT_FALSE(kc::factored_twiddles<float>(9, 512, true));
  EXPECT_TRUE(kc::factored_twiddles<double>(9, 512, true));
  // Powers of two and primes are no composites.
  EXPECT_FALSE(kc::factored_twiddles<float>(16, 4096, true));
  EXPECT_FALSE(kc::factored_twiddles<float>(7, 4096, true));

  EXPECT_EQ(kc::measured_ragged_threads<float>(19683), 729);
  EXPECT_EQ(kc::measured_ragged_threads<double>(19683), 0);
  EXPECT_EQ(kc::measured_ragged_threads<float>(19440), 0);
  const kc::ScheduleShape g = kc::schedule_shape<float>(19683, false);
  ASSERT_TRUE(g.valid);
  EXPECT_FALSE(g.in_place);
  EXPECT_EQ(g.threads, 729);
  EXPECT_EQ(g.values, 27);
  EXPECT_EQ(g.min_blocks, 1);
  EXPECT_EQ(g.shift, 0);  // one line, 19683 % 4 != 0: unskewed
  EXPECT_EQ(pass_radices(g), (std::vector<int>{27, 27, 27}));
  EXPECT_TRUE(kc::factored_twiddles<float>(27, g.schedule.span(2), false));
  EXPECT_FALSE(kc::factored_twiddles<float>(27, g.schedule.span(1), false));
}

// complex<float> contiguous lines past the value budget of the other
// tiles take one block per SM of up to 32 values per thread, at ptxas's cap
// where a block size fits it, else with the registers split evenly;
// complex<double> lines and strided tiles of such lengths have none (host
// arithmetic: no device needed).
TEST(CudaSchedules, LongLinesPastTheValueBudgetTakeOneBlock) {
  // 15750 and 19683 run ragged tiles now (RaggedTilesWhereMeasured); these
  // are the tiles of their paired schedules, which the rule weighs.
  expect_tile("15750 complex<float>", paired_shape<float>(15750), 640, 28, 96, 1);
  expect_tile("19683 complex<float>", paired_shape<float>(19683), 736, 27, 88, 1);
  EXPECT_TRUE(kc::schedule_shape<double>(11664, false).in_place);  // no Stockham tile
  EXPECT_FALSE(kc::stockham_shape<float>(19683, true).valid);
}

// Strided complex<double> tiles of powers of two up to 1024 hold at least
// 8 lanes (128 bytes per point), other strided tiles at least 64 bytes:
// odd radices and longer lines keep 4 complex<double> lanes, complex<float>
// keeps 8 (host arithmetic: no device needed).
TEST(CudaSchedules, StridedComplexDoublePowersOfTwoTakeWholeSegments) {
  for (int n = 16; n <= 1024; n *= 2) EXPECT_GE(kc::stockham_shape<double>(n, true).lanes, 8) << n;
  EXPECT_EQ(kc::stockham_shape<double>(2048, true).lanes, 4);
  for (int n : {300, 343, 360}) EXPECT_EQ(kc::stockham_shape<double>(n, true).lanes, 4) << n;
  EXPECT_EQ(kc::stockham_shape<float>(512, true).lanes, 8);
}

TEST(CudaSchedules, SelectionFallsBackWhereNoScheduleServes) {
  SKIP_WITHOUT_CUDA();
  // 1024 contiguous lines, whole tiles: compiled.
  const kernels::LineBatch rows{1024, 1, 64, 1024, 1, 0};
  EXPECT_EQ(kernel_for<float>(1024, rows), TileKernel::ahead_of_time);
  // The plan field forbids compiled schedules.
  EXPECT_EQ(kernel_for<float>(1024, rows, kc::TileKernels::general_only), TileKernel::general);
  // Fewer lines than one tile holds (4096 / 32 = 128 lines of 32 per tile).
  EXPECT_EQ(kernel_for<float>(32, kernels::LineBatch{32, 1, 3, 32, 1, 0}), TileKernel::general);
  // A length past every tile whose four-step split is not compiled (59049 =
  // 243 x 243) takes the general kernel; 16384 complex<float> lines fit one
  // tile of a compiled schedule (not of the general kernel). Bluestein takes
  // one when its M is compiled (1009 -> M = 2048), not otherwise (1031 -> M =
  // 2100 = 2^2 3 5^2 7, not in any set).
  EXPECT_EQ(kernel_for<float>(59049, kernels::LineBatch{59049, 1, 4, 59049, 1, 0}), TileKernel::general);
  EXPECT_EQ(kernel_for<float>(16384, kernels::LineBatch{16384, 1, 4, 16384, 1, 0}), TileKernel::ahead_of_time);
  EXPECT_EQ(kernel_for<float>(1009, kernels::LineBatch{1009, 1, 64, 1009, 1, 0}), TileKernel::ahead_of_time);
  EXPECT_EQ(kernels::choose_line_algorithm(1009, kernels::CompositeRadices::up_to_fifteen).convolution_length, 2048u);
  EXPECT_EQ(kernels::choose_line_algorithm(1031, kernels::CompositeRadices::up_to_fifteen).convolution_length, 2100u);
  EXPECT_EQ(kernel_for<float>(1031, kernels::LineBatch{1031, 1, 64, 1031, 1, 0}), TileKernel::general);
  // Strided lines whose lanes are not contiguous (lane stride 2).
  EXPECT_EQ(kernel_for<float>(64, kernels::LineBatch{64, 4096, 64, 2, 1, 0}), TileKernel::general);
}

}  // namespace
}  // namespace oocfft::test
