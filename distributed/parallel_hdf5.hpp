#pragma once
// HDF5's MPI-IO driver, as the distributed file path opens files with it:
// a file access list that makes every H5Fopen / H5Fcreate collective over
// a communicator, and the data transfer list that makes a read or write
// collective (every rank calls, each with its own hyperslab, possibly
// none), so that MPI-IO can merge the ranks' pieces into large requests.
// Built only with a parallel HDF5 (OOCFFT_HAVE_PARALLEL_HDF5).
#include <mpi.h>

#include "io/hdf5_handle.hpp"

namespace oocfft::distributed {

// H5Pset_fapl_mpio over `comm`. Metadata reads stay independent (HDF5's
// default): a rank may look at the file alone, and the few reads of one
// dataset's header cost nothing next to its values.
io::Hid mpio_file_access(MPI_Comm comm);

// H5Pset_dxpl_mpio(H5FD_MPIO_COLLECTIVE).
io::Hid collective_transfer();

}  // namespace oocfft::distributed
