// The device each rank of a distributed plan takes by default
// (distributed/rank_device.hpp), run under mpiexec with the other
// distributed suites. The choice itself is a function of the node-local
// rank and the visible device count, so it is tested here without a GPU;
// ctest starts every rank on one host, where the node-local rank is the
// world rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include "distributed/rank_device.hpp"
#include "oocfft/distributed.hpp"

namespace oocfft {
namespace {

int world(int (*query)(MPI_Comm, int*)) {
  int v = 0;
  query(MPI_COMM_WORLD, &v);
  return v;
}

TEST(RankDevice, TheNodeLocalRankIsTheWorldRankOnOneHost) {
  EXPECT_EQ(distributed::node_local_rank(MPI_COMM_WORLD), world(MPI_Comm_rank));
}

TEST(RankDevice, EachRankOfANodeTakesItsOwnDeviceModuloTheVisibleOnes) {
  for (int local = 0; local < 9; ++local) {
    const distributed::RankDevice chosen = distributed::rank_device(Options{}, local, true, 4);
    EXPECT_EQ(chosen.options.devices, Devices::list({local % 4})) << "node-local rank " << local;
    EXPECT_NE(chosen.note.find("CUDA device " + std::to_string(local % 4)), std::string::npos) << chosen.note;
  }
}

TEST(RankDevice, NamedDevicesTheHostBackendAndNoVisibleDeviceAreKeptAsGiven) {
  Options named;
  named.devices = Devices::list({3});
  EXPECT_EQ(distributed::rank_device(named, 1, true, 4).options.devices, Devices::list({3}));
  EXPECT_EQ(distributed::rank_device(Options{}, 2, false, 4).options.devices, Devices{});
  EXPECT_NE(distributed::rank_device(Options{}, 2, false, 4).note.find("host backend"), std::string::npos);
  EXPECT_EQ(distributed::rank_device(Options{}, 2, true, 0).options.devices, Devices{});
}

TEST(RankDevice, DescribeNamesTheDeviceOfEachRank) {
  Options host;
  host.backend = Backend::host;
  host.threads = 1;
  const Shape shape{4, 3, 2};
  const Box3 box = slab_box(shape, 0, world(MPI_Comm_rank), world(MPI_Comm_size));
  const DistributedPlan plan(MPI_COMM_WORLD, shape, box, box, Precision::single, host);
  EXPECT_NE(plan.describe().find("device of step 2: the host backend (node-local rank " +
                                 std::to_string(world(MPI_Comm_rank)) + ")"),
            std::string::npos)
      << plan.describe();
}

}  // namespace
}  // namespace oocfft
