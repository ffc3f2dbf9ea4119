#include "io/dataset_transfer.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <system_error>

#include "core/durable_file.hpp"
#include "io/box_io.hpp"
#include "io/chunk_geometry.hpp"
#include "io/hdf5_library.hpp"
#include "io/dataset_attributes.hpp"
#include "io/hdf5_volume.hpp"
#include "io/output_temporaries.hpp"
#include "io/real_dataset_volume.hpp"
#include "io/run_lock.hpp"
#include "io/stored_type.hpp"
#include "oocfft/error.hpp"

namespace oocfft::io {
namespace {

namespace fs = std::filesystem;

// Whole-volume reads and writes go in slabs of z planes of about this
// size, so HDF5's per-call bookkeeping (chunk maps, conversion strips)
// stays small whatever the volume.
constexpr std::size_t slab_target_bytes = std::size_t{64} << 20;

// The link names the output lives under before commit(), and the input
// while an in-place commit swaps it out: io/output_temporaries.hpp.
std::string sibling(const std::string& dataset, const char* prefix) {
  return temporary_sibling_dataset(dataset, prefix);
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
  return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

// The complex volume of 1 to 3 dims, leading axes of length 1 added.
Shape volume_of(const std::vector<std::size_t>& dims) {
  std::size_t padded[3] = {1, 1, 1};
  for (std::size_t a = 0; a < dims.size(); ++a) padded[3 - dims.size() + a] = dims[a];
  return Shape{padded[0], padded[1], padded[2]};
}

}  // namespace

Error cancelled_before_commit(const Error& cancel, const DatasetPath& input, const DatasetPath& output) {
  std::string progress = cancel.message();
  progress = progress.substr(0, progress.find(';'));
  const std::string in = input.to_string();
  const bool same = output == input;
  return Error(ErrorKind::cancelled, progress + "; nothing was committed: the input " + in + " is untouched" +
                                         (same ? "" : " and nothing was written under " + output.to_string()));
}

struct DatasetTransfer::Impl {
  DatasetPath input_path;
  DatasetPath output_path;
  bool in_place = false;
  OpenedDataset input;
  Hid input_file;
  Hid separate_output_file;  // open only when the output is in another file
  Hid input_dataset;
  Hid output_dataset;
  std::string partial_name;  // the output's link name until commit()
  // One writer of the output file at a time, whatever HDF5's locks do;
  // held from before the output is looked at until the end.
  std::unique_ptr<RunLock> run_lock;
  // A new output file is created as created_file ("FILE.oocfft-partial")
  // and renamed to its name by commit(): a kill leaves nothing there.
  bool output_file_created = false;
  std::string created_file;
  bool partial_linked = false;
  bool linked = false;     // the result holds its name (in its file)
  bool committed = false;  // and the file holds its name, on disk
  std::vector<std::size_t> requested_dims;  // the record's; empty: the input's
  StoredElement output_element = StoredElement::complex_compound;
  std::unique_ptr<Hdf5Volume> store;
  std::unique_ptr<RealDatasetVolume> real_side;  // real_store()
  Hid scratch_dataset;                           // scratch_store()
  std::string scratch_name;
  bool scratch_linked = false;
  std::unique_ptr<Hdf5Volume> scratch;

  hid_t output_file() const { return separate_output_file ? separate_output_file.get() : input_file.get(); }
  std::string output_where() const { return output_path.to_string(); }

  void open(const OutputRecord& record);
  void check_output_location(bool shared_file);
  void create_output(const OutputRecord& record);
  StoredDataset input_view() const {
    return {input_dataset.get(), input.type, input.complex_rank, input_path.to_string()};
  }
  bool real_output() const { return output_element == StoredElement::real; }
  std::size_t output_element_bytes() const {
    return real_output() ? real_bytes(input.type.precision) : complex_bytes(input.type.precision);
  }
  StoredDataset output_view() const {
    const bool single = input.type.precision == Precision::single;
    StoredType type{output_element, input.type.precision,
                    real_output() ? (single ? "float32" : "float64") : (single ? "complex64" : "complex128"), "r",
                    "i"};
    return {output_dataset.get(), type, output_dims().size(), output_where()};
  }
  void remove_scratch();  // the caller holds the HDF5 lock
  std::vector<std::size_t> output_dims() const {
    if (!requested_dims.empty()) return requested_dims;
    return {input.info.dims.begin(), input.info.dims.begin() + static_cast<std::ptrdiff_t>(input.complex_rank)};
  }
  bool same_dims() const { return requested_dims.empty() || volume_of(requested_dims) == input.info.shape; }
  // The datasets reopened with chunk caches sized for bricks of `brick_bytes`.
  void reopen_input(std::size_t brick_bytes);
  void reopen_output(std::size_t brick_bytes);
  // Refuses a store once the result is committed.
  void check_open_for_streaming() const;
  // A store reading the `reads` dataset (the streamed store: until pass 0
  // is written) and writing the `writes` one, the datasets reopened with
  // chunk caches for the bricks; replaces the store made before. The caller
  // holds the HDF5 lock.
  enum class Side { input, output };
  volume::VolumeStore& make_store(std::size_t brick_bytes, Side reads, Side writes);
  void abandon() noexcept;
};

void DatasetTransfer::Impl::open(const OutputRecord& record) {
  const std::string in_where = input_path.to_string(), out_where = output_where();
  if (in_place && !(output_path == input_path))
    throw Error(ErrorKind::invalid_argument, "in-place transform of " + in_where + " to another dataset " + out_where);
  requested_dims = record.dims;
  output_element = record.element;
  if (output_element == StoredElement::complex_pairs)
    throw Error(ErrorKind::invalid_argument, "output " + out_where + ": oocfft writes complex compounds or reals");
  if (requested_dims.size() > 3)
    throw Error(ErrorKind::invalid_argument, "output " + out_where + ": " + std::to_string(requested_dims.size()) +
                                                 " axes; at most 3");
  for (std::size_t d : requested_dims)
    if (d == 0) throw Error(ErrorKind::invalid_argument, "output " + out_where + ": an axis of length 0");
  const bool shared_file = same_file(input_path.file, output_path.file);
  if (!in_place && shared_file && output_path.dataset == input_path.dataset)
    throw Error(ErrorKind::invalid_argument,
                "output " + out_where + " is the input dataset; ask for an in-place transform to replace it");
  if (output_path.dataset.empty() || output_path.dataset.front() != '/' || output_path.dataset.back() == '/')
    throw Error(ErrorKind::invalid_argument, "output " + out_where + ": not an absolute dataset name");

  // Everything about the input is checked through a read-only handle first:
  // a bad input is refused without ever opening its file for writing.
  input_file = open_file_read_only(input_path.file, in_where);
  explain_missing_input(input_file.get(), input_path);
  input_dataset = open_dataset(input_file.get(), input_path);
  input = describe_dataset(input_dataset.get(), input_path);
  check_transformable(input.info);
  // A real result may replace a real input (a DCT of it), not a complex one.
  if (in_place && real_output() && input.type.element != StoredElement::real)
    throw Error(ErrorKind::invalid_argument, "in-place: the result of " + in_where + " is real, the input is not");
  if (in_place && !same_dims())
    throw Error(ErrorKind::invalid_argument, "in-place: the result of " + in_where + " has another shape (" +
                                                 volume_of(requested_dims).to_string() + ")");
  if (!shared_file && !fs::exists(output_path.file)) {
    const fs::path directory = fs::path(output_path.file).parent_path();
    std::error_code ec;
    if (!directory.empty() && !fs::is_directory(directory, ec))
      throw Error(ErrorKind::io, "output " + out_where + ": directory " + directory.string() + " does not exist");
  }
  // Before the output is looked at, so that what is checked holds until
  // the commit for every other oocfft run.
  run_lock = std::make_unique<RunLock>(output_path.file, "output " + out_where);
  check_output_location(shared_file);

  if (shared_file) {
    // One file cannot be open twice with different modes: reopen it
    // read-write once, for both the input and the output.
    input_dataset.reset();
    input_file.reset();
    input_file = open_file(input_path.file, H5F_ACC_RDWR, in_where);
    input_dataset = open_dataset(input_file.get(), input_path);
  } else if (fs::exists(output_path.file)) {
    separate_output_file = open_file(output_path.file, H5F_ACC_RDWR, out_where);
  } else {
    created_file = temporary_sibling(output_path.file, false);
    separate_output_file = checked_id(H5Fcreate(created_file.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT),
                                      HidKind::file, out_where + ": creating HDF5 file " + created_file);
    output_file_created = true;
  }
  create_output(record);
}

void DatasetTransfer::Impl::check_output_location(bool shared_file) {
  const std::string out_where = output_where();
  if (!shared_file && !fs::exists(output_path.file)) {
    // A new file holds no dataset yet; its temporary name must be free.
    require_free_temporary_file(temporary_sibling(output_path.file, false), output_path.file);
    return;
  }
  // An existing file: look for the names through a read-only handle, so a
  // refusal writes nothing.
  Hid probe = shared_file ? Hid() : open_file_read_only(output_path.file, out_where);
  const hid_t file = shared_file ? input_file.get() : probe.get();
  if (!in_place && link_exists(file, output_path.dataset))
    throw Error(ErrorKind::invalid_argument, "output " + out_where + " exists; oocfft does not overwrite datasets");
  const std::string& name = output_path.dataset;
  require_free_temporary_name(file, output_path.file, sibling(name, partial_prefix),
                              "the temporary of the output " + name);
  require_free_temporary_name(file, output_path.file, sibling(name, scratch_prefix),
                              "the scratch dataset of the output " + name);
  if (in_place)
    require_free_temporary_name(file, output_path.file, sibling(name, replaced_prefix),
                                "the input while the result takes its name");
}

void DatasetTransfer::Impl::create_output(const OutputRecord& record) {
  const std::string out_where = output_where();
  const std::string what = "creating output dataset " + out_where;
  const hid_t file = output_file();
  partial_name = sibling(output_path.dataset, partial_prefix);

  output_dataset = create_partial_output(file, partial_name, output_dims(), output_element, input.type.precision,
                                         out_where);
  partial_linked = true;
  record_output(output_dataset.get(), record, output_path, input_path, input.info.dtype, ::getpid());
  // The file's own structures (its groups and their links) are on disk as
  // they now stay until commit(): a run killed from here on leaves them
  // readable, every other dataset as it was, and the temporary marked.
  check(H5Fflush(file, H5F_SCOPE_LOCAL), what);
}

// Never throws: runs in the destructor and on a failed constructor.
// Removes only what this transfer created. HDF5 does not give the space of
// an unlinked dataset back to the file (the file keeps its size; h5repack
// reclaims it), so an abandoned output in an existing file leaves the file
// larger, though its datasets are as they were. A file this transfer
// created (under its temporary name) is removed whole. Datasets are closed
// before their file; a close that fails (a full disk) gives its id up all
// the same (Hid::close), and HDF5 is not called on it again.
void DatasetTransfer::Impl::abandon() noexcept {
  try {
    const std::lock_guard lock(hdf5_library_mutex());
    const ErrorStackSilencer silence;
    store.reset();
    real_side.reset();
    scratch.reset();
    scratch_dataset.reset();
    if (scratch_linked && !output_file_created) {
      if (H5Ldelete(output_file(), scratch_name.c_str(), H5P_DEFAULT) < 0) (void)hdf5_error_text();
    }
    output_dataset.reset();
    if (partial_linked && !linked && !output_file_created) {
      if (H5Ldelete(output_file(), partial_name.c_str(), H5P_DEFAULT) < 0) (void)hdf5_error_text();
    }
    input_dataset.reset();
    separate_output_file.reset();
    input_file.reset();
    if (output_file_created && !committed) {
      std::error_code ec;
      fs::remove(created_file, ec);
    }
    run_lock.reset();
  } catch (...) {
    // Nothing to report to from here; the handles' own destructors still close them.
  }
}

DatasetTransfer::DatasetTransfer(const DatasetPath& input, const DatasetPath& output, bool in_place,
                                 const OutputRecord& record)
    : impl_(std::make_unique<Impl>()) {
  impl_->input_path = input.normalised();
  impl_->output_path = output.normalised();
  impl_->in_place = in_place;
  try {
    const std::lock_guard lock(hdf5_library_mutex());
    const ErrorStackSilencer silence;
    impl_->open(record);
  } catch (...) {
    impl_->abandon();
    throw;
  }
}

DatasetTransfer::~DatasetTransfer() { impl_->abandon(); }

const DatasetInfo& DatasetTransfer::input() const { return impl_->input.info; }

DatasetTransfer::SlabHook DatasetTransfer::polling_cancel(const Options& options) {
  return [&options] {
    if (options.cancel && options.cancel())
      throw Error(ErrorKind::cancelled, "cancelled while moving the dataset");
  };
}

Shape DatasetTransfer::output_shape() const { return volume_of(impl_->output_dims()); }

std::size_t DatasetTransfer::element_bytes() const { return complex_bytes(impl_->input.type.precision); }

std::size_t DatasetTransfer::output_element_bytes() const { return impl_->output_element_bytes(); }

namespace {

// Calls `move(box, offset)` for each slab of whole z planes.
template <class Move>
void for_each_slab(const Shape& shape, std::size_t element_bytes, Move move) {
  const std::size_t plane_bytes = shape.ny * shape.nx * element_bytes;
  const std::size_t planes = std::clamp<std::size_t>(slab_target_bytes / plane_bytes, 1, shape.nz);
  for (std::size_t z = 0; z < shape.nz; z += planes) {
    const std::size_t n = std::min(planes, shape.nz - z);
    move(oocfft::Box{z, 0, 0, {n, shape.ny, shape.nx}}, z * plane_bytes);
  }
}

}  // namespace

void DatasetTransfer::read_input(std::byte* volume, const SlabHook& before_slab) const {
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  const StoredDataset input = impl_->input_view();
  for_each_slab(impl_->input.info.shape, element_bytes(), [&](const oocfft::Box& box, std::size_t offset) {
    if (before_slab) before_slab();
    read_box(input, box, volume + offset);
  });
}

void DatasetTransfer::read_input_real(std::byte* values, const SlabHook& before_slab) const {
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  const StoredDataset input = impl_->input_view();
  for_each_slab(impl_->input.info.shape, real_bytes(input.type.precision),
                [&](const oocfft::Box& box, std::size_t offset) {
                  if (before_slab) before_slab();
                  read_real_box(input, box, values + offset);
                });
}

void DatasetTransfer::write_output(const std::byte* volume, const SlabHook& before_slab) {
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  if (impl_->committed) throw Error(ErrorKind::invalid_argument, impl_->output_where() + ": already committed");
  const StoredDataset output = impl_->output_view();
  const bool real = impl_->real_output();
  for_each_slab(output_shape(), output_element_bytes(), [&](const oocfft::Box& box, std::size_t offset) {
    if (before_slab) before_slab();
    if (real) {
      write_real_box(output, box, volume + offset);
    } else {
      write_box(output, box, volume + offset);
    }
  });
}

namespace {

// A chunk cache is set when a dataset is opened (H5Pset_chunk_cache on the
// access list), so a streamed dataset is reopened with a cache sized for
// the bricks. A contiguous dataset has no chunks and needs none.
void reopen_with_cache(Hid& dataset, hid_t file, const std::string& name, const std::vector<std::size_t>& dims,
                       const std::vector<std::size_t>& chunks, std::size_t stored_bytes, const DatasetPath& path,
                       std::size_t brick_bytes) {
  Hid access = checked_id(H5Pcreate(H5P_DATASET_ACCESS), HidKind::property_list, "opening " + path.to_string());
  if (!chunks.empty()) {
    const ChunkCache cache = chunk_cache_for(dims, chunks, stored_bytes, brick_bytes);
    check(H5Pset_chunk_cache(access.get(), cache.slots, cache.bytes, cache.w0),
          "sizing the chunk cache of " + path.to_string());
  }
  dataset.reset();  // an open dataset ignores a second handle's access list
  dataset = open_dataset(file, DatasetPath{path.file, name}, access.get());
}

}  // namespace

void DatasetTransfer::Impl::reopen_input(std::size_t brick_bytes) {
  const DatasetInfo& info = input.info;
  const std::size_t stored_bytes =
      input.type.element == StoredElement::complex_compound ? complex_bytes(info.precision) : real_bytes(info.precision);
  reopen_with_cache(input_dataset, input_file.get(), input_path.dataset, info.dims, info.chunks, stored_bytes,
                    input_path, brick_bytes);
}

void DatasetTransfer::Impl::reopen_output(std::size_t brick_bytes) {
  const std::vector<std::size_t> dims = output_dims();
  const std::size_t element_bytes = output_element_bytes();
  reopen_with_cache(output_dataset, output_file(), partial_name, dims, output_chunks(dims, element_bytes),
                    element_bytes, output_path, brick_bytes);
}

void DatasetTransfer::Impl::check_open_for_streaming() const {
  if (committed) throw Error(ErrorKind::invalid_argument, output_where() + ": already committed");
}

volume::VolumeStore& DatasetTransfer::Impl::make_store(std::size_t brick_bytes, Side reads, Side writes) {
  check_open_for_streaming();
  store.reset();
  const bool touches_input = reads == Side::input || writes == Side::input;
  const bool touches_output = reads == Side::output || writes == Side::output;
  // A real output is streamed as real values beside a real input (a
  // real-to-real transform); beside a complex one (a real inverse) it is
  // written through real_store().
  const bool real_values = touches_output && real_output();
  if (real_values && touches_input && input.type.element != StoredElement::real)
    throw Error(ErrorKind::invalid_argument,
                "internal: the real output " + output_where() + " is written through real_store()");
  if (touches_input) reopen_input(brick_bytes);
  if (touches_output) reopen_output(brick_bytes);
  auto view = [&](Side side) { return side == Side::input ? input_view() : output_view(); };
  const Shape s = reads == Side::input ? input.info.shape : volume_of(output_dims());
  store = std::make_unique<Hdf5Volume>(view(reads), view(writes), oocfft::Shape{s.nz, s.ny, s.nx},
                                       real_values ? Hdf5Volume::Values::real : Hdf5Volume::Values::complex);
  return *store;
}

volume::VolumeStore& DatasetTransfer::streamed_store(std::size_t brick_bytes) {
  Impl& m = *impl_;
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  if (!m.same_dims())
    throw Error(ErrorKind::invalid_argument, m.output_where() + ": a streamed transform keeps the input's shape");
  return m.make_store(brick_bytes, Impl::Side::input, Impl::Side::output);
}

volume::VolumeStore& DatasetTransfer::input_store(std::size_t brick_bytes) {
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  return impl_->make_store(brick_bytes, Impl::Side::input, Impl::Side::input);
}

volume::VolumeStore& DatasetTransfer::output_store(std::size_t brick_bytes) {
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  return impl_->make_store(brick_bytes, Impl::Side::output, Impl::Side::output);
}

volume::VolumeStore& DatasetTransfer::real_store(std::size_t brick_bytes) {
  Impl& m = *impl_;
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  m.check_open_for_streaming();
  m.real_side.reset();
  if (m.input.type.element == StoredElement::real) {
    m.reopen_input(brick_bytes);
    m.real_side = std::make_unique<RealDatasetVolume>(m.input_view(), m.input.info.shape);
  } else if (m.real_output()) {
    m.reopen_output(brick_bytes);
    m.real_side = std::make_unique<RealDatasetVolume>(m.output_view(), output_shape());
  } else {
    throw Error(ErrorKind::invalid_argument, "internal: neither " + m.input_path.to_string() + " nor " +
                                                 m.output_where() + " is real");
  }
  return *m.real_side;
}

volume::VolumeStore& DatasetTransfer::scratch_store(Shape shape, std::size_t brick_bytes) {
  Impl& m = *impl_;
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  m.check_open_for_streaming();
  if (m.scratch) throw Error(ErrorKind::invalid_argument, "internal: a second scratch dataset");
  const hid_t file = m.output_file();
  m.scratch_name = sibling(m.output_path.dataset, scratch_prefix);
  const std::string where = m.output_path.file + ":" + m.scratch_name;
  const std::string what = "creating the scratch dataset " + where;
  // Checked free when the transfer was made; taken since, it is not ours.
  require_free_temporary_name(file, m.output_path.file, m.scratch_name,
                              "the scratch dataset of the output " + m.output_path.dataset);
  const std::vector<std::size_t> dims{shape.nz, shape.ny, shape.nx};
  const std::size_t element_bytes = complex_bytes(m.input.type.precision);
  const std::vector<std::size_t> chunk_dims = output_chunks(dims, element_bytes);
  const std::vector<hsize_t> extent(dims.begin(), dims.end()), chunks(chunk_dims.begin(), chunk_dims.end());
  Hid space = checked_id(H5Screate_simple(3, extent.data(), nullptr), HidKind::dataspace, what);
  Hid type = h5py_complex_file_type(m.input.type.precision);
  Hid create = checked_id(H5Pcreate(H5P_DATASET_CREATE), HidKind::property_list, what);
  check(H5Pset_chunk(create.get(), 3, chunks.data()), what);
  check(H5Pset_fill_time(create.get(), H5D_FILL_TIME_NEVER), what);
  Hid access = checked_id(H5Pcreate(H5P_DATASET_ACCESS), HidKind::property_list, what);
  const ChunkCache cache = chunk_cache_for(dims, chunk_dims, element_bytes, brick_bytes);
  check(H5Pset_chunk_cache(access.get(), cache.slots, cache.bytes, cache.w0), what);
  Hid link_create = checked_id(H5Pcreate(H5P_LINK_CREATE), HidKind::property_list, what);
  check(H5Pset_create_intermediate_group(link_create.get(), 1), what);
  m.scratch_dataset = checked_id(H5Dcreate2(file, m.scratch_name.c_str(), type.get(), space.get(), link_create.get(),
                                            create.get(), access.get()),
                                 HidKind::dataset, what);
  m.scratch_linked = true;
  mark_temporary(m.scratch_dataset.get(), "the scratch dataset of " + m.output_path.dataset, where, ::getpid());
  check(H5Fflush(file, H5F_SCOPE_LOCAL), what);
  const StoredDataset view{m.scratch_dataset.get(),
                           StoredType{StoredElement::complex_compound, m.input.type.precision, "", "r", "i"}, 3,
                           where};
  m.scratch = std::make_unique<Hdf5Volume>(view, view, shape);
  return *m.scratch;
}

void DatasetTransfer::Impl::remove_scratch() {
  scratch.reset();
  scratch_dataset.reset();
  if (scratch_linked) {
    scratch_linked = false;
    check(H5Ldelete(output_file(), scratch_name.c_str(), H5P_DEFAULT),
          "removing the scratch dataset " + output_path.file + ":" + scratch_name);
  }
}

// The order keeps every moment safe to crash in: the result's values reach
// the disk before it takes its name, the name before the input is deleted
// (in place), and a new file is renamed into place only when whole and on
// disk.
void DatasetTransfer::commit() {
  Impl& m = *impl_;
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  if (m.committed) return;
  const std::string out_where = m.output_where();
  const hid_t file = m.output_file();
  const std::string disk_file = m.output_file_created ? m.created_file : m.output_path.file;
  m.store.reset();
  m.real_side.reset();
  m.remove_scratch();
  // A new file is not visible before its rename: one fsync after its close does.
  if (!m.output_file_created) flush_to_disk(file, out_where);
  if (m.in_place) {
    // The input is moved aside, not deleted, until the result holds its
    // name: a failed relink puts it back, so the name never points nowhere.
    m.input_dataset.reset();
    const std::string replaced = sibling(m.input_path.dataset, replaced_prefix);
    check(H5Lmove(file, m.input_path.dataset.c_str(), file, replaced.c_str(), H5P_DEFAULT, H5P_DEFAULT),
          "moving the input " + m.input_path.to_string() + " aside");
    if (H5Lmove(file, m.partial_name.c_str(), file, m.output_path.dataset.c_str(), H5P_DEFAULT, H5P_DEFAULT) < 0) {
      const std::string detail = hdf5_error_text();
      (void)H5Lmove(file, replaced.c_str(), file, m.input_path.dataset.c_str(), H5P_DEFAULT, H5P_DEFAULT);
      throw Error(ErrorKind::io, "linking the result as " + out_where + ": " + detail);
    }
    m.linked = true;
    unmark_temporary(m.output_dataset.get(), out_where);
    // The user's only copy is deleted next: the result under its name first.
    flush_to_disk(file, out_where);
    check(H5Ldelete(file, replaced.c_str(), H5P_DEFAULT), "unlinking the replaced input " + m.input_path.to_string());
  } else {
    check(H5Lmove(file, m.partial_name.c_str(), file, m.output_path.dataset.c_str(), H5P_DEFAULT, H5P_DEFAULT),
          "linking the result as " + out_where);
    m.linked = true;
    unmark_temporary(m.output_dataset.get(), out_where);
  }
  m.output_dataset.reset();
  m.input_dataset.reset();
  close_file(m.separate_output_file, out_where);
  close_file(m.input_file, m.input_path.to_string());
  fsync_path(disk_file);
  if (m.output_file_created) publish_file(m.created_file, m.output_path.file);
  m.committed = true;
  m.run_lock.reset();
}

}  // namespace oocfft::io
