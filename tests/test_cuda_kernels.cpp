// The in-house CUDA kernels against long-double references (FFTW's fftwl)
// and the host executor: every length 1..4096, primes up to 65537 (Bluestein
// in one tile and in four steps), smooth lengths up to 2^24 (four-step),
// 3D shapes with odd, prime and degenerate axes (strided-axis kernels, also
// four-step and Bluestein along y and z), both precisions, both directions,
// the norm modes, powers of two in whole tiles (compiled schedules),
// and the public in-core path. Relative L2 error must stay
// under C * eps * sqrt(log2 N): C = 4 for Stockham (the host executor's
// constant), 6 where the four-step twiddle (a product of two table entries)
// adds a rounding, 12 for Bluestein. Workspaces and outputs are poisoned with
// NaN before every run. Skipped, with the reason, where no GPU is present.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <tbb/parallel_for_each.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "kernels/cuda/cubin_cache.hpp"
#include "kernels/cuda/device_limits.hpp"
#include "kernels/cuda/device_line_plan.hpp"
#include "kernels/cuda/plan_time_schedules.hpp"
#include "kernels/direct_prime.hpp"
#include "tests/cuda_test_support.hpp"

namespace oocfft::test {
namespace {

// Batches of 1-3 lines, partial tiles too.
std::size_t every_length_lines(std::size_t n) { return 1 + n % 3; }

// The plan-time schedules that the batches of every length 2..longest
// need, compiled on all host cores at once: the several hundred that the
// pow2 set lacks take about 0.3 s each (NVRTC and ptxas, one core), and
// with each plan compiling its own in turn the test ran past 340 s on the
// H100 machine.
template <class T>
std::shared_ptr<kc::PlanTimeSchedules> schedules_for_every_length(std::size_t longest) {
  const auto start = std::chrono::steady_clock::now();
  const kc::DeviceLimits limits = kc::DeviceLimits::current();
  std::vector<kc::ScheduleKey> keys;
  for (std::size_t n = 2; n <= longest; ++n) {
    const kc::DeviceLinePlan<T> line(n, limits, kc::TileKernels::compiled_where_available);
    // The x lines of check_lines' [1][lines][n] brick.
    const Shape brick{1, every_length_lines(n), n};
    for (const kc::ScheduleKey& key : line.plan_time_keys(kc::x_lines(brick))) keys.push_back(key);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  auto schedules = std::make_shared<kc::PlanTimeSchedules>(kc::CubinCache::memory_only());
  tbb::parallel_for_each(keys.begin(), keys.end(), [&](const kc::ScheduleKey& key) { schedules->prepare(key); });
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  std::printf("[ info ] plan-time schedules (%zu-bit), %zu keys in %.1f s: %s\n", sizeof(T) * 8, keys.size(),
              took.count(), schedules->summary().c_str());
  return schedules;
}

TEST(CudaKernels, EveryLengthUpTo4096) {
  SKIP_WITHOUT_CUDA();
  double worst_f = 0, worst_d = 0;
  DeviceRunner<float> single;
  DeviceRunner<double> twice;
  const auto single_schedules = schedules_for_every_length<float>(4096);
  const auto twice_schedules = schedules_for_every_length<double>(4096);
  for (std::size_t n = 1; n <= 4096; ++n) {
    const std::size_t lines = every_length_lines(n);
    check_lines(single, n, lines, 7000 + n, &worst_f, single_schedules);
    check_lines(twice, n, lines, 7000 + n, &worst_d, twice_schedules);
  }
  std::printf("[ info ] worst error / tolerance: float %.3f, double %.3f\n", worst_f, worst_d);
}

TEST(CudaKernels, PrimesUpTo65537) {
  SKIP_WITHOUT_CUDA();
  // One tile (M <= 8192 or so) and four-step Bluestein (M larger).
  DeviceRunner<float> single;
  DeviceRunner<double> twice;
  for (std::size_t n : {4099, 8191, 10007, 32749, 65537, 2 * 257 * 64}) {
    check_lines(single, n, 2, n);
    check_lines(twice, n, 2, n);
  }
}

TEST(CudaKernels, SmoothLengthsUpTo2To24) {
  SKIP_WITHOUT_CUDA();
  for (std::size_t n : {std::size_t{1} << 13, std::size_t{1} << 14, std::size_t{1} << 16, std::size_t{1} << 20,
                        std::size_t{19683}, std::size_t{78125}, std::size_t{823543}, std::size_t{1679616},
                        std::size_t{11 * 13 * 4096}, std::size_t{1} << 24}) {
    const std::size_t lines = n <= (1u << 16) ? 3 : 1;
    DeviceRunner<float> single;
    DeviceRunner<double> twice;
    check_lines(single, n, lines, n);
    check_lines(twice, n, lines, n);
  }
}

// 3D shapes against fftwl's 3D transform, all norm modes.
template <class T>
void check_volume(Shape s, Norm norm, std::uint64_t seed) {
  const std::size_t total = s.elements();
  const auto x = random_signal(total, seed);
  const std::vector<int> dims = {static_cast<int>(s.nz), static_cast<int>(s.ny), static_cast<int>(s.nx)};
  const auto fwd = fftwl_dft(x, dims, FFTW_FORWARD);
  const auto inv = fftwl_dft(x, dims, FFTW_BACKWARD);
  const long double nn = static_cast<long double>(total);
  const long double f_scale = norm == Norm::forward ? 1.0L / nn : norm == Norm::ortho ? 1.0L / std::sqrt(nn) : 1.0L;
  const long double i_scale = norm == Norm::backward ? 1.0L / nn : norm == Norm::ortho ? 1.0L / std::sqrt(nn) : 1.0L;
  // Bluestein on any axis sets the constant.
  double c = c_stockham;
  for (std::size_t n : {s.nz, s.ny, s.nx}) c = std::max(c, c_for_line(n));
  const double tol = tolerance<T>(c, total);
  const auto in = to_precision<T>(x);
  DeviceRunner<T> runner;
  const kc::DeviceBrickPlan<T> plan(s, AxisSet::all());
  const auto yf = runner.run(plan, in, s, false, static_cast<T>(f_scale));
  const auto yi = runner.run(plan, in, s, true, static_cast<T>(i_scale));
  const std::string what = std::to_string(s.nz) + "x" + std::to_string(s.ny) + "x" + std::to_string(s.nx) +
                           " norm " + to_string(norm) + " (" + std::to_string(sizeof(T) * 8) + "-bit)";
  EXPECT_LE(relative_l2(yf, fwd, f_scale), tol) << "forward " << what;
  EXPECT_LE(relative_l2(yi, inv, i_scale), tol) << "inverse " << what;
}

const Shape volume_shapes[] = {
    {16, 16, 16}, {5, 7, 11},   {17, 19, 23}, {64, 48, 40}, {3, 1, 200}, {1, 1, 1},
    {8, 1, 9},    {100, 3, 1},  {1, 37, 1},   {30, 32, 34}, {7, 128, 3}, {61, 2, 2},
};

TEST(CudaKernels, VolumesAgainstFftwLongDouble) {
  SKIP_WITHOUT_CUDA();
  std::uint64_t seed = 1;
  for (const Shape& s : volume_shapes) {
    for (Norm norm : {Norm::backward, Norm::ortho, Norm::forward}) {
      check_volume<float>(s, norm, ++seed);
      check_volume<double>(s, norm, seed);
    }
  }
}

// Powers of two in batches of several whole tiles plus a partial one, as
// contiguous lines and as strided y and z axes of volumes: the cases the
// compiled schedules serve (choose_tile_kernel takes one only for a batch of
// at least one whole tile: up to 128 lines of 32, or 256 strided lanes of
// 16, which the batches of 1-3 lines above mostly do not). Every compiled
// length is checked in test_cuda_schedules.cpp.
TEST(CudaKernels, PowersOfTwoInWholeTiles) {
  SKIP_WITHOUT_CUDA();
  double worst_f = 0, worst_d = 0;
  DeviceRunner<float> single;
  DeviceRunner<double> twice;
  for (std::size_t n = 16; n <= 4096; n *= 2) {
    const std::size_t lines = 2 * std::max<std::size_t>(1, 4096 / n) + 3;
    check_lines(single, n, lines, 9000 + n, &worst_f);
    check_lines(twice, n, lines, 9100 + n, &worst_d);
  }
  std::printf("[ info ] worst error / tolerance: float %.3f, double %.3f\n", worst_f, worst_d);
  // {nz, ny, nx}: z lines of 256, 1024 and 16 (lanes: the xy plane), y lines
  // of 512, 64 and 128 (lanes: x, groups: z), all three axes at 64.
  std::uint64_t seed = 500;
  for (const Shape& s : {Shape{256, 3, 40}, Shape{6, 512, 20}, Shape{1024, 2, 9},
                              Shape{16, 64, 300}, Shape{32, 128, 40}, Shape{64, 64, 64}}) {
    check_volume<float>(s, Norm::backward, ++seed);
    check_volume<double>(s, Norm::ortho, seed);
  }
}

// Direct prime passes (direct_prime.hpp) in the general kernel, in registers
// (in_register_prime) or from shared memory: every prime
// 17..largest_direct_prime as batches of whole tiles and a partial one;
// lengths where a direct pass precedes other passes, or follows one and is
// twiddled (17 19 9 in registers; 29 31 and 17 89, from memory in
// complex<double>); lines past one tile (four steps with a prime factor);
// and strided y and z axes of volumes (points major in the tile).
TEST(CudaKernels, DirectPrimePassesAgainstFftwLongDouble) {
  SKIP_WITHOUT_CUDA();
  DeviceRunner<float> single;
  DeviceRunner<double> twice;
  std::size_t primes = 0;
  for (int p = 17; p <= kernels::largest_direct_prime; p += 2) {
    if (!kernels::is_direct_prime(p)) continue;
    const std::size_t n = static_cast<std::size_t>(p);
    ASSERT_EQ(kernels::choose_line_algorithm(n, kernels::CompositeRadices::up_to_fifteen).radices, std::vector<int>{p})
        << "n=" << n;
    const std::size_t lines = 2 * (4096 / n) + 3;
    const kernels::LineBatch batch{n, 1, lines, static_cast<std::ptrdiff_t>(n), 1, 0};
    const kc::DeviceLinePlan<float> plan(n, kc::DeviceLimits::current(), kc::TileKernels::compiled_where_available);
    ASSERT_EQ(plan.kernel(), kc::LineKernel::shared_memory) << "n=" << n;
    ASSERT_EQ(plan.tile_kernel(batch), kc::TileKernel::general) << "n=" << n;
    check_lines(single, n, lines, 300 + n);
    check_lines(twice, n, lines, 300 + n);
    ++primes;
  }
  EXPECT_EQ(primes, 18u);  // 17, 19, ..., 89
  for (std::size_t n : {std::size_t{34}, std::size_t{17 * 19 * 9}, std::size_t{29 * 31}, std::size_t{17 * 89},
                        std::size_t{89 * 64}, std::size_t{17 * 2048}}) {
    const kernels::LineFactorization f = kernels::choose_line_algorithm(n, kernels::CompositeRadices::up_to_fifteen);
    ASSERT_EQ(f.algorithm, kernels::LineAlgorithm::stockham) << "n=" << n;
    ASSERT_TRUE(kernels::is_direct_prime(f.radices.front())) << "n=" << n;
    check_lines(single, n, 3, n);
    check_lines(twice, n, 3, n);
  }
  std::uint64_t seed = 700;
  for (const Shape& s : {Shape{83, 3, 40}, Shape{6, 89, 20}, Shape{23, 29, 31}}) {
    check_volume<float>(s, Norm::backward, ++seed);
    check_volume<double>(s, Norm::ortho, seed);
  }
}

TEST(CudaKernels, StridedAxesLongerThanSharedMemory) {
  SKIP_WITHOUT_CUDA();
  // z and y lines past one tile: four-step with strided lanes; a prime z
  // axis: Bluestein in four steps over strided lines.
  for (const Shape& s : {Shape{9000, 2, 3}, Shape{2, 20000, 2}, Shape{10007, 1, 3}}) {
    check_volume<float>(s, Norm::backward, s.elements());
    check_volume<double>(s, Norm::backward, s.elements());
  }
}

TEST(CudaKernels, PartialAxesAndSmallerBricks) {
  SKIP_WITHOUT_CUDA();
  // A plan for [8][12][10] along z only, run on a brick with fewer x and y:
  // the engine's last brick of a pass.
  const Shape max_shape{8, 12, 10}, brick{8, 5, 7};
  const auto x = random_signal(brick.elements(), 99);
  const auto in = to_precision<double>(x);
  const kc::DeviceBrickPlan<double> plan(max_shape, AxisSet::only_z());
  const kc::Stream stream;
  const kc::DeviceBuffer data(in.size() * sizeof(in[0]), "test volume");
  const kc::DeviceBuffer work(plan.workspace_bytes(), "test workspace");
  kc::check_cuda(cudaMemcpyAsync(data.get(), in.data(), data.bytes(), cudaMemcpyHostToDevice, stream.get()),
                 "cudaMemcpyAsync");
  plan.execute(data.as<kernels::Complex<double>>(), brick, work.get(), false, 1.0, stream.get());
  std::vector<std::complex<double>> y(in.size());
  kc::check_cuda(cudaMemcpyAsync(y.data(), data.get(), data.bytes(), cudaMemcpyDeviceToHost, stream.get()),
                 "cudaMemcpyAsync");
  stream.synchronize();
  // Reference: 1D fftwl along z for every (y, x).
  std::vector<LongComplex> ref(x.size());
  for (std::size_t p = 0; p < brick.ny * brick.nx; ++p) {
    std::vector<LongComplex> line(brick.nz);
    for (std::size_t z = 0; z < brick.nz; ++z) line[z] = x[z * brick.ny * brick.nx + p];
    const auto f = fftwl_dft(line, {static_cast<int>(brick.nz)}, FFTW_FORWARD);
    for (std::size_t z = 0; z < brick.nz; ++z) ref[z * brick.ny * brick.nx + p] = f[z];
  }
  EXPECT_LE(relative_l2(y, ref), tolerance<double>(c_stockham, brick.nz));
  EXPECT_THROW(plan.execute(data.as<kernels::Complex<double>>(), Shape{9, 5, 7}, work.get(), false, 1.0,
                            stream.get()),
               Error);
}

TEST(CudaKernels, RepeatedRunsAreBitwiseEqual) {
  SKIP_WITHOUT_CUDA();
  // A race shows as results that move between runs on the same input.
  for (const Shape& s : {Shape{32, 30, 64}, Shape{1, 4, 65536}, Shape{2, 2, 4099}}) {
    const auto in = to_precision<float>(random_signal(s.elements(), 5));
    const auto a = run_brick<float>(in, s, AxisSet::all(), false, 1.0f);
    const auto b = run_brick<float>(in, s, AxisSet::all(), false, 1.0f);
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])));
  }
}

TEST(CudaKernels, InCoreTransformMatchesHostBackend) {
  SKIP_WITHOUT_CUDA();
  // The public API's CUDA in-core path: copy in, all axes on the device, copy out.
  const Shape shape{24, 35, 41};
  const auto x = random_signal(shape.elements(), 11);
  Options cuda;
  cuda.backend = Backend::cuda;
  cuda.strategy = Strategy::in_core;
  Options host;
  host.backend = Backend::host;
  for (Direction d : {Direction::forward, Direction::inverse}) {
    auto device = to_precision<double>(x);
    auto reference = device;
    Plan(shape, Precision::double_precision, cuda).execute(device.data(), d);
    Plan(shape, Precision::double_precision, host).execute(reference.data(), d);
    std::vector<LongComplex> host_long(reference.begin(), reference.end());
    EXPECT_LE(relative_l2(device, host_long), tolerance<double>(2 * c_bluestein, shape.elements()))
        << to_string(d);
  }
}

TEST(CudaKernels, InCoreRefusesVolumesLargerThanTheDevice) {
  SKIP_WITHOUT_CUDA();
  // 4096^3 complex<double> is 1 TiB: an in-core plan must be refused while
  // planning, before any array is seen.
  Options cuda;
  cuda.backend = Backend::cuda;
  cuda.strategy = Strategy::in_core;
  try {
    const Plan plan(Shape{4096, 4096, 4096}, Precision::double_precision, cuda);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument) << e.what();
    EXPECT_NE(std::string(e.what()).find("do not fit"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace oocfft::test
