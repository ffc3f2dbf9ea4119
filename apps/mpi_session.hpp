#pragma once
// MpiSession: MPI for the life of the command when it was started by an
// MPI launcher (apps/mpi_launch.hpp), in a build with the distributed file
// path: MPI_Init_thread with MPI_THREAD_FUNNELED (the library's MPI and
// HDF5 calls are made from the main thread; the engine's worker threads
// make none), MPI_Finalize in the destructor. The command owns MPI; the
// library never initialises it.
#include <mpi.h>

namespace oocfft::apps {

class MpiSession {
 public:
  // Throws Error(io) when MPI cannot be initialised.
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  MPI_Comm world() const { return MPI_COMM_WORLD; }
  int rank() const { return rank_; }
  int ranks() const { return ranks_; }

 private:
  int rank_ = 0;
  int ranks_ = 1;
};

}  // namespace oocfft::apps
