#pragma once
// Where one execution's time went, from its RunReport timeline
// (RunReport::record_timeline): for each pass, the window of its uploads,
// kernels and downloads (first start to last end, seconds since the
// execution began) with the bytes each direction moved, and the time
// before the first and after the last of them (the execution's set-up and
// tear-down: allocations, registration, joins). For the benchmarks' notes.
#include <oocfft/run_report.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

namespace oocfft::bench {

inline std::string run_phases(const RunReport& report) {
  if (report.timeline.empty()) return "no timeline recorded";
  struct Window {
    double begin = std::numeric_limits<double>::max(), end = 0;
    std::size_t bytes = 0;
    void add(double b, double e, std::size_t n) {
      if (e <= 0) return;
      begin = std::min(begin, b);
      end = std::max(end, e);
      bytes += n;
    }
    std::string text(const char* what, bool rate) const {
      if (end <= 0) return "";
      char line[160];
      if (rate)
        std::snprintf(line, sizeof line, " %s %.3f-%.3f (%.1f GB/s)", what, begin, end,
                      double(bytes) / 1e9 / std::max(end - begin, 1e-9));
      else
        std::snprintf(line, sizeof line, " %s %.3f-%.3f", what, begin, end);
      return line;
    }
  };
  unsigned passes = 0;
  for (const BrickTiming& t : report.timeline) passes = std::max(passes, t.pass + 1);
  double first = std::numeric_limits<double>::max(), last = 0;
  std::string out;
  for (unsigned p = 0; p < passes; ++p) {
    Window up, kernels, down;
    for (const BrickTiming& t : report.timeline) {
      if (t.pass != p) continue;
      up.add(t.h2d_start, t.h2d_end, t.bytes);
      kernels.add(t.kernel_start, t.kernel_end, 0);
      down.add(t.d2h_start, t.d2h_end, t.bytes);
      for (const double s : {t.gather_start, t.h2d_start, t.kernel_start})
        if (s > 0) first = std::min(first, s);
      last = std::max({last, t.d2h_end, t.scatter_end, t.kernel_end});
    }
    out += "pass " + std::to_string(p + 1) + ":" + up.text("up", true) + kernels.text("kernels", false) +
           down.text("down", true) + "; ";
  }
  char edges[96];
  std::snprintf(edges, sizeof edges, "before the first brick %.3f s, after the last %.3f s of %.3f s", first,
                report.seconds - last, report.seconds);
  return out + edges;
}

}  // namespace oocfft::bench
