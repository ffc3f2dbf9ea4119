#pragma once
// `mpirun -np N oocfft fft in.h5:/v out.h5:/V`, and `oocfft rfft` /
// `oocfft irfft`: the dataset commands over the ranks of MPI_COMM_WORLD
// (include/oocfft/distributed_hdf5.hpp). Built only with the distributed
// file path (OOCFFT_HAVE_PARALLEL_HDF5).
#include <mpi.h>

#include <atomic>

#include "apps/cli_options.hpp"

namespace oocfft::apps {

// Every rank calls it with its own command line (the library checks that
// the ranks agree on the job). Rank 0 alone prints the progress of the
// whole job on stderr, the summary on stdout, and writes the JSON report
// when asked. `interrupted` becomes each rank's Options::cancel: a Ctrl-C
// or SIGTERM that reaches any rank stops every rank with Error(cancelled).
// Throws, on every rank alike, the library's Error.
void run_distributed_fft(const CliOptions& cli, const std::atomic<bool>& interrupted, MPI_Comm comm, int rank);
// The same for `rfft` and `irfft` (transform_real_dataset over the ranks).
void run_distributed_real_fft(const CliOptions& cli, const std::atomic<bool>& interrupted, MPI_Comm comm, int rank);

}  // namespace oocfft::apps
