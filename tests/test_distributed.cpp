// The distributed plan (include/oocfft/distributed.hpp) on the host
// backend, run by ctest under mpiexec with 1 to 4 ranks. Every rank draws
// the whole seeded volume, takes its in box, and compares its out box of
// the distributed transform with the same box of (a) fftw's long-double
// transform of the whole volume and (b) the single-process Plan's; the
// errors are summed over the ranks, so every rank reaches the same verdict.
// Outputs are poisoned with NaN first, so a point no exchange wrote fails.
// Centred cases (Options::shift) take numpy's fftshift(fftn(ifftshift(x)))
// of the whole volume, built from fftwl and explicit rolls, and the
// single-process Plan with Options::shift.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "oocfft/distributed.hpp"
#include "oocfft/plan.hpp"
#include "tests/distributed_boxes.hpp"
#include "tests/mpi_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft {
namespace {

using test::catch_error;
using test::Caught;
using test::expect_same_error_everywhere;
using test::host_options;
using test::LongComplex;
using test::world_rank;
using test::world_size;

using test::BoxOf;
using test::bricks;
using test::cut;
using test::global_relative_l2;
using test::Layout;
using test::x_slab;
using test::y_slab;
using test::z_slab;

const Layout layouts[] = {
    {"z-slabs in, z-slabs out", z_slab, z_slab},
    {"z-slabs in, y-slabs out", z_slab, y_slab},
    {"x-slabs in, uneven bricks out", x_slab, bricks},
    {"uneven bricks in, x-slabs out", bricks, x_slab},
};

const Shape shapes[] = {{8, 8, 8}, {5, 7, 3}, {6, 11, 9}, {3, 2, 13}, {1, 5, 4}};

// Options::shift in every transform a case compares.
enum class Centred { no, yes };

// numpy's fftn (sign -1) or unscaled ifftn (+1) of the whole volume, in
// long double; centred: fftshift of that of ifftshift(x).
std::vector<LongComplex> whole_volume_reference(const std::vector<LongComplex>& x, Shape shape, Direction direction,
                                                Centred centred) {
  const std::vector<int> dims{static_cast<int>(shape.nz), static_cast<int>(shape.ny), static_cast<int>(shape.nx)};
  const int sign = direction == Direction::forward ? FFTW_FORWARD : FFTW_BACKWARD;
  if (centred == Centred::no) return test::fftwl_dft(x, dims, sign);
  using test::NumpyShift;
  return test::numpy_shift(test::fftwl_dft(test::numpy_shift(x, shape, NumpyShift::ifftshift), dims, sign), shape,
                           NumpyShift::fftshift);
}

template <class T>
void check_case(Shape shape, const Layout& layout, Direction direction, Norm norm, std::uint64_t seed,
                std::size_t budget = 0, Centred centred = Centred::no, Backend backend = Backend::host) {
  const int rank = world_rank();
  const int ranks = world_size();
  const Box3 in_box = layout.in(shape, rank, ranks);
  const Box3 out_box = layout.out(shape, rank, ranks);
  const std::vector<LongComplex> x = test::random_signal(shape.elements(), seed);
  const Precision precision = std::is_same_v<T, float> ? Precision::single : Precision::double_precision;
  Options options = host_options(norm);
  options.device_memory_budget = budget;
  options.shift = centred == Centred::yes;
  options.backend = backend;

  // (a) fftw in long double, with numpy's norm over the whole shape.
  std::vector<LongComplex> want = whole_volume_reference(x, shape, direction, centred);
  const long double n = static_cast<long double>(shape.elements());
  const long double scale = norm == Norm::ortho                                       ? 1.0L / std::sqrt(n)
                            : (norm == Norm::backward) == (direction == Direction::inverse) ? 1.0L / n
                                                                                      : 1.0L;
  for (auto& v : want) v *= scale;
  // (b) the single-process transform of the whole volume.
  std::vector<std::complex<T>> single = test::to_precision<T>(x);
  Options whole = host_options(norm);
  whole.shift = options.shift;
  Plan(shape, precision, whole).execute(single.data(), direction);

  const std::vector<std::complex<T>> in = cut(test::to_precision<T>(x), shape, in_box);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<std::complex<T>> out(out_box.count(), {nan, nan});
  const DistributedPlan plan(MPI_COMM_WORLD, shape, in_box, out_box, precision, options);
  if (direction == Direction::forward)
    plan.forward(in.data(), out.data());
  else
    plan.inverse(in.data(), out.data());

  const std::string what = std::string(layout.name) + ", " + shape.to_string() + ", " + to_string(direction) +
                           ", norm " + to_string(norm) + (options.shift ? ", centred" : "") + ", " +
                           std::to_string(ranks) + " ranks";
  const double tol = test::tolerance<T>(4.0, shape.elements());
  EXPECT_TRUE(in == cut(test::to_precision<T>(x), shape, in_box)) << what << ": the input was written";
  EXPECT_LE(global_relative_l2(out, cut(want, shape, out_box)), tol) << what << " against fftwl";
  EXPECT_LE(global_relative_l2(out, cut(single, shape, out_box)), tol) << what << " against the single-process Plan";
}

// The default backend: CUDA where a device is usable (the ranks of a node
// each on its own GPU, page-locked pencils), else the host, as in CI.
// Every layout (pencil rounds, shared y-slabs, segments), both directions,
// centred too.
TEST(Distributed, TheDefaultBackendMatchesTheWholeVolumeTransform) {
  std::uint64_t seed = 3000;
  for (const Layout& layout : layouts)
    for (const Direction d : {Direction::forward, Direction::inverse}) {
      check_case<float>({24, 20, 30}, layout, d, Norm::backward, seed++, 0, Centred::no, Backend::automatic);
      check_case<double>({9, 14, 11}, layout, d, Norm::ortho, seed++, 0, Centred::yes, Backend::automatic);
    }
}

// Steps 2-4 resident on the node's GPUs (distributed/node_device_steps.hpp):
// where CUDA is usable and the ranks share one node, the default backend
// runs them there, and describe() says so. Every layout, extents that
// split unevenly over the ranks, centred, both precisions and directions,
// in place on z-slabs; then a device budget below a rank's buffers, which
// keeps the steps on the hosts and says why.
TEST(DistributedNodeDevices, RunOnTheNodesGpusWhereTheyFit) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device: these steps run on GPUs";
  const int rank = world_rank(), ranks = world_size();
  if (ranks < 2) GTEST_SKIP() << "one rank: the single-node engine's plans serve it, not these steps";
  Options options = host_options(Norm::ortho);
  options.backend = Backend::automatic;
  const Shape shape{13, 10, 7};
  const Box3 slab = z_slab(shape, rank, ranks);
  const DistributedPlan plan(MPI_COMM_WORLD, shape, slab, slab, Precision::single, options);
  EXPECT_NE(plan.describe().find("resident on CUDA device"), std::string::npos) << plan.describe();

  std::uint64_t seed = 3100;
  for (const Layout& layout : layouts)
    for (const Direction d : {Direction::forward, Direction::inverse}) {
      check_case<float>(shape, layout, d, Norm::ortho, seed++, 0, Centred::no, Backend::automatic);
      check_case<double>({9, 14, 11}, layout, d, Norm::forward, seed++, 0, Centred::yes, Backend::automatic);
    }

  const std::vector<LongComplex> x = test::random_signal(shape.elements(), seed++);
  const std::vector<std::complex<float>> input = cut(test::to_precision<float>(x), shape, slab);
  for (const Direction d : {Direction::forward, Direction::inverse}) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<std::complex<float>> apart(input.size(), {nan, nan}), in_place = input;
    const auto run = [&](const std::complex<float>* in, std::complex<float>* out) {
      d == Direction::forward ? plan.forward(in, out) : plan.inverse(in, out);
    };
    run(input.data(), apart.data());
    run(in_place.data(), in_place.data());
    EXPECT_EQ(global_relative_l2(in_place, apart), 0.0) << "in place, " << to_string(d);
  }

  options.device_memory_budget = 4096;
  const DistributedPlan small(MPI_COMM_WORLD, shape, slab, slab, Precision::single, options);
  EXPECT_NE(small.describe().find("exceed the device budget"), std::string::npos) << small.describe();
  check_case<float>(shape, layouts[0], Direction::forward, Norm::backward, seed++, 4096, Centred::no,
                    Backend::automatic);
}

TEST(Distributed, MatchesTheWholeVolumeTransformSingle) {
  std::uint64_t seed = 1;
  for (const Layout& layout : layouts)
    for (const Shape& shape : shapes)
      for (const Direction d : {Direction::forward, Direction::inverse}) check_case<float>(shape, layout, d, Norm::backward, seed++);
}

TEST(Distributed, MatchesTheWholeVolumeTransformDouble) {
  std::uint64_t seed = 100;
  for (const Layout& layout : layouts)
    for (const Shape& shape : shapes)
      for (const Direction d : {Direction::forward, Direction::inverse}) check_case<double>(shape, layout, d, Norm::backward, seed++);
}

TEST(Distributed, NormsAreNumpysOverTheGlobalShape) {
  std::uint64_t seed = 200;
  for (const Norm norm : {Norm::ortho, Norm::forward})
    for (const Direction d : {Direction::forward, Direction::inverse}) {
      check_case<double>({6, 5, 4}, layouts[1], d, norm, seed++);
      check_case<float>({7, 3, 8}, layouts[2], d, norm, seed++);
    }
}

// Each rank's planes streamed through a small budget, not transformed in
// place: four 16 x 20 planes of complex<double> (four streams of one plane
// each), and 4 KiB, less than a plane, which splits each plane's transform
// into x rows, then y columns.
TEST(Distributed, ABudgetThatStreamsEachRanksPlanesGivesTheSameResult) {
  const std::size_t planes = 4 * 16 * 20 * sizeof(std::complex<double>);
  check_case<double>({12, 16, 20}, layouts[1], Direction::forward, Norm::backward, 400, planes);
  check_case<float>({12, 16, 20}, layouts[2], Direction::inverse, Norm::ortho, 401, planes);
  check_case<double>({12, 16, 20}, layouts[3], Direction::forward, Norm::forward, 402, 4096);
}

TEST(Distributed, InPlaceWhenTheBoxesAreTheSame) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{6, 9, 5};
  const Box3 box = bricks(shape, rank, ranks);
  const std::vector<LongComplex> x = test::random_signal(shape.elements(), 300);
  std::vector<std::complex<double>> data = cut(test::to_precision<double>(x), shape, box);
  const std::vector<std::complex<double>> original = data;
  const DistributedPlan plan(MPI_COMM_WORLD, shape, box, box, Precision::double_precision, host_options(Norm::backward));
  plan.forward(data.data(), data.data());
  plan.inverse(data.data(), data.data());
  EXPECT_LE(global_relative_l2(data, original), test::tolerance<double>(4.0, shape.elements()));
}

// In place on z-slabs, each rank's planes are transformed in the caller's
// array (no z-slab copy): the result must be the out-of-place one, which
// the cases above compare with fftwl, in both directions.
TEST(Distributed, InPlaceOnZSlabsMatchesOutOfPlace) {
  const int rank = world_rank(), ranks = world_size();
  for (const Shape shape : {Shape{7, 6, 5}, Shape{2, 9, 4}}) {
    const Box3 box = z_slab(shape, rank, ranks);
    const std::vector<LongComplex> x = test::random_signal(shape.elements(), 310);
    const std::vector<std::complex<float>> input = cut(test::to_precision<float>(x), shape, box);
    const DistributedPlan plan(MPI_COMM_WORLD, shape, box, box, Precision::single, host_options(Norm::ortho));
    for (const Direction d : {Direction::forward, Direction::inverse}) {
      std::vector<std::complex<float>> apart(input.size()), in_place = input;
      const auto run = [&](const std::complex<float>* in, std::complex<float>* out) {
        d == Direction::forward ? plan.forward(in, out) : plan.inverse(in, out);
      };
      run(input.data(), apart.data());
      run(in_place.data(), in_place.data());
      EXPECT_EQ(global_relative_l2(in_place, apart), 0.0) << shape.to_string() << ", " << to_string(d);
    }
  }
}

// Options::shift over the global shape: odd and even axes (odd ones are
// where fftshift and ifftshift differ), an axis of one point, every layout
// (z-slabs out: the pencil rounds; y-slabs, uneven bricks and x-slabs out:
// the y-slab path, with ranks that hold nothing), both precisions and
// directions, the three norms in turn.
const Shape centred_shapes[] = {{5, 6, 7}, {8, 9, 10}, {1, 6, 5}, {7, 3, 1}};

TEST(DistributedCentred, MatchesNumpysShiftedTransformOfTheWholeVolume) {
  std::uint64_t seed = 500;
  const Norm norms[] = {Norm::backward, Norm::ortho, Norm::forward};
  for (const Layout& layout : layouts)
    for (const Shape& shape : centred_shapes)
      for (const Direction d : {Direction::forward, Direction::inverse}) {
        const Norm norm = norms[seed % 3];
        check_case<float>(shape, layout, d, norm, seed++, 0, Centred::yes);
        check_case<double>(shape, layout, d, norm, seed++, 0, Centred::yes);
      }
}

// Through a budget that streams each rank's planes: the phases are the
// plan's own, not the local engine's.
TEST(DistributedCentred, ABudgetThatStreamsEachRanksPlanesGivesTheSameResult) {
  const std::size_t planes = 4 * 16 * 21 * sizeof(std::complex<double>);
  check_case<double>({11, 16, 21}, layouts[0], Direction::forward, Norm::backward, 600, planes, Centred::yes);
  check_case<float>({11, 16, 21}, layouts[1], Direction::inverse, Norm::ortho, 601, planes, Centred::yes);
}

// In place (the same array in and out) on z-slabs (the pencil rounds, the
// planes in the caller's array), y-slabs and uneven bricks, against the
// whole volume's centred transform, in both precisions; and a forward
// then an inverse gives the input back (fftshift(ifftn(ifftshift(
// fftshift(fftn(ifftshift(u)))))) = u).
template <class T>
void check_centred_in_place(const BoxOf& box_of, const char* name, Shape shape, std::uint64_t seed) {
  const int rank = world_rank(), ranks = world_size();
  const Box3 box = box_of(shape, rank, ranks);
  const std::vector<LongComplex> x = test::random_signal(shape.elements(), seed);
  const Precision precision = std::is_same_v<T, float> ? Precision::single : Precision::double_precision;
  Options options = host_options(Norm::backward);
  options.shift = true;
  const DistributedPlan plan(MPI_COMM_WORLD, shape, box, box, precision, options);
  const std::vector<std::complex<T>> input = cut(test::to_precision<T>(x), shape, box);
  const double tol = test::tolerance<T>(4.0, shape.elements());
  const std::string what =
      std::string(name) + ", " + shape.to_string() + ", centred in place, " + std::to_string(ranks) + " ranks";
  for (const Direction d : {Direction::forward, Direction::inverse}) {
    std::vector<std::complex<T>> data = input;
    d == Direction::forward ? plan.forward(data.data(), data.data()) : plan.inverse(data.data(), data.data());
    std::vector<LongComplex> want = whole_volume_reference(x, shape, d, Centred::yes);
    if (d == Direction::inverse)
      for (auto& v : want) v /= static_cast<long double>(shape.elements());
    EXPECT_LE(global_relative_l2(data, cut(want, shape, box)), tol) << what << ", " << to_string(d);
  }
  std::vector<std::complex<T>> data = input;
  plan.forward(data.data(), data.data());
  plan.inverse(data.data(), data.data());
  EXPECT_LE(global_relative_l2(data, input), tol) << what << ", round trip";
}

TEST(DistributedCentred, InPlaceMatchesTheWholeVolumeAndRoundTrips) {
  std::uint64_t seed = 700;
  for (const Shape shape : {Shape{5, 6, 7}, Shape{8, 9, 10}, Shape{1, 4, 3}}) {
    check_centred_in_place<float>(z_slab, "z-slabs", shape, seed++);
    check_centred_in_place<double>(z_slab, "z-slabs", shape, seed++);
    check_centred_in_place<double>(y_slab, "y-slabs", shape, seed++);
    check_centred_in_place<float>(bricks, "uneven bricks", shape, seed++);
  }
}

TEST(DistributedErrors, OverlappingBoxesAreRefusedOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{8, 6, 4};
  Box3 in = z_slab(shape, rank, ranks);
  // The last rank reaches one plane lower: it overlaps its neighbour, or
  // (one rank) leaves the shape.
  if (rank == ranks - 1) in.low[0] -= 1;
  const Caught c = catch_error([&] {
    DistributedPlan(MPI_COMM_WORLD, shape, in, z_slab(shape, rank, ranks), Precision::single, host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, ranks == 1 ? "outside" : "overlap");
}

TEST(DistributedErrors, GapsAreRefusedOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{8, 6, 4};
  Box3 out = y_slab(shape, rank, ranks);
  if (rank == 0) out.high[2] -= 1;  // rank 0 leaves out its last x column
  const Caught c = catch_error([&] {
    DistributedPlan(MPI_COMM_WORLD, shape, z_slab(shape, rank, ranks), out, Precision::double_precision,
                    host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "leave " + std::to_string(shape.nz * y_slab(shape, 0, ranks).extent().ny) + " points");
}

TEST(DistributedErrors, ABoxOutsideTheShapeIsRefusedOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{4, 4, 4};
  Box3 in = z_slab(shape, rank, ranks);
  if (rank == ranks - 1) in.high[2] = 4;  // x 0..4 of 4 columns
  const Caught c = catch_error([&] {
    DistributedPlan(MPI_COMM_WORLD, shape, in, z_slab(shape, rank, ranks), Precision::single, host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "rank " + std::to_string(ranks - 1) + "'s in box");
}

TEST(DistributedErrors, ADifferentShapeOnOneRankIsRefusedOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  if (ranks == 1) GTEST_SKIP() << "needs two ranks";
  const Shape shape{4, 4, 4};
  const Shape mine = rank == 1 ? Shape{4, 4, 5} : shape;
  const Caught c = catch_error([&] {
    DistributedPlan(MPI_COMM_WORLD, mine, z_slab(shape, rank, ranks), z_slab(shape, rank, ranks), Precision::single,
                    host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "rank 1 passes another shape");
}

TEST(DistributedErrors, ANullArrayOnOneRankFailsEveryRankBeforeDataMoves) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{5, 4, 3};
  const Box3 box = z_slab(shape, rank, ranks);
  const DistributedPlan plan(MPI_COMM_WORLD, shape, box, box, Precision::single, host_options(Norm::backward));
  std::vector<std::complex<float>> in(box.count(), {1.0f, 0.0f});
  std::vector<std::complex<float>> out(box.count(), {7.0f, 7.0f});
  const int failing = ranks - 1;
  const Caught c = catch_error([&] { plan.forward(rank == failing ? nullptr : in.data(), out.data()); });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument,
                               "rank " + std::to_string(failing) + ": null input array");
  for (const auto& v : out) ASSERT_EQ(v, std::complex<float>(7.0f, 7.0f)) << "an output was written";
  // The plan runs again afterwards: nobody was left in an exchange.
  plan.forward(in.data(), out.data());
  if (rank == 0) EXPECT_FLOAT_EQ(out[0].real(), static_cast<float>(shape.elements()));  // the sum of the ones
}

// A failure in the middle of a run, in one rank's local transform (its
// cancel), ends the run on every rank with that rank's Error.
// With nz = 2, ranks beyond the second hold no planes: their cancel is
// seen before the z lines.
TEST(DistributedErrors, ACancelOnOneRankEndsTheRunOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  for (const Shape shape : {Shape{8, 5, 6}, Shape{2, 6, 4}}) {
    const Box3 box = y_slab(shape, rank, ranks);
    Options options = host_options(Norm::backward);
    if (rank == ranks - 1) options.cancel = [] { return true; };
    const DistributedPlan plan(MPI_COMM_WORLD, shape, box, box, Precision::double_precision, options);
    std::vector<std::complex<double>> data(box.count(), {1.0, 0.0});
    const Caught c = catch_error([&] { plan.forward(data.data(), data.data()); });
    expect_same_error_everywhere(c, ErrorKind::cancelled, "");
  }
}

TEST(DistributedErrors, TheWrongPrecisionIsRefusedOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{4, 3, 2};
  const Box3 box = z_slab(shape, rank, ranks);
  const DistributedPlan plan(MPI_COMM_WORLD, shape, box, box, Precision::double_precision, host_options(Norm::backward));
  std::vector<std::complex<float>> data(box.count());
  const Caught c = catch_error([&] { plan.forward(data.data(), data.data()); });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "double distributed plan called with single");
}

// What is computed must be one transform: a rank with another shift or
// norm than rank 0's is refused on every rank before any data moves.
TEST(DistributedErrors, ADifferentShiftOrNormOnOneRankIsRefusedOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  if (ranks == 1) GTEST_SKIP() << "needs two ranks";
  const Shape shape{4, 3, 2};
  Options options = host_options(Norm::backward);
  options.shift = rank == ranks - 1;
  Caught c = catch_error([&] {
    DistributedPlan(MPI_COMM_WORLD, shape, z_slab(shape, rank, ranks), y_slab(shape, rank, ranks), Precision::single,
                    options);
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument,
                               "rank " + std::to_string(ranks - 1) + " passes another Options::shift");
  options = host_options(rank == 1 ? Norm::ortho : Norm::backward);
  c = catch_error([&] {
    DistributedPlan(MPI_COMM_WORLD, shape, z_slab(shape, rank, ranks), z_slab(shape, rank, ranks),
                    Precision::double_precision, options);
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "rank 1 passes another Options::norm");
}

TEST(DistributedPlanReport, DescribesTheExchanges) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{4, 4, 4};
  const DistributedPlan plan(MPI_COMM_WORLD, shape, z_slab(shape, rank, ranks), y_slab(shape, rank, ranks),
                             Precision::single, host_options(Norm::backward));
  const std::string d = plan.describe();
  // One rank's y-slab is its z-slab: the pencil rounds, not the transpose.
  EXPECT_NE(d.find(ranks > 1 ? "z-slabs -> y-slabs: " : "z lines of the z-slabs in 1 round(s)"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("rank " + std::to_string(rank) + " of " + std::to_string(ranks)), std::string::npos) << d;
  // z-slabs out: the z lines in rounds of pencils, no y-slab.
  const DistributedPlan rounds(MPI_COMM_WORLD, shape, z_slab(shape, rank, ranks), z_slab(shape, rank, ranks),
                               Precision::single, host_options(Norm::backward));
  EXPECT_NE(rounds.describe().find("round(s) of y rows"), std::string::npos) << rounds.describe();
  EXPECT_EQ(rounds.describe().find("z-slabs -> y-slabs"), std::string::npos) << rounds.describe();
  // What crosses a network: nothing, all ranks of a test share one machine.
  EXPECT_NE(d.find("network: one node"), std::string::npos) << d;
  if (ranks > 1) {
    EXPECT_NE(rounds.describe().find("in memory shared by the node's"), std::string::npos) << rounds.describe();
    EXPECT_NE(d.find("y-slabs in the node's shared memory"), std::string::npos) << d;
  }
  EXPECT_EQ(d.find("centred"), std::string::npos) << d;
}

// Where a rank's own box is the slab the phases go on, the copy the
// exchange makes of it carries them; elsewhere a sweep of its own.
TEST(DistributedPlanReport, SaysWhereTheCentringPhasesGo) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{4, 5, 6};
  Options options = host_options(Norm::backward);
  options.shift = true;
  const DistributedPlan y_slabs(MPI_COMM_WORLD, shape, z_slab(shape, rank, ranks), y_slab(shape, rank, ranks),
                                Precision::double_precision, options);
  const DistributedPlan z_slabs(MPI_COMM_WORLD, shape, z_slab(shape, rank, ranks), z_slab(shape, rank, ranks),
                                Precision::double_precision, options);
  for (const DistributedPlan* plan : {&y_slabs, &z_slabs}) {
    const std::string d = plan->describe();
    EXPECT_NE(d.find("centred (Options::shift"), std::string::npos) << d;
    EXPECT_NE(d.find("the input's on the z-slab before step 2, carried by the copy of step 1"), std::string::npos)
        << d;
  }
  EXPECT_NE(z_slabs.describe().find("z-slab after steps 3-4, carried by the copy of step 5"), std::string::npos)
      << z_slabs.describe();
  if (ranks > 1)
    EXPECT_NE(y_slabs.describe().find("y-slab after step 4, carried by the copy of step 5"), std::string::npos)
        << y_slabs.describe();
  // x-slabs in, uneven bricks out (nz = 5: never the z-slabs): with more
  // than one rank neither box is a slab, two sweeps.
  const Shape odd{5, 5, 6};
  const DistributedPlan sweeps(MPI_COMM_WORLD, odd, x_slab(odd, rank, ranks), bricks(odd, rank, ranks),
                               Precision::single, options);
  const std::string d = sweeps.describe();
  if (ranks > 1) {
    EXPECT_NE(d.find("before step 2, a host sweep over it"), std::string::npos) << d;
    EXPECT_NE(d.find("after step 4, a host sweep over it"), std::string::npos) << d;
  }
}

}  // namespace
}  // namespace oocfft
