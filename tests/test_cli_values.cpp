// The command line's strict value parsers (apps/value_parsers.*), directly:
// the exact values they return and the edges they refuse.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>

#include "apps/value_parsers.hpp"

namespace oocfft::apps {
namespace {

TEST(CliValues, DecimalTakesAll64Bits) {
  EXPECT_EQ(parse_decimal("0"), 0u);
  EXPECT_EQ(parse_decimal("010"), 10u) << "decimal, never octal";
  EXPECT_EQ(parse_decimal("18446744073709551615"), std::numeric_limits<std::uint64_t>::max());
  EXPECT_THROW(parse_decimal("18446744073709551616"), std::invalid_argument);
  for (const char* bad : {"", "-1", "+1", " 1", "1 ", "0x10", "1e3", "1.0"})
    EXPECT_THROW(parse_decimal(bad), std::invalid_argument) << "'" << bad << "'";
}

TEST(CliValues, SizesAreBinary) {
  EXPECT_EQ(parse_size("1000000"), 1000000u);
  EXPECT_EQ(parse_size("64KiB"), 64u << 10);
  EXPECT_EQ(parse_size("512MiB"), std::size_t{512} << 20);
  EXPECT_EQ(parse_size("4GiB"), std::size_t{4} << 30);
  EXPECT_EQ(parse_size("2TiB"), std::size_t{2} << 40);
  EXPECT_EQ(parse_size("16777215TiB"), std::size_t{16777215} << 40);
  EXPECT_THROW(parse_size("16777216TiB"), std::invalid_argument) << "2^64 bytes overflows";
  for (const char* bad : {"", "GiB", "4GB", "4G", "4gib", "4 GiB", "4GiB ", "-4GiB", "1.5GiB", "4KiBKiB"})
    EXPECT_THROW(parse_size(bad), std::invalid_argument) << "'" << bad << "'";
}

TEST(CliValues, ShapesPadLeadingAxesWithOne) {
  EXPECT_EQ(parse_shape("4x5x6"), (Shape{4, 5, 6}));
  EXPECT_EQ(parse_shape("5x6"), (Shape{1, 5, 6}));
  EXPECT_EQ(parse_shape("6"), (Shape{1, 1, 6}));
  EXPECT_EQ(parse_shape("1024x1024x2048"), (Shape{1024, 1024, 2048}));
  for (const char* bad : {"", "x", "4x", "x4", "4x4x4x", "4xx4", "2x2x2x2", " 4x4x4", "4x4x4 ", "+4x4x4", "-4x4x4",
                          "0x4x4", "4x0", "4X4X4", "4*4*4", "4,4,4", "18446744073709551616",
                          "4294967296x4294967296x2"})
    EXPECT_THROW(parse_shape(bad), std::invalid_argument) << "'" << bad << "'";
}

}  // namespace
TEST(CliValues, RealsAreFiniteAndWhole) {
  EXPECT_DOUBLE_EQ(parse_real("532e-9"), 532e-9);
  EXPECT_DOUBLE_EQ(parse_real("-0.05"), -0.05);
  for (const char* bad : {"", "nan", "inf", "-inf", "1e999", "0x1p3", "+1", "1m", " 1", "1,5"})
    EXPECT_THROW(parse_real(bad), std::invalid_argument) << bad;
}

TEST(CliValues, PitchesAndRanges) {
  EXPECT_EQ(parse_pitch("8e-6"), (std::pair<double, double>{8e-6, 8e-6}));
  EXPECT_EQ(parse_pitch("8e-6,6e-6"), (std::pair<double, double>{8e-6, 6e-6}));
  for (const char* bad : {"0", "-8e-6", "8e-6,", "8e-6,0", "8e-6,6e-6,1e-6", ","})
    EXPECT_THROW(parse_pitch(bad), std::invalid_argument) << bad;
  EXPECT_EQ(parse_range("0:1:5"), (std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
  EXPECT_EQ(parse_range("-2e-3:2e-3:1"), (std::vector<double>{-2e-3}));
  for (const char* bad : {"0:1", "0:1:0", "0:1:-1", "a:1:2", "0:1:2:3", "0:1:16777217"})
    EXPECT_THROW(parse_range(bad), std::invalid_argument) << bad;
  EXPECT_EQ(parse_real_list("1e-3, 2e-3\n-3e-3\t4e-3\n"), (std::vector<double>{1e-3, 2e-3, -3e-3, 4e-3}));
  EXPECT_THROW(parse_real_list(" \n"), std::invalid_argument);
  EXPECT_THROW(parse_real_list("1e-3 x"), std::invalid_argument);
}

TEST(CliValues, DevicesAreAllCurrentOrDistinctOrdinals) {
  EXPECT_EQ(parse_devices("all"), Devices::all());
  EXPECT_EQ(parse_devices("current"), Devices{});
  EXPECT_EQ(parse_devices("0,1"), Devices::list({0, 1}));
  EXPECT_EQ(parse_devices("3"), Devices::list({3}));
  EXPECT_EQ(parse_devices("2,0").to_string(), "2,0");
  for (const char* bad : {"", ",", "0,", ",1", "0,,1", "-1", "+1", "1,1", "a", "0x1", " 0", "0 ,1", "64", "All"})
    EXPECT_THROW(parse_devices(bad), std::invalid_argument) << "'" << bad << "'";
}

}  // namespace oocfft::apps
