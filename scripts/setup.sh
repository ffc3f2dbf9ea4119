#!/usr/bin/env bash
# Installs the Debian packages oocfft builds and tests with (numpy and h5py
# write the test fixtures and the references), when missing
# (apt-get update once, then one install; through sudo when not root), then
# configures and builds the release preset. Sourced by demo.sh and test.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(g++ make cmake pkg-config libtbb-dev libhdf5-dev libgtest-dev libcli11-dev libfftw3-dev python3 python3-numpy python3-h5py)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "oocfft: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi

jobs=$(nproc)
# OOCFFT_KERNEL_SET (pow2, ci or full; CMake's default is full) picks the
# line lengths whose CUDA kernels are compiled ahead of time; CI builds ci.
cmake --preset release ${OOCFFT_KERNEL_SET:+-DOOCFFT_KERNEL_SET=$OOCFFT_KERNEL_SET}
cmake --build --preset release -j"$jobs"
