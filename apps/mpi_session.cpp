#include "apps/mpi_session.hpp"

#include <string>

#include "oocfft/error.hpp"

namespace oocfft::apps {

MpiSession::MpiSession(int* argc, char*** argv) {
  int provided = 0;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw Error(ErrorKind::io, "MPI_Init_thread failed");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

}  // namespace oocfft::apps
