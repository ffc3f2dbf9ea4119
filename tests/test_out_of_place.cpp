// Out-of-place complex transforms (Plan::execute(in, out, ...)), of complex
// and of real input: for every strategy, both precisions and both
// backends, the output equals the in-place result (of the widened input)
// bit for bit (the same kernels run the same bricks), every element of the
// poisoned output is written, and the input is untouched;
// overlapping arrays are refused, and in == out is the in-place transform.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "tests/engine_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

template <class T>
class OutOfPlace : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(OutOfPlace, Precisions);

bool same_bits(const void* a, const void* b, std::size_t bytes) { return std::memcmp(a, b, bytes) == 0; }

template <class T>
void check_every_strategy(Backend backend, HostRegistration registration) {
  const Shape shapes[] = {{9, 10, 12}, {5, 7, 11}};
  for (const Shape& s : shapes)
    for (const Strategy strategy :
         {Strategy::in_core, Strategy::two_pass, Strategy::three_pass, Strategy::line_transpose}) {
      const EngineCase c{.shape = s,
                         .strategy = strategy,
                         .multiple = 2,
                         .backend = backend,
                         .registration = registration,
                         .device_margin = backend == Backend::cuda ? std::size_t{1} << 20 : 0};
      const Plan plan(s, precision_of<T>(), c.options(precision_of<T>()));
      const auto x = to_precision<T>(random_signal(s.elements(), 61 + s.nx));
      for (const Direction d : {Direction::forward, Direction::inverse}) {
        auto in_place = x;
        plan.execute(in_place.data(), d);
        const auto input = x;
        std::vector<std::complex<T>> out(x.size());
        poison(out);
        RunReport report;
        plan.execute(input.data(), out.data(), d, &report);
        const std::string what = c.name() + " " + to_string(d);
        EXPECT_TRUE(same_bits(out.data(), in_place.data(), out.size() * sizeof(out[0])))
            << what << ": relative L2 to the in-place result " << relative_l2(out, widen(in_place));
        EXPECT_TRUE(same_bits(input.data(), x.data(), x.size() * sizeof(x[0]))) << what << ": the input changed";
        EXPECT_EQ(report.strategy, strategy) << what;

        // Real input: widened brick by brick, the same as transforming its
        // complex copy (imaginary parts zero) in place.
        std::vector<T> real(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) real[i] = x[i].real();
        std::vector<std::complex<T>> widened(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) widened[i] = {real[i], T(0)};
        plan.execute(widened.data(), d);
        const std::vector<T> real_before = real;
        poison(out);
        plan.execute(real.data(), out.data(), d);
        EXPECT_TRUE(same_bits(out.data(), widened.data(), out.size() * sizeof(out[0])))
            << what << " real input: relative L2 to the widened transform " << relative_l2(out, widen(widened));
        EXPECT_TRUE(same_bits(real.data(), real_before.data(), real.size() * sizeof(T)))
            << what << ": the real input changed";
      }
    }
}

TYPED_TEST(OutOfPlace, EveryStrategyEqualsInPlaceOnTheHost) {
  check_every_strategy<TypeParam>(Backend::host, HostRegistration::automatic);
}

TYPED_TEST(OutOfPlace, EveryStrategyEqualsInPlaceOnTheDevice) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device: the CUDA backend's out-of-place runs cannot run";
  check_every_strategy<TypeParam>(Backend::cuda, HostRegistration::automatic);
  // Both arrays page-locked in chunks while the run goes on: the input's
  // DMA serves the first pass's uploads, the output's the rest.
  check_every_strategy<TypeParam>(Backend::cuda, HostRegistration::on);
}

TEST(OutOfPlace, StacksOfPlanesAndTheHostInCorePlan) {
  const Shape s{4, 12, 10};
  const auto x = to_precision<double>(random_signal(s.elements(), 3));
  for (const Axes axes : {Axes::all, Axes::planes}) {
    const Plan plan(s, Precision::double_precision, axes, Options{.backend = Backend::host});
    auto in_place = x;
    plan.execute(in_place.data(), Direction::forward);
    std::vector<std::complex<double>> out(x.size());
    poison(out);
    plan.execute(x.data(), out.data(), Direction::forward);
    EXPECT_TRUE(same_bits(out.data(), in_place.data(), out.size() * sizeof(out[0]))) << to_string(axes);
  }
}

TEST(OutOfPlace, OverlapIsRefusedAndTheSameArrayIsInPlace) {
  const Shape s{2, 4, 8};
  const Plan plan(s, Precision::single, Options{.backend = Backend::host});
  auto x = to_precision<float>(random_signal(2 * s.elements(), 5));
  const auto before = x;
  try {
    plan.execute(x.data(), x.data() + 3, Direction::forward);
    FAIL() << "overlapping arrays were accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("overlap"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(same_bits(x.data(), before.data(), x.size() * sizeof(x[0]))) << "a refused call wrote";
  auto in_place = before;
  plan.execute(in_place.data(), Direction::forward);
  plan.execute(x.data(), x.data(), Direction::forward);
  EXPECT_TRUE(same_bits(x.data(), in_place.data(), s.elements() * sizeof(x[0])));
  EXPECT_THROW(plan.execute(static_cast<const std::complex<float>*>(nullptr), x.data(), Direction::forward), Error);
  // Real input under its output.
  EXPECT_THROW(plan.execute(reinterpret_cast<const float*>(x.data()) + 1, x.data(), Direction::forward), Error);
}

}  // namespace
}  // namespace oocfft::test
