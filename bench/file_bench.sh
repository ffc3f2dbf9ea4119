#!/usr/bin/env bash
# File benchmark: an HDF5 complex64 volume transformed file to file by
# `oocfft fft`, once with a host memory budget above the volume (read whole
# into page-locked memory, bricks DMA'd from it) and once with a small budget
# (streamed file -> device -> file), next to the disk's own sequential read
# and write bandwidth (dd with O_DIRECT) and a plain HDF5 read of the file.
# Each transform is checked by the marginal self-test; the input's pages are
# dropped from the page cache before each run so that it is read from disk.
#
#   bench/file_bench.sh DIR NZ NY NX SMALL_BUDGET [OUTDIR]
# NZ is halved until the input and output (twice the volume) fit DIR's
# free space with 4 GiB to spare.
# DIR holds the files (input and output: twice the volume); the JSON reports
# go to OUTDIR (default: bench/logs beside this script, created if missing;
# raw output is not tracked). Needs oocfft and oocfft_volume_file on PATH.
set -euo pipefail
dir=$1; nz=$2; ny=$3; nx=$4; small=$5; out=${6:-$(dirname "$0")/logs}
mkdir -p "$out"
in=$dir/volume.h5
result=$dir/spectrum.h5
free_bytes=$(( $(df -k --output=avail "$dir" | tail -1) * 1024 ))
while [ $((2 * nz * ny * nx * 8 + (4 << 30))) -gt "$free_bytes" ] && [ "$nz" -gt 1 ]; do nz=$((nz / 2)); done
bytes=$((nz * ny * nx * 8))
mib=$((bytes >> 20))
echo "== machine"; nproc; free -g | head -2; df -h "$dir" | tail -1
echo "== write the input: ${nz}x${ny}x${nx} complex64, $((bytes >> 30)) GiB"
rm -f "$in" "$result"
oocfft_volume_file write "$in" /volume "$nz" "$ny" "$nx"
echo "== disk floor: O_DIRECT sequential read of the input, then a write of the same size"
dd if="$in" of=/dev/null bs=64M iflag=direct 2>&1 | tail -1
dd if=/dev/zero of="$dir/dd.bin" bs=64M count=$((mib / 64)) oflag=direct conv=fsync 2>&1 | tail -1
rm -f "$dir/dd.bin"
run() {  # name, host budget; the JSON report holds the times and the peak RSS
  oocfft_volume_file evict "$in"
  rm -f "$result"
  oocfft fft "$in:/volume" "$result:/spectrum" --host-memory "$2" --json "$out/file_bench_$1.json"
  grep -E '"(in_memory|read_seconds|transform_seconds|write_seconds|seconds|peak_rss_bytes|strategy|bricks|direct_bricks|staging_bytes)"' \
    "$out/file_bench_$1.json" | tr -d '\n'; echo
  oocfft_volume_file evict "$in" "$result"
  local t0=$(date +%s%N)
  oocfft_volume_file check "$in" /volume "$result" /spectrum
  echo "check (reads the input whole through HDF5, from disk): $(( ($(date +%s%N) - t0) / 1000000 )) ms"
}
echo "== in memory (host budget above the volume)"
run in_memory "$((bytes * 2))"
echo "== streamed (host budget $small)"
run streamed "$small"
rm -f "$result"
