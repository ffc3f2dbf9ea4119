#include "distributed/network_rate.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "core/format_bytes.hpp"
#include "distributed/mpi_communicator.hpp"
#include "distributed/uninitialised_buffer.hpp"

namespace oocfft::distributed {

NetworkRate measure_network_rate(MPI_Comm comm, MPI_Comm given_node) {
  NetworkRate rate;
  int ranks = 0, rank = 0;
  MPI_Comm_size(comm, &ranks);
  MPI_Comm_rank(comm, &rank);
  // A node's name: the rank of its first rank in `comm`.
  MPI_Comm node;
  if (given_node == MPI_COMM_NULL)
    check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  else
    check_mpi(MPI_Comm_dup(given_node, &node), "MPI_Comm_dup");
  int node_name = rank;
  const int named = MPI_Bcast(&node_name, 1, MPI_INT, 0, node);
  MPI_Comm_free(&node);
  check_mpi(named, "MPI_Bcast");
  std::vector<int> names(static_cast<std::size_t>(ranks));
  check_mpi(MPI_Allgather(&node_name, 1, MPI_INT, names.data(), 1, MPI_INT, comm), "MPI_Allgather");
  rate.nodes = 0;
  for (int r = 0; r < ranks; ++r) {
    rate.on_other_node.push_back(names[static_cast<std::size_t>(r)] != node_name);
    if (names[static_cast<std::size_t>(r)] == r) ++rate.nodes;
  }
  if (rate.nodes < 2) return rate;

  const std::size_t pair = std::max<std::size_t>(std::min<std::size_t>(std::size_t{4} << 20, (std::size_t{64} << 20) / ranks), 1);
  rate.probe_bytes_per_rank = pair;
  UninitialisedBuffer<char> send(pair * ranks), receive(pair * ranks);
  std::fill(send.data(), send.data() + pair * ranks, char(rank));  // touched: no page faults in the timing
  std::fill(receive.data(), receive.data() + pair * ranks, 0);
  const std::size_t remote = pair * static_cast<std::size_t>(std::count(rate.on_other_node.begin(), rate.on_other_node.end(), true));
  double best = 0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    check_mpi(MPI_Barrier(comm), "MPI_Barrier");
    const double start = MPI_Wtime();
    check_mpi(MPI_Alltoall(send.data(), static_cast<int>(pair), MPI_BYTE, receive.data(), static_cast<int>(pair),
                           MPI_BYTE, comm),
              "MPI_Alltoall");
    double seconds = MPI_Wtime() - start;
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
    if (seconds > 0) best = std::max(best, double(remote) / seconds);
  }
  // The slowest rank's view on every rank: the same floor everywhere.
  check_mpi(MPI_Allreduce(&best, &rate.bytes_per_second, 1, MPI_DOUBLE, MPI_MIN, comm), "MPI_Allreduce");
  return rate;
}

std::string NetworkRate::describe_floor(std::size_t bytes) const {
  if (nodes < 2)
    return "one node: nothing crosses a network";
  char text[256];
  std::snprintf(text, sizeof text, "%d nodes: %s from this rank to other nodes a transform; at %.2f GB/s a rank "
                "(MPI_Alltoall of %s a pair, measured when the plan was made) the exchanges' floor is %.3f s",
                nodes, format_bytes(double(bytes)).c_str(), bytes_per_second / 1e9,
                format_bytes(double(probe_bytes_per_rank)).c_str(),
                bytes_per_second > 0 ? double(bytes) / bytes_per_second : 0.0);
  return text;
}

}  // namespace oocfft::distributed
