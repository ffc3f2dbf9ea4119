#include "distributed/mpi_communicator.hpp"

#include <utility>

#include "oocfft/error.hpp"

namespace oocfft::distributed {

void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  throw Error(ErrorKind::io, std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

MPI_Comm usable_communicator(MPI_Comm comm, const char* who) {
  int initialised = 0;
  int finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (!initialised || finalised)
    throw Error(ErrorKind::invalid_argument,
                std::string(who) + " needs MPI initialised and not finalised (the caller owns MPI_Init)");
  if (comm == MPI_COMM_NULL) throw Error(ErrorKind::invalid_argument, std::string(who) + " of MPI_COMM_NULL");
  return comm;
}

DuplicatedCommunicator::DuplicatedCommunicator(MPI_Comm comm) {
  check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

DuplicatedCommunicator::~DuplicatedCommunicator() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

DuplicatedCommunicator::DuplicatedCommunicator(DuplicatedCommunicator&& other) noexcept
    : comm_(std::exchange(other.comm_, MPI_COMM_NULL)), rank_(other.rank_), size_(other.size_) {}

DuplicatedCommunicator& DuplicatedCommunicator::operator=(DuplicatedCommunicator&& other) noexcept {
  if (this != &other) {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    rank_ = other.rank_;
    size_ = other.size_;
  }
  return *this;
}

}  // namespace oocfft::distributed
