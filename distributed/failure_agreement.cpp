#include "distributed/failure_agreement.hpp"

#include <new>
#include <string>

#include "distributed/mpi_communicator.hpp"
#include "oocfft/distributed.hpp"

namespace oocfft::distributed {

Error as_error(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const Error& e) {
    return e;
  } catch (const std::bad_alloc&) {
    return Error(ErrorKind::out_of_memory, "out of host memory");
  } catch (const std::exception& e) {
    return Error(ErrorKind::unsupported, e.what());
  } catch (...) {
    return Error(ErrorKind::unsupported, "an exception that is not a std::exception");
  }
}

void throw_if_any_failed(MPI_Comm comm, const std::optional<Error>& local) {
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int mine = local ? rank : size;
  int first = size;
  check_mpi(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first == size) return;

  // The first failing rank's kind and message, broadcast from it.
  int header[2] = {0, 0};
  std::string message;
  if (rank == first) {
    // what() carries "oocfft: <kind>: ", which the Error made of it adds again.
    message = local->message();
    header[0] = static_cast<int>(local->kind());
    header[1] = static_cast<int>(message.size());
  }
  check_mpi(MPI_Bcast(header, 2, MPI_INT, first, comm), "MPI_Bcast");
  message.resize(static_cast<std::size_t>(header[1]));
  check_mpi(MPI_Bcast(message.data(), header[1], MPI_CHAR, first, comm), "MPI_Bcast");
  throw Error(static_cast<ErrorKind>(header[0]), message);
}

}  // namespace oocfft::distributed

namespace oocfft {

void agree_on_step(MPI_Comm comm, const std::function<void()>& step) { distributed::agree_on(comm, step); }

}  // namespace oocfft
