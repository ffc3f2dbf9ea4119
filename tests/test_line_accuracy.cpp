// Accuracy of 1D transforms against long-double references: every length
// 1..256 (naive DFT), primes, and every 7-smooth length up to 2^20 (FFTW's
// long-double fftwl), in both precisions and both directions. Relative L2
// error on seeded random inputs must stay under C * eps * sqrt(log2 N).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include <oocfft/oocfft.hpp>

#include "kernels/cuda/schedule_geometry.hpp"
#include "kernels/host_executor.hpp"
#include "kernels/line_factorization.hpp"
#include "kernels/line_plan.hpp"
#include "kernels/smooth_transform.hpp"
#include "kernels/unit_roots.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

// C for the tolerance rule. Measured (2026-11-22, this suite's inputs):
// Stockham with exact twiddle tables stays under 0.45 eps sqrt(log2 N) in
// both precisions; Bluestein, with two length-M transforms and the chirp
// products, under 0.9. C leaves a margin of about 4 over what we measured.
constexpr double c_stockham = 2.0;
constexpr double c_bluestein = 4.0;

// Whether a length takes Bluestein does not depend on the composites.
double c_for(std::size_t n) {
  return kernels::choose_line_algorithm(n, kernels::CompositeRadices::up_to_fifteen).algorithm == kernels::LineAlgorithm::bluestein ? c_bluestein
                                                                                            : c_stockham;
}

template <class T>
void check_length(std::size_t n, const std::vector<LongComplex>& x, const std::vector<LongComplex>& forward_ref,
                  const std::vector<LongComplex>& inverse_ref) {
  const Shape shape{1, 1, n};
  const double tol = tolerance<T>(c_for(n), n);
  std::vector<std::complex<T>> y = to_precision<T>(x);
  fft3d(y.data(), shape, Direction::forward);
  const double forward_err = relative_l2(y, forward_ref);
  EXPECT_LE(forward_err, tol) << "forward n=" << n << " (" << sizeof(T) * 8 << "-bit)";
  y = to_precision<T>(x);
  // Norm::forward leaves the inverse unscaled, so it compares with the raw sum.
  Options unscaled_inverse;
  unscaled_inverse.norm = Norm::forward;
  fft3d(y.data(), shape, Direction::inverse, unscaled_inverse);
  const double inverse_err = relative_l2(y, inverse_ref);
  EXPECT_LE(inverse_err, tol) << "inverse n=" << n << " (" << sizeof(T) * 8 << "-bit)";
}

void check_both_precisions(std::size_t n, bool use_fftwl) {
  const auto x = random_signal(n, 1000 + n);
  const int dims[] = {static_cast<int>(n)};
  const auto fwd = use_fftwl ? fftwl_dft(x, {dims[0]}, FFTW_FORWARD) : naive_dft(x, -1);
  // The unscaled inverse is the forward transform read backwards:
  // sum_j x_j e^{+2 pi i jk/n} = X[(n - k) mod n].
  std::vector<LongComplex> inv(n);
  for (std::size_t k = 0; k < n; ++k) inv[k] = fwd[(n - k) % n];
  check_length<float>(n, x, fwd, inv);
  check_length<double>(n, x, fwd, inv);
}

bool is_7_smooth(std::size_t n) {
  for (std::size_t p : {2, 3, 5, 7})
    while (n % p == 0) n /= p;
  return n == 1;
}

// The radix schedule: a lone 2 or 3 joins an odd neighbour in a composite
// pass (radix_schedule.hpp), up to 15 on the host and for complex<float> on
// the device, up to 10 for complex<double> lengths up to 4096 on the device,
// and every 13-smooth length's radices multiply back to it.
// The composites' accuracy is the suites below (all lengths up to 256,
// 7-smooth lengths up to 2^20, both precisions).
TEST(LineAccuracy, RadixScheduleMergesLoneFactorsIntoComposites) {
  using kernels::CompositeRadices;
  ASSERT_EQ(kernels::device_composite_radices<float>(), CompositeRadices::device_complex64);
  ASSERT_EQ(kernels::device_composite_radices<double>(), CompositeRadices::device_complex128);
  ASSERT_EQ(kernels::host_composite_radices, CompositeRadices::up_to_fifteen);
  const auto radices = [](std::size_t n) { return kernels::stockham_radices(n, CompositeRadices::up_to_fifteen); };
  const auto narrow = [](std::size_t n) {
    return kernels::stockham_radices(n, CompositeRadices::up_to_ten_through_4096);
  };
  EXPECT_EQ(radices(54), (std::vector<int>{9, 6}));
  EXPECT_EQ(radices(90), (std::vector<int>{9, 10}));
  EXPECT_EQ(radices(98), (std::vector<int>{14, 7}));
  EXPECT_EQ(radices(300), (std::vector<int>{4, 15, 5}));
  EXPECT_EQ(radices(1470), (std::vector<int>{15, 14, 7}));
  EXPECT_EQ(radices(3750), (std::vector<int>{15, 10, 5, 5}));
  EXPECT_EQ(radices(30), (std::vector<int>{2, 15}));  // the 2 has no odd neighbour left
  EXPECT_EQ(radices(22), (std::vector<int>{2, 11}));  // nor here
  EXPECT_EQ(radices(1344), (std::vector<int>{8, 8, 3, 7}));
  // Without 14 and 15, the lone 2 joins a 5 (or a 3) where there is one.
  EXPECT_EQ(narrow(54), (std::vector<int>{9, 6}));
  EXPECT_EQ(narrow(90), (std::vector<int>{9, 10}));
  EXPECT_EQ(narrow(98), (std::vector<int>{2, 7, 7}));
  EXPECT_EQ(narrow(300), (std::vector<int>{4, 3, 5, 5}));
  EXPECT_EQ(narrow(1470), (std::vector<int>{3, 10, 7, 7}));
  EXPECT_EQ(narrow(294), (std::vector<int>{6, 7, 7}));
  EXPECT_EQ(narrow(3750), (std::vector<int>{3, 10, 5, 5, 5}));
  EXPECT_EQ(narrow(30), (std::vector<int>{3, 10}));
  EXPECT_EQ(narrow(4410), (std::vector<int>{9, 5, 14, 7}));  // past 4096: as wide
  // Primes 17..largest_direct_prime are direct passes, first; larger ones
  // leave no schedule (Bluestein).
  EXPECT_EQ(radices(17), (std::vector<int>{17}));
  EXPECT_EQ(radices(34), (std::vector<int>{17, 2}));
  EXPECT_EQ(radices(17 * 19 * 9), (std::vector<int>{17, 19, 9}));
  EXPECT_EQ(radices(89 * 16), (std::vector<int>{89, 16}));
  EXPECT_TRUE(radices(97).empty());
  EXPECT_TRUE(radices(2 * 97).empty());
  EXPECT_EQ(narrow(89 * 16), (std::vector<int>{89, 16}));
  EXPECT_TRUE(narrow(97).empty());
  for (std::size_t n = 2; n <= 200000; ++n) {
    const std::vector<int> r = radices(n);
    const std::vector<int> r_narrow = narrow(n);
    ASSERT_EQ(r.empty(), r_narrow.empty()) << "n=" << n;
    if (r.empty()) continue;
    // The device sets: as up_to_fifteen (complex64) and up_to_ten_through_4096
    // (complex128) but for pairs of 5s as radix 25, pairs of a 3 and a 5 as
    // radix 15 and a lone 3 joined to a 9 as 27, only where their rules say
    // (DeviceSchedulesMergePairsWhereMeasured below).
    for (const auto& [set, base] : {std::pair{CompositeRadices::device_complex64, r},
                                    std::pair{CompositeRadices::device_complex128, r_narrow}}) {
      const std::vector<int> device = kernels::stockham_radices(n, set);
      std::size_t product = 1;
      for (int radix : device) product *= static_cast<std::size_t>(radix);
      ASSERT_EQ(product, n) << "n=" << n;
      const bool twenty_five = std::find(device.begin(), device.end(), 25) != device.end();
      const bool fifteen_pairs = std::count(device.begin(), device.end(), 15) >= 2;
      if (twenty_five || fifteen_pairs) continue;
      // A schedule the tuning table lists (Tuned::stockham_radices: TuningTable*).
      const kernels::RadixSchedule listed = set == CompositeRadices::device_complex64
                                                ? kernels::cuda::tuned_stockham_schedule<float>(n)
                                                : kernels::cuda::tuned_stockham_schedule<double>(n);
      if (listed.count > 0) continue;
      // A uniform tile's schedule: every radix divides its values per thread;
      // a ragged tile's: its own stages (RaggedTilesWhereMeasured).
      const kernels::cuda::UniformTile tile = set == CompositeRadices::device_complex64
                                                  ? kernels::cuda::device_schedule<float>(n).tile
                                                  : kernels::cuda::device_schedule<double>(n).tile;
      if (tile.threads > 0) {
        if (!tile.ragged)
          for (int radix : device) ASSERT_EQ(tile.values % radix, 0) << "n=" << n;
        continue;
      }
      // The in-place tile's: its own fewest passes
      // (InPlaceTileWhereNoStockhamTileHoldsTheLine).
      const bool in_place = n <= 30000 && (set == CompositeRadices::device_complex64
                                               ? kernels::cuda::schedule_shape<float>(static_cast<int>(n), false)
                                               : kernels::cuda::schedule_shape<double>(static_cast<int>(n), false))
                                              .in_place;
      if (in_place) continue;
      const auto twenty_seven = std::find(device.begin(), device.end(), 27);
      if (twenty_seven == device.end()) {
        ASSERT_EQ(device, base) << "n=" << n;
        continue;
      }
      // A 27 is the 9 and the 3 of the base schedule.
      std::vector<int> split(device.begin(), twenty_seven);
      split.insert(split.end(), {9, 3});
      split.insert(split.end(), twenty_seven + 1, device.end());
      std::vector<int> sorted_base = base;
      std::sort(split.begin(), split.end());
      std::sort(sorted_base.begin(), sorted_base.end());
      ASSERT_EQ(split, sorted_base) << "n=" << n;
    }
    std::size_t product = 1, product_narrow = 1;
    for (int radix : r) product *= static_cast<std::size_t>(radix);
    // Up to 4096, no 14 or 15; past it, the wide schedule (lengths with a
    // direct prime apply the limit to what is left after it).
    for (int radix : r_narrow) {
      if (n <= kernels::narrow_composites_limit)
        ASSERT_TRUE(radix != 14 && radix != 15) << "n=" << n << " radix " << radix;
      product_narrow *= static_cast<std::size_t>(radix);
    }
    if (r.front() <= 16 && n > kernels::narrow_composites_limit) ASSERT_EQ(r_narrow, r) << "n=" << n;
    ASSERT_EQ(product, n) << "n=" << n;
    ASSERT_EQ(product_narrow, n) << "n=" << n;
  }
}

// Where the device schedules pair 5s as radix 25: complex64 7-smooth lengths
// 4097..11999, where the fives make three 25 passes, and 12000..16384 where
// the tile holds a single radix-25 pass; complex128 7-smooth
// lengths up to 8192 whose fives make two radix-25 passes and 4097..10240
// where the tile holds 25 values; and a 3 with a 5
// as radix 15 ahead of 3s as 9: complex64 7-smooth lengths 2049..15360
// outside that range, where it saves a pass (radix_schedule.hpp says why).
TEST(LineAccuracy, DeviceSchedulesMergePairsWhereMeasured) {
  using kernels::CompositeRadices;
  // The settled schedules (a whole line may run the in-place tile's own):
  // what Bluestein's convolutions run.
  const auto single = [](std::size_t n) {
    return kernels::stockham_radices(n, CompositeRadices::device_complex64, kernels::LineUse::convolution);
  };
  const auto twin = [](std::size_t n) {
    return kernels::stockham_radices(n, CompositeRadices::device_complex128, kernels::LineUse::convolution);
  };
  EXPECT_EQ(single(6125), (std::vector<int>{25, 5, 7, 7}));
  EXPECT_EQ(single(8750), (std::vector<int>{25, 25, 14}));
  EXPECT_EQ(single(10000), (std::vector<int>{16, 25, 25}));
  EXPECT_EQ(single(3125), (std::vector<int>{5, 5, 5, 5, 5}));        // up to 4096: none
  EXPECT_EQ(single(12250), (std::vector<int>{7, 7, 25, 10}));        // from 12000 ragged tiles (ragged_tile), whose
  EXPECT_EQ(single(14000), (std::vector<int>{14, 4, 25, 10}));       // stages hold a 25 where it fits;
  EXPECT_EQ(single(15000), (std::vector<int>{15, 10, 10, 10}));      // its uniform tile (uniform_tile)
  EXPECT_EQ(single(15625), (std::vector<int>{25, 25, 25}));          // but for three 25 passes
  EXPECT_EQ(single(25 * 11 * 16), (std::vector<int>{16, 5, 5, 11}));  // 11- and 13-smooth: none
  EXPECT_EQ(twin(3125), (std::vector<int>{25, 25, 5}));
  EXPECT_EQ(twin(1875), (std::vector<int>{3, 25, 25}));
  EXPECT_EQ(twin(6250), (std::vector<int>{10, 25, 25}));
  EXPECT_EQ(twin(1250), (std::vector<int>{10, 5, 5, 5}));    // one 25 pass: none
  EXPECT_EQ(twin(7500), (std::vector<int>{4, 15, 5, 5, 5}));  // the 15 leaves three 5s
  EXPECT_EQ(twin(12800), (std::vector<int>{8, 8, 8, 5, 5}));  // past 10240: none
  EXPECT_EQ(twin(12500), (std::vector<int>{10, 5, 25, 10}));  // its uniform tile (uniform_tile), 10 5 in one stage
  // complex128 4097..10240 where the tile holds 25 values (device_radix_schedule):
  EXPECT_EQ(twin(4500), (std::vector<int>{4, 9, 25, 5}));
  EXPECT_EQ(twin(6125), (std::vector<int>{25, 5, 7, 7}));
  EXPECT_EQ(twin(9000), (std::vector<int>{8, 9, 5, 5, 5}));  // its 25-tile would not hold them
  EXPECT_EQ(twin(10000), (std::vector<int>{10, 10, 10, 10}));  // its one-block uniform tile (uniform_tile)
  EXPECT_EQ(twin(3600), (std::vector<int>{16, 9, 5, 5}));    // up to 4096: none
  EXPECT_EQ(kernels::stockham_radices(3125, kernels::host_composite_radices), (std::vector<int>{5, 5, 5, 5, 5}));
  EXPECT_EQ(single(3375), (std::vector<int>{15, 15, 15}));
  // 14175 runs a ragged tile (RaggedTilesWhereMeasured); its paired schedule:
  const kernels::RadixSchedule pairs = kernels::cuda::paired_radix_schedule<float>(14175);
  EXPECT_EQ(std::vector<int>(pairs.radices, pairs.radices + pairs.count), (std::vector<int>{9, 15, 15, 7}));
  EXPECT_EQ(single(2025), (std::vector<int>{9, 9, 5, 5}));      // up to 2048: none
  const kernels::RadixSchedule past = kernels::cuda::paired_radix_schedule<float>(16200);  // (it runs a uniform tile)
  EXPECT_EQ(std::vector<int>(past.radices, past.radices + past.count), (std::vector<int>{8, 9, 9, 5, 5}));  // past 15360: none
  EXPECT_EQ(single(4050), (std::vector<int>{9, 9, 10, 5}));     // a lone 2: none
  EXPECT_EQ(kernels::stockham_radices(3375, kernels::host_composite_radices), (std::vector<int>{9, 15, 5, 5}));
  EXPECT_EQ(twin(17 * 625), (std::vector<int>{17, 5, 5, 5, 5}));  // a direct prime: the general kernel, none
}

// Where the device schedules join a lone 3 to a 9 as radix 27: complex64
// lines past 1024, complex128 odd lines with exactly three 3s, where every
// tile that runs the length holds the 27 values within the registers ptxas
// leaves it (device_radix_schedule in cuda/schedule_choice.hpp; the tests
// in test_cuda_schedules.cpp check the tiles themselves).
TEST(LineAccuracy, DeviceSchedulesJoinALoneThreeWhereMeasured) {
  using kernels::CompositeRadices;
  const auto single = [](std::size_t n) { return kernels::stockham_radices(n, CompositeRadices::device_complex64); };
  const auto twin = [](std::size_t n) { return kernels::stockham_radices(n, CompositeRadices::device_complex128); };
  EXPECT_EQ(single(3402), (std::vector<int>{27, 9, 14}));
  EXPECT_EQ(single(3888), (std::vector<int>{16, 27, 9}));
  EXPECT_EQ(single(1728), (std::vector<int>{8, 8, 27}));
  // 2187: a whole line runs the in-place tile of its Tuned::in_place_schedule
  // entry (9 9 9 3 in decimation order), whose passes the plan takes; its Stockham
  // tile (Bluestein's convolution of M = 2187) runs 9 9 9 3 with no 27 (as
  // 27 9 9, seven blocks of 96 threads: 80 registers).
  EXPECT_EQ(single(2187), (std::vector<int>{3, 9, 9, 9}));
  const kernels::RadixSchedule stockham = kernels::cuda::convolution_radix_schedule<float>(2187);
  EXPECT_EQ(std::vector<int>(stockham.radices, stockham.radices + stockham.count), (std::vector<int>{9, 9, 9, 3}));
  EXPECT_EQ(single(432), (std::vector<int>{16, 9, 3}));     // up to 1024: none
  EXPECT_EQ(single(864), (std::vector<int>{16, 6, 9}));     // the tuning table's schedule
  EXPECT_EQ(single(27 * 11 * 16), (std::vector<int>{16, 9, 3, 11}));  // 11- and 13-smooth: none
  EXPECT_EQ(twin(3375), (std::vector<int>{27, 5, 5, 5}));
  EXPECT_EQ(twin(945), (std::vector<int>{27, 5, 7}));
  EXPECT_EQ(twin(3780), (std::vector<int>{4, 9, 3, 5, 7}));  // even: none
  EXPECT_EQ(twin(2187), (std::vector<int>{9, 9, 9, 3}));    // seven 3s: none
  EXPECT_EQ(kernels::stockham_radices(3402, kernels::host_composite_radices), (std::vector<int>{9, 9, 3, 14}));
  EXPECT_EQ(single(17 * 27), (std::vector<int>{17, 9, 3}));  // a direct prime: the general kernel, none
}

// The device's schedules on the host executor, which runs the same
// butterflies: complex<double> lengths whose schedule differs from the
// host's (no 14 or 15 up to 4096; radices 25 and 27), a batch of 3 lines,
// forward against a naive long-double DFT; and complex<float> lengths with
// radix 25, pairs of 15s or radix 27.
template <class T>
void check_device_schedules_against_naive_dft(std::initializer_list<std::size_t> lengths) {
  for (std::size_t n : lengths) {
    const auto plan = kernels::make_line_plan<T>(n, kernels::device_composite_radices<T>());
    ASSERT_NE(plan->factorization.radices,
              kernels::stockham_radices(n, kernels::host_composite_radices))
        << "n=" << n;
    constexpr std::size_t lines = 3;
    const auto x = random_signal(n * lines, 4000 + n);
    auto y = to_precision<T>(x);
    const kernels::LineBatch batch{n, 1, lines, static_cast<std::ptrdiff_t>(n), 1, 0};
    kernels::execute_lines_host(*plan, reinterpret_cast<kernels::Complex<T>*>(y.data()), batch, false, T(1));
    for (std::size_t l = 0; l < lines; ++l) {
      const std::vector<LongComplex> line(x.begin() + l * n, x.begin() + (l + 1) * n);
      const std::vector<std::complex<T>> out(y.begin() + l * n, y.begin() + (l + 1) * n);
      EXPECT_LE(relative_l2(out, naive_dft(line, -1)), tolerance<T>(c_stockham, n))
          << "n=" << n << " line " << l << " (" << plan->summary() << ")";
    }
  }
}

TEST(LineAccuracy, DeviceCompositeSetAgainstNaiveDft) {
  check_device_schedules_against_naive_dft<double>(
      {15, 30, 75, 98, 294, 490, 1050, 1470, 2625, 625, 1875, 3125, 945, 3375, 4500});
  check_device_schedules_against_naive_dft<float>({4375, 6125, 3375, 3402, 1728});
}

TEST(LineAccuracy, EveryLengthUpTo256AgainstNaiveDft) {
  for (std::size_t n = 1; n <= 256; ++n) check_both_precisions(n, false);
}

TEST(LineAccuracy, PrimesAgainstFftwLongDouble) {
  for (std::size_t n : {257, 1009, 4099, 65537}) check_both_precisions(n, true);
}

TEST(LineAccuracy, LargePrimeFactorsAgainstFftwLongDouble) {
  // Bluestein lengths that mix a large prime with smooth factors.
  for (std::size_t n : {2 * 257, 3 * 5 * 4099, 1021 * 1024}) check_both_precisions(n, true);
  // Direct primes beside smooth factors and beside each other: a direct pass
  // after another pass is twiddled (29 31, 17 89), in registers or not.
  for (std::size_t n : {17 * 64, 23 * 27, 29 * 31, 17 * 89, 89 * 89}) check_both_precisions(n, true);
}

TEST(LineAccuracy, SmoothLengthsUpTo2To20AgainstFftwLongDouble) {
  std::size_t checked = 0;
  for (std::size_t n = 257; n <= (std::size_t{1} << 20); ++n) {
    if (!is_7_smooth(n)) continue;
    check_both_precisions(n, true);
    ++checked;
  }
  EXPECT_EQ(checked, 1209u);  // all 7-smooth lengths in [257, 2^20]
}

}  // namespace
}  // namespace oocfft::test

namespace oocfft::test {
namespace {

// The compile-time roots of unity of the stages at span 1 (unit_roots.hpp)
// against long double: within one unit in the last place of double.
template <int M>
double worst_unit_root_error() {
  double worst = 0;
  for (int m = 0; m < M; ++m) {
    const long double angle = 2.0L * 3.14159265358979323846264338327950288L * m / M;
    worst = std::max(worst, static_cast<double>(std::fabs(kernels::UnitRoots<M>::cos(m) - std::cos(angle))));
    worst = std::max(worst, static_cast<double>(std::fabs(kernels::UnitRoots<M>::sin(m) - std::sin(angle))));
  }
  return worst;
}

TEST(LineAccuracy, UnitRootsWithinAnUlpOfDouble) {
  constexpr double ulp = 2.220446049250313e-16;
  EXPECT_LE(worst_unit_root_error<30>(), ulp);
  EXPECT_LE(worst_unit_root_error<42>(), ulp);
  EXPECT_LE(worst_unit_root_error<48>(), ulp);
  EXPECT_LE(worst_unit_root_error<49>(), ulp);
  EXPECT_LE(worst_unit_root_error<64>(), ulp);
  static_assert(kernels::UnitRoots<8>::cos(2) == 0.0 && kernels::UnitRoots<8>::sin(4) == 0.0);
}

// The double-precision DFT that builds Bluestein's convolution spectrum
// (kernels/smooth_transform.hpp), on its own: powers of two, 3^a 5^b 7^c
// lengths and mixed smooth ones against the long-double naive DFT, and two
// large M against fftwl, within C eps(double) sqrt(log2 N) on seeded random
// inputs, with and without a scale. Measured (these inputs): under 0.42 eps
// sqrt(log2 N); C leaves a margin of about 4, as c_stockham above.
constexpr double c_smooth_transform = 2.0;

double smooth_transform_error(std::size_t n, double scale, bool use_fftwl) {
  const auto x = random_signal(n, 7700 + n);
  std::vector<kernels::Complex<double>> data(n);
  for (std::size_t j = 0; j < n; ++j)
    data[j] = {static_cast<double>(x[j].real()), static_cast<double>(x[j].imag())};
  kernels::smooth_forward_transform(data.data(), n, scale);
  std::vector<std::complex<double>> y(n);
  for (std::size_t k = 0; k < n; ++k) y[k] = {data[k].re, data[k].im};
  const auto ref = use_fftwl ? fftwl_dft(x, {static_cast<int>(n)}, FFTW_FORWARD) : naive_dft(x, -1);
  return relative_l2(y, ref, static_cast<long double>(scale));
}

void expect_smooth_transform(std::size_t n, bool use_fftwl, double scale = 1.0) {
  EXPECT_LE(smooth_transform_error(n, scale, use_fftwl), tolerance<double>(c_smooth_transform, n))
      << "n=" << n << " scale=" << scale;
}

TEST(SmoothTransform, PowersOfTwoAgainstNaiveDft) {
  for (std::size_t n = 1; n <= 4096; n *= 2) expect_smooth_transform(n, false);
}

TEST(SmoothTransform, ThreeFiveSevenSmoothAgainstNaiveDft) {
  for (std::size_t n : {3, 5, 7, 9, 15, 21, 25, 27, 35, 49, 63, 105, 125, 243, 343, 375, 441, 1029, 1225, 2187, 2401,
                        3375})
    expect_smooth_transform(n, false);
  // With factors of two, and a prime beyond 7 as one direct pass.
  for (std::size_t n : {6, 12, 60, 96, 360, 1000, 2100, 3528, 4000, 11 * 13 * 2}) expect_smooth_transform(n, false);
  // The scale multiplies every output: Bluestein's spectrum is built as 1/M of it.
  expect_smooth_transform(1000, false, 1.0 / 1000);
  expect_smooth_transform(2187, false, 1.0 / 2187);
}

TEST(SmoothTransform, LargeLengthsAgainstFftwLongDouble) {
  expect_smooth_transform(std::size_t{1} << 14, true);
  expect_smooth_transform(3 * 3 * 5 * 5 * 7 * 7 * 4, true, 1.0 / (3 * 3 * 5 * 5 * 7 * 7 * 4));  // 44100
}

// A wrong output shows: the measure is not blind to a transform gone wrong
// (the same input, the inverse's sign, is far from the reference).
TEST(SmoothTransform, TheMeasureSeesAWrongTransform) {
  const std::size_t n = 360;
  const auto x = random_signal(n, 7700 + n);
  std::vector<kernels::Complex<double>> data(n);
  for (std::size_t j = 0; j < n; ++j)
    data[j] = {static_cast<double>(x[j].real()), static_cast<double>(x[j].imag())};
  kernels::smooth_forward_transform(data.data(), n, 1.0);
  std::vector<std::complex<double>> y(n);
  for (std::size_t k = 0; k < n; ++k) y[k] = {data[k].re, data[k].im};
  EXPECT_GT(relative_l2(y, naive_dft(x, +1)), 0.5);
  EXPECT_LE(relative_l2(y, naive_dft(x, -1)), tolerance<double>(c_smooth_transform, n));
}

}  // namespace
}  // namespace oocfft::test
