#pragma once
// What the distributed file transforms (transform_dataset and
// transform_real_dataset over MPI ranks, include/oocfft/distributed_hdf5.hpp)
// share: the check that every rank runs the same job, the job's steps as
// rank 0 reports them, and the cancel polled by every rank together.
// Internal to the distributed target.
#include <mpi.h>

#include <chrono>
#include <string>

#include "oocfft/hdf5.hpp"
#include "oocfft/options.hpp"

namespace oocfft::distributed {

class CollectiveDatasetTransfer;

using JobClock = std::chrono::steady_clock;

double seconds_since(JobClock::time_point start);

// Every rank must run the same job: rank 0's description of it, broadcast,
// against each rank's own (`mine`). Error(invalid_argument) on every rank
// where one differs, naming it.
void check_same_job(MPI_Comm comm, int rank, const std::string& mine);

// The job's steps as Options::progress counts them, reported by rank 0.
class JobProgress {
 public:
  static constexpr unsigned steps = 7;
  JobProgress(const Options& options, int rank) : options_(options), reports_(rank == 0 && options.progress) {}
  // One step more done; `bytes_moved` read or written by all ranks in it.
  void step(std::size_t bytes_moved = 0);

 private:
  const Options& options_;
  bool reports_;
  unsigned done_ = 0;
  std::size_t bytes_ = 0;
};

// One job's communicator, rank, options and progress, for its steps.
struct DatasetJob {
  MPI_Comm comm;
  int rank;
  int ranks;
  std::string who;  // "rank R", for messages
  JobClock::time_point start;
  Direction direction;
  const Options& options;
  const DatasetTransformOptions& file_options;
  const DatasetPath& output;
  JobProgress progress;

  DatasetJob(MPI_Comm comm, Direction direction, const Options& options, const DatasetTransformOptions& file_options,
             const DatasetPath& output);
  // Error(cancelled) on every rank when Options::cancel is true on any,
  // naming the step it came before.
  void poll_cancel(const char* before) const;
  // The host memory budget of each rank (DatasetTransformOptions, 0: 80%
  // of MemAvailable), and the refusal of a share that needs more:
  // Error(out_of_memory) naming the rank, what it holds and the budget.
  std::size_t host_budget() const;
  void check_share(std::size_t needed, std::size_t budget, const DatasetInfo& input) const;
  // The last step: the cancel polled, the output committed, the step
  // reported; then the report's total time and its `run` (the backend, the
  // transform's time, `bytes_moved` read and written by all ranks).
  void commit(CollectiveDatasetTransfer& transfer, DatasetTransformReport& report, std::size_t bytes_moved);
};

}  // namespace oocfft::distributed
