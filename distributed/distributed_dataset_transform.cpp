// transform_dataset over MPI ranks (include/oocfft/distributed_hdf5.hpp).
// The job is seven steps, each ended by an agreement of every rank (or by
// a collective that needs every rank), so that a failure anywhere ends it
// everywhere with one Error and Options::progress on rank 0 speaks for
// all: open (checks, the output created under its temporary name), read
// (each rank its z-slab), the distributed plan's three steps (z-slabs to
// y-slabs, see distributed_plan.cpp), write (each rank its y-slab), commit.
#include "oocfft/distributed_hdf5.hpp"

#include <chrono>
#include <complex>
#include <string>
#include <vector>

#include "core/format_bytes.hpp"
#include "distributed/box_partition.hpp"
#include "distributed/collective_dataset_transfer.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/mpi_communicator.hpp"
#include "engine/planning/host_memory.hpp"
#include "io/dataset_transfer.hpp"
#include "oocfft/distributed.hpp"

namespace oocfft {
namespace {

using distributed::agree_on;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Every rank must run the same job: rank 0's arguments, broadcast, against
// each rank's own.
void check_same_job(MPI_Comm comm, int rank, const std::string& mine) {
  std::string rank0 = mine;
  int length = static_cast<int>(mine.size());
  distributed::check_mpi(MPI_Bcast(&length, 1, MPI_INT, 0, comm), "MPI_Bcast");
  rank0.resize(static_cast<std::size_t>(length));
  distributed::check_mpi(MPI_Bcast(rank0.data(), length, MPI_CHAR, 0, comm), "MPI_Bcast");
  agree_on(comm, [&] {
    if (mine != rank0)
      throw Error(ErrorKind::invalid_argument, "rank " + std::to_string(rank) + " was asked for " + mine +
                                                   ", rank 0 for " + rank0 +
                                                   ": every rank must transform the same datasets the same way");
  });
}

// The job's steps as Options::progress counts them, reported by rank 0.
class JobProgress {
 public:
  static constexpr unsigned steps = 7;
  JobProgress(const Options& options, int rank) : options_(options), reports_(rank == 0 && options.progress) {}
  void step(std::size_t bytes_moved = 0) {
    ++done_;
    bytes_ += bytes_moved;
    if (reports_) options_.progress(Progress{done_, steps, bytes_, done_ - 1, steps});
  }

 private:
  const Options& options_;
  bool reports_;
  unsigned done_ = 0;
  std::size_t bytes_ = 0;
};

// What the steps after the open share.
struct Job {
  MPI_Comm comm;
  int rank;
  int ranks;
  std::string who;  // "rank R", for messages
  Clock::time_point start;
  Direction direction;
  const Options& options;
  const DatasetTransformOptions& file_options;
  const DatasetPath& output;
  JobProgress progress;

  void poll_cancel(const char* before) const {
    agree_on(comm, [&] {
      if (options.cancel && options.cancel()) throw Error(ErrorKind::cancelled, who + ": cancelled before " + before);
    });
  }
};

// The steps after the open, in the input's precision.
template <class T>
DatasetTransformReport read_transform_write(Job& job, distributed::CollectiveDatasetTransfer& transfer) {
  const DatasetInfo& info = transfer.input();
  const Shape shape = info.shape;
  const std::vector<Box3> z_slabs = distributed::slab_boxes(shape, 0, job.ranks);
  const std::vector<Box3> y_slabs = distributed::slab_boxes(shape, 1, job.ranks);
  const Box3 z_slab = z_slabs[static_cast<std::size_t>(job.rank)];
  const Box3 y_slab = y_slabs[static_cast<std::size_t>(job.rank)];

  DatasetTransformReport report;
  report.input = info;
  report.output = job.output;
  report.output_shape = shape;
  report.in_memory = true;
  std::vector<std::complex<T>> in, out;
  agree_on(job.comm, [&] {
    report.host_memory_budget = job.file_options.host_memory_budget != 0 ? job.file_options.host_memory_budget
                                                                         : engine::default_host_memory_budget();
    // At once: the file's two slabs, the plan's own two, and one
    // exchange's send and receive buffers. The peak is the transpose
    // (3 z + 3 y) or, where a rank's y-slab is more than twice its z-slab,
    // the last exchange (z + 4 y): never more than 4 x (z + y).
    const std::size_t needed = 4 * (z_slab.count() + y_slab.count()) * sizeof(std::complex<T>);
    if (needed > report.host_memory_budget)
      throw Error(ErrorKind::out_of_memory,
                  job.who + ": its share of " + info.path.to_string() + " (" + shape.to_string() + ", " +
                      std::to_string(job.ranks) + " ranks) takes up to " + format_bytes(static_cast<double>(needed)) +
                      " of host memory, more than its budget of " +
                      format_bytes(static_cast<double>(report.host_memory_budget)) +
                      " (a rank holds its share in memory: run more ranks or give a larger budget)");
    in.resize(z_slab.count());
    out.resize(y_slab.count());
  });
  job.progress.step();

  job.poll_cancel("reading");
  auto phase = Clock::now();
  transfer.read(z_slabs, reinterpret_cast<std::byte*>(in.data()));
  report.read_seconds = seconds_since(phase);
  job.progress.step(info.complex_bytes());

  // The plan checks its own arguments and the options (agreed), and polls
  // the cancel as the engine does.
  phase = Clock::now();
  Options plan_options = job.options;
  plan_options.progress = [&job](const Progress&) { job.progress.step(); };
  const DistributedPlan plan(job.comm, shape, z_slab, y_slab, info.precision, plan_options);
  if (job.direction == Direction::forward)
    plan.forward(in.data(), out.data());
  else
    plan.inverse(in.data(), out.data());
  in = {};
  report.transform_seconds = seconds_since(phase);

  job.poll_cancel("writing");
  phase = Clock::now();
  transfer.write(y_slabs, reinterpret_cast<const std::byte*>(out.data()));
  report.write_seconds = seconds_since(phase);
  job.progress.step(info.complex_bytes());

  job.poll_cancel("committing");
  transfer.commit();
  job.progress.step();

  report.seconds = seconds_since(job.start);
  report.run.backend = job.options.backend;
  report.run.seconds = report.transform_seconds;
  report.run.bytes_moved = 2 * info.complex_bytes();
  return report;
}

DatasetTransformReport run(MPI_Comm comm, const DatasetPath& input, const DatasetPath& output, Direction direction,
                           const Options& options, const DatasetTransformOptions& file_options) {
  int rank = 0, ranks = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  Job job{comm,    rank,         ranks,  "rank " + std::to_string(rank), Clock::now(), direction,
          options, file_options, output, JobProgress(options, rank)};
  job.poll_cancel("opening the files");
  distributed::CollectiveDatasetTransfer transfer(comm, input, output, file_options.in_place,
                                                  io::transform_record(direction, options.norm, options.shift));
  return transfer.input().precision == Precision::single ? read_transform_write<float>(job, transfer)
                                                         : read_transform_write<double>(job, transfer);
}

}  // namespace

DatasetTransformReport transform_dataset(MPI_Comm caller, const DatasetPath& input, const DatasetPath& output,
                                         Direction direction, const Options& options,
                                         const DatasetTransformOptions& file_options) {
  const distributed::DuplicatedCommunicator own(distributed::usable_communicator(caller, "transform_dataset"));
  const MPI_Comm comm = own.get();
  const DatasetPath in = input.normalised();
  const DatasetPath out = output.normalised();
  check_same_job(comm, own.rank(),
                 in.to_string() + " -> " + out.to_string() + " (" + to_string(direction) + ", norm " +
                     to_string(options.norm) + (options.shift ? ", centred" : "") + ")");
  return io::nothing_committed_on_cancel(in, out,
                                        [&] { return run(comm, in, out, direction, options, file_options); });
}

}  // namespace oocfft
