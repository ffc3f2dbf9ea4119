// transform_real_dataset over MPI ranks (include/oocfft/distributed_hdf5.hpp):
// numpy's rfftn / irfftn of an HDF5 dataset, every rank its slabs. The
// checks are those of the single-process transform_real_dataset
// (engine/api/real_dataset_job.hpp), run by every rank and agreed; the
// steps those of transform_dataset over ranks (dataset_job.hpp): open,
// read, the distributed real plan's three steps, write, commit, each
// ended by an agreement of every rank.
//
// Layouts: a forward reads the real volume in z-slabs and writes the half
// spectrum in y-slabs; an inverse reads the half spectrum in y-slabs and
// writes the real volume in z-slabs: the sides on which the plan's first
// and last local steps run without an exchange of their own
// (DistributedRealPlan: planes on z-slabs, z lines on y-slabs).
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "distributed/box_partition.hpp"
#include "distributed/collective_dataset_transfer.hpp"
#include "distributed/dataset_job.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/mpi_communicator.hpp"
#include "engine/api/real_dataset_job.hpp"
#include "io/dataset_transfer.hpp"
#include "oocfft/distributed_hdf5.hpp"
#include "oocfft/distributed_real.hpp"

namespace oocfft {
namespace {

using distributed::agree_on;
using distributed::DatasetJob;
using distributed::JobClock;
using distributed::seconds_since;
using engine::RealJob;

// The steps after the open, in the input's precision.
template <class T>
DatasetTransformReport read_transform_write(DatasetJob& job, const RealJob& real,
                                            distributed::CollectiveDatasetTransfer& transfer) {
  const bool forward = real.forward();
  const std::vector<Box3> real_slabs = distributed::slab_boxes(real.real_shape, 0, job.ranks);
  const std::vector<Box3> spectrum_slabs = distributed::slab_boxes(real.spectrum_shape, 1, job.ranks);
  const Box3 real_box = real_slabs[static_cast<std::size_t>(job.rank)];
  const Box3 spectrum_box = spectrum_slabs[static_cast<std::size_t>(job.rank)];
  const DatasetInfo& info = transfer.input();

  DatasetTransformReport report;
  report.input = info;
  report.output = job.output;
  report.output_shape = forward ? real.spectrum_shape : real.real_shape;
  report.in_memory = true;
  std::vector<T> reals;
  std::vector<std::complex<T>> spectrum;
  agree_on(job.comm, [&] {
    report.host_memory_budget = job.host_budget();
    // The bound of the complex job (4 x both slabs) over the two sides:
    // the file's two slabs, the plan's own slabs and one exchange's send
    // and receive buffers, the real values crossing once and the half
    // spectrum the rest.
    job.check_share(4 * (real_box.count() * sizeof(T) + spectrum_box.count() * sizeof(std::complex<T>)),
                    report.host_memory_budget, info);
    reals.resize(real_box.count());
    spectrum.resize(spectrum_box.count());
  });
  job.progress.step();

  const std::size_t real_bytes = real.real_bytes(), spectrum_bytes = real.spectrum_bytes();
  job.poll_cancel("reading");
  auto phase = JobClock::now();
  if (forward)
    transfer.read_real(real_slabs, reinterpret_cast<std::byte*>(reals.data()));
  else
    transfer.read(spectrum_slabs, reinterpret_cast<std::byte*>(spectrum.data()));
  report.read_seconds = seconds_since(phase);
  job.progress.step(forward ? real_bytes : spectrum_bytes);

  // The plan checks its own arguments and the options (agreed), and polls
  // the cancel as the engine does.
  phase = JobClock::now();
  Options plan_options = job.options;
  plan_options.progress = [&job](const Progress&) { job.progress.step(); };
  const DistributedRealPlan plan(job.comm, real.real_shape, real_box, spectrum_box, info.precision, plan_options);
  if (forward) {
    plan.forward(reals.data(), spectrum.data());
    reals = {};
  } else {
    plan.inverse(spectrum.data(), reals.data());
    spectrum = {};
  }
  report.transform_seconds = seconds_since(phase);

  job.poll_cancel("writing");
  phase = JobClock::now();
  if (forward)
    transfer.write(spectrum_slabs, reinterpret_cast<const std::byte*>(spectrum.data()));
  else
    transfer.write_real(real_slabs, reinterpret_cast<const std::byte*>(reals.data()));
  report.write_seconds = seconds_since(phase);
  job.progress.step(forward ? spectrum_bytes : real_bytes);

  job.commit(transfer, report, real_bytes + spectrum_bytes);
  return report;
}

// The job as one process would check it, on every rank: each rank checks
// its own request (no file opened), and rank 0 alone opens the input to
// check the data, as the transfer's own checks are rank 0's (one process
// reading the file's metadata, not every rank); the others build the job
// from the real dims and precision rank 0 found. A refusal on any rank is
// every rank's, before anything is written.
RealJob agreed_real_job(const DatasetJob& job, const DatasetPath& input, std::size_t real_nx) {
  RealJob real;
  agree_on(job.comm, [&] {
    engine::check_real_request(input, job.direction, job.options, job.file_options);
    if (job.rank == 0) real = engine::check_real_job(input, job.direction, job.options, job.file_options, real_nx);
  });
  // Rank 0's findings: [precision single, axes, real dims...].
  std::vector<std::uint64_t> found;
  if (job.rank == 0) {
    found = {real.input.precision == Precision::single ? 1u : 0u, real.real_dims.size()};
    found.insert(found.end(), real.real_dims.begin(), real.real_dims.end());
  }
  int count = static_cast<int>(found.size());
  distributed::check_mpi(MPI_Bcast(&count, 1, MPI_INT, 0, job.comm), "MPI_Bcast");
  found.resize(static_cast<std::size_t>(count));
  distributed::check_mpi(MPI_Bcast(found.data(), count, MPI_UINT64_T, 0, job.comm), "MPI_Bcast");
  if (job.rank != 0)
    real = engine::real_job_of(job.direction, std::vector<std::size_t>(found.begin() + 2, found.end()),
                               found[0] == 1 ? Precision::single : Precision::double_precision);
  return real;
}

DatasetTransformReport run(MPI_Comm comm, const DatasetPath& input, const DatasetPath& output, Direction direction,
                           const Options& options, const DatasetTransformOptions& file_options, std::size_t real_nx) {
  DatasetJob job(comm, direction, options, file_options, output);
  RealJob real = agreed_real_job(job, input, real_nx);
  job.poll_cancel("opening the files");
  distributed::CollectiveDatasetTransfer transfer(comm, input, output, false,
                                                  engine::real_output_record(real, options.norm));
  agree_on(comm, [&] {
    if (job.rank == 0 && (transfer.input().dims != real.input.dims || transfer.input().element != real.input.element))
      throw Error(ErrorKind::io, input.to_string() + " changed while it was being opened");
  });
  real.input = transfer.input();
  return real.input.precision == Precision::single ? read_transform_write<float>(job, real, transfer)
                                                   : read_transform_write<double>(job, real, transfer);
}

}  // namespace

DatasetTransformReport transform_real_dataset(MPI_Comm caller, const DatasetPath& input, const DatasetPath& output,
                                              Direction direction, const Options& options,
                                              const DatasetTransformOptions& file_options, std::size_t real_nx) {
  const distributed::DuplicatedCommunicator own(distributed::usable_communicator(caller, "transform_real_dataset"));
  const MPI_Comm comm = own.get();
  const DatasetPath in = input.normalised();
  const DatasetPath out = output.normalised();
  distributed::check_same_job(comm, own.rank(),
                              in.to_string() + " -> " + out.to_string() + " (" +
                                  engine::real_transform_name(direction) + ", norm " + to_string(options.norm) +
                                  ", real last axis " + (real_nx == 0 ? "as recorded" : std::to_string(real_nx)) +
                                  ")");
  return io::nothing_committed_on_cancel(
      in, out, [&] { return run(comm, in, out, direction, options, file_options, real_nx); });
}

}  // namespace oocfft
