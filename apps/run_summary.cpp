#include "apps/run_summary.hpp"

#include <cstdio>
#include <string>

#include "core/format_bytes.hpp"

namespace oocfft::apps {

std::string run_summary(double seconds, std::size_t volume_bytes, const RunReport& run, const std::string& where) {
  // What stayed on the device between the passes crossed PCIe once less
  // each way.
  const double moved = static_cast<double>(volume_bytes) * 2.0 * run.passes - 2.0 * double(run.resident_bytes);
  const std::string resident =
      run.resident_bytes == 0 ? "" : ", " + format_bytes(double(run.resident_bytes)) + " kept on the device between them";
  // After a device out-of-memory the plan that ran is not the one the
  // options described: say so, and what it was fitted to.
  const std::string replanned =
      run.replans == 0 ? ""
                       : "; re-planned " + std::to_string(run.replans) + " time" + (run.replans == 1 ? "" : "s") +
                             " when the device could not hold the buffers: bricks of " +
                             format_bytes(double(run.brick_bytes)) + " for a device budget of " +
                             format_bytes(double(run.device_budget));
  char line[640];
  std::snprintf(line, sizeof line,
                "done in %.3f s, %.2f GB/s (%s volume read and written once per pass, %u pass%s%s), %s on %s, %s",
                seconds, seconds > 0 ? moved / seconds * 1e-9 : 0.0,
                format_bytes(static_cast<double>(volume_bytes)).c_str(), run.passes, run.passes == 1 ? "" : "es",
                resident.c_str(), to_string(run.strategy), to_string(run.backend), where.c_str());
  return line + replanned;
}

}  // namespace oocfft::apps
