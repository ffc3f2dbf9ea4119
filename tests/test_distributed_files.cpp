// The distributed file path (include/oocfft/distributed_hdf5.hpp) on the
// host backend, run by ctest under mpiexec with 1 to 4 ranks, in the same
// program as the distributed plan's suite. Rank 0 writes each input with
// HDF5's C API (h5py's complex compound, or float32 values) and reads the
// result back; every rank takes part in the transform. The result must
// equal the single-process Plan of the whole volume within the tolerance
// of the plan's suite. The output is a new dataset: a point no rank wrote
// reads as 0, which the comparison catches on these random volumes.
//
// Failures: one rank cancels at each of the job's cancel points in turn,
// or has a budget too small for its share; every rank must end with the
// same Error, the input file must be byte for byte as it was (the output
// in another file) or its datasets as they were (the output in its own
// file), and nothing may be left: no dataset under the output's name, no
// temporary dataset or file, no lock file.
#include <gtest/gtest.h>
#include <mpi.h>

#include <atomic>
#include <cmath>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "io/box_io.hpp"
#include "io/hdf5_handle.hpp"
#include "io/hdf5_library.hpp"
#include "io/stored_type.hpp"
#include "oocfft/distributed_hdf5.hpp"
#include "io/dataset_attributes.hpp"
#include "oocfft/plan.hpp"
#include "oocfft/real.hpp"
#include "tests/mpi_test_support.hpp"
#include "tests/reference.hpp"
#include "tests/scratch_root.hpp"

namespace oocfft {
namespace {

namespace fs = std::filesystem;
using test::catch_error;
using test::Caught;
using test::ScratchRoot;
using test::expect_same_error_everywhere;
using test::host_options;
using test::world_rank;
using test::world_size;

// A fresh folder for the running test, made by rank 0, named on every rank.
fs::path shared_folder() {
  std::string path;
  if (world_rank() == 0) {
    // Removed when rank 0 exits, unless a test of rank 0 failed.
    static const ScratchRoot root("oocfft-mpi-files-");
    path = root.for_current_test().string();
  }
  int length = static_cast<int>(path.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  path.resize(static_cast<std::size_t>(length));
  MPI_Bcast(path.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  return path;
}

// Rank 0's answer, on every rank.
bool on_rank0(bool value) {
  int v = value ? 1 : 0;
  MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return v == 1;
}

// Checks that rank 0 makes alone: an ASSERT that fails or an exception
// ends them, not the test, so that every rank still makes the same MPI
// calls after them.
template <class Checks>
void on_rank0_only(Checks&& checks) {
  if (world_rank() != 0) return;
  try {
    checks();
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
  }
}

// Rank 0 writes `values` (complex<T>: h5py's compound; T: real values) as
// the dataset `name` of shape `shape` into `file` (created when missing).
template <class V>
void write_dataset(const fs::path& file, const std::string& name, Shape shape, const std::vector<V>& values) {
  on_rank0_only([&] {
    using io::checked_id;
    using io::HidKind;
    const std::string what = "writing the fixture " + file.string() + ":" + name;
    io::Hid f = fs::exists(file) ? io::open_file(file.string(), H5F_ACC_RDWR, what)
                                 : checked_id(H5Fcreate(file.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT),
                                              HidKind::file, what);
    const hsize_t dims[3] = {shape.nz, shape.ny, shape.nx};
    io::Hid space = checked_id(H5Screate_simple(3, dims, nullptr), HidKind::dataspace, what);
    constexpr bool complex = !std::is_floating_point_v<V>;
    const bool single = std::is_same_v<V, float> || std::is_same_v<V, std::complex<float>>;
    const Precision p = single ? Precision::single : Precision::double_precision;
    io::Hid file_type = complex ? io::h5py_complex_file_type(p)
                                : checked_id(H5Tcopy(p == Precision::single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE),
                                             HidKind::datatype, what);
    io::Hid memory_type = complex ? io::memory_type(io::StoredType{StoredElement::complex_compound, p, "", "r", "i"})
                                  : checked_id(H5Tcopy(p == Precision::single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE),
                                               HidKind::datatype, what);
    io::Hid d = checked_id(H5Dcreate2(f.get(), name.c_str(), file_type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT,
                                      H5P_DEFAULT),
                           HidKind::dataset, what);
    io::check(H5Dwrite(d.get(), memory_type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), what);
  });
  MPI_Barrier(MPI_COMM_WORLD);
}

// Rank 0 reads a dataset whole (empty elsewhere): V complex<T> (a complex
// dataset, or real data widened), or T (real data as stored).
template <class V>
std::vector<V> read_whole(const fs::path& file, const std::string& name) {
  std::vector<V> values;
  if (world_rank() != 0) return values;
  const DatasetPath path{file.string(), name};
  io::Hid f = io::open_file_read_only(path.file, path.to_string());
  io::Hid d = io::open_dataset(f.get(), path);
  const io::OpenedDataset opened = io::describe_dataset(d.get(), path);
  values.resize(opened.info.shape.elements());
  const io::StoredDataset view{d.get(), opened.type, opened.complex_rank, path.to_string()};
  const oocfft::Box whole{0, 0, 0, opened.info.shape};
  if constexpr (std::is_floating_point_v<V>)
    io::read_real_box(view, whole, reinterpret_cast<std::byte*>(values.data()));
  else
    io::read_box(view, whole, reinterpret_cast<std::byte*>(values.data()));
  return values;
}

template <class T>
std::vector<std::complex<T>> read_complex(const fs::path& file, const std::string& name) {
  return read_whole<std::complex<T>>(file, name);
}

// Whether `name` is a link in the HDF5 file (rank 0's answer on every rank).
bool has_link(const fs::path& file, const std::string& name) {
  bool found = false;
  on_rank0_only([&] {
    if (!fs::exists(file)) return;
    const io::ErrorStackSilencer silence;
    io::Hid f = io::open_file_read_only(file.string(), file.string());
    found = io::link_exists(f.get(), name);
  });
  return on_rank0(found);
}

// A string attribute of a dataset, read by rank 0.
std::string string_attribute(const fs::path& file, const std::string& dataset, const char* name) {
  if (world_rank() != 0) return "";
  const DatasetPath path{file.string(), dataset};
  io::Hid f = io::open_file_read_only(path.file, path.to_string());
  io::Hid d = io::open_dataset(f.get(), path);
  if (H5Aexists(d.get(), name) <= 0) return "(none)";
  io::Hid a = io::checked_id(H5Aopen(d.get(), name, H5P_DEFAULT), io::HidKind::attribute, name);
  io::Hid type = io::checked_id(H5Tcopy(H5T_C_S1), io::HidKind::datatype, name);
  H5Tset_size(type.get(), H5T_VARIABLE);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  char* text = nullptr;
  io::check(H5Aread(a.get(), type.get(), &text), name);
  std::string value = text;
  H5free_memory(text);
  return value;
}

// FNV-1a of the file's bytes, on rank 0 (0 elsewhere).
std::uint64_t file_hash(const fs::path& file) {
  if (world_rank() != 0) return 0;
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::uint64_t h = 1469598103934665603ull;
  for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

// Nothing but `keep` in the folder (rank 0's view on every rank): no
// temporary file, no lock file, no output file.
bool folder_holds_only(const fs::path& dir, const std::vector<std::string>& keep) {
  bool only = true;
  if (world_rank() == 0)
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      if (std::find(keep.begin(), keep.end(), name) == keep.end()) {
        ADD_FAILURE() << "left in the folder: " << name;
        only = false;
      }
    }
  return on_rank0(only);
}

template <class T>
double relative_l2(const std::vector<std::complex<T>>& got, const std::vector<std::complex<T>>& want) {
  long double difference = 0, reference = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    difference += std::norm(std::complex<long double>(got[i]) - std::complex<long double>(want[i]));
    reference += std::norm(std::complex<long double>(want[i]));
  }
  if (std::isnan(static_cast<double>(difference))) return INFINITY;
  return std::sqrt(static_cast<double>(difference / reference));
}

// The single-process transform of `x`, the whole volume, centred when
// `shift` (Options::shift).
template <class T>
std::vector<std::complex<T>> single_process(std::vector<std::complex<T>> x, Shape shape, Direction direction,
                                            Norm norm, bool shift = false) {
  const Precision p = std::is_same_v<T, float> ? Precision::single : Precision::double_precision;
  Options options = host_options(norm);
  options.shift = shift;
  Plan(shape, p, options).execute(x.data(), direction);
  return x;
}

// One complex case: the input in in.h5:/v, the output at `output`,
// centred when `shift`.
template <class T>
void check_case(const fs::path& dir, Shape shape, Direction direction, Norm norm, std::uint64_t seed,
                const DatasetPath& output, bool shift = false) {
  const fs::path input = dir / "in.h5";
  const std::string what = shape.to_string() + " " + to_string(direction) + " norm " + to_string(norm) +
                           (shift ? " centred" : "") + " -> " + output.to_string() + ", " +
                           std::to_string(world_size()) + " ranks";
  const std::vector<std::complex<T>> x = test::to_precision<T>(test::random_signal(shape.elements(), seed));
  if (!has_link(input, "/v")) write_dataset(input, "/v", shape, x);
  const std::uint64_t input_before = file_hash(input);
  const bool output_in_input_file = fs::path(output.file) == input;

  Options options = host_options(norm);
  options.shift = shift;
  const DatasetTransformReport report =
      transform_dataset(MPI_COMM_WORLD, {input.string(), "/v"}, output, direction, options);
  EXPECT_EQ(report.output_shape, shape) << what;

  on_rank0_only([&] {
    const auto got = read_complex<T>(output.file, output.dataset);
    ASSERT_EQ(got.size(), shape.elements()) << what;
    EXPECT_LE(relative_l2(got, single_process(x, shape, direction, norm, shift)),
              test::tolerance<T>(4.0, shape.elements()))
        << what;
    EXPECT_EQ(string_attribute(output.file, output.dataset, "direction"), to_string(direction)) << what;
    EXPECT_EQ(string_attribute(output.file, output.dataset, "norm"), to_string(norm)) << what;
    EXPECT_EQ(string_attribute(output.file, output.dataset, "shift"), shift ? "fftshift" : "none") << what;
    EXPECT_EQ(string_attribute(output.file, output.dataset, "source"), input.string() + ":/v") << what;
    EXPECT_EQ(string_attribute(output.file, output.dataset, "oocfft_temporary"), "(none)") << what;
    if (!output_in_input_file) EXPECT_EQ(file_hash(input), input_before) << what << ": the input file changed";
  });
  const std::string partial = output.dataset.substr(0, output.dataset.rfind('/') + 1) + ".oocfft-partial-" +
                              output.dataset.substr(output.dataset.rfind('/') + 1);
  EXPECT_FALSE(has_link(output.file, partial)) << what;
  EXPECT_FALSE(on_rank0(fs::exists(output.file + ".oocfft-lock"))) << what;
  EXPECT_FALSE(on_rank0(fs::exists(output.file + ".oocfft-partial"))) << what;
}

TEST(DistributedFiles, EqualTheSingleProcessTransformInBothPrecisions) {
  // Uneven slabs: nz and ny not multiples of the ranks, and shorter than
  // four ranks (empty slabs on the last ranks).
  const Shape shapes[] = {{8, 8, 8}, {5, 7, 3}, {3, 2, 13}, {6, 11, 9}};
  std::uint64_t seed = 500;
  int i = 0;
  for (const Shape& shape : shapes)
    for (const Direction d : {Direction::forward, Direction::inverse}) {
      const fs::path dir = shared_folder();
      const Norm norm = i % 3 == 0 ? Norm::backward : i % 3 == 1 ? Norm::ortho : Norm::forward;
      const DatasetPath out{(dir / "out.h5").string(), "/spectrum/V"};
      if (i % 2 == 0)
        check_case<float>(dir, shape, d, norm, seed++, out);
      else
        check_case<double>(dir, shape, d, norm, seed++, out);
      ++i;
    }
}

// Options::shift: numpy's fftshift(fftn(ifftshift(u))) of the whole
// dataset, as one process computes it, odd and even axes, slabs that are
// uneven or empty on some ranks.
TEST(DistributedFiles, CentredEqualsTheSingleProcessCentredTransform) {
  const Shape shapes[] = {{5, 6, 7}, {8, 9, 10}, {3, 2, 5}};
  std::uint64_t seed = 550;
  for (const Shape& shape : shapes)
    for (const Direction d : {Direction::forward, Direction::inverse}) {
      const fs::path dir = shared_folder();
      const DatasetPath out{(dir / "out.h5").string(), "/U"};
      if (seed % 2 == 0)
        check_case<float>(dir, shape, d, Norm::backward, seed++, out, true);
      else
        check_case<double>(dir, shape, d, Norm::ortho, seed++, out, true);
    }
}

TEST(DistributedFiles, WriteIntoTheInputsFileAndIntoAnExistingFile) {
  const fs::path dir = shared_folder();
  const Shape shape{4, 6, 5};
  // Into the input's own file: its other dataset, the input, stays as it was.
  check_case<double>(dir, shape, Direction::forward, Norm::backward, 600, {(dir / "in.h5").string(), "/V"});
  // Into another file that holds a dataset of its own, which stays.
  const std::vector<float> other(10, 1.5f);
  write_dataset(dir / "existing.h5", "/mine", Shape{1, 2, 5}, other);
  const std::uint64_t before = file_hash(dir / "existing.h5");
  check_case<double>(dir, shape, Direction::inverse, Norm::ortho, 600, {(dir / "existing.h5").string(), "/g/V"});
  EXPECT_TRUE(has_link(dir / "existing.h5", "/mine"));
  if (world_rank() == 0) EXPECT_NE(file_hash(dir / "existing.h5"), before);
}

TEST(DistributedFiles, RealInputsAreTransformedAsComplex) {
  const fs::path dir = shared_folder();
  const Shape shape{5, 4, 6};
  const auto signal = test::random_signal(shape.elements(), 700);
  std::vector<float> real(shape.elements());
  std::vector<std::complex<float>> as_complex(shape.elements());
  for (std::size_t i = 0; i < real.size(); ++i) {
    real[i] = static_cast<float>(signal[i].real());
    as_complex[i] = {real[i], 0.0f};
  }
  write_dataset(dir / "real.h5", "/x", shape, real);
  const DatasetPath out{(dir / "out.h5").string(), "/X"};
  transform_dataset(MPI_COMM_WORLD, {(dir / "real.h5").string(), "/x"}, out, Direction::forward,
                    host_options(Norm::backward));
  on_rank0_only([&] {
    EXPECT_LE(relative_l2(read_complex<float>(out.file, out.dataset),
                          single_process(as_complex, shape, Direction::forward, Norm::backward)),
              test::tolerance<float>(4.0, shape.elements()));
    EXPECT_EQ(string_attribute(out.file, out.dataset, "original_dtype"), "float32");
  });
}

TEST(DistributedFiles, RankZeroReportsTheWholeJobsSteps) {
  const fs::path dir = shared_folder();
  const Shape shape{6, 5, 4};
  write_dataset(dir / "in.h5", "/v", shape, test::to_precision<float>(test::random_signal(shape.elements(), 800)));
  std::vector<Progress> seen;
  Options options = host_options(Norm::backward);
  options.progress = [&seen](const Progress& p) { seen.push_back(p); };
  transform_dataset(MPI_COMM_WORLD, {(dir / "in.h5").string(), "/v"}, {(dir / "out.h5").string(), "/V"},
                    Direction::forward, options);
  if (world_rank() != 0) {
    EXPECT_TRUE(seen.empty()) << "rank " << world_rank() << " reported progress";
    return;
  }
  ASSERT_EQ(seen.size(), 7u);
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].bricks_done, i + 1);
    EXPECT_EQ(seen[i].bricks_total, 7u);
    EXPECT_EQ(seen[i].pass, i);
  }
  // Read and written, by all ranks together.
  EXPECT_EQ(seen.back().bytes_moved, 2 * shape.elements() * sizeof(std::complex<float>));
}

// ---------------------------------------------------------------- failures

// The last rank cancels at its k-th poll, for every k until a run gets
// through: every cancel point of the job (before the open, the read, the
// planes, the z lines, the write, the commit) fails every rank alike and
// leaves nothing.
TEST(DistributedFilesErrors, OneRankCancellingAtAnyStepLeavesNothingOnEveryRank) {
  const int failing = world_size() - 1;
  enum class Into { new_file, input_file, input_itself };
  for (const Into into : {Into::new_file, Into::input_file, Into::input_itself}) {
    const bool into_input_file = into != Into::new_file;
    const fs::path dir = shared_folder();
    const Shape shape{5, 6, 4};
    const auto x = test::to_precision<double>(test::random_signal(shape.elements(), 900));
    write_dataset(dir / "in.h5", "/v", shape, x);
    const DatasetPath input{(dir / "in.h5").string(), "/v"};
    const DatasetPath output = into == Into::input_itself ? input
                               : into_input_file          ? DatasetPath{input.file, "/V"}
                                                          : DatasetPath{(dir / "out.h5").string(), "/V"};
    DatasetTransformOptions file_options;
    file_options.in_place = into == Into::input_itself;
    const std::uint64_t before = file_hash(dir / "in.h5");
    bool finished = false;
    for (int k = 0; k < 64 && !finished; ++k) {
      const std::string what = std::string(into == Into::input_itself ? "in place"
                                            : into_input_file          ? "into the input's file"
                                                                       : "into a new file") +
                               ", rank " + std::to_string(failing) + " cancels at its poll " + std::to_string(k);
      Options options = host_options(Norm::backward);
      std::atomic<int> polls{0};
      if (world_rank() == failing) options.cancel = [&polls, k] { return polls++ >= k; };
      const Caught c = catch_error(
          [&] { transform_dataset(MPI_COMM_WORLD, input, output, Direction::forward, options, file_options); });
      int thrown = c.thrown ? 1 : 0, all_thrown = 0;
      MPI_Allreduce(&thrown, &all_thrown, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      if (all_thrown == 0) {
        finished = true;  // past the last poll: the run got through
        break;
      }
      // The engine words a cancel inside the local transform ("after 2 of 4
      // bricks"), the job one between its steps ("rank R: cancelled before
      // writing"); either way every rank has the failing rank's words.
      expect_same_error_everywhere(c, ErrorKind::cancelled, "cancelled");
      EXPECT_NE(c.message.find("nothing was committed"), std::string::npos) << what << ": " << c.message;
      const std::string partial = output.dataset == "/v" ? "/.oocfft-partial-v" : "/.oocfft-partial-V";
      if (into != Into::input_itself) EXPECT_FALSE(has_link(output.file, "/V")) << what;
      EXPECT_FALSE(has_link(output.file, partial)) << what;
      EXPECT_FALSE(has_link(input.file, "/.oocfft-replaced-v")) << what;
      on_rank0_only([&] { EXPECT_EQ(read_complex<double>(input.file, "/v"), x) << what; });
      EXPECT_TRUE(folder_holds_only(dir, {"in.h5"})) << what;
      if (!into_input_file && world_rank() == 0) EXPECT_EQ(file_hash(dir / "in.h5"), before) << what;
    }
    EXPECT_TRUE(finished) << "no run got past the cancels";
    EXPECT_TRUE(has_link(output.file, output.dataset));
  }
}

TEST(DistributedFilesErrors, OneRankWithoutMemoryForItsShareFailsEveryRank) {
  const fs::path dir = shared_folder();
  const Shape shape{8, 4, 4};
  write_dataset(dir / "in.h5", "/v", shape, test::to_precision<float>(test::random_signal(shape.elements(), 1000)));
  const int failing = world_size() - 1;
  DatasetTransformOptions file_options;
  if (world_rank() == failing) file_options.host_memory_budget = 1024;
  const Caught c = catch_error([&] {
    transform_dataset(MPI_COMM_WORLD, {(dir / "in.h5").string(), "/v"}, {(dir / "out.h5").string(), "/V"},
                      Direction::forward, host_options(Norm::backward), file_options);
  });
  expect_same_error_everywhere(c, ErrorKind::out_of_memory, "rank " + std::to_string(failing) + ": its share");
  EXPECT_TRUE(folder_holds_only(dir, {"in.h5"}));
}

TEST(DistributedFilesErrors, AMissingInputIsRefusedOnEveryRank) {
  const fs::path dir = shared_folder();
  write_dataset(dir / "in.h5", "/v", Shape{2, 2, 2}, std::vector<std::complex<float>>(8));
  const DatasetPath out{(dir / "out.h5").string(), "/V"};
  Caught c = catch_error([&] {
    transform_dataset(MPI_COMM_WORLD, {(dir / "in.h5").string(), "/missing"}, out, Direction::forward,
                      host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::io, "/missing: no such dataset");
  c = catch_error([&] {
    transform_dataset(MPI_COMM_WORLD, {(dir / "nowhere.h5").string(), "/v"}, out, Direction::forward,
                      host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::io, "nowhere.h5 does not exist");
  EXPECT_TRUE(folder_holds_only(dir, {"in.h5"}));
}

TEST(DistributedFilesErrors, AnExistingOrUnwritableOutputIsRefusedOnEveryRank) {
  const fs::path dir = shared_folder();
  const Shape shape{3, 2, 2};
  write_dataset(dir / "in.h5", "/v", shape, std::vector<std::complex<double>>(shape.elements(), {1.0, 0.0}));
  write_dataset(dir / "in.h5", "/V", shape, std::vector<std::complex<double>>(shape.elements(), {2.0, 0.0}));
  const DatasetPath in{(dir / "in.h5").string(), "/v"};
  const std::uint64_t before = file_hash(dir / "in.h5");
  Caught c = catch_error([&] {
    transform_dataset(MPI_COMM_WORLD, in, {in.file, "/V"}, Direction::forward, host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "exists; oocfft does not overwrite datasets");
  c = catch_error(
      [&] { transform_dataset(MPI_COMM_WORLD, in, in, Direction::forward, host_options(Norm::backward)); });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "is the input dataset");
  // A location no one may write, root included, and a folder that is not there.
  c = catch_error([&] {
    transform_dataset(MPI_COMM_WORLD, in, {"/proc/oocfft_cannot_write.h5", "/V"}, Direction::forward,
                      host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::io, "/proc/oocfft_cannot_write.h5");
  c = catch_error([&] {
    transform_dataset(MPI_COMM_WORLD, in, {(dir / "no_dir" / "o.h5").string(), "/V"}, Direction::forward,
                      host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::io, "no_dir does not exist");
  if (world_rank() == 0) EXPECT_EQ(file_hash(dir / "in.h5"), before);
  EXPECT_TRUE(folder_holds_only(dir, {"in.h5"}));
}

TEST(DistributedFilesErrors, OneRankAskingForAnotherJobFailsEveryRank) {
  if (world_size() == 1) GTEST_SKIP() << "needs two ranks";
  const fs::path dir = shared_folder();
  write_dataset(dir / "in.h5", "/v", Shape{2, 3, 2}, std::vector<std::complex<float>>(12));
  const DatasetPath out{(dir / "out.h5").string(), world_rank() == 1 ? "/other" : "/V"};
  Caught c = catch_error([&] {
    transform_dataset(MPI_COMM_WORLD, {(dir / "in.h5").string(), "/v"}, out, Direction::forward,
                      host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "rank 1 was asked for");
  // Centred on one rank alone is another job too.
  Options shifted = host_options(Norm::backward);
  shifted.shift = world_rank() == 1;
  c = catch_error([&] {
    transform_dataset(MPI_COMM_WORLD, {(dir / "in.h5").string(), "/v"}, {(dir / "out.h5").string(), "/V"},
                      Direction::forward, shifted);
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "rank 1 was asked for");
  EXPECT_TRUE(folder_holds_only(dir, {"in.h5"}));
}

TEST(DistributedFilesErrors, InPlaceMismatchesAreRefusedOnEveryRank) {
  const fs::path dir = shared_folder();
  write_dataset(dir / "in.h5", "/v", Shape{2, 3, 2}, std::vector<std::complex<float>>(12));
  const DatasetPath in{(dir / "in.h5").string(), "/v"};
  DatasetTransformOptions in_place;
  in_place.in_place = true;
  Caught c = catch_error([&] {
    transform_dataset(MPI_COMM_WORLD, in, {(dir / "out.h5").string(), "/V"}, Direction::forward,
                      host_options(Norm::backward), in_place);
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "in-place transform of");
  EXPECT_TRUE(folder_holds_only(dir, {"in.h5"}));
}

// In place: the result takes the input's name, the input is gone, no
// temporary is left, and the file's other datasets stay.
TEST(DistributedFiles, InPlaceReplacesTheInputWithTheResult) {
  const fs::path dir = shared_folder();
  const Shape shape{5, 7, 3};
  const auto x = test::to_precision<double>(test::random_signal(shape.elements(), 1100));
  write_dataset(dir / "in.h5", "/v", shape, x);
  write_dataset(dir / "in.h5", "/other", Shape{1, 1, 2}, std::vector<double>{1.0, 2.0});
  DatasetTransformOptions in_place;
  in_place.in_place = true;
  const DatasetPath in{(dir / "in.h5").string(), "/v"};
  transform_dataset(MPI_COMM_WORLD, in, in, Direction::inverse, host_options(Norm::ortho), in_place);
  on_rank0_only([&] {
    const auto want = single_process(x, shape, Direction::inverse, Norm::ortho);
    EXPECT_LE(relative_l2(read_complex<double>(in.file, "/v"), want), test::tolerance<double>(4.0, shape.elements()));
    EXPECT_EQ(string_attribute(in.file, "/v", "direction"), "inverse");
    EXPECT_EQ(string_attribute(in.file, "/v", "oocfft_temporary"), "(none)");
  });
  EXPECT_TRUE(has_link(in.file, "/other"));
  EXPECT_FALSE(has_link(in.file, "/.oocfft-partial-v"));
  EXPECT_FALSE(has_link(in.file, "/.oocfft-replaced-v"));
  EXPECT_TRUE(folder_holds_only(dir, {"in.h5"}));
}

// numpy's rfftn and irfftn of datasets over the ranks (transform_real_dataset
// over MPI): the half spectrum equals the single-process RealPlan's of the
// whole volume, with its record (transform, oocfft_real_shape); the inverse
// of that output, its real length taken from the attribute, equals the
// single-process inverse, real data of the input's precision. Odd and even
// last axes, shapes whose slabs are uneven over 1 to 4 ranks and leave
// ranks without planes, both precisions, two norms.
template <class T>
void check_real_case(const fs::path& dir, Shape shape, Norm norm, std::uint64_t seed) {
  const Precision p = std::is_same_v<T, float> ? Precision::single : Precision::double_precision;
  const std::string what = shape.to_string() + " norm " + to_string(norm) + ", " + std::to_string(world_size()) +
                           " ranks, " + (p == Precision::single ? "float32" : "float64");
  const auto signal = test::random_signal(shape.elements(), seed);
  std::vector<T> x(shape.elements());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<T>(signal[i].real());
  const std::string name = "/x" + std::to_string(seed);
  write_dataset(dir / "real.h5", name, shape, x);
  const std::uint64_t input_before = file_hash(dir / "real.h5");
  const Shape half = half_spectrum_shape(shape);
  const Options options = host_options(norm);
  const DatasetPath spectrum{(dir / "spectrum.h5").string(), "/X" + std::to_string(seed)};
  const DatasetTransformReport forward =
      transform_real_dataset(MPI_COMM_WORLD, {(dir / "real.h5").string(), name}, spectrum, Direction::forward, options);
  EXPECT_EQ(forward.output_shape, half) << what;
  const DatasetPath back{(dir / "back.h5").string(), "/x" + std::to_string(seed)};
  const DatasetTransformReport inverse =
      transform_real_dataset(MPI_COMM_WORLD, spectrum, back, Direction::inverse, options);
  EXPECT_EQ(inverse.output_shape, shape) << what;

  on_rank0_only([&] {
    const RealPlan plan(shape, p, options);
    std::vector<std::complex<T>> want(half.elements());
    plan.forward(x.data(), want.data());
    const auto got = read_complex<T>(spectrum.file, spectrum.dataset);
    ASSERT_EQ(got.size(), half.elements()) << what;
    EXPECT_LE(relative_l2(got, want), test::tolerance<T>(4.0, shape.elements())) << what;
    EXPECT_EQ(string_attribute(spectrum.file, spectrum.dataset, "transform"), "rfftn") << what;
    EXPECT_EQ(string_attribute(spectrum.file, spectrum.dataset, "norm"), to_string(norm)) << what;
    const auto recorded = io::read_sizes_attribute(spectrum, "oocfft_real_shape");
    ASSERT_TRUE(recorded.has_value()) << what;
    EXPECT_EQ(*recorded, (std::vector<std::size_t>{shape.nz, shape.ny, shape.nx})) << what;

    std::vector<T> again(shape.elements());
    std::vector<std::complex<T>> spectrum_copy = got;
    plan.inverse(spectrum_copy.data(), again.data());
    const auto real_back = read_whole<T>(back.file, back.dataset);
    ASSERT_EQ(real_back.size(), shape.elements()) << what;
    std::vector<std::complex<T>> got_c(real_back.begin(), real_back.end()), want_c(again.begin(), again.end());
    EXPECT_LE(relative_l2(got_c, want_c), test::tolerance<T>(4.0, shape.elements())) << what;
    EXPECT_EQ(string_attribute(back.file, back.dataset, "transform"), "irfftn") << what;
    EXPECT_EQ(file_hash(dir / "real.h5"), input_before) << what << ": the input file changed";
  });
}

TEST(DistributedRealFiles, RfftnAndIrfftnEqualTheSingleProcessTransforms) {
  const fs::path dir = shared_folder();
  std::uint64_t seed = 900;
  for (const Shape shape : {Shape{5, 6, 7}, Shape{3, 4, 8}, Shape{1, 5, 9}, Shape{6, 1, 3}, Shape{7, 2, 1}}) {
    check_real_case<float>(dir, shape, Norm::backward, ++seed);
    check_real_case<double>(dir, shape, Norm::ortho, ++seed);
  }
}

// The single-process refusals, on every rank alike, before anything is
// written: complex data handed to rfftn, real data to irfftn, a real length
// whose half spectrum is not the stored last axis, and shift.
TEST(DistributedRealFilesErrors, BadJobsAreRefusedOnEveryRankAndLeaveNothing) {
  const fs::path dir = shared_folder();
  write_dataset(dir / "in.h5", "/c", Shape{2, 3, 4}, std::vector<std::complex<float>>(24, {1.0f, 2.0f}));
  write_dataset(dir / "in.h5", "/r", Shape{2, 3, 4}, std::vector<float>(24, 1.5f));
  const std::uint64_t before = file_hash(dir / "in.h5");
  const DatasetPath out{(dir / "out.h5").string(), "/Y"};
  const DatasetPath complex_in{(dir / "in.h5").string(), "/c"}, real_in{(dir / "in.h5").string(), "/r"};
  Caught c = catch_error(
      [&] { transform_real_dataset(MPI_COMM_WORLD, complex_in, out, Direction::forward, host_options(Norm::backward)); });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "holds complex values");
  c = catch_error(
      [&] { transform_real_dataset(MPI_COMM_WORLD, real_in, out, Direction::inverse, host_options(Norm::backward)); });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "holds real values");
  c = catch_error([&] {
    transform_real_dataset(MPI_COMM_WORLD, complex_in, out, Direction::inverse, host_options(Norm::backward), {}, 9);
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "a real last axis of 9");
  c = catch_error([&] {
    transform_real_dataset(MPI_COMM_WORLD, complex_in, out, Direction::inverse, host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "no attribute oocfft_real_shape");
  Options shifted = host_options(Norm::backward);
  shifted.shift = true;
  c = catch_error([&] { transform_real_dataset(MPI_COMM_WORLD, real_in, out, Direction::forward, shifted); });
  expect_same_error_everywhere(c, ErrorKind::unsupported, "shift");
  EXPECT_EQ(on_rank0(file_hash(dir / "in.h5") == before), true) << "the input file changed";
  EXPECT_TRUE(folder_holds_only(dir, {"in.h5"}));
}

// The last rank cancels at its k-th poll, for every k until a run gets
// through: every cancel point of the real job fails every rank alike and
// leaves nothing.
TEST(DistributedRealFilesErrors, OneRankCancellingAtAnyStepLeavesNothing) {
  const fs::path dir = shared_folder();
  const Shape shape{4, 5, 6};
  write_dataset(dir / "in.h5", "/r", shape, std::vector<double>(shape.elements(), 0.25));
  const std::uint64_t before = file_hash(dir / "in.h5");
  const int failing = world_size() - 1;
  int cancelled_runs = 0;
  bool finished = false;
  for (int k = 0; k < 64 && !finished; ++k) {
    Options options = host_options(Norm::backward);
    std::atomic<int> polls{0};
    if (world_rank() == failing) options.cancel = [&polls, k] { return polls++ >= k; };
    const Caught c = catch_error([&] {
      transform_real_dataset(MPI_COMM_WORLD, {(dir / "in.h5").string(), "/r"}, {(dir / "out.h5").string(), "/Y"},
                             Direction::forward, options);
    });
    int thrown = c.thrown ? 1 : 0, all_thrown = 0;
    MPI_Allreduce(&thrown, &all_thrown, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (all_thrown == 0) {
      finished = true;  // past the last poll: the run got through
      break;
    }
    ++cancelled_runs;
    expect_same_error_everywhere(c, ErrorKind::cancelled, "cancelled");
    EXPECT_TRUE(on_rank0(file_hash(dir / "in.h5") == before)) << "cancel at poll " << k << ": the input changed";
    EXPECT_TRUE(folder_holds_only(dir, {"in.h5"})) << "cancel at poll " << k;
  }
  EXPECT_TRUE(finished);
  // Before the open, the read, the planes, the z lines, the write, the commit.
  EXPECT_GE(cancelled_runs, 6);
}

}  // namespace
}  // namespace oocfft
