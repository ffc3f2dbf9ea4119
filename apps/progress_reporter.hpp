#pragma once
// Progress of a streamed transform on stderr: a bar redrawn in place when
// stderr is a terminal, otherwise one line per finished pass (a log file or
// a pipe should not fill with carriage returns).
#include <chrono>
#include <cstdio>
#include <string>

#include <oocfft/options.hpp>

namespace oocfft::apps {

enum class ProgressStyle { bar, pass_lines };

// bar when `stream` is a terminal (isatty), pass_lines otherwise.
ProgressStyle progress_style_for(std::FILE* stream);

class ProgressReporter {
 public:
  // `unit`: what Progress counts ("bricks" for transforms, "planes" for asm).
  ProgressReporter(std::FILE* stream, ProgressStyle style, const char* unit = "bricks");
  // Starts the clock and the count of a new run; call before each one.
  void begin();
  // Options::progress calls this one brick at a time (the engine's
  // promise), so the reporter needs no lock.
  void update(const Progress& p);
  // Ends a drawn bar's line; call after each run, before printing anything else.
  void finish();

 private:
  static std::string moved_text(const Progress& p);
  void print_pass_line(const Progress& p, unsigned pass, double seconds);

  std::FILE* stream_;
  ProgressStyle style_;
  const char* unit_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  int drawn_percent_ = -1;  // bar: the last percentage drawn
  bool bar_open_ = false;
  unsigned pass_ = 0;  // pass_lines: the pass now running
  Progress last_;
};

}  // namespace oocfft::apps
