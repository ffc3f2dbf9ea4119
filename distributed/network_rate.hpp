#pragma once
// What crosses the network in a distributed transform, and the floor that
// follows. A plan measures the rate once, when it is made: an MPI_Alltoall
// among its ranks, timed, in which each rank sends only a few megabytes to
// each other rank. The floor of a transform is then the bytes a rank sends
// to ranks of other nodes over that rate (describe()). Ranks of one node
// send nothing over a network: their exchanges are copies in the node's
// memory (node_window.hpp), and no rate is measured.
#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

namespace oocfft::distributed {

struct NetworkRate {
  int nodes = 1;                     // nodes among the ranks (MPI_COMM_TYPE_SHARED)
  std::vector<bool> on_other_node;   // per rank of the communicator: not on this rank's node
  double bytes_per_second = 0;       // a rank's sends to other nodes, measured; 0 with one node
  std::size_t probe_bytes_per_rank = 0;  // what each rank sent each other rank in the probe

  // "one node: ..." or the rate and the floor of `bytes` sent to other nodes.
  std::string describe_floor(std::size_t bytes) const;
};

// Collective over `comm`: counts the nodes and, where there are several,
// times three MPI_Alltoall calls of at most 4 MiB per pair (64 MiB per
// rank in all) and keeps the fastest, as seen by the slowest rank.
// `node`: the ranks of `comm` that share this rank's memory (tests pass
// their own groups); MPI_COMM_NULL: MPI_Comm_split_type(SHARED).
NetworkRate measure_network_rate(MPI_Comm comm, MPI_Comm node = MPI_COMM_NULL);

}  // namespace oocfft::distributed
