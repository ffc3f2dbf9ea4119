// The distributed real plan (include/oocfft/distributed_real.hpp) on the
// host backend, run by ctest under mpiexec with 1 to 4 ranks. Every rank
// draws the whole seeded volume, takes its box, and compares its box of
// the result with the same box of (a) fftwl's transform of the whole
// volume (numpy's rfftn: the complex transform's first nx/2+1 columns, or
// for the inverse the volume the half spectrum came from) and (b) the
// single-process RealPlan's; the errors are summed over the ranks, so
// every rank reaches the same verdict. Outputs are poisoned with NaN
// first, so a point no exchange wrote fails.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "oocfft/distributed_real.hpp"
#include "oocfft/real.hpp"
#include "tests/distributed_boxes.hpp"
#include "tests/mpi_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft {
namespace {

using test::bricks;
using test::catch_error;
using test::Caught;
using test::cut;
using test::expect_same_error_everywhere;
using test::global_relative_l2;
using test::host_options;
using test::Layout;
using test::LongComplex;
using test::world_rank;
using test::world_size;
using test::x_slab;
using test::y_slab;
using test::z_slab;

// `in` for the real boxes (over the real shape), `out` for the spectrum
// boxes (over the half spectrum).
const Layout layouts[] = {
    {"real z-slabs, spectrum z-slabs (pencil rounds)", z_slab, z_slab},
    {"real z-slabs, spectrum y-slabs", z_slab, y_slab},
    {"real x-slabs, spectrum uneven bricks", x_slab, bricks},
    {"real uneven bricks, spectrum x-slabs", bricks, x_slab},
    {"real y-slabs, spectrum z-slabs (pencil rounds)", y_slab, z_slab},
};

// Odd and even nx, primes, nz = 1, ny = 1, a half spectrum of one column
// (nx = 1 and 2).
const Shape shapes[] = {{8, 8, 8}, {5, 7, 3}, {6, 11, 9}, {3, 2, 13}, {1, 5, 4}, {4, 1, 6}, {3, 4, 1}, {5, 3, 2}};

// numpy's factor of a norm over N points, in one direction.
long double norm_factor(Norm norm, Direction direction, std::size_t points) {
  const long double n = static_cast<long double>(points);
  if (norm == Norm::ortho) return 1.0L / std::sqrt(n);
  return (norm == Norm::backward) == (direction == Direction::inverse) ? 1.0L / n : 1.0L;
}

template <class T>
constexpr Precision precision_of() {
  return std::is_same_v<T, float> ? Precision::single : Precision::double_precision;
}

std::string describe_case(const Layout& layout, Shape shape, const char* direction, Norm norm) {
  return std::string(layout.name) + ", " + shape.to_string() + ", " + direction + ", norm " + to_string(norm) + ", " +
         std::to_string(world_size()) + " ranks";
}

// A case's plan: this rank's boxes of `layout`, the host backend (or
// `backend`) with `norm` and a device budget of `budget` bytes (0: none).
template <class T>
DistributedRealPlan plan_of(Shape shape, const Layout& layout, Norm norm, std::size_t budget,
                            Backend backend = Backend::host) {
  const int rank = world_rank(), ranks = world_size();
  Options options = host_options(norm);
  options.device_memory_budget = budget;
  options.backend = backend;
  return DistributedRealPlan(MPI_COMM_WORLD, shape, layout.in(shape, rank, ranks),
                             layout.out(half_spectrum_shape(shape), rank, ranks), precision_of<T>(), options);
}

// Forward: real boxes in, spectrum boxes out.
template <class T>
void check_forward(Shape shape, const Layout& layout, Norm norm, std::uint64_t seed, std::size_t budget = 0,
                   Backend backend = Backend::host) {
  const DistributedRealPlan plan = plan_of<T>(shape, layout, norm, budget, backend);
  const Shape h = plan.spectrum_shape();
  const Box3 real_box = plan.real_box(), spectrum_box = plan.spectrum_box();
  const std::vector<long double> x = test::random_real_signal(shape.elements(), seed);
  const std::vector<T> whole(x.begin(), x.end());

  std::vector<LongComplex> want = test::fftwl_rfftn(x, {int(shape.nz), int(shape.ny), int(shape.nx)});
  for (auto& v : want) v *= norm_factor(norm, Direction::forward, shape.elements());
  std::vector<std::complex<T>> single(h.elements());
  RealPlan(shape, precision_of<T>(), host_options(norm)).forward(whole.data(), single.data());

  const std::vector<T> in = cut(whole, shape, real_box);
  const std::vector<T> kept = in;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<std::complex<T>> out(spectrum_box.count(), {nan, nan});
  plan.forward(in.data(), out.data());

  const std::string what = describe_case(layout, shape, "forward", norm);
  const double tol = test::tolerance<T>(4.0, shape.elements());
  EXPECT_LE(global_relative_l2(out, cut(want, h, spectrum_box)), tol) << what << " against fftwl";
  EXPECT_LE(global_relative_l2(out, cut(single, h, spectrum_box)), tol) << what << " against the single-process RealPlan";
  EXPECT_EQ(in, kept) << what << ": the input was written";
}

// Inverse: spectrum boxes in, real boxes out. (a) the half spectrum of a
// real volume comes back as that volume (times N and the norm's factor);
// (b) a half spectrum that is not Hermitian matches RealPlan's inverse,
// which must drop the same imaginary parts.
template <class T>
void check_inverse(Shape shape, const Layout& layout, Norm norm, std::uint64_t seed, std::size_t budget = 0,
                   Backend backend = Backend::host) {
  const DistributedRealPlan plan = plan_of<T>(shape, layout, norm, budget, backend);
  const Shape h = plan.spectrum_shape();
  const Box3 real_box = plan.real_box(), spectrum_box = plan.spectrum_box();
  const std::string what = describe_case(layout, shape, "inverse", norm);
  const double tol = test::tolerance<T>(6.0, shape.elements());
  const T nan = std::numeric_limits<T>::quiet_NaN();

  const std::vector<long double> x = test::random_real_signal(shape.elements(), seed);
  const std::vector<std::complex<T>> hermitian =
      test::to_precision<T>(test::fftwl_rfftn(x, {int(shape.nz), int(shape.ny), int(shape.nx)}));
  std::vector<long double> want = x;
  for (auto& v : want) v *= static_cast<long double>(shape.elements()) * norm_factor(norm, Direction::inverse, shape.elements());
  std::vector<T> out(real_box.count(), nan);
  plan.inverse(cut(hermitian, h, spectrum_box).data(), out.data());
  EXPECT_LE(global_relative_l2(out, cut(want, shape, real_box)), tol) << what << " against the volume";

  const std::vector<std::complex<T>> any = test::to_precision<T>(test::random_signal(h.elements(), seed + 1));
  std::vector<T> single(shape.elements());
  RealPlan(shape, precision_of<T>(), host_options(norm)).inverse(any.data(), single.data());
  const std::vector<std::complex<T>> in = cut(any, h, spectrum_box);
  const std::vector<std::complex<T>> kept = in;
  std::fill(out.begin(), out.end(), nan);
  plan.inverse(in.data(), out.data());
  EXPECT_LE(global_relative_l2(out, cut(single, shape, real_box)), tol)
      << what << " (not Hermitian) against the single-process RealPlan";
  EXPECT_EQ(in, kept) << what << ": the input was written";
}

TEST(DistributedReal, ForwardMatchesTheWholeVolumeRfftn) {
  std::uint64_t seed = 1;
  for (const Layout& layout : layouts)
    for (const Shape& shape : shapes) {
      check_forward<float>(shape, layout, Norm::backward, seed++);
      check_forward<double>(shape, layout, Norm::backward, seed++);
    }
}

TEST(DistributedReal, InverseMatchesTheWholeVolumeIrfftn) {
  std::uint64_t seed = 500;
  for (const Layout& layout : layouts)
    for (const Shape& shape : shapes) {
      check_inverse<float>(shape, layout, Norm::backward, seed += 2);
      check_inverse<double>(shape, layout, Norm::backward, seed += 2);
    }
}

// The default backend: CUDA where a device is usable (the ranks of a node
// each on its own GPU, page-locked pencils), else the host, as in CI. The
// pencil rounds and the y-slab path, both directions.
TEST(DistributedReal, TheDefaultBackendMatchesNumpy) {
  std::uint64_t seed = 700;
  for (const Layout& layout : {layouts[0], layouts[1]}) {
    check_forward<float>({24, 20, 30}, layout, Norm::backward, seed++, 0, Backend::automatic);
    check_inverse<float>({24, 20, 30}, layout, Norm::backward, seed += 2, 0, Backend::automatic);
    check_forward<double>({9, 14, 11}, layout, Norm::ortho, seed++, 0, Backend::automatic);
  }
}

TEST(DistributedReal, NormsAreNumpysOverTheGlobalRealShape) {
  std::uint64_t seed = 900;
  for (const Norm norm : {Norm::backward, Norm::ortho, Norm::forward}) {
    check_forward<double>({6, 5, 7}, layouts[1], norm, seed++);
    check_forward<float>({7, 3, 8}, layouts[0], norm, seed++);
    check_inverse<double>({6, 5, 7}, layouts[2], norm, seed += 2);
    check_inverse<float>({7, 3, 8}, layouts[4], norm, seed += 2);
  }
}

// Each rank's planes streamed through small budgets: 4 KiB, less than a
// plane of 16 x 20, splits each plane into x rows, then y columns (the
// inverse columns, then rows); 16 KiB holds a plane or two a brick.
TEST(DistributedReal, ABudgetThatStreamsEachRanksPlanesGivesTheSameResult) {
  for (const std::size_t budget : {std::size_t{4} << 10, std::size_t{16} << 10}) {
    check_forward<double>({12, 16, 20}, layouts[1], Norm::backward, 1000 + budget, budget);
    check_forward<float>({12, 16, 19}, layouts[0], Norm::ortho, 1001 + budget, budget);
    check_inverse<double>({12, 16, 19}, layouts[3], Norm::forward, 1002 + budget, budget);
    check_inverse<float>({12, 16, 20}, layouts[0], Norm::backward, 1004 + budget, budget);
  }
}

TEST(DistributedReal, ARoundTripGivesTheInputBack) {
  const int rank = world_rank(), ranks = world_size();
  for (const Layout& layout : layouts)
    for (const Shape shape : {Shape{6, 9, 5}, Shape{4, 6, 10}}) {
      const Shape h = half_spectrum_shape(shape);
      const Box3 real_box = layout.in(shape, rank, ranks);
      const Box3 spectrum_box = layout.out(h, rank, ranks);
      const std::vector<long double> x = test::random_real_signal(shape.elements(), 77);
      const std::vector<double> in = cut(std::vector<double>(x.begin(), x.end()), shape, real_box);
      const DistributedRealPlan plan(MPI_COMM_WORLD, shape, real_box, spectrum_box, Precision::double_precision,
                                     host_options(Norm::ortho));
      std::vector<std::complex<double>> spectrum(spectrum_box.count());
      std::vector<double> back(real_box.count(), std::numeric_limits<double>::quiet_NaN());
      plan.forward(in.data(), spectrum.data());
      plan.inverse(spectrum.data(), back.data());
      EXPECT_LE(global_relative_l2(back, in), test::tolerance<double>(6.0, shape.elements()))
          << layout.name << ", " << shape.to_string();
    }
}

// Rank 0 alone reports the whole job: three steps each way.
TEST(DistributedReal, RankZeroReportsThreeStepsEachWay) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{6, 5, 8};
  std::vector<Progress> seen;
  Options options = host_options(Norm::backward);
  options.progress = [&](const Progress& p) { seen.push_back(p); };
  const Box3 real_box = z_slab(shape, rank, ranks), spectrum_box = y_slab(half_spectrum_shape(shape), rank, ranks);
  const DistributedRealPlan plan(MPI_COMM_WORLD, shape, real_box, spectrum_box, Precision::single, options);
  std::vector<float> real(real_box.count(), 1.0f);
  std::vector<std::complex<float>> spectrum(spectrum_box.count());
  plan.forward(real.data(), spectrum.data());
  plan.inverse(spectrum.data(), real.data());
  if (rank != 0) {
    EXPECT_TRUE(seen.empty());
    return;
  }
  ASSERT_EQ(seen.size(), 6u);
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].bricks_done, i % 3 + 1);
    EXPECT_EQ(seen[i].bricks_total, 3u);
  }
}

TEST(DistributedRealReport, DescribesTheStepsAndTheExchanges) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{4, 4, 6};
  const Shape h = half_spectrum_shape(shape);
  const DistributedRealPlan plan(MPI_COMM_WORLD, shape, z_slab(shape, rank, ranks), y_slab(h, rank, ranks),
                                 Precision::single, host_options(Norm::backward));
  EXPECT_EQ(plan.shape(), shape);
  EXPECT_EQ(plan.spectrum_shape(), h);
  const std::string d = plan.describe();
  EXPECT_NE(d.find("real boxes -> real z-slabs"), std::string::npos) << d;
  EXPECT_NE(d.find("half spectrum " + h.to_string()), std::string::npos) << d;
  EXPECT_NE(d.find("rank " + std::to_string(rank) + " of " + std::to_string(ranks)), std::string::npos) << d;
  // What crosses a network: nothing, all ranks of a test share one machine.
  EXPECT_NE(d.find("network: one node"), std::string::npos) << d;
  // Between ranks of the node, the real values and the half spectrum move
  // through its shared segments (one rank: nothing moves).
  const std::string route = ranks == 1 ? "exchanges: none: one rank"
                                       : "exchanges: points for the " + std::to_string(ranks - 1) +
                                             " other rank(s) of this node through shared segments";
  EXPECT_NE(d.find(route), std::string::npos) << d;
  // Spectrum z-slabs: the pencil rounds, no transpose.
  const DistributedRealPlan rounds(MPI_COMM_WORLD, shape, z_slab(shape, rank, ranks), z_slab(h, rank, ranks),
                                   Precision::double_precision, host_options(Norm::backward));
  EXPECT_NE(rounds.describe().find("round(s) of y rows"), std::string::npos) << rounds.describe();
  EXPECT_EQ(rounds.describe().find("z-slabs -> y-slabs"), std::string::npos) << rounds.describe();
}

TEST(DistributedRealErrors, OverlappingRealBoxesAreRefusedOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{8, 6, 5};
  Box3 real_box = z_slab(shape, rank, ranks);
  if (rank == ranks - 1) real_box.low[0] -= 1;  // overlaps its neighbour, or (one rank) leaves the shape
  const Caught c = catch_error([&] {
    DistributedRealPlan(MPI_COMM_WORLD, shape, real_box, z_slab(half_spectrum_shape(shape), rank, ranks),
                        Precision::single, host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, ranks == 1 ? "outside" : "the real boxes of ranks");
}

// A common slip: spectrum boxes cut from the real shape, whose x reaches
// beyond nx/2.
TEST(DistributedRealErrors, SpectrumBoxesOfTheRealShapeAreRefusedOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{4, 6, 8};
  const Caught c = catch_error([&] {
    DistributedRealPlan(MPI_COMM_WORLD, shape, z_slab(shape, rank, ranks), y_slab(shape, rank, ranks),
                        Precision::double_precision, host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "rank 0's spectrum box");
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "lies outside of the shape 4 x 6 x 5");
}

TEST(DistributedRealErrors, GapsInTheSpectrumBoxesAreRefusedOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{5, 6, 7};
  Box3 spectrum_box = y_slab(half_spectrum_shape(shape), rank, ranks);
  if (rank == 0) spectrum_box.high[2] -= 1;  // rank 0 leaves out its last x column
  const Caught c = catch_error([&] {
    DistributedRealPlan(MPI_COMM_WORLD, shape, x_slab(shape, rank, ranks), spectrum_box, Precision::single,
                        host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "the spectrum boxes leave");
}

TEST(DistributedRealErrors, ADifferentShapeOnOneRankIsRefusedOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  if (ranks == 1) GTEST_SKIP() << "needs two ranks";
  const Shape shape{4, 4, 6};
  const Shape mine = rank == 1 ? Shape{4, 4, 7} : shape;  // the same half spectrum, another real nx
  const Caught c = catch_error([&] {
    DistributedRealPlan(MPI_COMM_WORLD, mine, z_slab(shape, rank, ranks), z_slab(half_spectrum_shape(shape), rank, ranks),
                        Precision::single, host_options(Norm::backward));
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "rank 1 passes another shape");
}

TEST(DistributedRealErrors, ANullArrayOnOneRankFailsEveryRankBeforeDataMoves) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{5, 4, 6};
  const Box3 real_box = z_slab(shape, rank, ranks), spectrum_box = y_slab(half_spectrum_shape(shape), rank, ranks);
  const DistributedRealPlan plan(MPI_COMM_WORLD, shape, real_box, spectrum_box, Precision::single,
                                 host_options(Norm::backward));
  std::vector<float> real(real_box.count(), 1.0f);
  std::vector<std::complex<float>> spectrum(spectrum_box.count(), {7.0f, 7.0f});
  const int failing = ranks - 1;
  Caught c = catch_error([&] { plan.forward(rank == failing ? nullptr : real.data(), spectrum.data()); });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument,
                               "DistributedRealPlan::forward: rank " + std::to_string(failing) + ": null real array");
  for (const auto& v : spectrum) ASSERT_EQ(v, std::complex<float>(7.0f, 7.0f)) << "an output was written";
  c = catch_error([&] { plan.inverse(rank == failing ? nullptr : spectrum.data(), real.data()); });
  // A rank's spectrum box may be empty (ny < ranks): then null is allowed
  // and nothing fails.
  if (!y_slab(half_spectrum_shape(shape), failing, ranks).empty())
    expect_same_error_everywhere(c, ErrorKind::invalid_argument, "null spectrum array");
  for (const float v : real) ASSERT_EQ(v, 1.0f) << "an output was written";
  // The plan runs again afterwards: nobody was left in an exchange.
  plan.forward(real.data(), spectrum.data());
  if (rank == 0 && !spectrum.empty())
    EXPECT_FLOAT_EQ(spectrum[0].real(), static_cast<float>(shape.elements()));  // the sum of the ones
}

TEST(DistributedRealErrors, InPlaceIsRefusedByNameOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{4, 3, 6};
  const Box3 real_box = z_slab(shape, rank, ranks), spectrum_box = z_slab(half_spectrum_shape(shape), rank, ranks);
  const DistributedRealPlan plan(MPI_COMM_WORLD, shape, real_box, spectrum_box, Precision::double_precision,
                                 host_options(Norm::backward));
  // FFTW's padded layout: the spectrum over the real values. Rank 0 only;
  // the others pass arrays apart, and fail with it.
  std::vector<std::complex<double>> padded(spectrum_box.count() + 1);
  std::vector<double> apart(real_box.count());
  const double* real = rank == 0 ? reinterpret_cast<const double*>(padded.data()) : apart.data();
  const Caught c = catch_error([&] { plan.forward(real, padded.data()); });
  if (real_box.empty()) GTEST_SKIP() << "rank 0 holds no planes";
  expect_same_error_everywhere(c, ErrorKind::unsupported, "out of place only");
}

TEST(DistributedRealErrors, ACancelOnOneRankEndsTheRunOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  for (const Shape shape : {Shape{8, 5, 6}, Shape{2, 6, 5}}) {
    const Shape h = half_spectrum_shape(shape);
    Options options = host_options(Norm::backward);
    if (rank == ranks - 1) options.cancel = [] { return true; };
    const DistributedRealPlan plan(MPI_COMM_WORLD, shape, y_slab(shape, rank, ranks), y_slab(h, rank, ranks),
                                   Precision::double_precision, options);
    std::vector<double> real(y_slab(shape, rank, ranks).count(), 1.0);
    std::vector<std::complex<double>> spectrum(y_slab(h, rank, ranks).count());
    expect_same_error_everywhere(catch_error([&] { plan.forward(real.data(), spectrum.data()); }),
                                 ErrorKind::cancelled, "");
    expect_same_error_everywhere(catch_error([&] { plan.inverse(spectrum.data(), real.data()); }),
                                 ErrorKind::cancelled, "");
  }
}

TEST(DistributedRealErrors, TheWrongPrecisionIsRefusedOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{4, 3, 2};
  const DistributedRealPlan plan(MPI_COMM_WORLD, shape, z_slab(shape, rank, ranks),
                                 z_slab(half_spectrum_shape(shape), rank, ranks), Precision::double_precision,
                                 host_options(Norm::backward));
  std::vector<float> real(z_slab(shape, rank, ranks).count());
  std::vector<std::complex<float>> spectrum(z_slab(half_spectrum_shape(shape), rank, ranks).count());
  const Caught c = catch_error([&] { plan.forward(real.data(), spectrum.data()); });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "a double plan called with single arrays");
}

// One rank's options that its local transforms refuse: every rank fails
// with that rank's Error, when the plan is made.
TEST(DistributedRealErrors, BadOptionsOnOneRankAreRefusedOnEveryRank) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{4, 5, 6};
  Options options = host_options(Norm::backward);
  if (rank == ranks - 1) options.strategy = static_cast<Strategy>(99);
  const Caught c = catch_error([&] {
    DistributedRealPlan(MPI_COMM_WORLD, shape, z_slab(shape, rank, ranks),
                        y_slab(half_spectrum_shape(shape), rank, ranks), Precision::single, options);
  });
  expect_same_error_everywhere(c, ErrorKind::invalid_argument, "options.strategy is 99");
}

TEST(DistributedRealErrors, ShiftIsUnsupported) {
  const int rank = world_rank(), ranks = world_size();
  const Shape shape{4, 3, 2};
  Options options = host_options(Norm::backward);
  options.shift = true;
  const Caught c = catch_error([&] {
    DistributedRealPlan(MPI_COMM_WORLD, shape, z_slab(shape, rank, ranks),
                        z_slab(half_spectrum_shape(shape), rank, ranks), Precision::single, options);
  });
  expect_same_error_everywhere(c, ErrorKind::unsupported, "shift");
}

}  // namespace
}  // namespace oocfft
