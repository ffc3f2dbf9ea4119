// The streaming pipeline on the host backend: every strategy, 1 to 4
// streams and several brick sizes must give the in-core result, for odd and
// prime axes, both precisions and both directions. Small budgets force the
// out-of-core strategies on small volumes, as docs/ARCHITECTURE.md, "Tests", says.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include "tests/engine_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

constexpr double c_streamed = 6.0;  // as the in-core volume tests: three axes of rounding

const Shape pipeline_shapes[] = {{16, 12, 10}, {7, 11, 13}, {5, 17, 9}, {32, 8, 24}, {1, 9, 30}, {12, 1, 5}};
const Strategy streamed[] = {Strategy::two_pass, Strategy::three_pass, Strategy::line_transpose};

template <class T>
void check_matrix(Direction direction) {
  constexpr std::size_t e = sizeof(std::complex<T>);
  // Carry-over fractions the two-pass plans ran with: none, part, all.
  bool none_resident = false, part_resident = false, all_resident = false;
  for (const Shape& shape : pipeline_shapes) {
    const std::size_t n = shape.elements();
    const auto x = to_precision<T>(random_signal(n, 1000 + n));
    const auto ref = widen(in_core_result(x, shape, direction));
    for (Strategy strategy : streamed) {
      for (unsigned streams = 1; streams <= 4; ++streams) {
        for (std::size_t multiple : {1, 3, 40}) {
          const EngineCase c{.shape = shape, .strategy = strategy, .streams = streams, .multiple = multiple};
          const auto [y, report, plan] = run_case(c, x, direction);
          EXPECT_LE(relative_l2(y, ref), tolerance<T>(c_streamed, n)) << c.name() << " " << to_string(direction);
          EXPECT_EQ(report.strategy, strategy);
          EXPECT_GE(report.bricks, report.passes);
          // What stayed resident was neither written back nor read again.
          EXPECT_EQ(report.bytes_moved, 2 * report.passes * n * e - 2 * report.resident_bytes);
          if (strategy != Strategy::two_pass) EXPECT_EQ(report.resident_bytes, 0u);
          if (strategy == Strategy::two_pass && report.passes == 2) {
            none_resident |= report.resident_bytes == 0;
            part_resident |= report.resident_bytes > 0 && report.resident_bytes < n * e;
            all_resident |= report.resident_bytes == n * e;
          }
        }
      }
    }
  }
  EXPECT_TRUE(none_resident && part_resident && all_resident)
      << "two-pass plans should run with no, part of and all of the volume kept between the passes: " << none_resident
      << part_resident << all_resident;
}

TEST(EnginePipeline, EveryStrategyMatchesInCoreSingleForward) { check_matrix<float>(Direction::forward); }
TEST(EnginePipeline, EveryStrategyMatchesInCoreSingleInverse) { check_matrix<float>(Direction::inverse); }
TEST(EnginePipeline, EveryStrategyMatchesInCoreDoubleForward) { check_matrix<double>(Direction::forward); }
TEST(EnginePipeline, EveryStrategyMatchesInCoreDoubleInverse) { check_matrix<double>(Direction::inverse); }

// Against the long-double reference too, so a shared error in the in-core
// path and the pipeline cannot hide.
TEST(EnginePipeline, TwoPassMatchesFftwLongDouble) {
  const Shape shape{9, 14, 15};
  const std::size_t n = shape.elements();
  const auto x = random_signal(n, 4242);
  const auto ref = fftwl_dft(x, {9, 14, 15}, FFTW_FORWARD);
  auto y = to_precision<float>(x);
  Options o;
  o.backend = Backend::host;
  o.device_memory_budget = budget_for(Strategy::two_pass, shape, 8, 4, 1);
  RunReport report;
  Plan(shape, Precision::single, o).execute(y.data(), Direction::forward, &report);
  EXPECT_EQ(report.strategy, Strategy::two_pass);
  EXPECT_LE(relative_l2(y, ref), tolerance<float>(c_streamed, n));
}

// The automatic choice: fewest passes that fit.
TEST(EnginePipeline, AutomaticPicksFewestPassesThatFit) {
  const Shape shape{24, 20, 18};
  const std::size_t e = 8, n = shape.elements();
  struct Case {
    std::size_t budget;
    Strategy expected;
  };
  const Case cases[] = {
      {0, Strategy::in_core},                                          // no budget on the host: in place
      {2 * n * e, Strategy::in_core},                                  // volume + workspace fit
      {budget_for(Strategy::two_pass, shape, e, 4, 2), Strategy::two_pass},
      {budget_for(Strategy::three_pass, shape, e, 4, 3), Strategy::three_pass},  // a plane does not fit
  };
  const auto x = to_precision<float>(random_signal(n, 7));
  const auto ref = widen(in_core_result(x, shape, Direction::forward));
  for (const Case& c : cases) {
    Options o;
    o.backend = Backend::host;
    o.device_memory_budget = c.budget;
    Plan plan(shape, Precision::single, o);
    auto y = x;
    RunReport report;
    plan.execute(y.data(), Direction::forward, &report);
    EXPECT_EQ(report.strategy, c.expected) << c.budget << "\n" << plan.describe();
    EXPECT_LE(relative_l2(y, ref), tolerance<float>(c_streamed, n));
  }
}

// Every norm mode applies its factor exactly once, in the last pass.
TEST(EnginePipeline, NormModesMatchInCore) {
  const Shape shape{6, 10, 7};
  const std::size_t n = shape.elements();
  const auto x = to_precision<double>(random_signal(n, 99));
  for (Norm norm : {Norm::backward, Norm::ortho, Norm::forward}) {
    for (Direction d : {Direction::forward, Direction::inverse}) {
      const auto ref = widen(in_core_result(x, shape, d, norm));
      for (Strategy strategy : streamed) {
        Options o;
        o.backend = Backend::host;
        o.norm = norm;
        o.strategy = strategy;
        o.device_memory_budget = budget_for(strategy, shape, 16, 4, 1);
        auto y = x;
        Plan(shape, Precision::double_precision, o).execute(y.data(), d);
        EXPECT_LE(relative_l2(y, ref), tolerance<double>(c_streamed, n))
            << to_string(norm) << " " << to_string(d) << " " << to_string(strategy);
      }
    }
  }
}

// A plan is reused: repeated executions (forward then inverse) round-trip.
TEST(EnginePipeline, RoundTripThroughOnePlanPerDirection) {
  const Shape shape{20, 18, 22};
  const std::size_t n = shape.elements();
  const auto x = to_precision<float>(random_signal(n, 5));
  Options o;
  o.backend = Backend::host;
  o.streams = 3;
  o.device_memory_budget = budget_for(Strategy::two_pass, shape, 8, 3, 1);
  const Plan plan(shape, Precision::single, o);
  auto y = x;
  plan.execute(y.data(), Direction::forward);
  plan.execute(y.data(), Direction::inverse);
  EXPECT_LE(relative_l2(y, widen(x)), tolerance<float>(2 * c_streamed, n));
}

// A larger volume with many bricks and a staging budget smaller than the
// device share: the staging budget bounds the bricks.
TEST(EnginePipeline, StagingBudgetBoundsTheBricks) {
  const Shape shape{64, 48, 40};
  const std::size_t n = shape.elements();
  const auto x = to_precision<float>(random_signal(n, 11));
  const auto ref = widen(in_core_result(x, shape, Direction::forward));
  Options o;
  o.backend = Backend::host;
  o.device_memory_budget = n * 8 / 2;  // not in core: half the volume
  o.host_staging_budget = 4 * 48 * 40 * 8 * 2;  // two planes per stream
  Plan plan(shape, Precision::single, o);
  auto y = x;
  RunReport report;
  plan.execute(y.data(), Direction::forward, &report);
  EXPECT_EQ(report.strategy, Strategy::two_pass);
  EXPECT_LE(report.staging_bytes, o.host_staging_budget);
  EXPECT_GE(report.bricks, 64u / 2 + 1);
  EXPECT_LE(relative_l2(y, ref), tolerance<float>(c_streamed, n));
}

}  // namespace
}  // namespace oocfft::test
