#pragma once
// What the benchmarks report of the host's memory, from /proc: the
// process's peak resident set and the memory still available.
#include <cstddef>
#include <fstream>
#include <string>

namespace oocfft::bench {

// The value in KiB of the line starting with `key` in a /proc file, in
// bytes; 0 when it cannot be read.
inline std::size_t proc_kib_field(const char* path, const std::string& key) {
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line))
    if (line.rfind(key, 0) == 0) return std::stoull(line.substr(key.size())) * 1024;
  return 0;
}

// VmHWM: the process's peak resident set so far.
inline std::size_t peak_rss() { return proc_kib_field("/proc/self/status", "VmHWM:"); }
// MemAvailable: what the host can still give without swapping.
inline std::size_t mem_available() { return proc_kib_field("/proc/meminfo", "MemAvailable:"); }

}  // namespace oocfft::bench
