#include "apps/json_report_file.hpp"

#include <filesystem>
#include <system_error>

#include "apps/report_json.hpp"
#include "core/durable_file.hpp"
#include "oocfft/error.hpp"

namespace oocfft::apps {
namespace {

bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
  return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

}  // namespace

JsonReport open_json(const std::string& path, const DatasetPath& input, const DatasetPath& output) {
  if (path.empty()) return {};
  if (same_file(path, input.file))
    throw Error(ErrorKind::invalid_argument, "--json " + path + " is the input file " + input.file +
                                                 "; the report would replace it: name another file");
  if (same_file(path, output.file))
    throw Error(ErrorKind::invalid_argument, "--json " + path + " is the output file " + output.file +
                                                 "; the report would replace it: name another file");
  check_writable_destination(path, "the JSON report");
  return {path};
}

void finish_json(const JsonReport& json, const DatasetTransformReport& report) {
  if (!json.path.empty()) write_file_atomically(json.path, report_json(report));
}

}  // namespace oocfft::apps
