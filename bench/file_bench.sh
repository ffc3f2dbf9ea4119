#!/usr/bin/env bash
# File benchmark: an HDF5 complex64 volume transformed file to file by
# `oocfft fft`, once with a host memory budget above the volume (read whole
# into page-locked memory, bricks DMA'd from it) and once with a small budget
# (streamed file -> device -> file), next to the disk's own sequential read
# and write bandwidth (dd with O_DIRECT) and a plain HDF5 read of the file.
# Each transform is checked by the marginal self-test; the input's pages are
# dropped from the page cache before each run so that it is read from disk.
#
#   bench/file_bench.sh DIR NZ NY NX SMALL_BUDGET OUTDIR
# DIR holds the files (input and output: twice the volume); the JSON reports
# and the log go to OUTDIR. Needs oocfft and oocfft_volume_file on PATH.
set -euo pipefail
dir=$1; nz=$2; ny=$3; nx=$4; small=$5; out=$6
in=$dir/volume.h5
result=$dir/spectrum.h5
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
echo "== HDF5 read of the input (oocfft_volume_file check reads it whole once; the check needs an output, so this is timed with the first check below)"
run() {  # name, host budget
  oocfft_volume_file evict "$in"
  rm -f "$result"
  /usr/bin/env time -f "peak RSS %M KiB, wall %e s" oocfft fft "$in:/volume" "$result:/spectrum" \
      --host-memory "$2" --json "$out/file_bench_$1.json" 2>&1 || \
    oocfft fft "$in:/volume" "$result:/spectrum" --host-memory "$2" --json "$out/file_bench_$1.json"
  oocfft_volume_file evict "$in" "$result"
  /usr/bin/env time -f "check: wall %e s" oocfft_volume_file check "$in" /volume "$result" /spectrum 2>&1 || \
    oocfft_volume_file check "$in" /volume "$result" /spectrum
}
echo "== in memory (host budget above the volume)"
run in_memory "$((bytes * 2))"
echo "== streamed (host budget $small)"
run streamed "$small"
rm -f "$result"
