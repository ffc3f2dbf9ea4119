// The shared vocabulary: the one table of enum names and the one relative
// L2 measure. Each enum's names and command-line spellings must be distinct
// and read back to the value they name, and to_string() must agree with the
// table, so a value added to an enum without a row shows here.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <complex>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/enum_names.hpp"
#include "core/relative_l2.hpp"
#include "io/stored_element_names.hpp"
#include "optics/asm_names.hpp"

namespace oocfft {
namespace {

template <class E>
void expect_round_trip(std::size_t values) {
  std::set<std::string_view> names, spellings;
  for (const EnumName<E>& row : EnumTable<E>::rows) {
    EXPECT_TRUE(names.insert(row.name).second) << row.name;
    EXPECT_TRUE(spellings.insert(row.cli).second) << row.cli;
    EXPECT_EQ(enum_from_name<E>(row.name), row.value) << row.name;
    EXPECT_EQ(enum_from_cli<E>(row.cli), row.value) << row.cli;
    EXPECT_EQ(enum_name(row.value), row.name);
  }
  EXPECT_EQ(names.size(), values) << "a value of the enum has no row, or two";
  EXPECT_FALSE(enum_from_name<E>("no such name").has_value());
}

TEST(EnumNames, EveryPublicEnumRoundTrips) {
  expect_round_trip<Direction>(2);
  expect_round_trip<Norm>(3);
  expect_round_trip<Backend>(3);
  expect_round_trip<Precision>(2);
  expect_round_trip<Strategy>(5);
  expect_round_trip<HostRegistration>(3);
  expect_round_trip<ErrorKind>(6);
  expect_round_trip<AsmMode>(3);
  expect_round_trip<Evanescent>(2);
  expect_round_trip<StoredElement>(3);
}

TEST(EnumNames, ToStringReadsTheTable) {
  EXPECT_STREQ(to_string(Strategy::two_pass), "two_pass");
  EXPECT_STREQ(to_string(Precision::double_precision), "double");
  EXPECT_STREQ(to_string(ErrorKind::out_of_memory), "out_of_memory");
  EXPECT_STREQ(to_string(AsmMode::layer_sum), "layer_sum");
  EXPECT_EQ(enum_from_cli<AsmMode>("layer-sum"), AsmMode::layer_sum);
  EXPECT_EQ(enum_from_cli<Backend>("auto"), Backend::automatic);
  EXPECT_FALSE(enum_from_cli<Backend>("automatic").has_value());  // the command spells it "auto"
  EXPECT_STREQ(to_string(static_cast<Norm>(42)), "?");
}

TEST(RelativeL2, MeasuresTheDifferenceAgainstTheReference) {
  const std::vector<std::complex<double>> ref = {{3, 0}, {0, 4}};
  const std::vector<std::complex<float>> same = {{3, 0}, {0, 4}};
  const std::vector<std::complex<float>> off = {{3, 0}, {0, 4.5f}};
  EXPECT_EQ(relative_l2(same, ref), 0.0);
  EXPECT_DOUBLE_EQ(relative_l2(off, ref), 0.1);  // 0.5 / 5
  EXPECT_DOUBLE_EQ(relative_l2(off, ref, 0.5L), std::sqrt(1.5 * 1.5 + 2.5 * 2.5) / 2.5);
  const std::vector<double> real = {1, 2};
  EXPECT_EQ(relative_l2(real, std::vector<std::complex<double>>{{1, 0}, {2, 0}}), 0.0);
}

TEST(RelativeL2, KeepsTheDigitsOfALongDoubleReference) {
  // A difference below double's resolution of the reference still counts.
  const long double tiny = std::numeric_limits<double>::epsilon() / 8;
  const std::vector<std::complex<long double>> ref = {{1.0L + tiny, 0}};
  const std::vector<std::complex<double>> y = {{1.0, 0}};
  EXPECT_NEAR(relative_l2(y, ref), static_cast<double>(tiny), 1e-3 * static_cast<double>(tiny));
}

TEST(RelativeL2, NanAndLengthMismatchAreInfinitelyFar) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::complex<float>> nan = {{std::numeric_limits<float>::quiet_NaN(), 0}};
  EXPECT_EQ(relative_l2(nan, std::vector<std::complex<float>>{{1, 0}}), inf);
  EXPECT_EQ(relative_l2(std::vector<double>{1, 2}, std::vector<double>{1}), inf);
  EXPECT_DOUBLE_EQ(relative_l2(std::vector<double>{3}, std::vector<double>{0}), 3.0);  // zero reference: ||y||
}

TEST(RelativeL2, SumsSplitAndCombine) {
  const std::vector<double> y = {1, 2, 3, 4}, ref = {1, 2, 3, 5};
  const L2Sums whole = l2_sums(y.data(), ref.data(), 4);
  const L2Sums parts = l2_sums(y.data(), ref.data(), 2) + l2_sums(y.data() + 2, ref.data() + 2, 2);
  EXPECT_EQ(whole.relative(), parts.relative());
}

}  // namespace
}  // namespace oocfft
