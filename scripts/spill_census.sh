#!/usr/bin/env bash
# spill_census.sh TYPE N... : what ptxas reports for the contiguous transform
# kernel of each length N (schedule_kernel<TYPE, N, false, plain>, the tile
# device_schedule chooses), compiled for sm_90 as the plan-time compiler
# would: registers, stack frame and spill bytes, one line per length.
# TYPE is float (complex64) or double (complex128). The spilled_tile
# entries of the tuning table (kernels/cuda/tuning_sm90.hpp) come from
# this report; rerun it after a change of the tile searches or
# of the CUDA Toolkit. Needs nvcc (CUDA_HOME/bin, else PATH), no GPU; about
# 10-20 s per length.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: spill_census.sh float|double N..." >&2; exit 2; }
type=$1
shift
case "$type" in float | double) ;; *) echo "spill_census.sh: TYPE must be float or double" >&2; exit 2 ;; esac
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[ -x "$nvcc" ] || nvcc=$(command -v nvcc) || { echo "spill_census.sh: nvcc not found" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for n in "$@"; do
  cat > "$work/k.cu" <<EOF
#include "kernels/cuda/compiled_schedule_kernels.cuh"
void* schedule_kernel_address() {
  return reinterpret_cast<void*>(
      &oocfft::kernels::cuda::detail::schedule_kernel<$type, $n, false, oocfft::kernels::cuda::ScheduleStore::plain>);
}
EOF
  if ! "$nvcc" -std=c++17 --expt-relaxed-constexpr -arch=sm_90 -Xptxas -v -c "$work/k.cu" -o "$work/k.o" \
    -I"$root" -I"$root/include" > "$work/log" 2>&1; then
    echo "spill_census.sh: nvcc failed for $type $n:" >&2
    cat "$work/log" >&2
    exit 1
  fi
  echo "$type $n: $(grep -A2 "schedule_kernel" "$work/log" | grep -E "spill|registers" | tr -s ' \n' ' ')"
done
