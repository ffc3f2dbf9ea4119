// measure_network_rate (distributed/network_rate.hpp): the nodes among
// the ranks, and the rate and floor describe() gives. All ranks of a test
// run share one machine, so "two nodes" are the even and the odd ranks,
// passed as the groups that share memory. Run under mpiexec with 1 to 4
// ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include "distributed/network_rate.hpp"
#include "tests/mpi_test_support.hpp"

namespace oocfft {
namespace {

TEST(NetworkRate, OneNodeSendsNothingOverANetwork) {
  const distributed::NetworkRate rate = distributed::measure_network_rate(MPI_COMM_WORLD);
  EXPECT_EQ(rate.nodes, 1);
  EXPECT_EQ(rate.bytes_per_second, 0.0);
  ASSERT_EQ(rate.on_other_node.size(), static_cast<std::size_t>(test::world_size()));
  for (const bool other : rate.on_other_node) EXPECT_FALSE(other);
  EXPECT_NE(rate.describe_floor(0).find("one node"), std::string::npos) << rate.describe_floor(0);
}

TEST(NetworkRate, TwoNodesAreTimedAndGiveAFloor) {
  const int ranks = test::world_size(), rank = test::world_rank();
  if (ranks < 2) GTEST_SKIP() << "two nodes need two ranks";
  const test::ParityGroup parity;
  const distributed::NetworkRate rate = distributed::measure_network_rate(MPI_COMM_WORLD, parity.get());
  EXPECT_EQ(rate.nodes, 2);
  for (int r = 0; r < ranks; ++r)
    EXPECT_EQ(rate.on_other_node[static_cast<std::size_t>(r)], r % 2 != rank % 2) << "rank " << r;
  EXPECT_GT(rate.bytes_per_second, 0.0);
  EXPECT_GT(rate.probe_bytes_per_rank, 0u);
  // Every rank holds the slowest rank's rate: one floor on every rank.
  double lowest = rate.bytes_per_second, highest = rate.bytes_per_second;
  MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &highest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(lowest, highest);
  const std::string floor = rate.describe_floor(std::size_t{1} << 30);
  EXPECT_NE(floor.find("2 nodes"), std::string::npos) << floor;
  EXPECT_NE(floor.find("floor"), std::string::npos) << floor;
}

}  // namespace
}  // namespace oocfft
