#include "distributed/dataset_job.hpp"

#include <vector>

#include "core/format_bytes.hpp"
#include "distributed/collective_dataset_transfer.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/mpi_communicator.hpp"
#include "engine/planning/host_memory.hpp"
#include "oocfft/error.hpp"

namespace oocfft::distributed {

double seconds_since(JobClock::time_point start) {
  return std::chrono::duration<double>(JobClock::now() - start).count();
}

void check_same_job(MPI_Comm comm, int rank, const std::string& mine) {
  std::string rank0 = mine;
  int length = static_cast<int>(mine.size());
  check_mpi(MPI_Bcast(&length, 1, MPI_INT, 0, comm), "MPI_Bcast");
  rank0.resize(static_cast<std::size_t>(length));
  check_mpi(MPI_Bcast(rank0.data(), length, MPI_CHAR, 0, comm), "MPI_Bcast");
  agree_on(comm, [&] {
    if (mine != rank0)
      throw Error(ErrorKind::invalid_argument, "rank " + std::to_string(rank) + " was asked for " + mine +
                                                   ", rank 0 for " + rank0 +
                                                   ": every rank must transform the same datasets the same way");
  });
}

void JobProgress::step(std::size_t bytes_moved) {
  ++done_;
  bytes_ += bytes_moved;
  if (reports_) options_.progress(Progress{done_, steps, bytes_, done_ - 1, steps});
}

namespace {

int rank_of(MPI_Comm comm) {
  int rank = 0;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  return rank;
}

int size_of(MPI_Comm comm) {
  int ranks = 0;
  check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  return ranks;
}

}  // namespace

DatasetJob::DatasetJob(MPI_Comm comm, Direction direction, const Options& options,
                       const DatasetTransformOptions& file_options, const DatasetPath& output)
    : comm(comm),
      rank(rank_of(comm)),
      ranks(size_of(comm)),
      who("rank " + std::to_string(rank)),
      start(JobClock::now()),
      direction(direction),
      options(options),
      file_options(file_options),
      output(output),
      progress(options, rank) {}

void DatasetJob::poll_cancel(const char* before) const {
  agree_on(comm, [&] {
    if (options.cancel && options.cancel()) throw Error(ErrorKind::cancelled, who + ": cancelled before " + before);
  });
}

std::size_t DatasetJob::host_budget() const {
  return file_options.host_memory_budget != 0 ? file_options.host_memory_budget
                                              : engine::default_host_memory_budget();
}

void DatasetJob::check_share(std::size_t needed, std::size_t budget, const DatasetInfo& input) const {
  if (needed > budget)
    throw Error(ErrorKind::out_of_memory,
                who + ": its share of " + input.path.to_string() + " (" + input.shape.to_string() + ", " +
                    std::to_string(ranks) + " ranks) takes up to " + format_bytes(static_cast<double>(needed)) +
                    " of host memory, more than its budget of " + format_bytes(static_cast<double>(budget)) +
                    " (a rank holds its share in memory: run more ranks or give a larger budget)");
}

void DatasetJob::commit(CollectiveDatasetTransfer& transfer, DatasetTransformReport& report,
                        std::size_t bytes_moved) {
  poll_cancel("committing");
  transfer.commit();
  progress.step();
  report.seconds = seconds_since(start);
  report.run.backend = options.backend;
  report.run.seconds = report.transform_seconds;
  report.run.bytes_moved = bytes_moved;
}

}  // namespace oocfft::distributed
