// The shared vocabulary: the one table of enum names and the one relative
// L2 measure. Every value of each enum has one row, whose name and
// command-line spelling are distinct and read back to the value, and
// to_string() agrees with the table; a value added to an enum stops this
// file compiling until it is listed, and fails here until it has a row.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <complex>
#include <iterator>
#include <limits>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "core/enum_names.hpp"
#include "core/relative_l2.hpp"
#include "io/stored_element_names.hpp"
#include "optics/asm_names.hpp"

namespace oocfft {
namespace {

// Every value of each public enum, as the cases of a switch with no
// default: a value added to an enum is a case missing here, which this file
// refuses to compile (-Wswitch as an error, below), so the test that every
// value has a row cannot go on passing without it.
#if defined(__GNUC__)
#pragma GCC diagnostic error "-Wswitch"
#endif
constexpr bool is_value(Direction v) {
  switch (v) {
    case Direction::forward:
    case Direction::inverse: return true;
  }
  return false;
}
constexpr bool is_value(Norm v) {
  switch (v) {
    case Norm::backward:
    case Norm::ortho:
    case Norm::forward: return true;
  }
  return false;
}
constexpr bool is_value(Backend v) {
  switch (v) {
    case Backend::automatic:
    case Backend::host:
    case Backend::cuda: return true;
  }
  return false;
}
constexpr bool is_value(Precision v) {
  switch (v) {
    case Precision::single:
    case Precision::double_precision: return true;
  }
  return false;
}
constexpr bool is_value(Strategy v) {
  switch (v) {
    case Strategy::automatic:
    case Strategy::in_core:
    case Strategy::two_pass:
    case Strategy::three_pass:
    case Strategy::line_transpose: return true;
  }
  return false;
}
constexpr bool is_value(HostRegistration v) {
  switch (v) {
    case HostRegistration::automatic:
    case HostRegistration::on:
    case HostRegistration::off: return true;
  }
  return false;
}
constexpr bool is_value(ErrorKind v) {
  switch (v) {
    case ErrorKind::invalid_argument:
    case ErrorKind::out_of_memory:
    case ErrorKind::io:
    case ErrorKind::cuda:
    case ErrorKind::unsupported:
    case ErrorKind::cancelled: return true;
  }
  return false;
}
constexpr bool is_value(AsmMode v) {
  switch (v) {
    case AsmMode::propagate:
    case AsmMode::refocus:
    case AsmMode::layer_sum: return true;
  }
  return false;
}
constexpr bool is_value(Evanescent v) {
  switch (v) {
    case Evanescent::decay:
    case Evanescent::zero: return true;
  }
  return false;
}
constexpr bool is_value(StoredElement v) {
  switch (v) {
    case StoredElement::complex_compound:
    case StoredElement::complex_pairs:
    case StoredElement::real: return true;
  }
  return false;
}
constexpr bool is_value(IntermediateSpectrum v) {
  switch (v) {
    case IntermediateSpectrum::none:
    case IntermediateSpectrum::host_memory:
    case IntermediateSpectrum::output_file: return true;
  }
  return false;
}

// The enums are contiguous from 0: every underlying value 0, 1, ... that is
// a value has exactly one row, reads back from its name and its spelling,
// and enum_name() gives the row's name; the rows name those values and no
// other, with distinct names and spellings.
template <class E>
void expect_every_value_has_a_row() {
  using U = std::underlying_type_t<E>;
  U values = 0;
  while (is_value(static_cast<E>(values))) ++values;
  ASSERT_GT(values, 1);
  for (U u = 0; u < values; ++u) {
    const E value = static_cast<E>(u);
    int rows = 0;
    for (const EnumName<E>& row : EnumTable<E>::rows) {
      if (row.value != value) continue;
      ++rows;
      EXPECT_EQ(enum_from_name<E>(row.name), value) << row.name;
      EXPECT_EQ(enum_from_cli<E>(row.cli), value) << row.cli;
      EXPECT_EQ(enum_name(value), row.name);
    }
    EXPECT_EQ(rows, 1) << "value " << +u << " has " << rows << " rows";
  }
  std::set<std::string_view> names, spellings;
  for (const EnumName<E>& row : EnumTable<E>::rows) {
    EXPECT_TRUE(is_value(row.value)) << row.name << " names no value of the enum";
    EXPECT_TRUE(names.insert(row.name).second) << row.name;
    EXPECT_TRUE(spellings.insert(row.cli).second) << row.cli;
  }
  EXPECT_EQ(std::size(EnumTable<E>::rows), static_cast<std::size_t>(values));
  EXPECT_EQ(enum_name(static_cast<E>(values)), "?");
  EXPECT_FALSE(enum_from_name<E>("no such name").has_value());
}

TEST(EnumNames, EveryValueOfEveryPublicEnumHasOneRow) {
  expect_every_value_has_a_row<Direction>();
  expect_every_value_has_a_row<Norm>();
  expect_every_value_has_a_row<Backend>();
  expect_every_value_has_a_row<Precision>();
  expect_every_value_has_a_row<Strategy>();
  expect_every_value_has_a_row<HostRegistration>();
  expect_every_value_has_a_row<ErrorKind>();
  expect_every_value_has_a_row<AsmMode>();
  expect_every_value_has_a_row<Evanescent>();
  expect_every_value_has_a_row<StoredElement>();
  expect_every_value_has_a_row<IntermediateSpectrum>();
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
