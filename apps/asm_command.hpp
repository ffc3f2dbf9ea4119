#pragma once
// `oocfft asm`: angular-spectrum propagation of an HDF5 dataset.
#include <atomic>

#include "apps/cli_options.hpp"

namespace oocfft::apps {

// Runs cli.asm_args on the datasets with progress on stderr (planes) and a
// summary on stdout. `interrupted` becomes the cancel callback.
void run_asm(const CliOptions& cli, const std::atomic<bool>& interrupted);

}  // namespace oocfft::apps
