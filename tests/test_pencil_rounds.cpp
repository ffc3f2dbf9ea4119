// PencilRounds (distributed/pencil_rounds.hpp): the z lines of a volume
// held in z-slabs, in rounds of pencils that leave the slabs and come
// back, against a long-double DFT of every z line of the whole volume.
// Rounds as small as one row of y each (and the default: one round), odd
// shapes whose slabs and pencils are uneven or empty, both precisions and
// directions, rounds overlapped (mpi_test_main asks for
// MPI_THREAD_FUNNELED) and one at a time, with the node's shared segments
// and without. Run under mpiexec with 1 to 4 ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "distributed/node_window.hpp"
#include "distributed/pencil_rounds.hpp"
#include "oocfft/distributed.hpp"
#include "tests/mpi_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft {
namespace {

// The z-slab `box` of the global volume `v` (C order over the shape).
template <class T>
std::vector<std::complex<T>> slab_of(const std::vector<test::LongComplex>& v, Shape s, const Box3& box) {
  std::vector<std::complex<T>> out;
  if (box.empty()) return out;
  for (auto z = box.low[0]; z <= box.high[0]; ++z)
    for (std::size_t i = 0; i < s.ny * s.nx; ++i) {
      const test::LongComplex x = v[static_cast<std::size_t>(z) * s.ny * s.nx + i];
      out.emplace_back(static_cast<T>(x.real()), static_cast<T>(x.imag()));
    }
  return out;
}

// Every z line of `x` transformed and scaled, in long double.
std::vector<test::LongComplex> z_lines(const std::vector<test::LongComplex>& x, Shape s, int sign, long double scale) {
  std::vector<test::LongComplex> out(x.size()), line(s.nz);
  const std::size_t columns = s.ny * s.nx;
  for (std::size_t c = 0; c < columns; ++c) {
    for (std::size_t z = 0; z < s.nz; ++z) line[z] = x[c + z * columns];
    const auto f = test::naive_dft(line, sign);
    for (std::size_t z = 0; z < s.nz; ++z) out[c + z * columns] = f[z] * scale;
  }
  return out;
}

// How a test's rounds run. The plan's way is the default: overlapped, the
// pencils in the node's shared memory. The others: one round at a time;
// pencils in each rank's own memory, exchanged through MPI alone or
// through the node's segments; and pencils shared by the even and the odd
// ranks apart, as on two nodes (straight copies to the ranks of one's
// "node", MPI to the others, in the same exchange).
struct RoundsSetup {
  bool overlap = true;
  bool shared_pencils = true;
  bool node_window = false;  // segments for exchanges whose pencils are not shared
  bool two_nodes = false;
};


template <class T>
void check_rounds(Shape shape, std::size_t pencil_bytes, bool inverse, RoundsSetup setup = {}) {
  const int rank = test::world_rank(), ranks = test::world_size();
  const Precision precision = sizeof(T) == 4 ? Precision::single : Precision::double_precision;
  Options local;
  local.backend = Backend::host;
  local.threads = 1;
  distributed::PencilRounds rounds(shape, rank, ranks, precision, local,
                                   {.overlap = setup.overlap, .shared = setup.shared_pencils, .pencil_bytes = pencil_bytes});
  const test::ParityGroup parity;
  rounds.place_buffers(MPI_COMM_WORLD, setup.two_nodes ? parity.get() : MPI_COMM_NULL);
  if (ranks > 1) EXPECT_EQ(rounds.shares_pencils(), setup.shared_pencils);
  std::optional<distributed::NodeWindow> node;
  if (setup.node_window) node.emplace(MPI_COMM_WORLD, rounds.round_bound_bytes());
  const auto x = test::random_signal(shape.elements(), 77 + shape.elements());
  const Box3 slab = slab_box(shape, 0, rank, ranks);
  auto planes = slab_of<T>(x, shape, slab);
  const double scale = inverse ? 1.0 / double(shape.nz) : 1.0;
  rounds.run(MPI_COMM_WORLD, planes.data(), inverse, scale, node ? &*node : nullptr);
  const auto want = slab_of<double>(z_lines(x, shape, inverse ? +1 : -1, scale), shape, slab);
  double num = 0, den = 0;
  for (std::size_t i = 0; i < planes.size(); ++i) {
    num += std::norm(std::complex<double>(planes[i]) - want[i]);
    den += std::norm(want[i]);
  }
  const double err = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  EXPECT_LE(err, test::tolerance<T>(8.0, shape.nz))
      << shape.to_string() << ", pencils of " << pencil_bytes << " bytes a round (" << rounds.rounds()
      << " rounds), rank " << rank << " of " << ranks << (inverse ? ", inverse" : ", forward")
      << (setup.overlap ? ", overlapped" : ", one at a time") << (setup.shared_pencils ? ", shared pencils" : "")
      << (setup.node_window ? ", node window" : "") << (setup.two_nodes ? ", two nodes" : "");
}

TEST(PencilRounds, EveryRoundReturnsItsPencilsTransformed) {
  const Shape shapes[] = {{8, 8, 8}, {6, 11, 9}, {5, 7, 3}, {3, 2, 13}, {9, 1, 2}};
  for (const Shape& s : shapes)
    for (const bool inverse : {false, true}) {
      check_rounds<float>(s, 1, inverse);  // one row of y a round
      check_rounds<double>(s, 1, inverse);
      check_rounds<float>(s, distributed::PencilRounds::default_pencil_bytes, inverse);  // one round
      check_rounds<double>(s, 3 * s.nz * s.nx * 16, inverse);
      check_rounds<float>(s, 1, inverse, {.overlap = false});
      check_rounds<double>(s, 1, inverse, {.two_nodes = true});
      check_rounds<float>(s, 1, inverse, {.overlap = false, .two_nodes = true});
      check_rounds<float>(s, 1, inverse, {.shared_pencils = false});
      check_rounds<double>(s, 1, inverse, {.shared_pencils = false, .node_window = true});
      check_rounds<float>(s, 1, inverse, {.overlap = false, .shared_pencils = false, .node_window = true});
    }
}

TEST(PencilRounds, ZLinesThatFailInAnOverlappedRoundFailEveryRank) {
  const int rank = test::world_rank(), ranks = test::world_size();
  const Shape shape{6, 8, 5};
  Options local;
  local.backend = Backend::host;
  local.threads = 1;
  // Rank 0's z lines are cancelled from their second brick on: a round
  // past the first fails there, while the other ranks' exchanges go on.
  int polls = 0;
  if (rank == 0) local.cancel = [&polls] { return ++polls > 1; };
  distributed::PencilRounds rounds(shape, rank, ranks, Precision::single, local, {.pencil_bytes = 1});
  rounds.place_buffers(MPI_COMM_WORLD);
  ASSERT_GT(rounds.rounds(), 2u);
  auto planes = slab_of<float>(test::random_signal(shape.elements(), 5), shape, slab_box(shape, 0, rank, ranks));
  try {
    rounds.run(MPI_COMM_WORLD, planes.data(), false, 1.0);
    ADD_FAILURE() << "rank " << rank << ": no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::cancelled) << e.what();
    EXPECT_NE(std::string(e.what()).find("cancel"), std::string::npos) << e.what();
  }
}

TEST(PencilRounds, RoundsFollowThePencilBytesAndNeverExceedTheRows) {
  const int rank = test::world_rank(), ranks = test::world_size();
  Options local;
  local.backend = Backend::host;
  const Shape s{4, 10, 8};
  EXPECT_EQ(distributed::PencilRounds(s, rank, ranks, Precision::single, local, {.pencil_bytes = 1}).rounds(), 10u);
  EXPECT_EQ(
      distributed::PencilRounds(s, rank, ranks, Precision::single, local, {.pencil_bytes = std::size_t{1} << 30}).rounds(),
      1u);
  const std::size_t widest = (s.nx + ranks - 1) / ranks;
  const distributed::PencilRounds two(s, rank, ranks, Precision::single, local, {.pencil_bytes = s.nz * 5 * widest * 8});
  EXPECT_EQ(two.rounds(), 2u);
  EXPECT_LE(two.pencil_bytes(), s.nz * 5 * widest * 8);
}

}  // namespace
}  // namespace oocfft
