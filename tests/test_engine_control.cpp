// The streaming engine's controls: progress reports, cancellation between
// bricks, refusal of bad options before any data is touched, and the plan's
// self-description.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "tests/engine_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

const Shape shape{18, 16, 14};

// The smallest bricks of `strategy`: the most bricks to report and cancel between.
Options streamed_options(Strategy strategy, unsigned streams, Precision precision = Precision::single) {
  return EngineCase{.shape = shape, .strategy = strategy, .streams = streams}.options(precision);
}

TEST(EngineControl, ProgressCountsEveryBrickOnce) {
  for (Strategy strategy : {Strategy::two_pass, Strategy::three_pass, Strategy::line_transpose}) {
    for (unsigned streams : {1u, 4u}) {
      Options o = streamed_options(strategy, streams);
      std::mutex m;
      std::vector<Progress> seen;
      o.progress = [&](const Progress& p) {
        std::lock_guard<std::mutex> lock(m);  // the engine promises one call at a time; check it does no harm
        seen.push_back(p);
      };
      auto y = to_precision<float>(random_signal(shape.elements(), 3));
      RunReport report;
      Plan(shape, Precision::single, o).execute(y.data(), Direction::forward, &report);
      ASSERT_EQ(seen.size(), report.bricks) << to_string(strategy);
      for (std::size_t i = 0; i < seen.size(); ++i) {
        EXPECT_EQ(seen[i].bricks_done, i + 1);
        EXPECT_EQ(seen[i].bricks_total, report.bricks);
        EXPECT_EQ(seen[i].passes, report.passes);
        if (i > 0) {
          EXPECT_GT(seen[i].bytes_moved, seen[i - 1].bytes_moved);
          EXPECT_GE(seen[i].pass, seen[i - 1].pass);
        }
      }
      EXPECT_EQ(seen.back().bytes_moved, 2 * report.passes * shape.elements() * 8);
    }
  }
}

TEST(EngineControl, CancelBeforeTheFirstBrickLeavesTheArrayUntouched) {
  Options o = streamed_options(Strategy::two_pass, 4);
  o.cancel = [] { return true; };
  const auto x = to_precision<float>(random_signal(shape.elements(), 4));
  auto y = x;
  try {
    Plan(shape, Precision::single, o).execute(y.data(), Direction::forward);
    FAIL() << "no Error(cancelled)";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::cancelled);
    EXPECT_NE(std::string(e.what()).find("untouched"), std::string::npos) << e.what();
  }
  EXPECT_EQ(y, x);
}

TEST(EngineControl, CancelMidwayStopsBetweenBricks) {
  for (unsigned streams : {1u, 3u}) {
    Options o = streamed_options(Strategy::three_pass, streams, Precision::double_precision);
    std::atomic<std::size_t> done{0};
    o.progress = [&](const Progress& p) { done = p.bricks_done; };
    o.cancel = [&] { return done.load() >= 5; };
    auto y = to_precision<double>(random_signal(shape.elements(), 5));
    Plan plan(shape, Precision::double_precision, o);
    try {
      plan.execute(y.data(), Direction::forward);
      FAIL() << "no Error(cancelled)";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::cancelled);
    }
    // Streams finish the brick they hold: at most one more brick each.
    EXPECT_GE(done.load(), 5u);
    EXPECT_LE(done.load(), 5u + streams);
  }
}

TEST(EngineControl, ErrorsInTheProgressCallbackPropagate) {
  Options o = streamed_options(Strategy::two_pass, 2);
  o.progress = [](const Progress&) { throw std::runtime_error("callback failed"); };
  auto y = to_precision<float>(random_signal(shape.elements(), 6));
  EXPECT_THROW(Plan(shape, Precision::single, o).execute(y.data(), Direction::forward), std::runtime_error);
}

// A throwing cancel with several streams once ended the process
// (std::terminate from a stream thread); it now reaches the caller, on
// every stream count, and before any brick the array is untouched.
TEST(EngineControl, ErrorsInTheCancelCallbackPropagateOnEveryStreamCount) {
  for (unsigned streams : {1u, 2u, 4u}) {
    SCOPED_TRACE(streams);
    Options o = streamed_options(Strategy::two_pass, streams);
    o.cancel = [] () -> bool { throw std::runtime_error("cancel failed"); };
    const auto x = to_precision<float>(random_signal(shape.elements(), 6));
    auto y = x;
    EXPECT_THROW(Plan(shape, Precision::single, o).execute(y.data(), Direction::forward), std::runtime_error);
    EXPECT_EQ(y, x) << "thrown before the first brick: the array is untouched";
  }
}

// cancel and progress are called one at a time, never side by side.
TEST(EngineControl, CallbacksAreCalledOneAtATime) {
  Options o = streamed_options(Strategy::two_pass, 4);
  std::atomic<int> inside{0};
  std::atomic<bool> overlapped{false};
  std::atomic<std::size_t> calls{0};
  auto enter = [&] {
    if (inside.fetch_add(1) != 0) overlapped = true;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    ++calls;
    inside.fetch_sub(1);
  };
  o.cancel = [&] {
    enter();
    return false;
  };
  o.progress = [&](const Progress&) { enter(); };
  auto y = to_precision<float>(random_signal(shape.elements(), 6));
  Plan(shape, Precision::single, o).execute(y.data(), Direction::forward);
  EXPECT_GT(calls.load(), 10u);
  EXPECT_FALSE(overlapped.load()) << "two callbacks ran at once";
}

// The host backend's in-core plan (no budget: transformed where it lies)
// reports progress after each axis and polls cancel before each, like the
// streamed plans per brick; both were ignored there.
TEST(EngineControl, InCoreOnTheHostReportsProgressAndObeysCancel) {
  Options o;
  o.backend = Backend::host;
  std::size_t calls = 0;
  o.progress = [&](const Progress& p) {
    ++calls;
    EXPECT_EQ(p.bricks_done, calls);
    EXPECT_EQ(p.bricks_total, 3u);
  };
  const auto x = to_precision<float>(random_signal(shape.elements(), 9));
  auto y = x;
  RunReport report;
  Plan(shape, Precision::single, o).execute(y.data(), Direction::forward, &report);
  EXPECT_EQ(report.strategy, Strategy::in_core);
  EXPECT_EQ(calls, 3u) << "one call per axis";

  o.progress = nullptr;
  o.cancel = [] { return true; };
  y = x;
  try {
    Plan(shape, Precision::single, o).execute(y.data(), Direction::forward);
    ADD_FAILURE() << "no Error(cancelled)";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::cancelled) << e.what();
  }
  EXPECT_EQ(y, x) << "a cancel before the first axis leaves the array untouched";

  int polls = 0;
  o.cancel = [&] { return ++polls == 2; };  // after the first axis
  y = x;
  EXPECT_THROW(Plan(shape, Precision::single, o).execute(y.data(), Direction::forward), Error);
  EXPECT_EQ(polls, 2);
  EXPECT_NE(y, x) << "one axis was transformed before the cancel";
}

void expect_refused(const Options& o, ErrorKind kind, const char* why) {
  const auto x = to_precision<float>(random_signal(shape.elements(), 8));
  auto y = x;
  try {
    fft3d(reinterpret_cast<std::complex<float>*>(y.data()), shape, Direction::forward, o);
    ADD_FAILURE() << "accepted: " << why;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << why << ": " << e.what();
  }
  EXPECT_EQ(y, x) << why << ": the data changed";
}

TEST(EngineControl, BadOptionsAreRefusedBeforeTouchingData) {
  Options o;
  o.backend = Backend::host;
  o.streams = 0;
  o.device_memory_budget = 1 << 20;
  expect_refused(o, ErrorKind::invalid_argument, "zero streams");
  o.streams = 65;
  expect_refused(o, ErrorKind::invalid_argument, "65 streams");
  o = Options{};
  o.backend = Backend::host;
  o.strategy = Strategy::two_pass;
  o.device_memory_budget = budget_for(Strategy::three_pass, shape, 8, 4, 1);  // a plane does not fit
  expect_refused(o, ErrorKind::invalid_argument, "two_pass with a plane over the share");
  o.strategy = Strategy::line_transpose;
  o.device_memory_budget = 3 * 8 * 4 * 10;  // a chunk of 10 points < the 18-point lines
  expect_refused(o, ErrorKind::invalid_argument, "line_transpose with a chunk under a line");
  o.strategy = Strategy::automatic;
  o.device_memory_budget = 64;  // not one line
  expect_refused(o, ErrorKind::out_of_memory, "budget under one line");
  o.device_memory_budget = shape.elements() * 8 / 2;  // out of core
  o.host_staging_budget = 16;  // two elements
  expect_refused(o, ErrorKind::out_of_memory, "staging budget under one line");
}

TEST(EngineControl, DescribeExplainsThePlan) {
  Options o = streamed_options(Strategy::two_pass, 4);
  const std::string d = Plan(shape, Precision::single, o).describe();
  EXPECT_NE(d.find("strategy: two_pass, 2 passes, 4 streams"), std::string::npos) << d;
  EXPECT_NE(d.find("pass 1: xy on z-slabs, brick 1x16x14"), std::string::npos) << d;
  EXPECT_NE(d.find("pass 2: z on y-slabs"), std::string::npos) << d;
  EXPECT_NE(d.find("host brick buffers"), std::string::npos) << d;
  o = Options{};
  o.backend = Backend::host;
  const std::string in_core = Plan(shape, Precision::single, o).describe();
  EXPECT_NE(in_core.find("strategy: in_core"), std::string::npos) << in_core;
}

TEST(EngineControl, TimelineRecordsEveryBrickInOrderOfStages) {
  Options o = streamed_options(Strategy::line_transpose, 3);
  auto y = to_precision<float>(random_signal(shape.elements(), 9));
  RunReport report;
  report.record_timeline = true;
  Plan(shape, Precision::single, o).execute(y.data(), Direction::forward, &report);
  ASSERT_EQ(report.timeline.size(), report.bricks);
  for (const BrickTiming& t : report.timeline) {
    EXPECT_LE(t.gather_start, t.gather_end);
    EXPECT_LE(t.gather_end, t.kernel_start);
    EXPECT_LE(t.kernel_end, t.scatter_start);
    EXPECT_LE(t.scatter_end, report.seconds);
    EXPECT_LT(t.stream, 3u);
  }
}

}  // namespace
}  // namespace oocfft::test
