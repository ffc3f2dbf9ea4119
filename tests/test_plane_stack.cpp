// Stacks of 2D transforms (Axes::planes: numpy's fft2 of a 3D array) on
// both backends: every plane against FFTW's long-double 2D transform, each
// norm, whole planes and rows-then-columns through small budgets, and the
// documented refusals.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "tests/engine_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

template <class T>
class PlaneStack : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(PlaneStack, Precisions);

// Each z plane of `x` through FFTW's long-double 2D transform, scaled.
std::vector<LongComplex> planes_reference(const std::vector<LongComplex>& x, const Shape& s, int sign,
                                          long double scale) {
  std::vector<LongComplex> y(x.size());
  const std::size_t plane = s.ny * s.nx;
  for (std::size_t z = 0; z < s.nz; ++z) {
    const std::vector<LongComplex> in(x.begin() + z * plane, x.begin() + (z + 1) * plane);
    const auto out = fftwl_dft(in, {int(s.ny), int(s.nx)}, sign);
    for (std::size_t i = 0; i < plane; ++i) y[z * plane + i] = out[i] * scale;
  }
  return y;
}

long double norm_factor(Norm norm, Direction d, std::size_t n) {
  const long double ln = static_cast<long double>(n);
  switch (norm) {
    case Norm::ortho: return 1.0L / std::sqrt(ln);
    case Norm::forward: return d == Direction::forward ? 1.0L / ln : 1.0L;
    case Norm::backward: break;
  }
  return d == Direction::forward ? 1.0L : 1.0L / ln;
}

struct StackCase {
  Shape shape;
  Strategy strategy;
  std::size_t budget;  // 0: the backend's default
};

std::vector<StackCase> stack_cases(std::size_t element_bytes) {
  std::vector<StackCase> cases;
  for (const Shape& s : {Shape{5, 12, 10}, Shape{3, 7, 13}, Shape{1, 16, 9}, Shape{4, 1, 11}, Shape{6, 17, 1}}) {
    cases.push_back({s, Strategy::automatic, 0});
    // Two planes per stream's share: whole planes, several bricks.
    cases.push_back({s, Strategy::automatic, 4 * 2 * s.ny * s.nx * element_bytes});
    // Less than a plane per stream: rows, then columns.
    cases.push_back({s, Strategy::automatic, 4 * std::max(s.ny, s.nx) * element_bytes});
    cases.push_back({s, Strategy::three_pass, 4 * std::max(s.ny, s.nx) * element_bytes * 2});
  }
  return cases;
}

template <class T>
void check_stacks(Backend backend) {
  WorstRatio worst;
  for (const StackCase& c : stack_cases(sizeof(std::complex<T>))) {
    const auto x = random_signal(c.shape.elements(), 41 + c.shape.nx);
    for (const Norm norm : {Norm::backward, Norm::ortho, Norm::forward}) {
      Options o;
      o.backend = backend;
      o.norm = norm;
      o.strategy = c.strategy;
      // A device keeps its kernels' tables beside the bricks: room for them,
      // so the budget still decides the bricks (three_pass still splits).
      o.device_memory_budget = c.budget == 0 ? 0 : c.budget + (backend == Backend::cuda ? std::size_t{1} << 20 : 0);
      const Plan plan(c.shape, precision_of<T>(), Axes::planes, o);
      EXPECT_EQ(plan.axes(), Axes::planes);
      for (const Direction d : {Direction::forward, Direction::inverse}) {
        auto y = to_precision<T>(x);
        RunReport report;
        plan.execute(y.data(), d, &report);
        const auto ref = planes_reference(x, c.shape, d == Direction::forward ? FFTW_FORWARD : FFTW_BACKWARD,
                                          norm_factor(norm, d, c.shape.ny * c.shape.nx));
        const double err = relative_l2(y, ref);
        const std::string what = c.shape.to_string() + " " + to_string(report.strategy) + " budget " +
                                 std::to_string(c.budget) + " norm " + to_string(norm) + " " + to_string(d);
        EXPECT_LE(err, tolerance<T>(8.0, c.shape.ny * c.shape.nx)) << what << "\n" << plan.describe();
        worst.add(err, tolerance<T>(1.0, c.shape.ny * c.shape.nx), what);
      }
    }
  }
}

TYPED_TEST(PlaneStack, EveryPlaneIsItsTwoDimensionalTransformOnTheHost) { check_stacks<TypeParam>(Backend::host); }

TYPED_TEST(PlaneStack, EveryPlaneIsItsTwoDimensionalTransformOnTheDevice) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device: the CUDA backend's plane stacks cannot run";
  check_stacks<TypeParam>(Backend::cuda);
}

// The budget decides the passes: whole planes when one fits a stream's
// share, rows and columns when it does not.
TEST(PlaneStack, SmallBudgetsSplitPlanesIntoRowsAndColumns) {
  const Shape s{4, 32, 24};
  Options o;
  o.backend = Backend::host;
  o.device_memory_budget = 4 * 2 * s.ny * s.nx * sizeof(std::complex<float>);
  RunReport whole, split;
  auto x = to_precision<float>(random_signal(s.elements(), 5));
  Plan(s, Precision::single, Axes::planes, o).execute(x.data(), Direction::forward, &whole);
  o.device_memory_budget = 4 * s.ny * sizeof(std::complex<float>) * 2;
  Plan(s, Precision::single, Axes::planes, o).execute(x.data(), Direction::forward, &split);
  EXPECT_EQ(whole.passes, 1u);
  EXPECT_EQ(split.passes, 2u);
  EXPECT_EQ(split.strategy, Strategy::three_pass);
}

TEST(PlaneStack, RefusesShiftAndTwoPass) {
  const Shape s{4, 8, 8};
  Options o;
  o.backend = Backend::host;
  o.shift = true;
  try {
    Plan(s, Precision::single, Axes::planes, o);
    FAIL() << "shift with Axes::planes was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::unsupported);
    EXPECT_NE(std::string(e.what()).find("shift"), std::string::npos) << e.what();
  }
  o.shift = false;
  o.strategy = Strategy::two_pass;
  try {
    Plan(s, Precision::single, Axes::planes, o);
    FAIL() << "two_pass with Axes::planes was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("two_pass"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Plan(s, Precision::single, static_cast<Axes>(7), Options{.backend = Backend::host}), Error);
}

}  // namespace
}  // namespace oocfft::test
