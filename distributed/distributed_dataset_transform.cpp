// transform_dataset over MPI ranks (include/oocfft/distributed_hdf5.hpp).
// The job is seven steps, each ended by an agreement of every rank (or by
// a collective that needs every rank), so that a failure anywhere ends it
// everywhere with one Error and Options::progress on rank 0 speaks for
// all: open (checks, the output created under its temporary name), read
// (each rank its z-slab), the distributed plan's three steps (z-slabs to
// y-slabs, see distributed_plan.cpp), write (each rank its y-slab), commit.
#include "oocfft/distributed_hdf5.hpp"

#include <complex>
#include <string>
#include <vector>

#include "distributed/box_partition.hpp"
#include "distributed/collective_dataset_transfer.hpp"
#include "distributed/dataset_job.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/mpi_communicator.hpp"
#include "io/dataset_transfer.hpp"
#include "oocfft/distributed.hpp"

namespace oocfft {
namespace {

using distributed::agree_on;
using distributed::DatasetJob;
using distributed::JobClock;
using distributed::seconds_since;

// The steps after the open, in the input's precision.
template <class T>
DatasetTransformReport read_transform_write(DatasetJob& job, distributed::CollectiveDatasetTransfer& transfer) {
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
    report.host_memory_budget = job.host_budget();
    // At once: the file's two slabs, the plan's own two, and one
    // exchange's send and receive buffers. The peak is the transpose
    // (3 z + 3 y) or, where a rank's y-slab is more than twice its z-slab,
    // the last exchange (z + 4 y): never more than 4 x (z + y).
    job.check_share(4 * (z_slab.count() + y_slab.count()) * sizeof(std::complex<T>), report.host_memory_budget, info);
    in.resize(z_slab.count());
    out.resize(y_slab.count());
  });
  job.progress.step();

  job.poll_cancel("reading");
  auto phase = JobClock::now();
  transfer.read(z_slabs, reinterpret_cast<std::byte*>(in.data()));
  report.read_seconds = seconds_since(phase);
  job.progress.step(info.complex_bytes());

  // The plan checks its own arguments and the options (agreed), and polls
  // the cancel as the engine does.
  phase = JobClock::now();
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
  phase = JobClock::now();
  transfer.write(y_slabs, reinterpret_cast<const std::byte*>(out.data()));
  report.write_seconds = seconds_since(phase);
  job.progress.step(info.complex_bytes());

  job.commit(transfer, report, 2 * info.complex_bytes());
  return report;
}

DatasetTransformReport run(MPI_Comm comm, const DatasetPath& input, const DatasetPath& output, Direction direction,
                           const Options& options, const DatasetTransformOptions& file_options) {
  DatasetJob job(comm, direction, options, file_options, output);
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
  distributed::check_same_job(comm, own.rank(),
                              in.to_string() + " -> " + out.to_string() + " (" + to_string(direction) + ", norm " +
                                  to_string(options.norm) + (options.shift ? ", centred" : "") + ")");
  return io::nothing_committed_on_cancel(in, out,
                                        [&] { return run(comm, in, out, direction, options, file_options); });
}

}  // namespace oocfft
