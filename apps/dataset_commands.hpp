#pragma once
// `oocfft info FILE:/DATASET`, `oocfft fft`, `oocfft rfft`, `oocfft
// irfft`, `oocfft dct` and `oocfft dst`: the HDF5 dataset commands.
#include <atomic>

#include "apps/cli_options.hpp"

namespace oocfft::apps {

// Prints the dataset as stored, then what `fft` would do with it.
void run_info_dataset(const CliOptions& cli);

// Transforms cli.fft.input into cli.fft.output with progress on stderr and a
// summary on stdout; writes the JSON report when asked. `interrupted`
// becomes Options::cancel: the library then throws Error(cancelled).
void run_fft(const CliOptions& cli, const std::atomic<bool>& interrupted);

// The same for cli.real_fft: rfft (forward) or irfft (inverse).
void run_real_fft(const CliOptions& cli, const std::atomic<bool>& interrupted);

// The same for cli.trig: dct or dst, forward or inverse.
void run_trig(const CliOptions& cli, const std::atomic<bool>& interrupted);

}  // namespace oocfft::apps
