// oocfft: the command line. `oocfft demo` is the main job on an embedded
// default volume; `oocfft info` explains a plan.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

#include "apps/cli_options.hpp"
#include "apps/spot_check.hpp"

namespace {

using namespace oocfft;

// Tolerance of the demo's checks, the rule of the test suite:
// C * eps * sqrt(log2 N), with C = 8 for three axes of rounding.
template <class T>
double tolerance(std::size_t n) {
  return 8.0 * std::numeric_limits<T>::epsilon() * std::sqrt(std::max(1.0, std::log2(static_cast<double>(n))));
}

template <class T>
int run_demo(const apps::CliOptions& cli) {
  const Shape& shape = cli.shape;
  const std::size_t n = shape.elements();
  std::printf("oocfft demo: %s complex%s, seeded random values in [-0.5, 0.5) (seed %llu)\n",
              shape.to_string().c_str(), std::is_same_v<T, float> ? "64" : "128",
              static_cast<unsigned long long>(cli.seed));
  std::vector<std::complex<T>> input(n);
  std::mt19937_64 rng(cli.seed);
  std::uniform_real_distribution<T> u(-0.5, 0.5);
  for (auto& z : input) z = {u(rng), u(rng)};

  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  Options options = cli.options;
  // Progress on streamed plans: a line per tenth of the bricks, on stderr.
  options.progress = [](const Progress& p) {
    const std::size_t step = std::max<std::size_t>(1, p.bricks_total / 10);
    if (p.bricks_total > 1 && (p.bricks_done % step == 0 || p.bricks_done == p.bricks_total))
      std::fprintf(stderr, "  pass %u/%u: %zu/%zu bricks, %.1f MiB moved\n", p.pass + 1, p.passes, p.bricks_done,
                   p.bricks_total, static_cast<double>(p.bytes_moved) / (1 << 20));
  };
  const Plan plan(shape, std::is_same_v<T, float> ? Precision::single : Precision::double_precision, options);
  const double plan_s = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf("%s", plan.describe().c_str());

  std::vector<std::complex<T>> data = input;
  t0 = Clock::now();
  plan.execute(data.data(), Direction::forward);
  const double forward_s = std::chrono::duration<double>(Clock::now() - t0).count();
  const apps::SpotCheckResult spot = apps::spot_check(input, data, shape, cli.spot_bins, cli.seed + 1);

  t0 = Clock::now();
  plan.execute(data.data(), Direction::inverse);
  const double inverse_s = std::chrono::duration<double>(Clock::now() - t0).count();
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < n; ++i) {
    num += std::norm(std::complex<long double>(data[i].real() - input[i].real(), data[i].imag() - input[i].imag()));
    den += std::norm(std::complex<long double>(input[i].real(), input[i].imag()));
  }
  const double round_trip = static_cast<double>(std::sqrt(num / den));
  const double flops = 5.0 * static_cast<double>(n) * std::log2(std::max(2.0, static_cast<double>(n)));
  const double tol = tolerance<T>(n);
  std::printf("plan     %10.3f ms\n", plan_s * 1e3);
  std::printf("forward  %10.3f ms  %8.2f GFLOP/s\n", forward_s * 1e3, flops / forward_s * 1e-9);
  std::printf("inverse  %10.3f ms  %8.2f GFLOP/s\n", inverse_s * 1e3, flops / inverse_s * 1e-9);
  std::printf("error vs direct long-double DFT at %zu bins: %.3e (tolerance %.3e)\n", spot.bins,
              spot.relative_error, tol);
  std::printf("round-trip relative error:                   %.3e (tolerance %.3e)\n", round_trip, tol);
  const bool ok = spot.relative_error <= tol && round_trip <= tol;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const apps::CliOptions cli = apps::parse_cli(std::vector<std::string>(argv + 1, argv + argc));
    switch (cli.command) {
      case apps::Command::help:
        std::printf("%s", apps::usage().c_str());
        return 0;
      case apps::Command::info:
        std::printf("%s", Plan(cli.shape, cli.precision, cli.options).describe().c_str());
        return 0;
      case apps::Command::demo:
        if (cli.options.norm != Norm::backward)
          throw Error(ErrorKind::invalid_argument, "demo checks the unscaled forward transform: use --norm backward");
        return cli.precision == Precision::single ? run_demo<float>(cli) : run_demo<double>(cli);
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n%s", e.what(), apps::usage().c_str());
    return 2;
  }
  return 0;
}
