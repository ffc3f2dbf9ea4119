#pragma once
// oocfft::transform_dataset and transform_real_dataset over the ranks of an
// MPI communicator, with parallel HDF5: what `mpirun -np N oocfft fft
// in.h5:/v out.h5:/V` (and `oocfft rfft`, `oocfft irfft`) runs.
// Every rank opens the files with HDF5's MPI-IO driver and reads its
// z-slab of the input dataset (collective transfers, each rank its
// hyperslab); the ranks transform the volume together (DistributedPlan,
// z-slabs in, y-slabs out); every rank writes its y-slab of the output.
//
// This header and its functions exist only in a build whose HDF5 is the
// parallel library (OOCFFT_MPI on and parallel HDF5 found, Debian
// libhdf5-openmpi-dev: README, "Building by hand"); they are in the CMake
// target oocfft::distributed, and the build defines
// OOCFFT_HAVE_PARALLEL_HDF5=1 for it. The caller owns MPI (MPI_Init).
//
// Collective over `comm`: every rank calls with the same input, output,
// direction, Options::norm and Options::shift (checked: a rank that
// differs fails every rank). Options::shift centres the data as one
// process does (DistributedPlan), and the output's record says so. The
// file safety of the single-process transform_dataset (oocfft/hdf5.hpp):
// every check before anything is written; the result written under a
// temporary name (a new output file under a temporary file name) and
// linked under its own name only when every rank has written its part;
// one writer per output file (the lock, held by rank 0). A failure on any rank (a bad argument, a file error, out of memory,
// a cancel) becomes the same oocfft::Error on every rank, the first
// failing rank's; the temporaries are removed, the input is as it was and
// nothing is under the output's name.
//
// Each rank holds its share in host memory: its z-slab and y-slab of the
// volume, and the distributed plan's slabs and exchange buffers, at most
// 4 x (z-slab + y-slab) bytes (and the local transforms' small scratch). A rank whose share exceeds its host budget
// (DatasetTransformOptions::host_memory_budget, 0: 80% of MemAvailable)
// refuses with Error(out_of_memory) before anything is read. A share is
// not streamed through a smaller budget yet.
//
// Options::progress is called on rank 0 only, once for each step of the
// whole job, after every rank has finished it: Progress::pass is the step
// (0-based), passes the steps, bricks_done and bricks_total count steps,
// bytes_moved the bytes read from and written to the files by all ranks so
// far. Options::cancel is polled by each rank before each step; a cancel
// on one rank ends the run on every rank.
//
// DatasetTransformOptions::in_place as in one process: the result takes
// the input's name when every rank has written its part, the input moved
// aside until then.
//
// The report, on each rank: the input, the output, in_memory (each
// rank's share is), the rank's host budget, its read, transform and write
// times and the total as it saw them; of `run`, only backend,
// seconds (the transform's) and bytes_moved (read plus written by all
// ranks): the local plans' own reports are each one rank's, and are not
// gathered.
#include <mpi.h>

#include "oocfft/hdf5.hpp"

namespace oocfft {

DatasetTransformReport transform_dataset(MPI_Comm comm, const DatasetPath& input, const DatasetPath& output,
                                         Direction direction, const Options& options,
                                         const DatasetTransformOptions& file_options = {});

// numpy's rfftn (forward) or irfftn (inverse) of a dataset over the ranks
// of `comm`: what `mpirun -np N oocfft rfft` and `oocfft irfft` run. The
// conventions, checks and output record of the single-process
// transform_real_dataset (oocfft/hdf5.hpp): a forward takes float32 or
// float64 data and writes the half spectrum (h5py complex, the last axis
// nx/2+1) with the attribute oocfft_real_shape; an inverse takes a half
// spectrum and the real length of the last axis (`real_nx`, 0: that
// attribute) and writes real data of the input's precision; no shift, not
// in place. Everything else as transform_dataset above: collective, the
// same job on every rank (checked), the file safety, errors on every rank
// alike, progress on rank 0 (seven steps), each rank's share in memory
// (at most 4 x its real and half-spectrum slabs; refused with
// Error(out_of_memory) above its budget). A forward reads the real volume
// in z-slabs and writes the half spectrum in y-slabs; an inverse the
// reverse (DistributedRealPlan's real values cross the network once).
DatasetTransformReport transform_real_dataset(MPI_Comm comm, const DatasetPath& input, const DatasetPath& output,
                                              Direction direction, const Options& options,
                                              const DatasetTransformOptions& file_options = {},
                                              std::size_t real_nx = 0);

}  // namespace oocfft
