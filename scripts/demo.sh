#!/usr/bin/env bash
# Set-up plus the main job: builds the `oocfft` command (only it: no tests,
# no benchmarks) and runs `oocfft demo` on the embedded default volume
# (256^3 complex64, generated from a seed), which transforms it, checks it
# against a direct long-double DFT and a round trip, and prints time and
# error. Extra arguments go to `oocfft demo`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
setup_what=demo
source scripts/setup.sh
./build/apps/oocfft demo "$@"
