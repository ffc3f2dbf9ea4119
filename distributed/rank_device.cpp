#include "distributed/rank_device.hpp"

#include "distributed/failure_agreement.hpp"
#include "distributed/mpi_communicator.hpp"
#include "oocfft/plan.hpp"

namespace oocfft::distributed {
namespace {

// The node's communicator, freed on every path.
class NodeCommunicator {
 public:
  explicit NodeCommunicator(MPI_Comm comm) {
    check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node_), "MPI_Comm_split_type");
  }
  ~NodeCommunicator() {
    if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
  }
  NodeCommunicator(const NodeCommunicator&) = delete;
  NodeCommunicator& operator=(const NodeCommunicator&) = delete;
  MPI_Comm get() const { return node_; }

 private:
  MPI_Comm node_ = MPI_COMM_NULL;
};

}  // namespace

int node_local_rank(MPI_Comm comm) {
  const NodeCommunicator node(comm);
  int rank = 0;
  check_mpi(MPI_Comm_rank(node.get(), &rank), "MPI_Comm_rank");
  return rank;
}

int node_size(MPI_Comm comm) {
  const NodeCommunicator node(comm);
  int size = 0;
  check_mpi(MPI_Comm_size(node.get(), &size), "MPI_Comm_size");
  return size;
}

RankDevice rank_device(const Options& options, int local_rank, bool uses_cuda, int visible_devices) {
  const std::string of_node = "node-local rank " + std::to_string(local_rank);
  if (!uses_cuda) return {options, "the host backend (" + of_node + ")"};
  if (options.devices != Devices{})
    return {options, "CUDA devices as given, " + options.devices.to_string() + " (" + of_node + ")"};
  if (visible_devices < 1)  // the plan's own error will name why CUDA is not usable
    return {options, "the current CUDA device (" + of_node + ", no device visible)"};
  const int device = local_rank % visible_devices;
  RankDevice chosen{options, "CUDA device " + std::to_string(device) + " (" + of_node + " modulo " +
                                 std::to_string(visible_devices) + " visible devices)"};
  chosen.options.devices = Devices::list({device});
  return chosen;
}

RankDevice local_transform_options(MPI_Comm comm, const Options& options) {
  int local_rank = 0;
  agree_on(comm, [&] { local_rank = node_local_rank(comm); });
  const bool uses_cuda =
      options.backend == Backend::cuda || (options.backend == Backend::automatic && cuda_available());
  RankDevice device = rank_device(options, local_rank, uses_cuda, cuda_device_count());
  device.options.progress = nullptr;
  device.uses_cuda = uses_cuda;
  return device;
}

}  // namespace oocfft::distributed
