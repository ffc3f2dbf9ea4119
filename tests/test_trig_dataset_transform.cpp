// transform_trig_dataset end to end on the host backend (runs in CI): the
// h5py-written real datasets (odd and even axes, float32 and float64, 1 to
// 3 axes) through dctn / dstn / idctn / idstn of types 2 and 3 with every
// norm, in memory and streamed, against FFTW's long-double r2r transforms
// of the values read back (REDFT10 / REDFT01 / RODFT10 / RODFT01 are
// scipy's unnormalised types 2 and 3; scipy's ortho weights applied here);
// every streamed strategy on a larger odd volume; round trips, in place
// included; the refusals leave the input file byte-identical; a cancel
// leaves no output.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <atomic>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/relative_l2.hpp"
#include "tests/h5py_fixtures.hpp"

namespace oocfft {
namespace {

namespace fs = std::filesystem;
using namespace test_h5;

const char* const real_cases[] = {"f32_even", "f32_odd", "f64_even", "f64_odd", "f64_2d", "f32_1d"};
const TrigTransform all_transforms[] = {TrigTransform::dct2, TrigTransform::dct3, TrigTransform::dst2,
                                        TrigTransform::dst3};

DatasetPath real_fixture(const std::string& dataset) { return {fixtures().real().string(), dataset}; }

Options host(Norm norm = Norm::backward) {
  Options o;
  o.backend = Backend::host;
  o.streams = 2;
  o.norm = norm;
  return o;
}

// C eps sqrt(log2 N) (docs/ARCHITECTURE.md; the engine suites' rule): 6
// for a transform, 8 for a round trip.
double tolerance(Precision precision, std::size_t elements, double c = 6) {
  const double eps = precision == Precision::single ? 1.1920929e-7 : 2.220446049250313e-16;
  return c * eps * std::sqrt(std::max(1.0, std::log2(double(elements))));
}

TrigTransform inverse_of(TrigTransform t) {
  switch (t) {
    case TrigTransform::dct2: return TrigTransform::dct3;
    case TrigTransform::dct3: return TrigTransform::dct2;
    case TrigTransform::dst2: return TrigTransform::dst3;
    case TrigTransform::dst3: return TrigTransform::dst2;
  }
  return t;
}

// scipy's dctn / dstn (forward) or idctn / idstn (inverse) of `x`, a C-order
// volume of `s`, with `norm`: FFTW's unnormalised r2r kind of the type that
// runs, then scipy's factors. ortho (scipy.fft.dct, "Notes"): type 2's
// outputs weighted sqrt(1/(4n)) (the DCT's first, the DST's last) and
// sqrt(1/(2n)); type 3 is its transpose, so the same weights go on its
// inputs, doubled at that one index, since FFTW's type 3 takes that input
// once where type 2 gives it twice.
// scipy's dctn / dstn of an array of `rank` axes, the last ones of `s`
// (the leading axes of a 1D or 2D dataset are not transformed).
std::vector<long double> scipy_trig(const std::vector<double>& x, const Shape& s, TrigTransform t, Direction d,
                                    Norm norm, unsigned rank) {
  const TrigTransform run = d == Direction::forward ? t : inverse_of(t);
  const bool type_two = run == TrigTransform::dct2 || run == TrigTransform::dst2;
  const bool cosine = run == TrigTransform::dct2 || run == TrigTransform::dct3;
  auto weight = [&](std::size_t k, std::size_t n) {
    const bool special = cosine ? k == 0 : k == n - 1;
    if (type_two) return std::sqrt(1.0L / ((special ? 4.0L : 2.0L) * n));
    return std::sqrt(1.0L / ((special ? 1.0L : 2.0L) * n));
  };
  auto axis_weight = [&](unsigned axis, std::size_t k, std::size_t n) {
    return axis < 3 - rank ? 1.0L : weight(k, n);
  };
  auto weigh = [&](std::vector<long double>& v) {
    for (std::size_t z = 0; z < s.nz; ++z)
      for (std::size_t y = 0; y < s.ny; ++y)
        for (std::size_t k = 0; k < s.nx; ++k)
          v[(z * s.ny + y) * s.nx + k] *= axis_weight(0, z, s.nz) * axis_weight(1, y, s.ny) * axis_weight(2, k, s.nx);
  };
  std::vector<long double> in(x.begin(), x.end()), out(x.size());
  if (norm == Norm::ortho && !type_two) weigh(in);
  const fftwl_r2r_kind kinds[] = {FFTW_REDFT10, FFTW_REDFT01, FFTW_RODFT10, FFTW_RODFT01};
  const fftwl_r2r_kind k = kinds[static_cast<int>(run)];
  const int dims[3] = {int(s.nz), int(s.ny), int(s.nx)};
  const fftwl_r2r_kind ks[3] = {k, k, k};
  fftwl_plan p = fftwl_plan_r2r(int(rank), dims + 3 - rank, in.data(), out.data(), ks, FFTW_ESTIMATE);
  fftwl_execute(p);
  fftwl_destroy_plan(p);
  if (norm == Norm::ortho && type_two) weigh(out);
  if ((norm == Norm::backward) == (d == Direction::inverse) && norm != Norm::ortho) {
    long double f = 1.0L;
    for (unsigned a = 3 - rank; a < 3; ++a) f /= 2.0L * dims[a];
    for (long double& v : out) v *= f;
  }
  return out;
}

std::string call_name(TrigTransform t, Direction d) {
  const bool cosine = t == TrigTransform::dct2 || t == TrigTransform::dct3;
  return std::string(d == Direction::inverse ? "i" : "") + (cosine ? "dctn" : "dstn");
}
std::string type_name(TrigTransform t) { return t == TrigTransform::dct2 || t == TrigTransform::dst2 ? "2" : "3"; }

// A UTF-8 string attribute of a dataset, or "" when it has none.
std::string string_attribute(const fs::path& file, const std::string& name, const char* attribute) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t d = H5Dopen2(f, name.c_str(), H5P_DEFAULT);
  std::string value;
  if (H5Aexists(d, attribute) > 0) {
    const hid_t a = H5Aopen(d, attribute, H5P_DEFAULT);
    const hid_t t = H5Aget_type(a);
    char* text = nullptr;
    if (H5Aread(a, t, &text) >= 0 && text != nullptr) value = text;
    H5free_memory(text);
    H5Tclose(t);
    H5Aclose(a);
  }
  H5Dclose(d);
  H5Fclose(f);
  return value;
}

std::string dtype_of(const fs::path& file, const std::string& name) {
  return inspect_dataset({file.string(), name}).dtype;
}

// A real dataset of seeded values in [-0.5, 0.5), chunked, written with the
// HDF5 C API; returns the values.
std::vector<double> write_real_dataset(const fs::path& file, const std::string& name,
                                       const std::vector<hsize_t>& dims, const std::vector<hsize_t>& chunks,
                                       std::uint64_t seed) {
  std::size_t n = 1;
  for (const hsize_t d : dims) n *= d;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<double> values(n);
  for (double& v : values) v = u(rng);
  const hid_t f = fs::exists(file) ? H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)
                                   : H5Fcreate(file.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  const hid_t space = H5Screate_simple(int(dims.size()), dims.data(), nullptr);
  const hid_t create = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(create, int(chunks.size()), chunks.data());
  const hid_t d = H5Dcreate2(f, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, create, H5P_DEFAULT);
  EXPECT_GE(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  H5Dclose(d);
  H5Pclose(create);
  H5Sclose(space);
  H5Fclose(f);
  return values;
}

bool no_oocfft_links(const fs::path& file) {
  for (const std::string& link : links(file, "/"))
    if (link.find(".oocfft") != std::string::npos) return false;
  return true;
}

// Every case, transform, direction and norm in memory; the volumes of more
// than one plane streamed too (a 1D line is one brick: never streamed).
// The output keeps the input's dtype and dims and records the call.
TEST(TrigDatasetTransform, EveryKindNormAndPathMatchesScipy) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const std::uint64_t before = file_hash(fixtures().real());
  for (const char* name : real_cases) {
    const DatasetInfo in = inspect_dataset(real_fixture(std::string("/input/") + name));
    const std::vector<double> x = read_doubles(fixtures().real(), in.path.dataset);
    const std::size_t volume_bytes = in.shape.bytes(in.precision == Precision::single ? 4 : 8);
    const fs::path out = dir / (std::string(name) + ".h5");
    int index = 0;
    for (const TrigTransform t : all_transforms)
      for (const Direction d : {Direction::forward, Direction::inverse})
        for (const Norm norm : {Norm::backward, Norm::ortho, Norm::forward}) {
          const std::vector<long double> want = scipy_trig(x, in.shape, t, d, norm, unsigned(in.dims.size()));
          for (const bool streamed : {false, true}) {
            if (streamed && in.shape.ny == 1) continue;
            const std::string what = std::string(name) + " " + call_name(t, d) + " type " + type_name(t) +
                                     " norm " + to_string(norm) + (streamed ? " streamed" : " in memory");
            SCOPED_TRACE(what);
            const std::string dataset = "/r" + std::to_string(index++);
            DatasetTransformOptions fo;
            fo.host_memory_budget = streamed ? volume_bytes / 2 : 0;
            const DatasetTransformReport r = transform_trig_dataset(in.path, {out.string(), dataset}, t, d,
                                                                    host(norm), fo);
            EXPECT_EQ(r.in_memory, !streamed);
            EXPECT_EQ(r.output_shape, in.shape);
            if (streamed) EXPECT_GE(r.run.bricks, 2u) << "the streamed path must take several bricks";
            const DatasetInfo result = inspect_dataset({out.string(), dataset});
            EXPECT_EQ(result.dtype, in.dtype);
            EXPECT_EQ(result.dims, in.dims);
            EXPECT_LE(relative_l2(read_doubles(out, dataset), want), tolerance(in.precision, in.shape.elements()));
            EXPECT_EQ(string_attribute(out, dataset, "transform"), call_name(t, d));
            EXPECT_EQ(string_attribute(out, dataset, "type"), type_name(t));
            EXPECT_EQ(string_attribute(out, dataset, "norm"), to_string(norm));
            EXPECT_EQ(string_attribute(out, dataset, "original_dtype"), in.dtype);
            EXPECT_EQ(string_attribute(out, dataset, "source"), in.path.to_string());
          }
        }
    EXPECT_TRUE(no_oocfft_links(out)) << "a temporary dataset was left";
  }
  EXPECT_EQ(file_hash(fixtures().real()), before) << "the input file changed";
}

// Every streamed strategy on an odd volume of several bricks a pass
// (the line-transpose method reads and writes real values in its line
// layouts), forward and back, through a budget far below the volume.
TEST(TrigDatasetTransform, EveryStreamedStrategyMatchesScipyAndRoundTrips) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path file = dir / "volume.h5";
  const std::vector<double> x = write_real_dataset(file, "/x", {13, 18, 21}, {5, 6, 21}, 7);
  const Shape shape{13, 18, 21};
  const std::vector<long double> want = scipy_trig(x, shape, TrigTransform::dst2, Direction::forward, Norm::ortho, 3);
  const std::uint64_t before = file_hash(file);
  const fs::path out = dir / "out.h5";
  for (const Strategy s : {Strategy::automatic, Strategy::two_pass, Strategy::three_pass, Strategy::line_transpose}) {
    SCOPED_TRACE(to_string(s));
    Options o = host(Norm::ortho);
    o.strategy = s;
    o.streams = 3;
    DatasetTransformOptions fo;
    fo.host_memory_budget = 24 << 10;  // the volume is 38 KiB: 4 KiB of staging a stream
    const std::string forward = std::string("/") + to_string(s), back = forward + "_back";
    const DatasetTransformReport r =
        transform_trig_dataset({file.string(), "/x"}, {out.string(), forward}, TrigTransform::dst2,
                               Direction::forward, o, fo);
    EXPECT_FALSE(r.in_memory);
    if (s != Strategy::automatic) EXPECT_EQ(r.run.strategy, s);
    EXPECT_LE(r.run.staging_bytes, fo.host_memory_budget / 2);
    EXPECT_LE(relative_l2(read_doubles(out, forward), want), tolerance(Precision::double_precision, x.size()));
    transform_trig_dataset({out.string(), forward}, {out.string(), back}, TrigTransform::dst2, Direction::inverse, o,
                           fo);
    EXPECT_LE(relative_l2(read_doubles(out, back), x), tolerance(Precision::double_precision, x.size(), 8));
  }
  EXPECT_EQ(file_hash(file), before) << "the input file changed";
  EXPECT_TRUE(no_oocfft_links(out));
}

// dctn then idctn in place, streamed and in memory: the dataset holds the
// transform between them, its values back at the end, and no other
// dataset of the file changed.
TEST(TrigDatasetTransform, InPlaceRoundTrips) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path file = dir / "real.h5";
  fs::copy_file(fixtures().real(), file);
  const std::vector<double> other = read_doubles(file, "/input/f64_even");
  for (const bool streamed : {false, true}) {
    SCOPED_TRACE(streamed ? "streamed" : "in memory");
    const DatasetPath target{file.string(), "/input/f32_odd"};
    const DatasetInfo in = inspect_dataset(target);
    const std::vector<double> x = read_doubles(file, target.dataset);
    DatasetTransformOptions fo;
    fo.in_place = true;
    fo.host_memory_budget = streamed ? 1024 : 0;  // the (5, 7, 9) float32 volume is 1260 bytes
    const DatasetTransformReport r =
        transform_trig_dataset(target, target, TrigTransform::dct3, Direction::forward, host(), fo);
    EXPECT_EQ(r.in_memory, !streamed);
    EXPECT_LE(relative_l2(read_doubles(file, target.dataset),
                          scipy_trig(x, in.shape, TrigTransform::dct3, Direction::forward, Norm::backward, 3)),
              tolerance(in.precision, in.shape.elements()));
    EXPECT_EQ(string_attribute(file, target.dataset, "transform"), "dctn");
    EXPECT_EQ(dtype_of(file, target.dataset), "float32");
    transform_trig_dataset(target, target, TrigTransform::dct3, Direction::inverse, host(), fo);
    EXPECT_LE(relative_l2(read_doubles(file, target.dataset), x), tolerance(in.precision, in.shape.elements(), 8));
    EXPECT_EQ(string_attribute(file, target.dataset, "transform"), "idctn");
  }
  EXPECT_EQ(read_doubles(file, "/input/f64_even"), other) << "another dataset changed";
  EXPECT_TRUE(no_oocfft_links(file));
  for (const std::string& link : links(file, "/input")) EXPECT_EQ(link.find(".oocfft"), std::string::npos) << link;
}

// The refusals: complex data (compound and pairs), a missing dataset or
// file, a transform that is none of the four, shift, an output that
// exists, in place to another dataset. Each names the dataset and leaves
// the input file byte-identical, with the output asked for in the same
// file or a new one.
TEST(TrigDatasetTransform, RefusalsNameTheDatasetAndLeaveTheFileUntouched) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path file = copy_fixtures_to(dir);
  const std::uint64_t before = file_hash(file);
  struct Refusal {
    const char* what;
    std::string input;
    std::vector<std::string> named;
    ErrorKind kind = ErrorKind::invalid_argument;
    TrigTransform transform = TrigTransform::dct2;
    bool shift = false;
    std::string output = "/out";
  };
  const Refusal refusals[] = {
      {"complex compound", "/c64_3d", {"/c64_3d", "complex", "float32 or float64"}},
      {"complex pairs", "/pairs_f64_3d", {"/pairs_f64_3d", "complex", "dctn (type 2)"}},
      {"missing dataset", "/nothing", {"/nothing"}, ErrorKind::io},
      {"bad transform", "/f32_3d", {"/f32_3d", "dct2, dct3, dst2, dst3"}, ErrorKind::invalid_argument,
       static_cast<TrigTransform>(7)},
      {"shift", "/f32_3d", {"/f32_3d", "shift"}, ErrorKind::unsupported, TrigTransform::dst3, true},
      {"output exists", "/f32_3d", {"/f64_2d", "exists"}, ErrorKind::invalid_argument, TrigTransform::dct2, false,
       "/f64_2d"},
  };
  for (const Refusal& r : refusals) {
    SCOPED_TRACE(r.what);
    Options o = host();
    o.shift = r.shift;
    const DatasetPath in{file.string(), r.input};
    for (const DatasetPath& out : {DatasetPath{file.string(), r.output}, DatasetPath{(dir / "out.h5").string(), "/out"}}) {
      if (r.output != "/out" && out.file != file.string()) continue;
      for (const Direction d : {Direction::forward, Direction::inverse})
        expect_error([&] { transform_trig_dataset(in, out, r.transform, d, o); }, r.kind, r.named);
    }
    EXPECT_EQ(file_hash(file), before) << "the input file changed";
    EXPECT_FALSE(fs::exists(dir / "out.h5")) << "an output file was created";
  }
  DatasetTransformOptions fo;
  fo.in_place = true;
  expect_error([&] {
    transform_trig_dataset({file.string(), "/f32_3d"}, {file.string(), "/other"}, TrigTransform::dct2,
                           Direction::forward, host(), fo);
  }, ErrorKind::invalid_argument, {"in-place", "/other"});
  expect_error([&] {
    transform_trig_dataset({file.string(), "/c64_3d"}, {file.string(), "/c64_3d"}, TrigTransform::dct2,
                           Direction::forward, host(), fo);
  }, ErrorKind::invalid_argument, {"/c64_3d", "complex"});
  expect_error([&] {
    transform_trig_dataset({(dir / "none.h5").string(), "/x"}, {(dir / "out.h5").string(), "/out"},
                           TrigTransform::dct2, Direction::forward, host());
  }, ErrorKind::io, {"none.h5"});
  EXPECT_EQ(file_hash(file), before) << "the input file changed";
  EXPECT_FALSE(fs::exists(dir / "out.h5"));
}

// A cancel in the middle of a streamed run, the output in the input's own
// file, new and in place: no output, no temporary dataset, the input's
// values as they were; progress came per brick.
TEST(TrigDatasetTransform, CancelLeavesTheInputAndNoOutput) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path file = dir / "volume.h5";
  const std::vector<double> x = write_real_dataset(file, "/x", {13, 18, 21}, {5, 6, 21}, 11);
  for (const bool in_place : {false, true}) {
    SCOPED_TRACE(in_place ? "in place" : "new dataset");
    Options o = host();
    std::atomic<int> bricks{0};
    o.progress = [&](const Progress&) { ++bricks; };
    o.cancel = [&] { return bricks.load() >= 3; };
    DatasetTransformOptions fo;
    fo.in_place = in_place;
    fo.host_memory_budget = 16 << 10;
    const DatasetPath in{file.string(), "/x"};
    const DatasetPath out = in_place ? in : DatasetPath{file.string(), "/y"};
    expect_error([&] { transform_trig_dataset(in, out, TrigTransform::dct2, Direction::forward, o, fo); },
                 ErrorKind::cancelled, {});
    EXPECT_GE(bricks.load(), 3) << "the run had started";
    const std::vector<std::string> names = links(file, "/");
    EXPECT_EQ(names, std::vector<std::string>{"x"});
    EXPECT_EQ(read_doubles(file, "/x"), x) << "the input changed";
  }
}

}  // namespace
}  // namespace oocfft
