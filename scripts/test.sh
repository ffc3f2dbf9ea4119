#!/usr/bin/env bash
# Set-up plus the whole test suite: builds every target (library, command,
# tests, benchmarks) and runs ctest. GPU tests skip with a reason when no
# CUDA device is present; everything else, the host pipeline included, runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
setup_what=test
source scripts/setup.sh
ctest --preset release -j"$(nproc)"
