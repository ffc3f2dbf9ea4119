#pragma once
// CollectiveDatasetTransfer: the input and output datasets of a
// distributed transform, opened by every rank through parallel HDF5, with
// the file safety of the single-process DatasetTransfer
// (io/dataset_transfer.hpp): every check before anything is written, the
// output created under its temporary name (in a new output file, itself
// under a temporary name), linked under its own name only by commit(), and
// removed by the destructor otherwise, so a failure on any rank leaves the
// input as it was and nothing under the output's name.
//
// Every member is collective over the communicator, and every step a rank
// may fail alone runs under agree_on (failure_agreement.hpp): it fails on
// every rank alike, so the ranks stay in step and the destructor's own
// collective calls (removing the temporary, closing the files) meet on
// every rank. What one process must do once is done by rank 0: the checks
// through HDF5's POSIX driver before anything is opened for writing (the
// messages of DatasetTransfer's checks), the run lock beside the output
// (io/run_lock.hpp), the fsync and the rename of a new file.
//
// In place (the output is the input), commit() moves the input aside,
// links the result under its name and only then deletes the input, as
// DatasetTransfer does. The output is what `record` says: the input's
// complex dims (an FFT), or its own dims and element (a real transform's
// half spectrum, or its real volume). Not built here: scratch datasets.
#include <mpi.h>

#include <cstddef>
#include <memory>

#include "io/output_dataset.hpp"
#include "oocfft/distributed.hpp"
#include "oocfft/hdf5.hpp"

namespace oocfft::distributed {

class CollectiveDatasetTransfer {
 public:
  // Throws, on every rank alike, the errors of DatasetTransfer's
  // constructor: output == input without `in_place`,
  // `in_place` with another output, an existing output, a file or
  // dataset missing. Nothing is written when it throws.
  CollectiveDatasetTransfer(MPI_Comm comm, const DatasetPath& input, const DatasetPath& output, bool in_place,
                            const io::OutputRecord& record);
  ~CollectiveDatasetTransfer();
  CollectiveDatasetTransfer(const CollectiveDatasetTransfer&) = delete;
  CollectiveDatasetTransfer& operator=(const CollectiveDatasetTransfer&) = delete;

  const DatasetInfo& input() const;
  std::size_t element_bytes() const;  // 8 for complex64, 16 for complex128

  // `boxes`: every rank's box of the volume, in rank order. This rank's
  // box of the input, as complex values in C order over the box, into
  // `values`; its box of the result from `values` into the output. Each is
  // one or more collective transfers, the same number on every rank
  // (slabs of about 64 MiB on the rank with the most).
  void read(const std::vector<Box3>& boxes, std::byte* values) const;
  void write(const std::vector<Box3>& boxes, const std::byte* values);
  // The same for real values in the input's precision, not widened to
  // complex: a real input's box (Error(invalid_argument) for another
  // input), and a real output's.
  void read_real(const std::vector<Box3>& boxes, std::byte* values) const;
  void write_real(const std::vector<Box3>& boxes, const std::byte* values);

  // The values on disk (HDF5's flush: MPI_File_sync on every rank), the
  // result linked under its name, the files closed, a new file fsynced and
  // renamed to its name by rank 0.
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace oocfft::distributed
