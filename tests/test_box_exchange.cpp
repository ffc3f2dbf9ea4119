// BoxExchange (distributed/box_exchange.hpp) in many rounds: rounds so
// small that each carries a row or two of every shared block, so the
// split of blocks into rounds, the counts and displacements of each round
// and the points a rank keeps are all exercised at sizes CI can run. Each
// point carries its global index, and the receiving arrays are poisoned
// with NaN first, so a point lost, doubled or misplaced fails.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "distributed/box_exchange.hpp"
#include "distributed/box_partition.hpp"
#include "distributed/node_window.hpp"
#include "oocfft/error.hpp"
#include "tests/mpi_test_support.hpp"

namespace oocfft {
namespace {

using c64 = std::complex<float>;

int world(int (*query)(MPI_Comm, int*)) {
  int v = 0;
  query(MPI_COMM_WORLD, &v);
  return v;
}

// x-slabs, uneven: the last rank takes the rest (empty on ranks beyond nx).
std::vector<Box3> x_slabs(Shape s, int ranks) {
  std::vector<Box3> boxes;
  const auto nx = static_cast<std::int64_t>(s.nx);
  const std::int64_t share = (nx + ranks - 1) / ranks;
  for (int r = 0; r < ranks; ++r) {
    Box3 b = whole_box(s);
    b.low[2] = std::min<std::int64_t>(r * share, nx);
    b.high[2] = r == ranks - 1 ? nx - 1 : std::min<std::int64_t>((r + 1) * share, nx) - 1;
    boxes.push_back(b);
  }
  return boxes;
}

// The point of global index g: (g, -g) as a complex value, g as a real
// one (a real transform's real side).
template <class V>
V value_of(float g) {
  if constexpr (std::is_same_v<V, c64>)
    return {g, -g};
  else
    return static_cast<V>(g);
}

// The points of `box`, each its global index (exact in float here).
template <class V = c64>
std::vector<V> indices_of(const Box3& box, Shape s) {
  std::vector<V> v;
  if (box.empty()) return v;
  for (auto z = box.low[0]; z <= box.high[0]; ++z)
    for (auto y = box.low[1]; y <= box.high[1]; ++y)
      for (auto x = box.low[2]; x <= box.high[2]; ++x) {
        const auto g = static_cast<float>((static_cast<std::size_t>(z) * s.ny + static_cast<std::size_t>(y)) * s.nx +
                                          static_cast<std::size_t>(x));
        v.push_back(value_of<V>(g));
      }
  return v;
}

// How the points for other ranks travel: all through MPI_Alltoallv; all
// through one node's shared segments (every rank of the test shares its
// memory); or as on several nodes, the even and the odd ranks each a
// "node" of their own, so that some points take the segments and the rest
// MPI in the same rounds.
enum class Route { mpi, one_node, two_nodes };

// Checks the exchange of values of type V; returns its rounds.
template <class V = c64>
std::size_t check_exchange(Shape shape, const std::vector<Box3>& from, const std::vector<Box3>& to,
                           std::size_t round_bytes, const char* what, Route route = Route::mpi) {
  const int rank = world(MPI_Comm_rank);
  const distributed::BoxExchange exchange(from, to, rank, sizeof(V), round_bytes);
  std::optional<test::ParityGroup> parity;
  std::optional<distributed::NodeWindow> node;
  if (route == Route::two_nodes) parity.emplace();
  if (route != Route::mpi)
    node.emplace(MPI_COMM_WORLD, exchange.round_bound_bytes(), parity ? parity->get() : MPI_COMM_NULL);
  const std::vector<V> in = indices_of<V>(from[static_cast<std::size_t>(rank)], shape);
  std::vector<V> out(to[static_cast<std::size_t>(rank)].count(), value_of<V>(std::numeric_limits<float>::quiet_NaN()));
  exchange.run(MPI_COMM_WORLD, distributed::mpi_datatype<V>(), in.data(), out.data(), node ? &*node : nullptr);
  const std::vector<V> want = indices_of<V>(to[static_cast<std::size_t>(rank)], shape);
  int wrong = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(out[i] == want[i])) ++wrong;
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(wrong, 0) << what << ", " << shape.to_string() << ", rounds " << exchange.rounds() << ", route "
                      << static_cast<int>(route);
  EXPECT_LE(exchange.round_bound_bytes(), round_bytes) << what;
  // No round carries more than its budget.
  EXPECT_GE(exchange.rounds() * round_bytes, exchange.sent_to_others() * sizeof(V)) << what;
  EXPECT_GE(exchange.rounds() * round_bytes, exchange.received_from_others() * sizeof(V)) << what;
  return exchange.rounds();
}

TEST(BoxExchange, ManySmallRoundsMoveEveryPointOnce) {
  const int ranks = world(MPI_Comm_size);
  std::size_t most_rounds = 0;
  for (const Shape shape : {Shape{9, 7, 5}, Shape{4, 13, 6}, Shape{1, 3, 11}}) {
    // Room for one row per peer and a few points more: many rounds.
    const std::size_t round = (static_cast<std::size_t>(ranks) + 1) * shape.nx * sizeof(c64) + 3 * sizeof(c64);
    const auto z = distributed::slab_boxes(shape, 0, ranks), y = distributed::slab_boxes(shape, 1, ranks);
    const auto x = x_slabs(shape, ranks);
    most_rounds = std::max({most_rounds, check_exchange(shape, z, y, round, "z-slabs to y-slabs"),
                            check_exchange(shape, y, z, round, "y-slabs to z-slabs"),
                            check_exchange(shape, x, z, round, "x-slabs to z-slabs"),
                            check_exchange(shape, y, x, round, "y-slabs to x-slabs")});
    EXPECT_EQ(check_exchange(shape, z, z, round, "z-slabs kept"), 0u) << "a rank's own points never enter MPI";
  }
  if (ranks > 1) EXPECT_GE(most_rounds, 3u) << "the rounds are too large to test their split";
}

TEST(BoxExchange, PointsForRanksOfTheNodeMoveThroughItsSegments) {
  const int ranks = world(MPI_Comm_size);
  for (const Route route : {Route::one_node, Route::two_nodes})
    for (const Shape shape : {Shape{9, 7, 5}, Shape{4, 13, 6}, Shape{1, 3, 11}}) {
      const std::size_t round = (static_cast<std::size_t>(ranks) + 1) * shape.nx * sizeof(c64) + 3 * sizeof(c64);
      const auto z = distributed::slab_boxes(shape, 0, ranks), y = distributed::slab_boxes(shape, 1, ranks);
      const auto x = x_slabs(shape, ranks);
      check_exchange(shape, z, y, round, "z-slabs to y-slabs", route);
      check_exchange(shape, y, z, round, "y-slabs to z-slabs", route);
      check_exchange(shape, x, z, round, "x-slabs to z-slabs", route);
      check_exchange(shape, y, x, 1 << 20, "y-slabs to x-slabs, one round", route);
    }
}

TEST(NodeWindow, SegmentsLargerThanTheSharedMemoryAreRefusedByName) {
  // 2^50 bytes a rank: no /dev/shm holds that; every rank of the node is
  // told so, before anything is mapped.
  try {
    const distributed::NodeWindow huge(MPI_COMM_WORLD, std::size_t{1} << 50);
    ADD_FAILURE() << "a window of 1 PiB a rank was allocated";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::out_of_memory) << e.what();
    EXPECT_NE(std::string(e.what()).find("/dev/shm"), std::string::npos) << e.what();
  }
  // The node is usable afterwards.
  const distributed::NodeWindow small(MPI_COMM_WORLD, 64);
  EXPECT_EQ(small.node_size(), world(MPI_Comm_size));
}

TEST(BoxExchange, AWindowTooSmallForARoundIsLeftForMpi) {
  const int ranks = world(MPI_Comm_size);
  if (ranks < 2) GTEST_SKIP() << "one rank sends nothing";
  const Shape shape{5, 6, 7};
  const auto z = distributed::slab_boxes(shape, 0, ranks), y = distributed::slab_boxes(shape, 1, ranks);
  const int rank = world(MPI_Comm_rank);
  const distributed::BoxExchange exchange(z, y, rank, sizeof(c64), 1 << 20);
  ASSERT_GT(exchange.round_bound_bytes(), sizeof(c64));
  const distributed::NodeWindow small(MPI_COMM_WORLD, exchange.round_bound_bytes() - sizeof(c64));
  const std::vector<c64> in = indices_of<c64>(z[static_cast<std::size_t>(rank)], shape);
  std::vector<c64> out(y[static_cast<std::size_t>(rank)].count(), {-1, -1});
  exchange.run(MPI_COMM_WORLD, MPI_C_FLOAT_COMPLEX, in.data(), out.data(), &small);
  EXPECT_EQ(out, indices_of<c64>(y[static_cast<std::size_t>(rank)], shape));
}

// A real transform's real side: float and double values, in rounds as
// small as above.
TEST(BoxExchange, RealValuesMoveInRoundsToo) {
  const int ranks = world(MPI_Comm_size);
  for (const Shape shape : {Shape{9, 7, 5}, Shape{4, 13, 6}}) {
    const auto z = distributed::slab_boxes(shape, 0, ranks), y = distributed::slab_boxes(shape, 1, ranks);
    const auto x = x_slabs(shape, ranks);
    const std::size_t rows = (static_cast<std::size_t>(ranks) + 1) * shape.nx;
    std::size_t rounds = check_exchange<float>(shape, x, z, rows * sizeof(float) + 3 * sizeof(float), "x to z, float");
    rounds += check_exchange<double>(shape, z, y, rows * sizeof(double) + 3 * sizeof(double), "z to y, double");
    rounds += check_exchange<double>(shape, z, x, rows * sizeof(double) + 3 * sizeof(double), "z to x, double");
    if (ranks > 1) EXPECT_GE(rounds, 3u) << "the rounds are too large to test their split";
  }
}

TEST(BoxExchange, RoundsTooSmallForARowAreRefused) {
  const int ranks = world(MPI_Comm_size);
  if (ranks < 2) GTEST_SKIP() << "one rank sends nothing";
  const Shape shape{4, 4, 64};
  const auto z = distributed::slab_boxes(shape, 0, ranks), y = distributed::slab_boxes(shape, 1, ranks);
  EXPECT_THROW(distributed::BoxExchange(z, y, world(MPI_Comm_rank), sizeof(c64), 64 * sizeof(c64)), Error);
}

}  // namespace
}  // namespace oocfft
