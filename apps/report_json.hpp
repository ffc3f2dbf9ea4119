#pragma once
// DatasetTransformReport as JSON, for scripts that run `oocfft fft --json`.
// Written by hand (a dozen fields do not justify a JSON dependency); strings
// are escaped as RFC 8259 requires, non-finite numbers become null.
#include <string>

#include <oocfft/hdf5.hpp>

namespace oocfft::apps {

std::string json_escape(const std::string& text);  // with the quotes
std::string report_json(const DatasetTransformReport& report);

}  // namespace oocfft::apps
