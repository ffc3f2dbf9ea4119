// main() of the distributed suite: the program owns MPI (the library never
// initialises it), every rank runs every test, and only rank 0 prints
// gtest's report. A test's verdict is agreed over the ranks (the tests
// reduce their errors), so all ranks run the same collectives.
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char** argv) {
  // FUNNELED, as the command asks for: the pencil rounds overlap their
  // exchanges with a second thread only at this level.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int failed = RUN_ALL_TESTS();
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any_failed;
}
