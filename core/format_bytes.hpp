#pragma once
// Byte counts for people: "1.5 GiB", binary units, one decimal.
#include <string>

namespace oocfft {

std::string format_bytes(double bytes);

}  // namespace oocfft
