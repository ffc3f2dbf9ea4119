#include "apps/demo.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>

#include "apps/marginal_check.hpp"
#include "apps/progress_reporter.hpp"
#include "apps/run_summary.hpp"
#include "apps/seeded_volume.hpp"
#include "apps/spot_check.hpp"
#include "core/format_bytes.hpp"

namespace oocfft::apps {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Tolerance of the demo's checks, the rule of the test suite (docs/ARCHITECTURE.md,
// "Tests"): C * eps * sqrt(log2 N), with C = 8 for three axes of rounding.
template <class T>
double tolerance(std::size_t n) {
  return 8.0 * std::numeric_limits<T>::epsilon() * std::sqrt(std::max(1.0, std::log2(static_cast<double>(n))));
}

// The forward transform's scale under numpy's norm, applied to the
// references so that every norm can be checked.
double forward_scale(Norm norm, std::size_t n) {
  switch (norm) {
    case Norm::backward: return 1.0;
    case Norm::ortho: return 1.0 / std::sqrt(static_cast<double>(n));
    case Norm::forward: return 1.0 / static_cast<double>(n);
  }
  return 1.0;
}

template <class T>
int run_typed(const DemoArgs& args, Options options, const std::atomic<bool>& interrupted) {
  const Shape& shape = args.shape;
  const std::size_t n = shape.elements();
  const std::size_t bytes = shape.bytes(sizeof(std::complex<T>));
  std::printf("oocfft demo: %s complex%s (%s), seeded random values in [-0.5, 0.5) (seed %llu)\n",
              shape.to_string().c_str(), std::is_same_v<T, float> ? "64" : "128",
              format_bytes(static_cast<double>(bytes)).c_str(), static_cast<unsigned long long>(args.seed));

  ProgressReporter progress(stderr, progress_style_for(stderr));
  options.progress = [&progress](const Progress& p) { progress.update(p); };
  options.cancel = [&interrupted] { return interrupted.load(std::memory_order_relaxed); };
  auto t = Clock::now();
  const Plan plan(shape, std::is_same_v<T, float> ? Precision::single : Precision::double_precision, options);
  const double plan_s = seconds_since(t);
  std::printf("%s", plan.describe().c_str());

  t = Clock::now();
  checks::VolumeBuffer<T> volume(n);
  checks::fill_seeded(volume.data(), n, args.seed);
  const double generate_s = seconds_since(t);
  t = Clock::now();
  const checks::Marginals sums = checks::marginals(volume.data(), shape);
  const double sums_s = seconds_since(t);

  RunReport forward_report;
  progress.begin();
  t = Clock::now();
  plan.execute(volume.data(), Direction::forward, &forward_report);
  const double forward_s = seconds_since(t);
  progress.finish();

  t = Clock::now();
  const double scale = forward_scale(options.norm, n);
  const checks::SpotCheckResult spot = checks::spot_check(volume.data(), shape, args.seed, args.bins, args.seed + 1, scale);
  const double marginal = checks::marginal_error(volume.data(), shape, sums, scale);
  const double check_s = seconds_since(t);

  progress.begin();
  t = Clock::now();
  plan.execute(volume.data(), Direction::inverse);
  const double inverse_s = seconds_since(t);
  progress.finish();
  t = Clock::now();
  const double round_trip = checks::round_trip_error(volume.data(), n, args.seed);
  const double round_trip_s = seconds_since(t);

  const double flops = 5.0 * static_cast<double>(n) * std::log2(std::max(2.0, static_cast<double>(n)));
  const double tol = tolerance<T>(n);
  std::printf("%s\n", run_summary(forward_s, bytes, forward_report, "host array").c_str());
  std::printf("plan                 %10.3f ms\n", plan_s * 1e3);
  std::printf("generate             %10.3f ms  (first touch of the volume's pages)\n", generate_s * 1e3);
  std::printf("forward              %10.3f ms  %8.2f GFLOP/s (5 N log2 N / t)\n", forward_s * 1e3,
              flops / forward_s * 1e-9);
  std::printf("checks               %10.3f ms  (marginal sums %.3f ms before the forward run)\n", check_s * 1e3,
              sums_s * 1e3);
  std::printf("inverse              %10.3f ms  %8.2f GFLOP/s\n", inverse_s * 1e3, flops / inverse_s * 1e-9);
  std::printf("round-trip check     %10.3f ms\n", round_trip_s * 1e3);
  std::printf("error vs direct long-double DFT at %zu bins: %.3e (tolerance %.3e)\n", spot.bins, spot.relative_error,
              tol);
  std::printf("marginal self-test (lines through the origin vs DFT of sums): %.3e (tolerance %.3e)\n", marginal, tol);
  std::printf("round-trip relative error: %.3e (tolerance %.3e)\n", round_trip, tol);
  // Written so that a NaN error fails.
  const bool ok = spot.relative_error <= tol && marginal <= tol && round_trip <= tol;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

}  // namespace

int run_demo(const DemoArgs& args, const Options& options, const std::atomic<bool>& interrupted) {
  return args.precision == Precision::single ? run_typed<float>(args, options, interrupted)
                                             : run_typed<double>(args, options, interrupted);
}

}  // namespace oocfft::apps
