#include "apps/report_json.hpp"

#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <sstream>

#include "io/stored_element_names.hpp"

namespace oocfft::apps {

namespace {
std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}
std::string array(const std::vector<std::size_t>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}
const char* boolean(bool b) { return b ? "true" : "false"; }
}  // namespace

std::string json_escape(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char u[8];
          std::snprintf(u, sizeof u, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += u;
        } else {
          out += c;  // UTF-8 bytes pass through unchanged
        }
    }
  }
  return out + "\"";
}

// The process's peak resident memory so far (getrusage: Linux reports KiB).
std::size_t peak_rss_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<std::size_t>(usage.ru_maxrss) * 1024;
}

std::string report_json(const DatasetTransformReport& r) {
  const DatasetInfo& in = r.input;
  const RunReport& run = r.run;
  std::ostringstream j;
  j << "{\n"
    << "  \"input\": {\n"
    << "    \"path\": " << json_escape(in.path.to_string()) << ",\n"
    << "    \"file\": " << json_escape(in.path.file) << ",\n"
    << "    \"dataset\": " << json_escape(in.path.dataset) << ",\n"
    << "    \"dims\": " << array(in.dims) << ",\n"
    << "    \"shape\": " << array({in.shape.nz, in.shape.ny, in.shape.nx}) << ",\n"
    << "    \"precision\": " << json_escape(to_string(in.precision)) << ",\n"
    << "    \"element\": " << json_escape(std::string(enum_name(in.element))) << ",\n"
    << "    \"dtype\": " << json_escape(in.dtype) << ",\n"
    << "    \"chunks\": " << array(in.chunks) << ",\n"
    << "    \"complex_bytes\": " << in.complex_bytes() << "\n"
    << "  },\n"
    << "  \"output\": {\"path\": " << json_escape(r.output.to_string()) << ", \"file\": " << json_escape(r.output.file)
    << ", \"dataset\": " << json_escape(r.output.dataset)
    << ", \"shape\": " << array({r.output_shape.nz, r.output_shape.ny, r.output_shape.nx}) << "},\n"
    << "  \"intermediate\": " << json_escape(std::string(enum_name(r.intermediate))) << ",\n"
    << "  \"in_memory\": " << boolean(r.in_memory) << ",\n"
    << "  \"host_memory_budget\": " << r.host_memory_budget << ",\n"
    << "  \"read_seconds\": " << number(r.read_seconds) << ",\n"
    << "  \"transform_seconds\": " << number(r.transform_seconds) << ",\n"
    << "  \"write_seconds\": " << number(r.write_seconds) << ",\n"
    << "  \"seconds\": " << number(r.seconds) << ",\n"
    << "  \"peak_rss_bytes\": " << peak_rss_bytes() << ",\n"
    << "  \"run\": {\n"
    << "    \"strategy\": " << json_escape(to_string(run.strategy)) << ",\n"
    << "    \"backend\": " << json_escape(to_string(run.backend)) << ",\n"
    << "    \"passes\": " << run.passes << ",\n"
    << "    \"streams\": " << run.streams << ",\n"
    << "    \"devices\": " << run.devices << ",\n"
    << "    \"exchanged_bytes\": " << run.exchanged_bytes << ",\n"
    << "    \"registered\": " << boolean(run.registered) << ",\n"
    << "    \"direct_bricks\": " << run.direct_bricks << ",\n"
    << "    \"bricks\": " << run.bricks << ",\n"
    << "    \"bytes_moved\": " << run.bytes_moved << ",\n"
    << "    \"staging_bytes\": " << run.staging_bytes << ",\n"
    << "    \"device_bytes\": " << run.device_bytes << ",\n"
    << "    \"brick_bytes\": " << run.brick_bytes << ",\n"
    << "    \"device_budget\": " << run.device_budget << ",\n"
    << "    \"replans\": " << run.replans << ",\n"
    << "    \"seconds\": " << number(run.seconds) << ",\n"
    << "    \"register_seconds\": " << number(run.register_seconds) << "\n"
    << "  }\n"
    << "}\n";
  return j.str();
}

}  // namespace oocfft::apps
