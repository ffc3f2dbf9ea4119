#include "distributed/collective_dataset_transfer.hpp"

#include <unistd.h>

#include <algorithm>
#include <complex>
#include <filesystem>
#include <mutex>
#include <system_error>

#include "core/durable_file.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/mpi_communicator.hpp"
#include "distributed/parallel_hdf5.hpp"
#include "io/box_io.hpp"
#include "io/hdf5_library.hpp"
#include "io/output_temporaries.hpp"
#include "io/run_lock.hpp"
#include "io/stored_type.hpp"
#include "oocfft/error.hpp"

namespace oocfft::distributed {
namespace {

namespace fs = std::filesystem;

// A collective transfer moves at most about this much on the rank with
// the most, as DatasetTransfer's whole-volume reads do: HDF5's per-call
// bookkeeping (chunk maps, conversion buffers) stays small.
constexpr std::size_t piece_target_bytes = std::size_t{64} << 20;

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
  return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

// An empty box is one of no elements (a default Shape is 1 x 1 x 1).
oocfft::Box as_io_box(const Box3& box) {
  if (box.empty()) return oocfft::Box{0, 0, 0, Shape{0, 0, 0}};
  return oocfft::Box{static_cast<std::size_t>(box.low[0]), static_cast<std::size_t>(box.low[1]),
                     static_cast<std::size_t>(box.low[2]), box.extent()};
}

// Calls `move(piece, byte offset)` for this rank's box cut along z into as
// many pieces as the rank with the most bytes needs: every rank makes the
// same number of collective calls, those with fewer planes (or none)
// passing empty pieces.
template <class Move>
void for_each_piece(const std::vector<Box3>& boxes, int rank, std::size_t element_bytes, Move move) {
  std::size_t pieces = 1;
  for (const Box3& b : boxes)
    pieces = std::max(pieces, (b.count() * element_bytes + piece_target_bytes - 1) / piece_target_bytes);
  const Box3& mine = boxes[static_cast<std::size_t>(rank)];
  const Shape extent = mine.extent();
  const std::size_t plane = extent.ny * extent.nx * element_bytes;
  for (std::size_t i = 0; i < pieces; ++i) {
    const std::size_t first = extent.nz * i / pieces;
    const std::size_t last = extent.nz * (i + 1) / pieces;
    Box3 piece;  // empty
    if (last > first) {
      piece = mine;
      piece.low[0] = mine.low[0] + static_cast<std::int64_t>(first);
      piece.high[0] = mine.low[0] + static_cast<std::int64_t>(last) - 1;
    }
    move(piece, first * plane);
  }
}

}  // namespace

struct CollectiveDatasetTransfer::Impl {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  DatasetPath input_path;
  DatasetPath output_path;
  bool in_place = false;  // the result replaces the input (output == input)
  io::OpenedDataset input;
  io::Hid input_file;
  io::Hid separate_output_file;  // open only when the output is in another file
  io::Hid input_dataset;
  io::Hid output_dataset;
  std::vector<std::size_t> output_dims;  // as stored
  StoredElement output_element = StoredElement::complex_compound;
  std::unique_ptr<io::RunLock> run_lock;  // rank 0's
  bool output_file_created = false;
  std::string created_file;
  std::string partial_name;
  bool partial_linked = false;
  bool linked = false;
  bool committed = false;

  hid_t output_file() const { return separate_output_file ? separate_output_file.get() : input_file.get(); }
  std::string input_where() const { return input_path.to_string(); }
  std::string output_where() const { return output_path.to_string(); }

  // Rank 0, before anything is opened for writing: what
  // DatasetTransfer's constructor checks, through read-only handles of
  // HDF5's POSIX driver, closed again before the collective open. Takes
  // the run lock. Returns whether the output's file exists.
  bool check_alone(bool shared_file);
  // Every rank: the files rank 0 checked are there on this rank's file
  // system too. Error(io) naming the rank and the file.
  void check_visible(bool shared_file, bool output_file_exists) const;
  void open_together(bool shared_file, bool output_file_exists, long owner_pid, const io::OutputRecord& record);
  io::StoredDataset output_view() const {
    const Precision p = input.type.precision;
    const bool single = p == Precision::single;
    const io::StoredType type = output_element == StoredElement::real
                                    ? io::StoredType{StoredElement::real, p, single ? "float32" : "float64", "", ""}
                                    : io::StoredType{StoredElement::complex_compound, p,
                                                     single ? "complex64" : "complex128", "r", "i"};
    return {output_dataset.get(), type, output_dims.size(), output_where()};
  }
  io::StoredDataset input_view() const {
    return {input_dataset.get(), input.type, input.complex_rank, input_where()};
  }
  // Each rank its box, in pieces (for_each_piece) of `value_bytes` values,
  // through `move(piece, its bytes in values, the collective transfer
  // list)`: every rank makes the same collective calls, under the HDF5 lock.
  template <class Bytes, class Move>
  void transfer_boxes(const std::vector<Box3>& boxes, std::size_t value_bytes, Bytes* values, Move move) const {
    const std::lock_guard lock(io::hdf5_library_mutex());
    const io::ErrorStackSilencer silence;
    const io::Hid transfer = collective_transfer();
    // HDF5 wants a buffer even where a rank selects nothing.
    std::complex<double> nothing;
    for_each_piece(boxes, rank, value_bytes, [&](const Box3& piece, std::size_t offset) {
      Bytes* at = piece.empty() ? reinterpret_cast<Bytes*>(&nothing) : values + offset;
      move(as_io_box(piece), at, transfer.get());
    });
  }
  void abandon() noexcept;
};

bool CollectiveDatasetTransfer::Impl::check_alone(bool shared_file) {
  const std::string in_where = input_where(), out_where = output_where();
  // DatasetTransfer's words for the same refusals.
  if (in_place && !(shared_file && output_path.dataset == input_path.dataset))
    throw Error(ErrorKind::invalid_argument, "in-place transform of " + in_where + " to another dataset " + out_where);
  if (!in_place && shared_file && output_path.dataset == input_path.dataset)
    throw Error(ErrorKind::invalid_argument,
                "output " + out_where + " is the input dataset; ask for an in-place transform to replace it");
  if (output_path.dataset.empty() || output_path.dataset.front() != '/' || output_path.dataset.back() == '/')
    throw Error(ErrorKind::invalid_argument, "output " + out_where + ": not an absolute dataset name");
  io::Hid file = io::open_file_read_only(input_path.file, in_where);
  io::explain_missing_input(file.get(), input_path);
  {
    io::Hid dataset = io::open_dataset(file.get(), input_path);
    io::check_transformable(io::describe_dataset(dataset.get(), input_path).info);
  }
  const bool output_file_exists = shared_file || fs::exists(output_path.file);
  if (!output_file_exists) {
    const fs::path directory = fs::path(output_path.file).parent_path();
    std::error_code ec;
    if (!directory.empty() && !fs::is_directory(directory, ec))
      throw Error(ErrorKind::io, "output " + out_where + ": directory " + directory.string() + " does not exist");
  }
  // Before the output is looked at, so that what is checked holds until
  // the commit for every other oocfft run.
  run_lock = std::make_unique<io::RunLock>(output_path.file, "output " + out_where);
  if (!output_file_exists) {
    io::require_free_temporary_file(temporary_sibling(output_path.file, false), output_path.file);
    return false;
  }
  io::Hid probe = shared_file ? io::Hid() : io::open_file_read_only(output_path.file, out_where);
  const hid_t output_file = shared_file ? file.get() : probe.get();
  if (!in_place && io::link_exists(output_file, output_path.dataset))
    throw Error(ErrorKind::invalid_argument, "output " + out_where + " exists; oocfft does not overwrite datasets");
  io::require_free_temporary_name(output_file, output_path.file,
                                  io::temporary_sibling_dataset(output_path.dataset, io::partial_prefix),
                                  "the temporary of the output " + output_path.dataset);
  if (in_place)
    io::require_free_temporary_name(output_file, output_path.file,
                                    io::temporary_sibling_dataset(output_path.dataset, io::replaced_prefix),
                                    "the input while the result takes its name");
  return true;
}

void CollectiveDatasetTransfer::Impl::check_visible(bool shared_file, bool output_file_exists) const {
  const auto refuse = [&](const std::string& what) {
    throw Error(ErrorKind::io, "rank " + std::to_string(rank) + " does not see " + what + ", which rank 0 sees: " +
                                   "parallel HDF5 needs the files on a file system every rank shares");
  };
  std::error_code ec;
  if (!fs::exists(input_path.file, ec)) refuse("the input file " + input_path.file);
  if (shared_file) return;
  if (output_file_exists) {
    if (!fs::exists(output_path.file, ec)) refuse("the output file " + output_path.file);
    return;
  }
  const fs::path directory = fs::path(output_path.file).parent_path();
  if (!directory.empty() && !fs::is_directory(directory, ec)) refuse("the output's directory " + directory.string());
}

void CollectiveDatasetTransfer::Impl::open_together(bool shared_file, bool output_file_exists, long owner_pid,
                                                    const io::OutputRecord& record) {
  const std::string in_where = input_where(), out_where = output_where();
  const io::Hid access = mpio_file_access(comm);
  input_file = shared_file ? io::open_file(input_path.file, H5F_ACC_RDWR, in_where, access.get())
                           : io::open_file_read_only(input_path.file, in_where, access.get());
  input_dataset = io::open_dataset(input_file.get(), input_path);
  input = io::describe_dataset(input_dataset.get(), input_path);
  if (!shared_file) {
    if (output_file_exists) {
      separate_output_file = io::open_file(output_path.file, H5F_ACC_RDWR, out_where, access.get());
    } else {
      created_file = temporary_sibling(output_path.file, false);
      separate_output_file =
          io::checked_id(H5Fcreate(created_file.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, access.get()), io::HidKind::file,
                         out_where + ": creating HDF5 file " + created_file);
      output_file_created = true;
    }
  }
  partial_name = io::temporary_sibling_dataset(output_path.dataset, io::partial_prefix);
  output_dims = record.dims.empty()
                    ? std::vector<std::size_t>(input.info.dims.begin(),
                                               input.info.dims.begin() + static_cast<std::ptrdiff_t>(input.complex_rank))
                    : record.dims;
  output_element = record.dims.empty() ? StoredElement::complex_compound : record.element;
  output_dataset =
      io::create_partial_output(output_file(), partial_name, output_dims, output_element, input.type.precision, out_where);
  partial_linked = true;
  io::record_output(output_dataset.get(), record, output_path, input_path, input.info.dtype, owner_pid);
  // The file's own structures are on disk as they stay until commit(), as
  // DatasetTransfer leaves them.
  io::check(H5Fflush(output_file(), H5F_SCOPE_LOCAL), "creating output dataset " + out_where);
}

// Never throws. Runs on every rank after the same agreed failure, so its
// collective calls (the unlink, the closes) meet; removes only what this
// transfer created, as DatasetTransfer::abandon.
void CollectiveDatasetTransfer::Impl::abandon() noexcept {
  try {
    const std::lock_guard lock(io::hdf5_library_mutex());
    const io::ErrorStackSilencer silence;
    output_dataset.reset();
    if (partial_linked && !linked && !output_file_created && output_file() >= 0) {
      if (H5Ldelete(output_file(), partial_name.c_str(), H5P_DEFAULT) < 0) (void)io::hdf5_error_text();
    }
    input_dataset.reset();
    separate_output_file.reset();
    input_file.reset();
    if (rank == 0 && output_file_created && !committed) {
      std::error_code ec;
      fs::remove(created_file, ec);
    }
    run_lock.reset();
  } catch (...) {
    // Nothing to report to from here; the handles' own destructors still close them.
  }
}

CollectiveDatasetTransfer::CollectiveDatasetTransfer(MPI_Comm comm, const DatasetPath& input,
                                                     const DatasetPath& output, bool in_place,
                                                     const io::OutputRecord& record)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.comm = comm;
  m.in_place = in_place;
  check_mpi(MPI_Comm_rank(comm, &m.rank), "MPI_Comm_rank");
  m.input_path = input.normalised();
  m.output_path = output.normalised();
  try {
    // Rank 0's view of the files decides for all (they see one file system).
    int facts[2] = {0, 0};  // the output is in the input's file; the output's file exists
    agree_on(comm, [&] {
      if (m.rank != 0) return;
      const std::lock_guard lock(io::hdf5_library_mutex());
      const io::ErrorStackSilencer silence;
      facts[0] = same_file(m.input_path.file, m.output_path.file) ? 1 : 0;
      facts[1] = m.check_alone(facts[0] == 1) ? 1 : 0;
    });
    long owner_pid = static_cast<long>(::getpid());
    check_mpi(MPI_Bcast(facts, 2, MPI_INT, 0, comm), "MPI_Bcast");
    check_mpi(MPI_Bcast(&owner_pid, 1, MPI_LONG, 0, comm), "MPI_Bcast");
    // Every rank must see what rank 0 saw before any enters a collective
    // open: a rank that refused alone (a file on a disk of rank 0's node
    // only) would leave the others waiting in MPI_File_open.
    agree_on(comm, [&] { m.check_visible(facts[0] == 1, facts[1] == 1); });
    agree_on(comm, [&] {
      const std::lock_guard lock(io::hdf5_library_mutex());
      const io::ErrorStackSilencer silence;
      m.open_together(facts[0] == 1, facts[1] == 1, owner_pid, record);
    });
  } catch (...) {
    m.abandon();
    throw;
  }
}

CollectiveDatasetTransfer::~CollectiveDatasetTransfer() {
  if (!impl_->committed) impl_->abandon();
}

const DatasetInfo& CollectiveDatasetTransfer::input() const { return impl_->input.info; }

std::size_t CollectiveDatasetTransfer::element_bytes() const { return io::complex_bytes(impl_->input.type.precision); }

void CollectiveDatasetTransfer::read(const std::vector<Box3>& boxes, std::byte* values) const {
  const Impl& m = *impl_;
  agree_on(m.comm, [&] {
    const io::StoredDataset view = m.input_view();
    m.transfer_boxes(boxes, element_bytes(), values, [&](const oocfft::Box& box, std::byte* at, hid_t transfer) {
      io::read_box(view, box, at, transfer);
    });
  });
}

void CollectiveDatasetTransfer::write(const std::vector<Box3>& boxes, const std::byte* values) {
  const Impl& m = *impl_;
  agree_on(m.comm, [&] {
    if (m.committed) throw Error(ErrorKind::invalid_argument, m.output_where() + ": already committed");
    if (m.output_element == StoredElement::real)
      throw Error(ErrorKind::invalid_argument, m.output_where() + ": a real output takes real values");
    const io::StoredDataset view = m.output_view();
    m.transfer_boxes(boxes, element_bytes(), values, [&](const oocfft::Box& box, const std::byte* at, hid_t transfer) {
      io::write_box(view, box, at, transfer);
    });
  });
}

void CollectiveDatasetTransfer::read_real(const std::vector<Box3>& boxes, std::byte* values) const {
  const Impl& m = *impl_;
  agree_on(m.comm, [&] {
    const io::StoredDataset view = m.input_view();
    m.transfer_boxes(boxes, element_bytes() / 2, values, [&](const oocfft::Box& box, std::byte* at, hid_t transfer) {
      io::read_real_box(view, box, at, transfer);
    });
  });
}

void CollectiveDatasetTransfer::write_real(const std::vector<Box3>& boxes, const std::byte* values) {
  const Impl& m = *impl_;
  agree_on(m.comm, [&] {
    if (m.committed) throw Error(ErrorKind::invalid_argument, m.output_where() + ": already committed");
    const io::StoredDataset view = m.output_view();
    m.transfer_boxes(boxes, element_bytes() / 2, values, [&](const oocfft::Box& box, const std::byte* at, hid_t transfer) {
      io::write_real_box(view, box, at, transfer);
    });
  });
}

// The order of DatasetTransfer::commit, every rank taking part: the values
// reach the disk before the result takes its name, and a new file is
// renamed into place only when whole and on disk.
void CollectiveDatasetTransfer::commit() {
  Impl& m = *impl_;
  if (m.committed) return;
  const std::string out_where = m.output_where();
  const std::string disk_file = m.output_file_created ? m.created_file : m.output_path.file;
  agree_on(m.comm, [&] {
    const std::lock_guard lock(io::hdf5_library_mutex());
    const io::ErrorStackSilencer silence;
    // With the MPI-IO driver, HDF5's flush ends in MPI_File_sync.
    io::check(H5Fflush(m.output_file(), H5F_SCOPE_LOCAL), "flushing " + out_where);
    // A new file is not visible before its rename: one fsync after its close does.
    if (m.rank == 0 && !m.output_file_created) fsync_path(disk_file);
  });
  agree_on(m.comm, [&] {
    const std::lock_guard lock(io::hdf5_library_mutex());
    const io::ErrorStackSilencer silence;
    const hid_t file = m.output_file();
    if (m.in_place) {
      // The input is moved aside, not deleted, until the result holds its
      // name: a failed relink puts it back, so the name never points
      // nowhere. Every rank makes the same calls, and a metadata call of
      // parallel HDF5 fails or succeeds on all of them alike.
      m.input_dataset.reset();
      const std::string replaced = io::temporary_sibling_dataset(m.input_path.dataset, io::replaced_prefix);
      io::check(H5Lmove(file, m.input_path.dataset.c_str(), file, replaced.c_str(), H5P_DEFAULT, H5P_DEFAULT),
                "moving the input " + m.input_where() + " aside");
      if (H5Lmove(file, m.partial_name.c_str(), file, m.output_path.dataset.c_str(), H5P_DEFAULT, H5P_DEFAULT) < 0) {
        const std::string detail = io::hdf5_error_text();
        (void)H5Lmove(file, replaced.c_str(), file, m.input_path.dataset.c_str(), H5P_DEFAULT, H5P_DEFAULT);
        throw Error(ErrorKind::io, "linking the result as " + out_where + ": " + detail);
      }
      m.linked = true;
      io::unmark_temporary(m.output_dataset.get(), out_where);
      // The user's only copy is deleted next: the result under its name
      // on disk first (MPI_File_sync on every rank, then rank 0's fsync).
      io::check(H5Fflush(file, H5F_SCOPE_LOCAL), "flushing " + out_where);
      if (m.rank == 0) fsync_path(disk_file);
      io::check(H5Ldelete(file, replaced.c_str(), H5P_DEFAULT),
                "unlinking the replaced input " + m.input_where());
    } else {
      io::check(H5Lmove(file, m.partial_name.c_str(), file, m.output_path.dataset.c_str(), H5P_DEFAULT, H5P_DEFAULT),
                "linking the result as " + out_where);
      m.linked = true;
      io::unmark_temporary(m.output_dataset.get(), out_where);
    }
    m.output_dataset.reset();
    m.input_dataset.reset();
    io::close_file(m.separate_output_file, out_where);
    io::close_file(m.input_file, m.input_where());
    if (m.rank == 0) {
      fsync_path(disk_file);
      if (m.output_file_created) publish_file(m.created_file, m.output_path.file);
    }
  });
  m.committed = true;
  m.run_lock.reset();
}

}  // namespace oocfft::distributed
