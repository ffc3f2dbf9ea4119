#pragma once
// Strict parsers of the command line's values. Each takes the whole text or
// throws std::invalid_argument saying what it expected; the CLI layer adds
// the option's name. No leading '+', '-' or spaces, no octal or
// hex (std::strtoull would take "010" as 8 and "0x10" as 16), no wrap-around.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include <oocfft/devices.hpp>
#include <oocfft/shape.hpp>

namespace oocfft::apps {

// A decimal integer of at most 64 bits.
std::uint64_t parse_decimal(std::string_view text);

// Bytes: "1000000", or an integer with a binary suffix KiB, MiB, GiB or TiB
// ("512MiB", "4GiB"). Refuses what overflows std::size_t.
std::size_t parse_size(std::string_view text);

// "NZxNYxNX", "NYxNX" or "NX" of positive decimal integers; the missing
// leading axes are 1. Refuses shapes whose element count overflows.
Shape parse_shape(std::string_view text);

// A finite decimal number ("532e-9", "-0.05"); refuses "nan", "inf", hex
// floats and trailing text.
double parse_real(std::string_view text);

// "X" or "X,Y" of positive numbers (a pitch: Y defaults to X).
std::pair<double, double> parse_pitch(std::string_view text);

// "START:STOP:COUNT": COUNT >= 1 evenly spaced numbers from START to STOP
// inclusive (numpy's linspace); COUNT 1 gives START.
std::vector<double> parse_range(std::string_view text);

// Numbers separated by whitespace, commas or newlines (a distances file's
// text); at least one.
std::vector<double> parse_real_list(std::string_view text);

// Options::devices: "all", "current", or device ordinals separated by
// commas ("0,1"), each a decimal below Devices::max_listed, none twice.
Devices parse_devices(std::string_view text);

}  // namespace oocfft::apps
