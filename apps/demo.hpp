#pragma once
// `oocfft demo`: the main job on a generated volume, checked three ways.
#include <atomic>

#include "apps/cli_options.hpp"

namespace oocfft::apps {

// Generates the seeded volume in host memory (its bytes, nothing more: the
// checks regenerate the input from the seed), transforms it forward, runs
// the spot check and the marginal self-test, transforms it back and checks
// the round trip. Prints the plan, times, GFLOP/s, errors and PASS or FAIL;
// returns 0 on PASS, 1 on FAIL. `interrupted` becomes Options::cancel.
int run_demo(const DemoArgs& args, const Options& options, const std::atomic<bool>& interrupted);

}  // namespace oocfft::apps
