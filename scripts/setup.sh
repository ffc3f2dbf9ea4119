#!/usr/bin/env bash
# Set-up shared by demo.sh and test.sh, sourced after `setup_what` is set:
#   setup_what=demo  the `oocfft` command only: the packages it builds with,
#                    tests and benchmarks left out of the configuration, and
#                    only the command's target built
#   setup_what=test  everything: the test and benchmark packages too (FFTW,
#                    GoogleTest, numpy and h5py, which write the test
#                    fixtures and references; pybind11, pytest, scipy and
#                    tqdm for the Python module and its suite; OpenMPI and
#                    parallel HDF5 for the distributed plan, the distributed
#                    file path and their suites, run under mpiexec with 1
#                    to 4 ranks: with them the whole build links the
#                    parallel HDF5, cmake/pick_hdf5.cmake), every target
#                    built
# Missing Debian packages are installed with apt-get (update once, then one
# install; through sudo when not root). Both configure the release preset
# into build/, so the demo's build is reused by the tests.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(g++ make cmake pkg-config libtbb-dev libhdf5-dev libcli11-dev)
configure=()
targets=()
case "${setup_what:?setup_what must be demo or test}" in
  demo)
    configure+=(-DOOCFFT_BUILD_TESTS=OFF -DOOCFFT_BUILD_BENCH=OFF)
    targets+=(--target oocfft_cli)
    # Without a GPU the command runs on the host backend: compiling CUDA
    # kernels that cannot run would only make the first command slower.
    # With one (nvidia-smi lists it), the CUDA backend is built as usual.
    if ! { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }; then
      configure+=(-DOOCFFT_CUDA=OFF)
    else
      configure+=(-DOOCFFT_CUDA=AUTO)
    fi
    ;;
  test)
    packages+=(libgtest-dev libfftw3-dev python3 python3-numpy python3-h5py
               python3-dev python3-pybind11 python3-pytest python3-scipy python3-tqdm
               libopenmpi-dev openmpi-bin libfftw3-mpi-dev libhdf5-openmpi-dev)
    configure+=(-DOOCFFT_BUILD_TESTS=ON -DOOCFFT_BUILD_BENCH=ON -DOOCFFT_CUDA=AUTO)
    ;;
  *) echo "setup.sh: setup_what must be demo or test (got '$setup_what')" >&2; exit 2 ;;
esac

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
cmake --preset release "${configure[@]}" ${OOCFFT_KERNEL_SET:+-DOOCFFT_KERNEL_SET=$OOCFFT_KERNEL_SET}
cmake --build --preset release -j"$jobs" "${targets[@]}"
