#include "apps/value_parsers.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <oocfft/error.hpp>

namespace oocfft::apps {

namespace {
[[noreturn]] void refuse(std::string_view text, const std::string& expected) {
  throw std::invalid_argument("'" + std::string(text) + "' is not " + expected);
}
bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}
}  // namespace

Devices parse_devices(std::string_view text) {
  if (text == "all") return Devices::all();
  if (text == "current") return Devices{};
  const std::string expected = "all, current or device ordinals separated by commas (0,1)";
  std::vector<int> ordinals;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma == std::string_view::npos ? comma : comma - start);
    if (!all_digits(item)) refuse(text, expected);
    const std::uint64_t d = parse_decimal(item);
    if (d >= static_cast<std::uint64_t>(Devices::max_listed))
      refuse(text, expected + ", each below " + std::to_string(Devices::max_listed));
    ordinals.push_back(static_cast<int>(d));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  try {
    return Devices::list(std::move(ordinals));
  } catch (const Error& e) {
    throw std::invalid_argument("'" + std::string(text) + "': " + e.what());
  }
}

std::uint64_t parse_decimal(std::string_view text) {
  if (!all_digits(text)) refuse(text, "a non-negative decimal integer");
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) refuse(text, "an integer below 2^64");
  if (ec != std::errc() || end != text.data() + text.size()) refuse(text, "a non-negative decimal integer");
  return value;
}

std::size_t parse_size(std::string_view text) {
  static constexpr std::pair<std::string_view, unsigned> units[] = {
      {"", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};
  const std::string expected = "a size: bytes, or an integer with KiB, MiB, GiB or TiB (e.g. 4GiB)";
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  const std::string_view number = text.substr(0, digits), suffix = text.substr(digits);
  if (number.empty()) refuse(text, expected);
  for (const auto& [name, shift] : units) {
    if (suffix != name) continue;
    const std::uint64_t count = parse_decimal(number);
    if (count > (std::numeric_limits<std::size_t>::max() >> shift)) refuse(text, "a size below 2^64 bytes");
    return static_cast<std::size_t>(count) << shift;
  }
  refuse(text, expected);
}

Shape parse_shape(std::string_view text) {
  const std::string expected = "a shape NZxNYxNX, NYxNX or NX of positive integers";
  std::vector<std::size_t> dims;
  std::size_t start = 0;
  while (true) {
    const std::size_t x = text.find('x', start);
    const std::string_view part = text.substr(start, x == std::string_view::npos ? std::string_view::npos : x - start);
    if (!all_digits(part) || dims.size() == 3) refuse(text, expected);
    std::uint64_t n = 0;
    try {
      n = parse_decimal(part);
    } catch (const std::invalid_argument&) {
      refuse(text, expected + " (an axis overflows)");
    }
    if (n == 0) refuse(text, expected + " (an axis is 0)");
    dims.push_back(static_cast<std::size_t>(n));
    if (x == std::string_view::npos) break;
    start = x + 1;
  }
  while (dims.size() < 3) dims.insert(dims.begin(), 1);
  const Shape shape{dims[0], dims[1], dims[2]};
  try {
    (void)shape.elements();
  } catch (const Error&) {
    refuse(text, expected + " (the element count overflows)");
  }
  return shape;
}

double parse_real(std::string_view text) {
  const std::string expected = "a finite decimal number (e.g. 532e-9)";
  if (text.empty() || text.front() == '+') refuse(text, expected);
  for (const char c : text)
    if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == 'e' || c == 'E' || c == '+')) refuse(text, expected);
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) refuse(text, expected);
  return value;
}

std::pair<double, double> parse_pitch(std::string_view text) {
  const std::size_t comma = text.find(',');
  const double x = parse_real(text.substr(0, comma));
  const double y = comma == std::string_view::npos ? x : parse_real(text.substr(comma + 1));
  if (!(x > 0) || !(y > 0)) refuse(text, "a positive pitch in metres, X or X,Y");
  return {x, y};
}

std::vector<double> parse_range(std::string_view text) {
  const std::string expected = "START:STOP:COUNT (metres, metres, a count of at least 1)";
  const std::size_t a = text.find(':');
  const std::size_t b = a == std::string_view::npos ? a : text.find(':', a + 1);
  if (b == std::string_view::npos) refuse(text, expected);
  const double start = parse_real(text.substr(0, a));
  const double stop = parse_real(text.substr(a + 1, b - a - 1));
  const std::uint64_t count = parse_decimal(text.substr(b + 1));
  if (count == 0 || count > (std::uint64_t{1} << 24)) refuse(text, expected + ", the count at most 2^24");
  std::vector<double> values(count);
  // start (1 - t) + stop t: finite for any finite ends (stop - start may not be).
  for (std::uint64_t i = 0; i < count; ++i) {
    const double t = count == 1 ? 0.0 : double(i) / double(count - 1);
    values[i] = start * (1 - t) + stop * t;
  }
  return values;
}

std::vector<double> parse_real_list(std::string_view text) {
  std::vector<double> values;
  std::size_t i = 0;
  auto separator = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ','; };
  while (i < text.size()) {
    while (i < text.size() && separator(text[i])) ++i;
    std::size_t j = i;
    while (j < text.size() && !separator(text[j])) ++j;
    if (j > i) values.push_back(parse_real(text.substr(i, j - i)));
    i = j;
  }
  if (values.empty()) refuse(text.substr(0, 40), "a list of numbers");
  return values;
}

}  // namespace oocfft::apps
