// The device real and trigonometric line transforms against long-double
// references: DeviceRealRows (numpy's rfft / irfft times n, FFTW's padded
// rows) against fftwl's r2c and c2r, DeviceTrigLines (scipy's dct/dst of
// types 2 and 3, norms "backward" and "ortho") against fftwl's r2r (the
// same definitions) and, for short lines, direct cos/sin sums; and
// DeviceBrickPlan's real and trigonometric modes against fftwl's 3D
// transforms. Both precisions; odd and even lengths, 1 to 20000 (a long
// even line runs its half length in four steps); odd row and line counts,
// rows with extra padding; contiguous and strided (brick y and z) lines;
// round trips. Inputs in [-0.5, 0.5), seeded; padding, workspaces and
// outputs are poisoned with NaN, so an unwritten output, a read of
// unwritten scratch or a write past a row's footprint shows. Relative L2
// error under C * eps * sqrt(log2 N), C the complex FFT's constant
// (cuda_test_support.hpp) plus 2 for the split or the Makhoul twiddle.
// Skipped, with the reason, without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/cuda/cubin_cache.hpp"
#include "kernels/cuda/device_limits.hpp"
#include "kernels/cuda/device_real_rows.hpp"
#include "kernels/cuda/device_trig_lines.hpp"
#include "kernels/cuda/plan_time_schedules.hpp"
#include "kernels/cuda/schedule_geometry.hpp"
#include "kernels/cuda/real_rows_kernels.hpp"
#include "tests/cuda_test_support.hpp"

namespace oocfft::test {
namespace {

using kernels::TransformKind;
using kernels::TrigKind;
using kernels::TrigNorm;
using kernels::VolumeTransform;

const std::size_t real_lengths[] = {1,  2,   3,   4,   5,   6,    7,    8,    9,    10,   11,   12,  13,
                                    14, 15,  16,  17,  18,  30,   34,   36,   64,   97,   100,  128, 210,
                                    243, 1000, 1001, 4096, 4097, 20000};

// Real values in [-0.5, 0.5), the same in both precisions.
std::vector<long double> random_reals(std::size_t n, std::uint64_t seed) {
  const auto z = random_signal((n + 1) / 2, seed);
  std::vector<long double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = i % 2 == 0 ? z[i / 2].real() : z[i / 2].imag();
  return x;
}

// The worst error / tolerance seen by a suite, per precision, printed at
// its end (so that a reader sees how much margin the tolerances leave).
struct WorstRatio {
  double single = 0, twice = 0;
  template <class T>
  double check(double error, double tol) {
    double& w = sizeof(T) == sizeof(float) ? single : twice;
    w = std::max(w, error / tol);
    return error;
  }
  void print() const { std::printf("[ info ] worst error / tolerance: float %.3f, double %.3f\n", single, twice); }
};
WorstRatio worst;

template <class T>
constexpr T nan_value() {
  return std::numeric_limits<T>::quiet_NaN();
}

// Upload, run, download on one stream; the workspace is poisoned first.
template <class T>
class RealRunner {
 public:
  template <class Run>
  std::vector<T> run(const std::vector<T>& host, std::size_t workspace_bytes, Run&& transform) {
    const std::size_t bytes = host.size() * sizeof(T);
    if (data_.bytes() < bytes) data_ = kc::DeviceBuffer(bytes, "test data");
    if (work_.bytes() < workspace_bytes) work_ = kc::DeviceBuffer(workspace_bytes, "test workspace");
    const cudaStream_t s = stream_.get();
    kc::check_cuda(cudaMemsetAsync(work_.get(), 0xff, work_.bytes(), s), "cudaMemsetAsync");
    kc::check_cuda(cudaMemcpyAsync(data_.get(), host.data(), bytes, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync");
    transform(data_.as<T>(), work_.bytes() == 0 ? nullptr : work_.get(), s);
    std::vector<T> out(host.size(), nan_value<T>());
    kc::check_cuda(cudaMemcpyAsync(out.data(), data_.get(), bytes, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
    stream_.synchronize();
    return out;
  }

 private:
  kc::Stream stream_;
  kc::DeviceBuffer data_, work_;
};

// ------------------------------------------------------------------ references

std::vector<LongComplex> fftwl_rfft(const std::vector<long double>& x) {
  std::vector<long double> in = x;
  std::vector<LongComplex> out(x.size() / 2 + 1);
  fftwl_plan p = fftwl_plan_dft_r2c_1d(static_cast<int>(x.size()), in.data(),
                                       reinterpret_cast<fftwl_complex*>(out.data()), FFTW_ESTIMATE);
  fftwl_execute(p);
  fftwl_destroy_plan(p);
  return out;
}

// numpy's irfft times n: Im X[0] and, for even n, Im X[n/2] dropped.
std::vector<long double> fftwl_irfft_times_n(std::vector<LongComplex> half, std::size_t n) {
  half[0].imag(0);
  if (n % 2 == 0) half[n / 2].imag(0);
  std::vector<long double> out(n);
  fftwl_plan p = fftwl_plan_dft_c2r_1d(static_cast<int>(n), reinterpret_cast<fftwl_complex*>(half.data()),
                                       out.data(), FFTW_ESTIMATE);
  fftwl_execute(p);
  fftwl_destroy_plan(p);
  return out;
}

fftwl_r2r_kind fftw_kind(TrigKind kind) {
  switch (kind) {
    case TrigKind::dct2: return FFTW_REDFT10;
    case TrigKind::dct3: return FFTW_REDFT01;
    case TrigKind::dst2: return FFTW_RODFT10;
    case TrigKind::dst3: return FFTW_RODFT01;
  }
  return FFTW_REDFT10;
}
bool type_two(TrigKind k) { return k == TrigKind::dct2 || k == TrigKind::dst2; }
bool sine(TrigKind k) { return k == TrigKind::dst2 || k == TrigKind::dst3; }

// scipy's ortho weight of index i along a line of n (orthogonalize=True):
// type 2 weights its outputs, type 3 its inputs; the special index is 0 for
// the DCT, n-1 for the DST (docs.scipy.org, scipy.fft.dct / dst, Notes).
long double ortho_weight(TrigKind kind, std::size_t i, std::size_t n) {
  const long double nl = static_cast<long double>(n);
  const std::size_t special = sine(kind) ? n - 1 : 0;
  if (i != special) return std::sqrt(1.0L / (2.0L * nl));
  return type_two(kind) ? std::sqrt(1.0L / (4.0L * nl)) : std::sqrt(1.0L / nl);
}

// scipy.fft.dct/dst(x, type, norm) of one line: fftwl's r2r (the
// "backward" definitions) with the ortho weights around it.
std::vector<long double> trig_reference(std::vector<long double> x, TrigKind kind, TrigNorm norm) {
  const std::size_t n = x.size();
  const bool ortho = norm == TrigNorm::ortho;
  if (ortho && !type_two(kind))
    for (std::size_t i = 0; i < n; ++i) x[i] *= ortho_weight(kind, i, n);
  std::vector<long double> y(n);
  fftwl_plan p = fftwl_plan_r2r_1d(static_cast<int>(n), x.data(), y.data(), fftw_kind(kind), FFTW_ESTIMATE);
  fftwl_execute(p);
  fftwl_destroy_plan(p);
  if (ortho && type_two(kind))
    for (std::size_t k = 0; k < n; ++k) y[k] *= ortho_weight(kind, k, n);
  return y;
}

// The definitions of the brief, summed directly (backward norm).
std::vector<long double> trig_direct(const std::vector<long double>& x, TrigKind kind) {
  const std::size_t n = x.size();
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double N2 = 2.0L * static_cast<long double>(n);
  std::vector<long double> y(n, 0.0L);
  for (std::size_t k = 0; k < n; ++k) {
    long double s = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const long double kl = static_cast<long double>(k), jl = static_cast<long double>(j);
      switch (kind) {
        case TrigKind::dct2: s += 2 * x[j] * std::cos(pi * kl * (2 * jl + 1) / N2); break;
        case TrigKind::dct3:
          s += j == 0 ? x[0] : 2 * x[j] * std::cos(pi * jl * (2 * kl + 1) / N2);
          break;
        case TrigKind::dst2: s += 2 * x[j] * std::sin(pi * (kl + 1) * (2 * jl + 1) / N2); break;
        case TrigKind::dst3:
          s += j == n - 1 ? (k % 2 == 0 ? 1 : -1) * x[j] : 2 * x[j] * std::sin(pi * (jl + 1) * (2 * kl + 1) / N2);
          break;
      }
    }
    y[k] = s;
  }
  return y;
}

template <class T>
double real_tolerance(std::size_t n, std::size_t inner) {
  return tolerance<T>(std::max(c_for_line(n), inner > 1 ? c_for_line(inner) : c_stockham) + 2.0, n);
}

// ------------------------------------------------------------------ DeviceRealRows

// The elements a transform must leave alone, poisoned with NaN before it
// runs: the lead before the first row and each row's pitch past its
// half-spectrum footprint 2 (n/2 + 1). The inverse may write the slots
// from n up to the footprint (DeviceRealRows's contract), nothing past it.
template <class T>
void expect_untouched_past_footprints(const std::vector<T>& data, std::size_t lead, std::size_t rows,
                                      std::size_t pitch, std::size_t footprint, const std::string& what) {
  std::size_t written = 0;
  for (std::size_t i = 0; i < lead; ++i) written += !std::isnan(data[i]);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t j = footprint; j < pitch; ++j) written += !std::isnan(data[lead + r * pitch + j]);
  EXPECT_EQ(written, 0u) << "elements written outside the rows' footprints, " << what;
}

// With `plan_time`, the plan takes its schedules from it, and every kernel
// the plan asks for must be ready there; `folded` then says whether the
// FFT runs with its split and merge folded in (asserted both ways, so
// that neither path passes for the other), the forward as
// `folded_forward` where that is given (a forward the fused kernel runs).
template <class T>
void check_real_rows(RealRunner<T>& runner, std::size_t n, std::size_t rows, std::size_t extra_pitch,
                     std::uint64_t seed, std::size_t lead = 0,
                     const std::shared_ptr<kc::PlanTimeSchedules>& plan_time = nullptr, bool folded = false,
                     std::optional<bool> folded_forward = std::nullopt) {
  kc::DeviceRealRows<T> plan(n, kc::DeviceLimits::current(), kc::TileKernels::compiled_where_available);
  const std::size_t half = n / 2 + 1;
  const std::size_t pitch = 2 * half + extra_pitch;
  const std::string what = "n=" + std::to_string(n) + " rows=" + std::to_string(rows) + " pitch=" +
                           std::to_string(pitch) + " lead=" + std::to_string(lead) + " (" +
                           std::to_string(sizeof(T) * 8) + "-bit)";
  if (plan_time) {
    for (const kc::ScheduleKey& key : plan.plan_time_keys(rows, pitch))
      ASSERT_TRUE(plan_time->prepare(key)) << kc::describe(*plan_time->outcome(key)) << " " << what;
    plan.use_plan_time(plan_time);
    auto want = [](bool f) { return f ? kc::TileKernel::plan_time : kc::TileKernel::general; };
    EXPECT_EQ(plan.ends_kernel(rows, pitch, false), want(folded_forward.value_or(folded))) << "forward " << what;
    EXPECT_EQ(plan.ends_kernel(rows, pitch, true), want(folded)) << "inverse " << what;
  }
  const double tol = real_tolerance<T>(n, n % 2 == 0 ? n / 2 : n);
  const std::size_t work = plan.workspace_bytes(rows, pitch);

  // Forward: n reals a row (the padding NaN) -> n/2+1 complex values.
  std::vector<T> in(lead + rows * pitch, nan_value<T>());
  std::vector<std::vector<long double>> x(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    x[r] = random_reals(n, seed + r);
    for (std::size_t j = 0; j < n; ++j) in[lead + r * pitch + j] = static_cast<T>(x[r][j]);
  }
  const auto out = runner.run(in, work, [&](T* d, void* w, cudaStream_t s) {
    plan.execute(d + lead, rows, pitch, w, false, T(1), s);
  });
  L2Sums forward;
  for (std::size_t r = 0; r < rows; ++r) {
    const auto want = fftwl_rfft(x[r]);
    for (std::size_t k = 0; k < half; ++k)
      forward.add(std::complex<T>(out[lead + r * pitch + 2 * k], out[lead + r * pitch + 2 * k + 1]), want[k]);
  }
  EXPECT_LE(worst.check<T>(forward.relative(), tol), tol) << "forward " << what;
  expect_untouched_past_footprints(out, lead, rows, pitch, 2 * half, "forward " + what);

  // Inverse: random half spectra (Im X[0], Im X[n/2] not zero: they must be
  // ignored), padding NaN, scale 1/n; against fftwl's c2r.
  std::vector<T> spectra(lead + rows * pitch, nan_value<T>());
  std::vector<std::vector<LongComplex>> X(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    X[r] = random_signal(half, seed + 100 + r);
    for (std::size_t k = 0; k < half; ++k) {
      spectra[lead + r * pitch + 2 * k] = static_cast<T>(X[r][k].real());
      spectra[lead + r * pitch + 2 * k + 1] = static_cast<T>(X[r][k].imag());
    }
  }
  const long double inv_n = 1.0L / static_cast<long double>(n);
  const auto back = runner.run(spectra, work, [&](T* d, void* w, cudaStream_t s) {
    plan.execute(d + lead, rows, pitch, w, true, static_cast<T>(inv_n), s);
  });
  L2Sums inverse;
  for (std::size_t r = 0; r < rows; ++r) {
    const auto want = fftwl_irfft_times_n(X[r], n);
    for (std::size_t j = 0; j < n; ++j) inverse.add(back[lead + r * pitch + j], want[j], inv_n);
  }
  EXPECT_LE(worst.check<T>(inverse.relative(), tol), tol) << "inverse " << what;
  expect_untouched_past_footprints(back, lead, rows, pitch, 2 * half, "inverse " + what);

  // Round trip: forward, then inverse with 1/n, gives the input back.
  const auto again = runner.run(in, work, [&](T* d, void* w, cudaStream_t s) {
    plan.execute(d + lead, rows, pitch, w, false, T(1), s);
    plan.execute(d + lead, rows, pitch, w, true, static_cast<T>(inv_n), s);
  });
  L2Sums trip;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t j = 0; j < n; ++j) trip.add(again[lead + r * pitch + j], x[r][j]);
  EXPECT_LE(worst.check<T>(trip.relative(), 2 * tol), 2 * tol) << "round trip " << what;
  expect_untouched_past_footprints(again, lead, rows, pitch, 2 * half, "round trip " + what);
}

TEST(CudaRealRows, LengthsAgainstFftwLongDouble) {
  SKIP_WITHOUT_CUDA();
  worst = {};
  RealRunner<float> single;
  RealRunner<double> twice;
  for (std::size_t n : real_lengths) {
    for (std::size_t rows : {std::size_t{1}, std::size_t{3}, std::size_t{7}}) {
      const std::size_t extra = rows == 3 ? 4 : 0;  // rows wider than the padded layout needs
      check_real_rows(single, n, rows, extra, 1000 * n + rows);
      check_real_rows(twice, n, rows, extra, 1000 * n + rows);
    }
  }
  worst.print();
}

// The fused short-row kernel (launch_real_rows_fused) on every length it
// takes, and the lengths beside them that take the two-pass paths: odd
// row counts over several blocks with a partial last one, extra padding,
// and rows one real off the two-real alignment (scalar global accesses).
TEST(CudaRealRows, FusedShortRows) {
  SKIP_WITHOUT_CUDA();
  worst = {};
  RealRunner<float> single;
  RealRunner<double> twice;
  for (std::size_t n = 17; n <= 130; ++n) {
    check_real_rows(single, n, 3, 4, 5000 * n + 3);
    check_real_rows(twice, n, 3, 0, 5000 * n + 3);
    check_real_rows(single, n, 131, 0, 5000 * n + 131);
    check_real_rows(twice, n, 131, 2, 5000 * n + 131);
    if (kc::real_rows_fused_supported<float>(static_cast<std::int64_t>(n)))
      check_real_rows(single, n, 5, 0, 5000 * n + 5, 1);
    if (kc::real_rows_fused_supported<double>(static_cast<std::int64_t>(n)))
      check_real_rows(twice, n, 5, 2, 5000 * n + 5, 1);
  }
  worst.print();
}

// The lengths past the fused kernel with their real ends folded into the
// FFT's tile (real_schedule_kernels.cuh, compiled here by NVRTC into a
// cache in memory): even lengths, their split and merge; odd ones, their
// row pairs packed and unpacked, an odd row count leaving the last pair
// one row short. One row (or pair) to a tile up to several, a batch that
// ends in a partial tile, extra padding, rows starting past the buffer's
// start. Too few rows for one tile run the separate kernels.
TEST(CudaRealRows, RealEndsFoldedIntoTheTile) {
  SKIP_WITHOUT_CUDA();
  worst = {};
  const auto plan_time = std::make_shared<kc::PlanTimeSchedules>(kc::CubinCache::memory_only());
  RealRunner<float> single;
  RealRunner<double> twice;
  for (std::size_t n : {std::size_t{130}, std::size_t{200}, std::size_t{256}, std::size_t{270}, std::size_t{1000},
                        std::size_t{1024}, std::size_t{2048}, std::size_t{2430}, std::size_t{4096}, std::size_t{135},
                        std::size_t{243},
                        std::size_t{343}, std::size_t{1001}, std::size_t{1215}, std::size_t{3125}, std::size_t{4095}}) {
    check_real_rows(single, n, 67, 0, 9000 * n + 67, 0, plan_time, true);
    check_real_rows(twice, n, 67, 4, 9000 * n + 67, 0, plan_time, true);
    check_real_rows(single, n, 35, 2, 9000 * n + 35, 2, plan_time, true);
  }
  for (std::size_t n : {std::size_t{66}, std::size_t{98}, std::size_t{81}})  // double: past its fused lengths
    check_real_rows(twice, n, 131, 0, 9000 * n + 131, 0, plan_time, true);
  // Even lengths that run two rows per complex line of n in some direction
  // (even_pairs_* in device_real_rows.cpp), whose middle k = n/2 is its own
  // partner; an odd row count leaves the last pair one row short.
  for (std::size_t n : {std::size_t{144}, std::size_t{200}}) {
    check_real_rows(single, n, 67, 0, 9100 * n + 67, 0, plan_time, true);
    check_real_rows(single, n, 36, 2, 9100 * n + 36, 2, plan_time, true);
  }
  for (std::size_t n : {std::size_t{100}, std::size_t{144}}) {
    check_real_rows(twice, n, 67, 4, 9100 * n + 67, 0, plan_time, true);
    check_real_rows(twice, n, 36, 0, 9100 * n + 36, 2, plan_time, true);
  }
  check_real_rows(twice, 100, 1, 0, 9105, 0, plan_time, false);  // one row: the half-length plan and the split
  // Double 18: the inverse in pairs (tile_more_accurate), whose tile holds
  // 64 lines (128 rows), the forward fused; fewer rows than a tile run the
  // separate kernels.
  check_real_rows(twice, 18, 259, 4, 9100 * 18 + 259, 0, plan_time, true, false);
  check_real_rows(twice, 18, 300, 0, 9100 * 18 + 300, 2, plan_time, true, false);
  check_real_rows(twice, 18, 67, 0, 9100 * 18 + 67, 0, plan_time, false);
  // A whole complex<float> line of 2187 runs the in-place tile; the real
  // rows' inner plan takes the Stockham tile's passes (LineUse::real_ends),
  // so its ends fold in as everywhere else.
  check_real_rows(twice, 2187, 67, 0, 9003, 0, plan_time, true);
  check_real_rows(single, 2187, 67, 0, 9004, 0, plan_time, true);
  // One row: a tile of the half length 65 holds several (so the separate
  // kernels run); one of 500, as many as the schedule's tile holds.
  ASSERT_GT(kc::convolution_shape<float>(65, false).lanes, 1);
  check_real_rows(single, 130, 1, 0, 9001, 0, plan_time, false);
  check_real_rows(single, 1000, 1, 0, 9002, 0, plan_time, kc::convolution_shape<float>(500, false).lanes == 1);
  worst.print();
}

// Many rows: the grid-stride loops and the line plans' batching.
TEST(CudaRealRows, ManyRows) {
  SKIP_WITHOUT_CUDA();
  worst = {};
  RealRunner<float> single;
  RealRunner<double> twice;
  for (std::size_t n : {std::size_t{2}, std::size_t{9}, std::size_t{16}, std::size_t{30}, std::size_t{31}, std::size_t{64},
                        std::size_t{1000}}) {
    check_real_rows(single, n, 1001, 2, 77 + n);
    check_real_rows(twice, n, 1001, 0, 77 + n);
  }
  worst.print();
}

TEST(CudaRealRows, RefusesAnOddOrShortPitch) {
  SKIP_WITHOUT_CUDA();
  const kc::DeviceRealRows<float> plan(10, kc::DeviceLimits::current(), kc::TileKernels::general_only);
  EXPECT_EQ(plan.min_row_pitch(), 12u);
  EXPECT_THROW(plan.execute(nullptr, 1, 11, nullptr, false, 1.0f, nullptr), Error);
  EXPECT_THROW(plan.execute(nullptr, 1, 10, nullptr, false, 1.0f, nullptr), Error);
  EXPECT_NE(plan.describe().find("real 10 -> 6 (direct DFT in one kernel"), std::string::npos) << plan.describe();
  const kc::DeviceRealRows<float> fused(20, kc::DeviceLimits::current(), kc::TileKernels::general_only);
  EXPECT_NE(fused.describe().find("real 20 -> 11 (fused in one kernel"), std::string::npos) << fused.describe();
  EXPECT_EQ(fused.workspace_bytes(1001, 22), 0u);
  // 45 in float: the forward in the tile (measured faster), the inverse
  // fused; 28 in double the other way round.
  const kc::DeviceRealRows<float> half_fused(45, kc::DeviceLimits::current(), kc::TileKernels::general_only);
  EXPECT_NE(half_fused.describe().find("real 45 -> 23 (forward: two rows per complex line of 45"), std::string::npos)
      << half_fused.describe();
  EXPECT_NE(half_fused.describe().find("; inverse: fused in one kernel"), std::string::npos) << half_fused.describe();
  const kc::DeviceRealRows<double> forward_fused(28, kc::DeviceLimits::current(), kc::TileKernels::general_only);
  EXPECT_NE(forward_fused.describe().find("real 28 -> 15 (forward: fused in one kernel"), std::string::npos)
      << forward_fused.describe();
  EXPECT_NE(forward_fused.describe().find("; inverse: half-length complex 14"), std::string::npos)
      << forward_fused.describe();
  // Even rows in pairs (even_pairs_*): 144 in float only inverse, 100 in
  // double both ways.
  const kc::DeviceRealRows<float> inverse_pairs(144, kc::DeviceLimits::current(), kc::TileKernels::general_only);
  EXPECT_NE(inverse_pairs.describe().find("real 144 -> 73 (forward: half-length complex 72"), std::string::npos)
      << inverse_pairs.describe();
  EXPECT_NE(inverse_pairs.describe().find("; inverse: two rows per complex line of 144"), std::string::npos)
      << inverse_pairs.describe();
  const kc::DeviceRealRows<double> pairs(100, kc::DeviceLimits::current(), kc::TileKernels::general_only);
  EXPECT_NE(pairs.describe().find("real 100 -> 51 (two rows per complex line of 100"), std::string::npos)
      << pairs.describe();
  // 18 in double: the inverse in pairs for its error (tile_more_accurate).
  const kc::DeviceRealRows<double> accurate(18, kc::DeviceLimits::current(), kc::TileKernels::general_only);
  EXPECT_NE(accurate.describe().find("real 18 -> 10 (forward: fused in one kernel"), std::string::npos)
      << accurate.describe();
  EXPECT_NE(accurate.describe().find("; inverse: two rows per complex line of 18"), std::string::npos)
      << accurate.describe();
  const kc::DeviceRealRows<float> longer(34, kc::DeviceLimits::current(), kc::TileKernels::general_only);
  EXPECT_NE(longer.describe().find("real 34 -> 18 (half-length complex 17"), std::string::npos) << longer.describe();
  // Past the fused kernel rows must start on a complex value: refused
  // before anything is launched.
  try {
    longer.execute(reinterpret_cast<float*>(std::uintptr_t{4}), 1, 36, nullptr, false, 1.0f, nullptr);
    ADD_FAILURE() << "rows one float past a complex value were accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("must start on a complex value"), std::string::npos) << e.what();
  }
}

// ------------------------------------------------------------------ DeviceTrigLines

const TrigKind trig_kinds[] = {TrigKind::dct2, TrigKind::dct3, TrigKind::dst2, TrigKind::dst3};

// `count` lines of n: contiguous rows (strided == false, lanes = lines),
// or the y lines of a [2][n][count] brick (lanes = x positions, groups z).
template <class T>
void check_trig_lines(RealRunner<T>& runner, std::size_t n, std::size_t count, bool strided, TrigKind kind,
                      TrigNorm norm, std::uint64_t seed) {
  const kc::DeviceTrigLines<T> plan(n, kind, norm, kc::DeviceLimits::current(),
                                    kc::TileKernels::compiled_where_available);
  const std::size_t groups = strided ? 2 : 1;
  const auto sn = static_cast<std::ptrdiff_t>(n), sc = static_cast<std::ptrdiff_t>(count);
  const kernels::LineBatch lines = strided ? kernels::LineBatch{n, sc, count, 1, groups, sn * sc}
                                           : kernels::LineBatch{n, 1, count, sn, 1, 0};
  auto at = [&](std::size_t g, std::size_t lane, std::size_t i) {
    return static_cast<std::size_t>(static_cast<std::ptrdiff_t>(g) * lines.group_distance +
                                    static_cast<std::ptrdiff_t>(lane) * lines.lane_distance +
                                    static_cast<std::ptrdiff_t>(i) * lines.point_stride);
  };
  const std::size_t total = groups * count * n;
  std::vector<T> in(total, nan_value<T>());
  std::vector<std::vector<long double>> x(groups * count);
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t l = 0; l < count; ++l) {
      auto& line = x[g * count + l];
      line = random_reals(n, seed + g * count + l);
      for (std::size_t i = 0; i < n; ++i) in[at(g, l, i)] = static_cast<T>(line[i]);
    }
  const T scale = T(0.75);
  const auto out = runner.run(in, plan.workspace_bytes(lines), [&](T* d, void* w, cudaStream_t s) {
    plan.execute(d, lines, w, scale, s);
  });
  L2Sums sums;
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t l = 0; l < count; ++l) {
      const auto want = trig_reference(x[g * count + l], kind, norm);
      for (std::size_t i = 0; i < n; ++i) sums.add(out[at(g, l, i)], want[i], 0.75L);
    }
  const double tol = tolerance<T>(c_for_line(n) + 2.0, n);
  EXPECT_LE(worst.check<T>(sums.relative(), tol), tol) << kc::to_string(kind) << " norm " << kc::to_string(norm) << " n=" << n
                                  << " lines=" << count << (strided ? " strided" : " contiguous") << " ("
                                  << sizeof(T) * 8 << "-bit)";
}

TEST(CudaTrigLines, AllKindsBothNormsAgainstFftwLongDouble) {
  SKIP_WITHOUT_CUDA();
  worst = {};
  RealRunner<float> single;
  RealRunner<double> twice;
  for (std::size_t n : real_lengths) {
    const std::size_t count = n > 4097 ? 3 : 5;
    for (TrigKind kind : trig_kinds)
      for (TrigNorm norm : {TrigNorm::none, TrigNorm::ortho})
        for (bool strided : {false, true}) {
          check_trig_lines(single, n, count, strided, kind, norm, 31 * n);
          check_trig_lines(twice, n, count, strided, kind, norm, 31 * n);
        }
  }
  worst.print();
}

// One line (the pair's second half empty) and an even count; wide strided
// batches (many pairs, the four-step plan on strided lanes).
TEST(CudaTrigLines, LineCounts) {
  SKIP_WITHOUT_CUDA();
  worst = {};
  RealRunner<double> twice;
  RealRunner<float> single;
  for (TrigKind kind : trig_kinds) {
    check_trig_lines(twice, 17, 1, false, kind, TrigNorm::ortho, 5);
    check_trig_lines(twice, 16, 4, true, kind, TrigNorm::none, 6);
    check_trig_lines(single, 64, 257, true, kind, TrigNorm::none, 7);
    check_trig_lines(twice, 8192, 33, true, kind, TrigNorm::ortho, 8);
  }
  worst.print();
}

// The reference itself: fftwl's r2r with the ortho weights is scipy's
// definition (direct sums) and, with ortho, an orthogonal matrix (type 3
// ortho undoes type 2 ortho).
TEST(CudaTrigLines, ReferenceMatchesDefinitions) {
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{16}, std::size_t{33}}) {
    const auto x = random_reals(n, 900 + n);
    for (TrigKind kind : trig_kinds) {
      const auto direct = trig_direct(x, kind);
      const auto fftw = trig_reference(x, kind, TrigNorm::none);
      L2Sums s;
      for (std::size_t i = 0; i < n; ++i) s.add(fftw[i], direct[i]);
      EXPECT_LE(s.relative(), 1e-15) << kc::to_string(kind) << " n=" << n;
    }
    for (auto [two, three] : {std::pair{TrigKind::dct2, TrigKind::dct3}, std::pair{TrigKind::dst2, TrigKind::dst3}}) {
      const auto back = trig_reference(trig_reference(x, two, TrigNorm::ortho), three, TrigNorm::ortho);
      L2Sums s;
      for (std::size_t i = 0; i < n; ++i) s.add(back[i], x[i]);
      EXPECT_LE(s.relative(), 1e-15) << "ortho round trip n=" << n;
    }
  }
}

// Type 3 undoes type 2 on the device: ortho exactly, backward up to 2n.
TEST(CudaTrigLines, RoundTrips) {
  SKIP_WITHOUT_CUDA();
  RealRunner<double> runner;
  const kc::DeviceLimits limits = kc::DeviceLimits::current();
  for (std::size_t n : {std::size_t{7}, std::size_t{100}, std::size_t{4097}}) {
    for (auto [two, three] : {std::pair{TrigKind::dct2, TrigKind::dct3}, std::pair{TrigKind::dst2, TrigKind::dst3}}) {
      for (TrigNorm norm : {TrigNorm::none, TrigNorm::ortho}) {
        const kc::DeviceTrigLines<double> forward(n, two, norm, limits, kc::TileKernels::compiled_where_available);
        const kc::DeviceTrigLines<double> backward(n, three, norm, limits, kc::TileKernels::compiled_where_available);
        const std::size_t count = 3;
        const kernels::LineBatch lines{n, 1, count, static_cast<std::ptrdiff_t>(n), 1, 0};
        const auto x = random_reals(n * count, 40 + n);
        const std::vector<double> in(x.begin(), x.end());
        const double s = norm == TrigNorm::ortho ? 1.0 : 1.0 / (2.0 * static_cast<double>(n));
        const std::size_t work = std::max(forward.workspace_bytes(lines), backward.workspace_bytes(lines));
        const auto out = runner.run(in, work, [&](double* d, void* w, cudaStream_t st) {
          forward.execute(d, lines, w, 1.0, st);
          backward.execute(d, lines, w, s, st);
        });
        L2Sums sums;
        for (std::size_t i = 0; i < in.size(); ++i) sums.add(out[i], x[i]);
        EXPECT_LE(sums.relative(), 2 * tolerance<double>(c_for_line(n) + 2.0, n))
            << kc::to_string(two) << " then " << kc::to_string(three) << " n=" << n;
      }
    }
  }
}

// ------------------------------------------------------------------ DeviceBrickPlan

// rfftn of a real [nz][ny][nx] brick by the plan's real mode, against
// fftwl's r2c; then the inverse of fftwl's spectrum with 1/N gives x back.
// `x_kernel`, where given, is the tile kernel the x rows must run on
// (tile_kernels_used: 'F' for the split folded into the FFT's tile).
template <class T>
void check_real_brick(std::size_t nz, std::size_t ny, std::size_t nx, std::uint64_t seed, char x_kernel = 0) {
  const std::size_t half = nx / 2 + 1, pitch = 2 * half;
  const Shape brick{nz, ny, half};
  VolumeTransform transform;
  transform.kind = TransformKind::real;
  transform.real_length = nx;
  const kc::DeviceBrickPlan<T> plan(brick, AxisSet::all(), transform);
  EXPECT_NE(plan.describe().find("real " + std::to_string(nx) + " -> " + std::to_string(half)), std::string::npos)
      << plan.describe();
  if (x_kernel != 0) EXPECT_EQ(plan.tile_kernels_used()[0], x_kernel) << plan.describe();
  const std::string what = std::to_string(nz) + "x" + std::to_string(ny) + "x" + std::to_string(nx) + " (" +
                           std::to_string(sizeof(T) * 8) + "-bit)";
  const auto x = random_reals(nz * ny * nx, seed);
  std::vector<long double> xl = x;
  std::vector<LongComplex> X(nz * ny * half);
  fftwl_plan p = fftwl_plan_dft_r2c_3d(static_cast<int>(nz), static_cast<int>(ny), static_cast<int>(nx), xl.data(),
                                       reinterpret_cast<fftwl_complex*>(X.data()), FFTW_ESTIMATE);
  fftwl_execute(p);
  fftwl_destroy_plan(p);

  std::vector<T> in(nz * ny * pitch, nan_value<T>());
  for (std::size_t r = 0; r < nz * ny; ++r)
    for (std::size_t j = 0; j < nx; ++j) in[r * pitch + j] = static_cast<T>(x[r * nx + j]);
  RealRunner<T> runner;
  const auto out = runner.run(in, plan.workspace_bytes(), [&](T* d, void* w, cudaStream_t s) {
    plan.execute(reinterpret_cast<kernels::Complex<T>*>(d), brick, w, false, T(1), s);
  });
  L2Sums forward;
  for (std::size_t i = 0; i < X.size(); ++i) forward.add(std::complex<T>(out[2 * i], out[2 * i + 1]), X[i]);
  double c = c_stockham;
  for (std::size_t n : {nz, ny, nx, nx / 2}) c = std::max(c, n > 1 ? c_for_line(n) : c);
  const double tol = tolerance<T>(c + 2.0, nz * ny * nx);
  EXPECT_LE(worst.check<T>(forward.relative(), tol), tol) << "rfftn " << what;

  std::vector<T> spectrum(nz * ny * pitch, nan_value<T>());
  for (std::size_t i = 0; i < X.size(); ++i) {
    spectrum[2 * i] = static_cast<T>(X[i].real());
    spectrum[2 * i + 1] = static_cast<T>(X[i].imag());
  }
  const long double inv = 1.0L / static_cast<long double>(nz * ny * nx);
  const auto back = runner.run(spectrum, plan.workspace_bytes(), [&](T* d, void* w, cudaStream_t s) {
    plan.execute(reinterpret_cast<kernels::Complex<T>*>(d), brick, w, true, static_cast<T>(inv), s);
  });
  L2Sums inverse;
  for (std::size_t r = 0; r < nz * ny; ++r)
    for (std::size_t j = 0; j < nx; ++j) inverse.add(back[r * pitch + j], x[r * nx + j]);
  EXPECT_LE(worst.check<T>(inverse.relative(), 2 * tol), 2 * tol) << "irfftn " << what;

  // The out-of-core passes' split: x and y on one plan, z on another
  // (forward: the real rows first; inverse: z first, the real rows last).
  const kc::DeviceBrickPlan<T> xy(brick, AxisSet::xy(), transform);
  const kc::DeviceBrickPlan<T> z(brick, AxisSet::only_z(), transform);
  const std::size_t work = std::max(xy.workspace_bytes(), z.workspace_bytes());
  const auto split = runner.run(in, work, [&](T* d, void* w, cudaStream_t s) {
    xy.execute(reinterpret_cast<kernels::Complex<T>*>(d), brick, w, false, T(1), s);
    z.execute(reinterpret_cast<kernels::Complex<T>*>(d), brick, w, false, T(1), s);
  });
  L2Sums split_forward;
  for (std::size_t i = 0; i < X.size(); ++i) split_forward.add(std::complex<T>(split[2 * i], split[2 * i + 1]), X[i]);
  EXPECT_LE(worst.check<T>(split_forward.relative(), tol), tol) << "rfftn in two passes " << what;
  const auto split_back = runner.run(spectrum, work, [&](T* d, void* w, cudaStream_t s) {
    z.execute(reinterpret_cast<kernels::Complex<T>*>(d), brick, w, true, T(1), s);
    xy.execute(reinterpret_cast<kernels::Complex<T>*>(d), brick, w, true, static_cast<T>(inv), s);
  });
  L2Sums split_inverse;
  for (std::size_t r = 0; r < nz * ny; ++r)
    for (std::size_t j = 0; j < nx; ++j) split_inverse.add(split_back[r * pitch + j], x[r * nx + j]);
  EXPECT_LE(worst.check<T>(split_inverse.relative(), 2 * tol), 2 * tol) << "irfftn in two passes " << what;
}

TEST(CudaBrickReal, RfftnAgainstFftwLongDouble) {
  SKIP_WITHOUT_CUDA();
  worst = {};
  std::uint64_t seed = 60;
  for (auto [nz, ny, nx] : {std::tuple{3, 5, 9}, std::tuple{4, 6, 16}, std::tuple{1, 1, 1}, std::tuple{2, 3, 2},
                            std::tuple{5, 1, 7}, std::tuple{7, 9, 100}, std::tuple{1, 4, 4097}}) {
    check_real_brick<float>(nz, ny, nx, ++seed);
    check_real_brick<double>(nz, ny, nx, seed);
  }
  // Rows enough for a tile: the real ends folded in (NVRTC, the plan's
  // default cache).
  check_real_brick<float>(8, 16, 512, ++seed, 'F');
  check_real_brick<double>(4, 9, 1000, seed, 'F');
  check_real_brick<float>(5, 7, 343, ++seed, 'F');
  worst.print();
}

TEST(CudaBrickReal, RefusesAMismatchedHalfSpectrum) {
  SKIP_WITHOUT_CUDA();
  VolumeTransform transform;
  transform.kind = TransformKind::real;
  transform.real_length = 16;
  EXPECT_THROW(kc::DeviceBrickPlan<float>(Shape{2, 2, 8}, AxisSet::all(), transform), Error);
  EXPECT_NO_THROW(kc::DeviceBrickPlan<float>(Shape{2, 2, 9}, AxisSet::all(), transform));
}

// describe() names each stage: the real rows with their half-length or
// paired complex lines, the trigonometric kind and norm on every axis.
TEST(CudaBrickReal, DescribeNamesTheStages) {
  SKIP_WITHOUT_CUDA();
  VolumeTransform real;
  real.kind = TransformKind::real;
  real.real_length = 1000;
  const kc::DeviceBrickPlan<float> even(Shape{4, 6, 501}, AxisSet::all(), real);
  const std::string e = even.describe();
  EXPECT_NE(e.find("device axis x: real 1000 -> 501 (half-length complex 500"), std::string::npos) << e;
  EXPECT_NE(e.find("device axis y:"), std::string::npos) << e;
  EXPECT_EQ(even.tile_kernels_used().size(), 3u);
  real.real_length = 1001;
  const kc::DeviceBrickPlan<float> odd(Shape{4, 6, 501}, AxisSet::all(), real);
  EXPECT_NE(odd.describe().find("real 1001 -> 501 (two rows per complex line of 1001"), std::string::npos)
      << odd.describe();
  VolumeTransform trig;
  trig.kind = TransformKind::trig;
  trig.trig = TrigKind::dst3;
  trig.trig_norm = TrigNorm::ortho;
  const kc::DeviceBrickPlan<double> t(Shape{5, 6, 7}, AxisSet::all(), trig);
  const std::string d = t.describe();
  EXPECT_NE(d.find("device axis x: dst3 7 norm ortho"), std::string::npos) << d;
  EXPECT_NE(d.find("device axis z: dst3 5 norm ortho"), std::string::npos) << d;
  EXPECT_THROW(t.execute(nullptr, Shape{5, 6, 7}, nullptr, false, 1.0, nullptr), Error);
  EXPECT_THROW(even.execute_real(nullptr, Shape{4, 6, 501}, nullptr, 1.0f, nullptr), Error);
  std::printf("%s%s%s", e.c_str(), odd.describe().c_str(), d.c_str());
}

// dctn/dstn of a real brick against fftwl's separable 3D r2r (the ortho
// weights: type 2 on the outputs, type 3 on the inputs, per axis).
template <class T>
void check_trig_brick(std::size_t nz, std::size_t ny, std::size_t nx, TrigKind kind, TrigNorm norm,
                      std::uint64_t seed) {
  VolumeTransform transform;
  transform.kind = TransformKind::trig;
  transform.trig = kind;
  transform.trig_norm = norm;
  const Shape brick{nz, ny, nx};
  const kc::DeviceBrickPlan<T> plan(brick, AxisSet::all(), transform);
  const auto x = random_reals(brick.elements(), seed);
  auto weight = [&](std::size_t z, std::size_t y, std::size_t xx) {
    if (norm != TrigNorm::ortho) return 1.0L;
    return ortho_weight(kind, z, nz) * ortho_weight(kind, y, ny) * ortho_weight(kind, xx, nx);
  };
  std::vector<long double> in = x, want(x.size());
  auto index = [&](std::size_t z, std::size_t y, std::size_t xx) { return (z * ny + y) * nx + xx; };
  if (!type_two(kind))
    for (std::size_t z = 0; z < nz; ++z)
      for (std::size_t y = 0; y < ny; ++y)
        for (std::size_t xx = 0; xx < nx; ++xx) in[index(z, y, xx)] *= weight(z, y, xx);
  const fftwl_r2r_kind k = fftw_kind(kind);
  fftwl_plan p = fftwl_plan_r2r_3d(static_cast<int>(nz), static_cast<int>(ny), static_cast<int>(nx), in.data(),
                                   want.data(), k, k, k, FFTW_ESTIMATE);
  fftwl_execute(p);
  fftwl_destroy_plan(p);
  if (type_two(kind))
    for (std::size_t z = 0; z < nz; ++z)
      for (std::size_t y = 0; y < ny; ++y)
        for (std::size_t xx = 0; xx < nx; ++xx) want[index(z, y, xx)] *= weight(z, y, xx);
  // An axis of one point is not transformed by the brick plan: its factor
  // (2 for an unnormalised type 2, 1 otherwise) is in the engine's run
  // scale (device_brick_plan.hpp), so it leaves the reference here.
  if (type_two(kind) && norm == TrigNorm::none)
    for (std::size_t n : {nz, ny, nx})
      if (n == 1)
        for (long double& w : want) w /= 2;
  const std::vector<T> host(x.begin(), x.end());
  RealRunner<T> runner;
  const auto out = runner.run(host, plan.workspace_bytes(), [&](T* d, void* w, cudaStream_t s) {
    plan.execute_real(d, brick, w, T(2), s);
  });
  L2Sums sums;
  for (std::size_t i = 0; i < out.size(); ++i) sums.add(out[i], want[i], 2.0L);
  double c = c_stockham;
  for (std::size_t n : {nz, ny, nx}) c = std::max(c, c_for_line(n));
  const double tol = tolerance<T>(c + 2.0, brick.elements());
  EXPECT_LE(worst.check<T>(sums.relative(), tol), tol)
      << kc::to_string(kind) << " norm " << kc::to_string(norm) << " " << nz << "x" << ny << "x" << nx << " ("
      << sizeof(T) * 8 << "-bit)";
}

TEST(CudaBrickTrig, SeparableAgainstFftwLongDouble) {
  SKIP_WITHOUT_CUDA();
  worst = {};
  std::uint64_t seed = 700;
  for (auto [nz, ny, nx] : {std::tuple{3, 5, 7}, std::tuple{4, 6, 8}, std::tuple{1, 1, 1}, std::tuple{2, 1, 9},
                            std::tuple{16, 3, 1}, std::tuple{5, 33, 12}})
    for (TrigKind kind : trig_kinds)
      for (TrigNorm norm : {TrigNorm::none, TrigNorm::ortho}) {
        check_trig_brick<float>(nz, ny, nx, kind, norm, ++seed);
        check_trig_brick<double>(nz, ny, nx, kind, norm, seed);
      }
  worst.print();
}

}  // namespace
}  // namespace oocfft::test
