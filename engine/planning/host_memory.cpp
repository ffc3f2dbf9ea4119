#include "engine/planning/host_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "core/format_bytes.hpp"
#include "engine/planning/pass_planner.hpp"
#include "oocfft/error.hpp"

namespace oocfft::engine {

std::size_t available_host_memory() noexcept {
  try {
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line)) {
      std::istringstream fields(line);
      std::string key, unit;
      unsigned long long kib = 0;
      if (fields >> key >> kib >> unit && key == "MemAvailable:" && unit == "kB") return std::size_t(kib) * 1024;
    }
  } catch (...) {
  }
  return 0;
}

std::size_t physical_host_memory() noexcept {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) : 0;
}

std::size_t default_host_memory_budget() {
  const std::size_t available = available_host_memory();
  if (available == 0)
    throw Error(ErrorKind::unsupported,
                "cannot read MemAvailable from /proc/meminfo: give a host memory budget (--host-memory)");
  return available / 5 * 4;
}

std::size_t streamed_bricks(const Shape& volume, std::size_t element_bytes, const Options& options, Backend backend,
                            std::size_t staging, bool real_x) {
  staging = std::min(options.host_staging_budget == 0 ? SIZE_MAX : options.host_staging_budget, staging);
  if (staging == 0) return SIZE_MAX;  // 0 would mean "no limit" to the planner
  PlannerInput in;
  in.volume = volume;
  in.element_bytes = element_bytes;
  in.staging_budget = staging;
  const std::size_t device = options.device_memory_budget == 0 ? SIZE_MAX / 4 : options.device_memory_budget;
  in.device_budget = backend == Backend::host ? std::min(device, staging) : device;
  in.streams = options.streams;
  if (options.devices.choice() == DeviceChoice::listed) in.devices = options.devices.ordinals();
  in.requested = options.strategy;
  in.host_backend = backend == Backend::host;
  in.host_available = available_host_memory();
  in.workspace_ratio = 0;
  in.real_x = real_x;
  try {
    const PassPlan plan = plan_passes(in);
    return plan.host_in_place ? SIZE_MAX : plan.total_bricks();
  } catch (const Error&) {
    return SIZE_MAX;
  }
}

void check_streaming_budget(std::size_t budget, std::size_t ceiling, const std::string& what,
                            const BricksForBudget& bricks) {
  const std::size_t taken = bricks(budget);
  if (taken <= most_streamed_bricks) return;
  auto works = [&](std::size_t b) { return b >= ceiling || bricks(b) <= most_streamed_bricks; };
  // Doubling finds a budget that works, bisection the smallest; shown
  // rounded up to a KiB.
  std::size_t low = std::max<std::size_t>(budget, 1), high = low;
  while (!works(high)) {
    low = high;
    high = high > ceiling / 2 ? ceiling : 2 * high;
  }
  while (high - low > 1) {
    const std::size_t middle = low + (high - low) / 2;
    (works(middle) ? high : low) = middle;
  }
  high = (high + 1023) / 1024 * 1024;
  const std::string why =
      taken == SIZE_MAX ? "no plan fits it"
                        : "the run would take " + std::to_string(taken) + " bricks, each an HDF5 call (at most " +
                              std::to_string(most_streamed_bricks) + " make progress: a brick costs its count, "
                              "not its bytes)";
  throw Error(ErrorKind::out_of_memory,
              "host memory budget (--host-memory) of " + format_bytes(double(budget)) + " is too small for " + what +
                  ": " + why + "; the smallest budget that works is " + format_bytes(double(high)) + " (" +
                  std::to_string(high) + " bytes)");
}

}  // namespace oocfft::engine
