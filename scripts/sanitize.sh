#!/usr/bin/env bash
# Sanitizer runs of the host backend (no GPU needed).
#   scripts/sanitize.sh address   AddressSanitizer + UndefinedBehaviorSanitizer,
#                                 the quick tests (what CI runs, preset `sanitize`)
#   scripts/sanitize.sh thread    ThreadSanitizer on the engine, API and dataset
#                                 suites, which run the stream threads and the
#                                 callbacks (preset `tsan`; not in CI: slow)
# oneTBB is not built with ThreadSanitizer, so races reported inside libtbb
# itself are suppressed (tests/tsan.supp); races in oocfft are not.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs=$(nproc)
case "${1:-address}" in
  address)
    cmake --preset sanitize
    cmake --build --preset sanitize -j"$jobs"
    ctest --preset sanitize -j"$jobs"
    ;;
  thread)
    cmake --preset tsan
    cmake --build --preset tsan -j"$jobs" --target oocfft_tests oocfft_cli
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/tsan.supp" \
      build-tsan/tests/oocfft_tests --gtest_filter='Engine*:Api*:DatasetTransform*:VolumeDirect*'
    ;;
  *)
    echo "usage: scripts/sanitize.sh address|thread" >&2
    exit 2
    ;;
esac
