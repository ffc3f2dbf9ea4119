// The engine's answer to a device that cannot hold a plan's buffers at
// execution: it fits the plan to half the memory and tries again, before
// any data moves, and then the report, describe() and the next execution
// all follow the plan that ran. Driven without a GPU: the host backend
// behind a device that refuses, as cudaMalloc would, any plan holding more
// than it has.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <tbb/task_arena.h>

#include <complex>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "apps/run_summary.hpp"
#include "engine/backends/host/host_backend.hpp"
#include "engine/pipeline/streaming_engine.hpp"
#include "tests/engine_test_support.hpp"
#include "tests/reference.hpp"
#include "volume/host_volume.hpp"
#include "volume/real_spectrum_store.hpp"

namespace oocfft::test {
namespace {

const Shape shape{16, 16, 16};

class SmallDevice final : public engine::ExecutionBackend {
 public:
  SmallDevice(std::unique_ptr<engine::ExecutionBackend> inner, std::size_t capacity, unsigned* refusals)
      : inner_(std::move(inner)), capacity_(capacity), refusals_(refusals) {}
  Backend kind() const override { return inner_->kind(); }
  std::size_t default_device_budget(int device) const override { return inner_->default_device_budget(device); }
  std::vector<int> devices() const override { return inner_->devices(); }
  std::string exchange_route() const override { return inner_->exchange_route(); }
  std::shared_ptr<const engine::PassKernelSet> build(const engine::PassPlan& plan, int device) const override {
    return inner_->build(plan, device);
  }
  void execute(const engine::FittedPlan& fitted, volume::VolumeStore& store, const engine::RunContext& run,
               RunReport* report) const override {
    if (fitted.device_bytes() > capacity_) {
      ++*refusals_;
      throw engine::DeviceBuffersUnavailable{"the test device holds " + std::to_string(capacity_) + " bytes"};
    }
    inner_->execute(fitted, store, run, report);
  }
  const volume::PageLocker* page_locker() const override { return inner_->page_locker(); }
  engine::LinkRates link_rates() const override { return inner_->link_rates(); }

 private:
  std::unique_ptr<engine::ExecutionBackend> inner_;
  std::size_t capacity_;
  unsigned* refusals_;
};

std::vector<std::complex<float>> seeded_input() {
  const std::vector<LongComplex> x = random_signal(shape.elements(), 17);
  std::vector<std::complex<float>> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = {float(x[i].real()), float(x[i].imag())};
  return y;
}

TEST(EngineReplan, AfterTheDeviceRefusesTheReportAndDescribeShowThePlanThatRan) {
  Options o;
  o.backend = Backend::host;
  o.strategy = Strategy::two_pass;
  o.streams = 2;
  o.device_memory_budget = budget_for(Strategy::two_pass, shape, 8, 2, 8);  // bricks of 8 planes
  // The device holds a third of the budget: the first plan's bricks cannot be had.
  const std::size_t capacity = o.device_memory_budget / 3;
  unsigned refusals = 0;
  const engine::StreamingEngine engine(
      shape, Precision::single, o,
      std::make_unique<SmallDevice>(engine::make_host_backend(shape, Precision::single), capacity, &refusals));
  const engine::PassPlan first = engine.plan();
  const std::string first_description = engine.describe();
  ASSERT_EQ(first.device_budget, o.device_memory_budget);

  const std::vector<std::complex<float>> x = seeded_input();
  std::vector<std::complex<float>> y = x;
  volume::HostVolume store(reinterpret_cast<std::byte*>(y.data()), {shape.nz, shape.ny, shape.nx},
                           sizeof(std::complex<float>));
  tbb::task_arena arena;
  RunReport report;
  engine.execute(store, false, 1.0, arena, &report);

  // The transform is right, through the smaller plan.
  const std::vector<std::complex<float>> expected = in_core_result(x, shape, Direction::forward);
  EXPECT_LT(relative_l2(y, widen(expected)), tolerance<float>(4, shape.elements()));

  // The report describes the plan that ran, which is now the engine's.
  ASSERT_GE(refusals, 1u);
  EXPECT_EQ(report.replans, refusals);
  const engine::PassPlan ran = engine.plan();
  EXPECT_LT(ran.device_budget, first.device_budget);
  EXPECT_LT(ran.brick_bytes, first.brick_bytes);
  EXPECT_EQ(report.device_budget, ran.device_budget);
  EXPECT_EQ(report.brick_bytes, ran.brick_bytes);
  EXPECT_EQ(report.strategy, ran.strategy);
  EXPECT_EQ(report.passes, ran.passes.size());
  EXPECT_EQ(report.streams, ran.streams);

  // describe() follows it, and says why it is not the first plan.
  const std::string d = engine.describe();
  EXPECT_NE(d, first_description);
  EXPECT_NE(d.find(std::string("strategy: ") + to_string(ran.strategy)), std::string::npos) << d;
  EXPECT_NE(d.find("re-planned at execution"), std::string::npos) << d;
  EXPECT_NE(d.find("the test device holds"), std::string::npos) << d;

  // The command's summary says so too.
  const std::string summary = apps::run_summary(report.seconds, shape.bytes(8), report, "host array");
  EXPECT_NE(summary.find("re-planned " + std::to_string(report.replans) + " time"), std::string::npos) << summary;

  // The next execution starts from the plan that ran: no refusal, no re-plan.
  const unsigned before = refusals;
  RunReport again;
  y = x;
  engine.execute(store, false, 1.0, arena, &again);
  EXPECT_EQ(refusals, before);
  EXPECT_EQ(again.replans, 0u);
  EXPECT_EQ(again.brick_bytes, report.brick_bytes);
  EXPECT_LT(relative_l2(y, widen(expected)), tolerance<float>(4, shape.elements()));
}

TEST(EngineReplan, WithoutARefusalTheReportShowsTheFirstPlan) {
  Options o;
  o.backend = Backend::host;
  o.strategy = Strategy::two_pass;
  o.device_memory_budget = budget_for(Strategy::two_pass, shape, 8, 4, 2);
  unsigned refusals = 0;
  const engine::StreamingEngine engine(
      shape, Precision::single, o,
      std::make_unique<SmallDevice>(engine::make_host_backend(shape, Precision::single), std::size_t(-1),
                                    &refusals));
  std::vector<std::complex<float>> y = seeded_input();
  volume::HostVolume store(reinterpret_cast<std::byte*>(y.data()), {shape.nz, shape.ny, shape.nx},
                           sizeof(std::complex<float>));
  tbb::task_arena arena;
  RunReport report;
  engine.execute(store, false, 1.0, arena, &report);
  EXPECT_EQ(refusals, 0u);
  EXPECT_EQ(report.replans, 0u);
  EXPECT_EQ(report.device_budget, o.device_memory_budget);
  EXPECT_EQ(report.brick_bytes, engine.plan().brick_bytes);
  EXPECT_EQ(engine.describe().find("re-planned"), std::string::npos);
  const std::string summary = apps::run_summary(report.seconds, shape.bytes(8), report, "host array");
  EXPECT_EQ(summary.find("re-planned"), std::string::npos) << summary;
}

// A re-plan may change the number of passes; a real inverse's x stage,
// back to real rows, must follow the passes of the plan that ran (the
// store learns them at each attempt), not those planned first.
TEST(EngineReplan, ARealInverseFollowsThePassesOfThePlanThatRan) {
  const Shape real{8, 16, 30};
  const Shape half = half_spectrum_shape(real);
  Options o;
  o.backend = Backend::host;
  o.streams = 2;
  // Bricks of one XY plane of the half spectrum: two passes.
  o.device_memory_budget = budget_for(Strategy::two_pass, half, sizeof(std::complex<double>), 2, 1);
  // At half of it a plane no longer fits a stream's share: three passes.
  const std::size_t capacity = o.device_memory_budget / 3;
  unsigned refusals = 0;
  const kernels::VolumeTransform transform{kernels::TransformKind::real, real.nx};
  const engine::StreamingEngine engine(
      half, Precision::double_precision, o,
      std::make_unique<SmallDevice>(engine::make_host_backend(half, Precision::double_precision, transform),
                                    capacity, &refusals),
      transform);
  ASSERT_EQ(engine.plan().passes.size(), 2u) << engine.describe();

  std::vector<double> x(real.elements());
  const std::vector<LongComplex> seed = random_signal(real.elements(), 23);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = double(seed[i].real());
  Options host;
  host.backend = Backend::host;
  std::vector<std::complex<double>> spectrum(half.elements());
  rfft3d(x.data(), spectrum.data(), real, host);

  std::vector<double> back(real.elements(), std::numeric_limits<double>::quiet_NaN());
  volume::HostVolume input(reinterpret_cast<std::byte*>(spectrum.data()), half, sizeof(std::complex<double>));
  volume::HostVolume output(reinterpret_cast<std::byte*>(back.data()), real, sizeof(double));
  volume::RealSpectrumStore store(input, output, nullptr);
  tbb::task_arena arena;
  RunReport report;
  engine.execute(store, true, 1.0 / double(real.elements()), arena, &report);
  EXPECT_GE(refusals, 1u);
  EXPECT_EQ(report.passes, 3u) << engine.describe();
  std::vector<std::complex<double>> got(back.begin(), back.end()), want(x.begin(), x.end());
  EXPECT_LE(relative_l2(got, want), tolerance<double>(4.0, real.elements())) << engine.describe();
}

}  // namespace
}  // namespace oocfft::test
