#pragma once
// DuplicatedCommunicator: the plan's own communicator, an MPI_Comm_dup of
// the caller's, freed with the plan. A duplicate keeps the plan's
// collectives apart from any the caller runs on its communicator. Its
// error handler returns codes instead of aborting, so that a failed call
// becomes an oocfft::Error (check_mpi).
#include <mpi.h>

#include <string>

namespace oocfft::distributed {

class DuplicatedCommunicator {
 public:
  DuplicatedCommunicator() = default;
  explicit DuplicatedCommunicator(MPI_Comm comm);
  ~DuplicatedCommunicator();
  DuplicatedCommunicator(DuplicatedCommunicator&& other) noexcept;
  DuplicatedCommunicator& operator=(DuplicatedCommunicator&& other) noexcept;
  DuplicatedCommunicator(const DuplicatedCommunicator&) = delete;
  DuplicatedCommunicator& operator=(const DuplicatedCommunicator&) = delete;

  MPI_Comm get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 0;
};

// Throws Error(io) naming `call` and MPI's message when `code` is not
// MPI_SUCCESS.
void check_mpi(int code, const char* call);

// `comm`, once MPI is known to be initialised and not finalised and
// `comm` is not MPI_COMM_NULL; else Error(invalid_argument) naming `who`.
// Checked before anything collective: nothing can agree without it.
MPI_Comm usable_communicator(MPI_Comm comm, const char* who);

}  // namespace oocfft::distributed
