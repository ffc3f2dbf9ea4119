// The streaming pipeline on the CUDA backend: every strategy, 1 to 4
// streams, registered and staged host memory, small device budgets, against
// the host backend's in-core result; then volumes of 1 GiB through a 64 MiB
// budget against the GPU's own in-core result. Skips without a CUDA device.
#include <gtest/gtest.h>
#include <tbb/parallel_for.h>

#include <oocfft/oocfft.hpp>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>
#include <sys/resource.h>
#include <unistd.h>

#include "kernels/cuda/device_buffer.hpp"
#include "tests/engine_test_support.hpp"
#include "tests/page_locked_probe.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

constexpr double c_streamed = 6.0;

#define SKIP_WITHOUT_CUDA() \
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device (or a build without the CUDA backend)"

const Strategy all_strategies[] = {Strategy::in_core, Strategy::two_pass, Strategy::three_pass,
                                   Strategy::line_transpose};

template <class T>
void check_small_matrix(Direction direction) {
  for (const Shape& shape : {Shape{40, 48, 64}, Shape{17, 30, 45}, Shape{9, 31, 1}}) {
    const std::size_t n = shape.elements();
    const auto x = to_precision<T>(random_signal(n, 500 + n));
    const auto ref = widen(in_core_result(x, shape, direction));
    for (Strategy strategy : all_strategies) {
      for (unsigned streams = 1; streams <= 4; ++streams) {
        for (HostRegistration reg : {HostRegistration::off, HostRegistration::on, HostRegistration::automatic}) {
          // 3 x the smallest brick plus the kernels' tables (a few KiB).
          const EngineCase c{.shape = shape,
                             .strategy = strategy,
                             .streams = streams,
                             .multiple = 3,
                             .backend = Backend::cuda,
                             .registration = reg,
                             .device_margin = 1 << 20};
          const auto [y, report, plan] = run_case(c, x, direction);
          EXPECT_LE(relative_l2(y, ref), tolerance<T>(c_streamed, n)) << c.name() << "\n" << plan;
          EXPECT_EQ(report.strategy, strategy);
          // `on` DMAs every brick of a natural layout straight from the
          // array; automatic as many as are locked in time; off none.
          const bool natural = strategy != Strategy::line_transpose;
          if (reg == HostRegistration::on) EXPECT_EQ(report.direct_bricks, natural ? report.bricks : 0);
          if (reg == HostRegistration::off || !natural) EXPECT_EQ(report.direct_bricks, 0u);
          EXPECT_LE(report.direct_bricks, report.bricks);
          EXPECT_EQ(report.registered, report.direct_bricks > 0);
          EXPECT_FALSE(page_locked(y.data())) << "the array was left page-locked";
        }
      }
    }
  }
}

TEST(EngineCuda, EveryStrategyMatchesHostInCoreSingle) {
  SKIP_WITHOUT_CUDA();
  check_small_matrix<float>(Direction::forward);
  check_small_matrix<float>(Direction::inverse);
}

TEST(EngineCuda, EveryStrategyMatchesHostInCoreDouble) {
  SKIP_WITHOUT_CUDA();
  check_small_matrix<double>(Direction::forward);
}

// Deterministic values in [-0.5, 0.5) from the index, filled in parallel,
// so gigabyte inputs cost no random-number time and need no stored copy.
template <class T>
void fill_hashed(std::vector<std::complex<T>>& v, std::uint64_t seed) {
  tbb::parallel_for(std::size_t{0}, v.size(), [&](std::size_t i) {
    std::uint64_t h = (i + seed) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    v[i] = {static_cast<T>(static_cast<float>(h & 0xFFFFFF) / 16777216.0f - 0.5f),
            static_cast<T>(static_cast<float>((h >> 24) & 0xFFFFFF) / 16777216.0f - 0.5f)};
  });
}

std::vector<std::complex<float>> hashed_volume(const Shape& shape, std::uint64_t seed) {
  std::vector<std::complex<float>> v(shape.elements());
  fill_hashed(v, seed);
  return v;
}

// 1 GiB of complex<float> through a 64 MiB device budget: the out-of-core
// strategies, staged and registered, against the GPU in-core transform.
TEST(EngineCuda, GigabyteVolumeThroughSixtyFourMebibytes) {
  SKIP_WITHOUT_CUDA();
  const Shape shape{256, 512, 1024};
  const std::size_t n = shape.elements();
  const std::vector<std::complex<float>> x = hashed_volume(shape, 17);
  std::vector<std::complex<float>> ref = x;
  Options in_core;
  in_core.backend = Backend::cuda;
  RunReport report;
  Plan(shape, Precision::single, in_core).execute(ref.data(), Direction::forward, &report);
  ASSERT_EQ(report.strategy, Strategy::in_core);
  struct Case {
    Strategy strategy;
    HostRegistration reg;
  };
  // 1 GiB is four chunks of page-locking (256 MiB each); the vector's
  // data does not start on a page, so chunk boundaries cut rows.
  const Case cases[] = {{Strategy::automatic, HostRegistration::off},   {Strategy::automatic, HostRegistration::automatic},
                        {Strategy::two_pass, HostRegistration::on},     {Strategy::three_pass, HostRegistration::off},
                        {Strategy::three_pass, HostRegistration::on},   {Strategy::line_transpose, HostRegistration::off}};
  std::vector<std::complex<float>> y(n);
  for (const Case& c : cases) {
    Options o;
    o.backend = Backend::cuda;
    o.strategy = c.strategy;
    o.register_host_memory = c.reg;
    o.device_memory_budget = std::size_t{64} << 20;
    y = x;
    Plan plan(shape, Precision::single, o);
    plan.execute(y.data(), Direction::forward, &report);
    const double err = relative_l2(y, ref);
    std::printf("[ EngineCuda ] 1 GiB %s register %s: %.3f s, %zu bricks (%zu direct), error %.2e vs in-core\n",
                to_string(report.strategy), to_string(c.reg), report.seconds, report.bricks, report.direct_bricks, err);
    if (c.reg == HostRegistration::on) EXPECT_EQ(report.direct_bricks, report.bricks);
    EXPECT_FALSE(page_locked(y.data()));
    EXPECT_LE(err, tolerance<float>(c_streamed, n)) << plan.describe();
    EXPECT_LE(report.device_bytes, o.device_memory_budget);
    if (c.strategy == Strategy::automatic) EXPECT_EQ(report.strategy, Strategy::two_pass);
  }
  // And back: the round trip returns the input.
  Options o;
  o.backend = Backend::cuda;
  o.device_memory_budget = std::size_t{64} << 20;
  Plan(shape, Precision::single, o).execute(y.data(), Direction::inverse);
  y = ref;
  Plan(shape, Precision::single, o).execute(y.data(), Direction::inverse);
  EXPECT_LE(relative_l2(y, x), tolerance<float>(2 * c_streamed, n));
}

// A plan whose lengths no kernel set compiles ahead of time (143 = 11 x 13)
// compiles them at plan time and caches them in the options' directory;
// its two passes share them (y lines in pass 1 and z lines in pass 2 are
// the same strided schedule). Against fftwl.
TEST(EngineCuda, PlanTimeKernelsCacheInTheOptionsDirectory) {
  SKIP_WITHOUT_CUDA();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("oocfft_engine_kernels_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const Shape shape{143, 143, 143};
  const std::size_t n = shape.elements();
  const std::vector<LongComplex> x = random_signal(n, 143);
  const std::vector<LongComplex> ref = fftwl_dft(x, {143, 143, 143}, -1);
  Options o;
  o.backend = Backend::cuda;
  o.kernel_cache_directory = dir / "kernels";
  std::vector<std::complex<float>> y = to_precision<float>(x);
  {
    Plan plan(shape, Precision::single, o);
    const std::string d = plan.describe();
    EXPECT_NE(d.find((dir / "kernels").string()), std::string::npos) << d;
    // Both passes report the one shared object: two schedules compiled,
    // none loaded back from the disk by the second pass.
    const std::string shared = "2 compiled, 0 from the cache";
    const std::size_t first = d.find(shared);
    ASSERT_NE(first, std::string::npos) << d;
    EXPECT_NE(d.find(shared, first + 1), std::string::npos) << d;
    plan.execute(y.data(), Direction::forward);
  }
  EXPECT_LE(relative_l2(y, ref), tolerance<float>(c_streamed, n));
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir / "kernels")) ++entries;
  EXPECT_GE(entries, 2u) << "the contiguous and the strided schedule of 143";
  std::filesystem::remove_all(dir);
}

// An array the caller page-locked is used as it is: every brick DMAs
// straight from it, no staging is held, and it stays locked afterwards.
TEST(EngineCuda, CallerLockedArrayNeedsNoStaging) {
  SKIP_WITHOUT_CUDA();
  const Shape shape{64, 128, 256};
  const std::size_t n = shape.elements();
  const std::vector<std::complex<float>> x = hashed_volume(shape, 23);
  const auto ref = in_core_result(x, shape, Direction::forward);
  auto y = x;
  ASSERT_EQ(cudaHostRegister(y.data(), n * sizeof(y[0]), cudaHostRegisterDefault), cudaSuccess);
  Options o;
  o.backend = Backend::cuda;
  o.device_memory_budget = std::size_t{4} << 20;
  RunReport report;
  Plan(shape, Precision::single, o).execute(y.data(), Direction::forward, &report);
  EXPECT_TRUE(page_locked(y.data()));
  ASSERT_EQ(cudaHostUnregister(y.data()), cudaSuccess);
  EXPECT_EQ(report.strategy, Strategy::two_pass);
  EXPECT_EQ(report.direct_bricks, report.bricks);
  EXPECT_EQ(report.staging_bytes, 0u);
  EXPECT_LE(relative_l2(y, ref), tolerance<float>(c_streamed, n));
}

// Cancelling while the array is being page-locked chunk by chunk stops the
// run with Error(cancelled) and leaves no part of the array locked.
TEST(EngineCuda, CancelWhileLockingUnlocksTheArray) {
  SKIP_WITHOUT_CUDA();
  const Shape shape{128, 512, 1024};  // 512 MiB: two chunks of locking
  std::vector<std::complex<float>> x = hashed_volume(shape, 29);  // transformed in place
  Options o;
  o.backend = Backend::cuda;
  o.register_host_memory = HostRegistration::on;
  o.device_memory_budget = std::size_t{64} << 20;
  std::atomic<std::size_t> bricks{0};
  o.progress = [&](const Progress& p) { bricks = p.bricks_done; };
  o.cancel = [&] { return bricks >= 3; };
  try {
    Plan(shape, Precision::single, o).execute(x.data(), Direction::forward);
    ADD_FAILURE() << "not cancelled";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::cancelled) << e.what();
  }
  for (std::size_t at = 0; at < x.size(); at += x.size() / 8) EXPECT_FALSE(page_locked(x.data() + at)) << at;
  EXPECT_FALSE(page_locked(x.data() + x.size() - 1));
}

// A budget the device cannot honour (the memory is taken by someone else)
// must not crash: the allocation fails, the bricks shrink, and the result
// is still right.
TEST(EngineCuda, DeviceOutOfMemoryShrinksBricks) {
  SKIP_WITHOUT_CUDA();
  const Shape shape{64, 256, 256};  // 32 MiB
  const std::size_t n = shape.elements();
  const std::vector<std::complex<float>> x = hashed_volume(shape, 3);
  const auto ref = in_core_result(x, shape, Direction::forward);
  Options o;
  o.backend = Backend::cuda;
  o.strategy = Strategy::two_pass;
  o.streams = 2;
  o.device_memory_budget = std::size_t{1} << 30;  // bricks of 8 MiB (two per stream and pass) + workspace
  Plan plan(shape, Precision::single, o);
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  // Leave 20 MiB: less than 2 streams x (8 MiB brick + 8 MiB workspace).
  kernels::cuda::DeviceBuffer hog(free_bytes - (std::size_t{20} << 20), "test hog");
  auto y = x;
  RunReport report;
  plan.execute(y.data(), Direction::forward, &report);
  EXPECT_LE(relative_l2(y, ref), tolerance<float>(c_streamed, n));
  EXPECT_LT(report.device_bytes, std::size_t{20} << 20);
}

// Carry-over on the device: two-pass plans whose budgets keep none, part
// and all of the volume on the device between the passes, staged and
// DMA'd straight from the array, over 1 to 4 streams. The output is
// poisoned where the input was (transforms are in place): any element
// pass 2 failed to bring back, from the device or the volume, shows as an
// error against the host's in-core result.
TEST(EngineCuda, CarryOverKeepsPlanesOnTheDevice) {
  SKIP_WITHOUT_CUDA();
  const Shape shape{40, 96, 128};  // planes of 96 KiB, more than the slack for the tables below
  const std::size_t n = shape.elements(), e = 8, volume = n * e;
  const auto x = to_precision<float>(random_signal(n, 77));
  const auto ref = widen(in_core_result(x, shape, Direction::forward));
  bool none = false, part = false, all = false;
  for (unsigned streams = 1; streams <= 4; ++streams) {
    for (std::size_t multiple : {1, 3, 12, 40}) {
      for (HostRegistration reg : {HostRegistration::off, HostRegistration::on}) {
        Options o;
        o.backend = Backend::cuda;
        o.strategy = Strategy::two_pass;
        o.streams = streams;
        o.register_host_memory = reg;
        o.device_memory_budget = budget_for(Strategy::two_pass, shape, e, streams, multiple) + (64 << 10);
        Plan plan(shape, Precision::single, o);
        auto y = x;
        RunReport report;
        plan.execute(y.data(), Direction::forward, &report);
        const std::string where = "streams " + std::to_string(streams) + " x" + std::to_string(multiple) +
                                  " register " + to_string(reg) + "\n" + plan.describe();
        EXPECT_LE(relative_l2(y, ref), tolerance<float>(c_streamed, n)) << where;
        EXPECT_EQ(report.bytes_moved, 4 * volume - 2 * report.resident_bytes) << where;
        EXPECT_LE(report.device_bytes, o.device_memory_budget) << where;
        if (reg == HostRegistration::on) EXPECT_EQ(report.direct_bricks, report.bricks) << where;
        if (reg == HostRegistration::off) EXPECT_EQ(report.direct_bricks, 0u) << where;
        EXPECT_FALSE(page_locked(y.data()));
        none |= report.resident_bytes == 0;
        part |= report.resident_bytes > 0 && report.resident_bytes < volume;
        all |= report.resident_bytes == volume;
      }
    }
  }
  EXPECT_TRUE(none && part && all) << none << part << all;
}

// The resident in-core plan: two passes over a volume kept on the device,
// progress after every brick, cancel polled before every brick, and a
// cancel before the first brick leaves the array as it was.
TEST(EngineCuda, ResidentInCoreReportsAndCancels) {
  SKIP_WITHOUT_CUDA();
  const Shape shape{64, 128, 96};
  const std::size_t n = shape.elements();
  const auto x = to_precision<float>(random_signal(n, 81));
  const auto ref = widen(in_core_result(x, shape, Direction::inverse));
  Options o;
  o.backend = Backend::cuda;
  std::size_t progress_calls = 0, total = 0;
  o.progress = [&](const Progress& p) {
    ++progress_calls;
    total = p.bricks_total;
  };
  auto y = x;
  RunReport report;
  Plan plan(shape, Precision::single, o);
  plan.execute(y.data(), Direction::inverse, &report);
  EXPECT_EQ(report.strategy, Strategy::in_core);
  EXPECT_EQ(report.passes, 2u);
  EXPECT_EQ(report.resident_bytes, n * 8);
  EXPECT_EQ(report.bytes_moved, 2 * n * 8);
  EXPECT_EQ(progress_calls, report.bricks);
  EXPECT_EQ(total, report.bricks);
  EXPECT_LE(relative_l2(y, ref), tolerance<float>(c_streamed, n)) << plan.describe();

  for (HostRegistration reg : {HostRegistration::off, HostRegistration::on}) {
    o.register_host_memory = reg;
    o.progress = nullptr;
    o.cancel = [] { return true; };
    y = x;
    try {
      Plan(shape, Precision::single, o).execute(y.data(), Direction::forward);
      ADD_FAILURE() << "not cancelled";
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::cancelled) << error.what();
    }
    EXPECT_EQ(y, x) << "a cancel before the first brick changed the array";
    EXPECT_FALSE(page_locked(y.data()));
  }
  // An error in the middle of a run (a progress callback that throws)
  // reaches the caller as thrown and leaves nothing page-locked.
  o.register_host_memory = HostRegistration::on;
  o.cancel = nullptr;
  o.progress = [](const Progress& p) {
    if (p.bricks_done == 3) throw std::runtime_error("progress failed");
  };
  y = x;
  EXPECT_THROW(Plan(shape, Precision::single, o).execute(y.data(), Direction::forward), std::runtime_error);
  EXPECT_FALSE(page_locked(y.data()));
  EXPECT_FALSE(page_locked(y.data() + n - 1));
}

// HostArray on the GPU machine: page-locked, every brick DMA'd straight
// from it with no staging, in the resident plan and in a streamed one.
TEST(EngineCuda, HostArrayNeedsNoStaging) {
  SKIP_WITHOUT_CUDA();
  const Shape shape{64, 128, 96};
  const std::size_t n = shape.elements();
  const auto x = to_precision<float>(random_signal(n, 91));
  const auto ref = widen(in_core_result(x, shape, Direction::forward));
  for (std::size_t budget : {std::size_t{0}, std::size_t{2} << 20}) {
    HostArray<std::complex<float>> a(shape);
    ASSERT_TRUE(a.page_locked()) << a.lock_failure();
    EXPECT_TRUE(page_locked(a.data()));
    EXPECT_TRUE(page_locked(a.data() + n - 1));
    std::copy(x.begin(), x.end(), a.begin());
    Options o;
    o.backend = Backend::cuda;
    o.device_memory_budget = budget;
    RunReport report;
    Plan(shape, Precision::single, o).execute(a.data(), Direction::forward, &report);
    EXPECT_EQ(report.direct_bricks, report.bricks);
    EXPECT_EQ(report.staging_bytes, 0u);
    EXPECT_EQ(report.strategy, budget == 0 ? Strategy::in_core : Strategy::two_pass);
    const std::vector<std::complex<float>> y(a.begin(), a.end());
    EXPECT_LE(relative_l2(y, ref), tolerance<float>(c_streamed, n));
  }
}

// Plan::pin locks a malloc'd array once for many executions and unlocks it
// when the handle goes; a second pin of the same memory locks nothing.
TEST(EngineCuda, PlanPinLocksUntilTheHandleGoes) {
  SKIP_WITHOUT_CUDA();
  const Shape shape{32, 64, 48};
  const std::size_t n = shape.elements();
  const auto x = to_precision<float>(random_signal(n, 93));
  const auto ref = widen(in_core_result(x, shape, Direction::forward));
  Options o;
  o.backend = Backend::cuda;
  const Plan plan(shape, Precision::single, o);
  auto y = x;
  {
    const PinnedMemory pinned = plan.pin(y.data(), n * sizeof(y[0]));
    ASSERT_TRUE(pinned.locked()) << pinned.reason();
    EXPECT_TRUE(page_locked(y.data()));
    const PinnedMemory again = plan.pin(y.data(), n * sizeof(y[0]));
    EXPECT_FALSE(again.locked());
    EXPECT_NE(again.reason().find("already"), std::string::npos) << again.reason();
    for (int run = 0; run < 2; ++run) {
      y = x;  // same storage: the vector keeps its buffer
      RunReport report;
      plan.execute(y.data(), Direction::forward, &report);
      EXPECT_EQ(report.direct_bricks, report.bricks);
      EXPECT_EQ(report.staging_bytes, 0u);
      EXPECT_LE(relative_l2(y, ref), tolerance<float>(c_streamed, n));
    }
  }
  EXPECT_FALSE(page_locked(y.data())) << "the handle left the array page-locked";
}

// Under RLIMIT_MEMLOCK a HostArray that cannot be locked is plain memory
// that still transforms right, and says why.
TEST(EngineCuda, HostArrayUnderMemlockLimit) {
  SKIP_WITHOUT_CUDA();
  rlimit saved{};
  ASSERT_EQ(getrlimit(RLIMIT_MEMLOCK, &saved), 0);
  rlimit tight = saved;
  tight.rlim_cur = 64 << 10;
  ASSERT_EQ(setrlimit(RLIMIT_MEMLOCK, &tight), 0);
  const Shape shape{32, 64, 64};  // 1 MiB of complex<float>, in one 2 MiB page
  HostArray<std::complex<float>> a(shape);
  ASSERT_EQ(setrlimit(RLIMIT_MEMLOCK, &saved), 0);
  if (a.page_locked())
    GTEST_SKIP() << "this driver page-locks beyond RLIMIT_MEMLOCK (running as root, or limits not enforced)";
  EXPECT_FALSE(a.lock_failure().empty());
  EXPECT_FALSE(page_locked(a.data()));
  const std::size_t n = shape.elements();
  const auto x = to_precision<float>(random_signal(n, 95));
  std::copy(x.begin(), x.end(), a.begin());
  Options o;
  o.backend = Backend::cuda;
  RunReport report;
  Plan(shape, Precision::single, o).execute(a.data(), Direction::forward, &report);
  EXPECT_EQ(report.direct_bricks, 0u);
  const std::vector<std::complex<float>> y(a.begin(), a.end());
  EXPECT_LE(relative_l2(y, widen(in_core_result(x, shape, Direction::forward))), tolerance<float>(c_streamed, n));
}

TEST(EngineCuda, InCoreRequestOverBudgetIsRefused) {
  SKIP_WITHOUT_CUDA();
  Options o;
  o.backend = Backend::cuda;
  o.strategy = Strategy::in_core;
  o.device_memory_budget = std::size_t{4} << 20;
  const Shape shape{64, 128, 96};  // 6 MiB > 4 MiB (the kernels of these lengths need no workspace)
  std::vector<std::complex<float>> x(shape.elements(), {1.0f, 2.0f});
  const auto before = x;
  try {
    fft3d(x.data(), shape, Direction::forward, o);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument) << e.what();
  }
  EXPECT_EQ(x, before);
}

}  // namespace
}  // namespace oocfft::test
