#include "apps/progress_reporter.hpp"

#include <unistd.h>

#include <string>

#include "core/format_bytes.hpp"

namespace oocfft::apps {

ProgressStyle progress_style_for(std::FILE* stream) {
  return isatty(fileno(stream)) ? ProgressStyle::bar : ProgressStyle::pass_lines;
}

ProgressReporter::ProgressReporter(std::FILE* stream, ProgressStyle style, const char* unit)
    : stream_(stream), style_(style), unit_(unit) {}

void ProgressReporter::begin() {
  finish();
  start_ = std::chrono::steady_clock::now();
  drawn_percent_ = -1;
  pass_ = 0;
  last_ = Progress{};
}

void ProgressReporter::update(const Progress& p) {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (style_ == ProgressStyle::bar) {
    const int percent = p.bricks_total == 0 ? 100 : static_cast<int>(100 * p.bricks_done / p.bricks_total);
    if (percent == drawn_percent_) return;  // redraw at most 101 times
    drawn_percent_ = percent;
    constexpr int width = 30;
    const std::string bar = std::string(percent * width / 100, '#') + std::string(width - percent * width / 100, '.');
    std::fprintf(stream_, "\r[%s] %3d%%  pass %u/%u  %s%.1f s ", bar.c_str(), percent, p.pass + 1, p.passes,
                 moved_text(p).c_str(), seconds);
    std::fflush(stream_);
    bar_open_ = true;
  } else {
    // Passes run one after another, so the first brick of the next pass, or
    // the last brick, closes a pass.
    if (p.pass != pass_) {
      print_pass_line(last_, pass_, seconds);
      pass_ = p.pass;
    }
    if (p.bricks_done == p.bricks_total) print_pass_line(p, p.pass, seconds);
  }
  last_ = p;
}

// "12.0 GiB moved  ", or nothing where nothing crossed (asm's planes).
std::string ProgressReporter::moved_text(const Progress& p) {
  if (p.bytes_moved == 0) return "";
  return format_bytes(static_cast<double>(p.bytes_moved)) + " moved  ";
}

void ProgressReporter::print_pass_line(const Progress& p, unsigned pass, double seconds) {
  const std::string moved = p.bytes_moved == 0 ? "" : ", " + format_bytes(static_cast<double>(p.bytes_moved)) + " moved";
  std::fprintf(stream_, "pass %u/%u done: %zu/%zu %s%s, %.2f s\n", pass + 1, p.passes, p.bricks_done, p.bricks_total,
               unit_, moved.c_str(), seconds);
}

void ProgressReporter::finish() {
  if (bar_open_) std::fputc('\n', stream_);
  bar_open_ = false;
}

}  // namespace oocfft::apps
