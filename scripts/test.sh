#!/usr/bin/env bash
# Set-up plus the whole test suite. GPU tests skip with a reason when no CUDA
# device is present; everything else, the host pipeline included, runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh
ctest --preset release -j"$(nproc)"
