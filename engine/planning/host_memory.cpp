#include "engine/planning/host_memory.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

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

}  // namespace oocfft::engine
