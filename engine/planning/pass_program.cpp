#include "engine/planning/pass_program.hpp"

namespace oocfft::engine {

const char* to_string(Stage stage) noexcept {
  switch (stage) {
    case Stage::transform: return "transform";
    case Stage::forward: return "forward";
    case Stage::multiply: return "multiply";
    case Stage::inverse: return "inverse";
    case Stage::centre_input: return "centre input";
    case Stage::centre_output: return "centre output";
  }
  return "unknown";
}

std::string describe_stages(const std::vector<Stage>& stages) {
  std::string s;
  for (const Stage st : stages) s += (s.empty() ? "" : ", ") + std::string(to_string(st));
  return s;
}

}  // namespace oocfft::engine
