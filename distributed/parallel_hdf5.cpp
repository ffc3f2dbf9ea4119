#include "distributed/parallel_hdf5.hpp"

#include <hdf5.h>

namespace oocfft::distributed {

io::Hid mpio_file_access(MPI_Comm comm) {
  const std::string what = "setting up HDF5's MPI-IO driver";
  io::Hid access = io::checked_id(H5Pcreate(H5P_FILE_ACCESS), io::HidKind::property_list, what);
  io::check(H5Pset_fapl_mpio(access.get(), comm, MPI_INFO_NULL), what);
  return access;
}

io::Hid collective_transfer() {
  const std::string what = "setting up a collective HDF5 transfer";
  io::Hid transfer = io::checked_id(H5Pcreate(H5P_DATASET_XFER), io::HidKind::property_list, what);
  io::check(H5Pset_dxpl_mpio(transfer.get(), H5FD_MPIO_COLLECTIVE), what);
  return transfer;
}

}  // namespace oocfft::distributed
