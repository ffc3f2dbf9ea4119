#pragma once
// Which GPU a rank's local transforms run on. Several ranks of one node
// share its GPUs, and the default Options::devices (the calling thread's
// current device) would put them all on device 0. So when the caller left
// Options::devices at its default and the backend resolves to CUDA, rank
// k of a node (its rank among the ranks that share the node's memory,
// MPI_Comm_split_type with MPI_COMM_TYPE_SHARED) takes device k modulo the
// devices the process sees: one rank per GPU when a node runs as many
// ranks as it has GPUs, as mpirun -np 4 on a four-GPU node does. A list
// of devices the caller named, and the host backend, are kept as given.
#include <mpi.h>

#include <string>

#include "oocfft/options.hpp"

namespace oocfft::distributed {

// This rank's rank among the ranks of `comm` on its node, and how many
// ranks of `comm` share that node (collective).
int node_local_rank(MPI_Comm comm);
int node_size(MPI_Comm comm);

// The options of a rank's local transforms, and the line describe() shows.
struct RankDevice {
  Options options;
  std::string note;
  bool uses_cuda = false;  // the backend resolves to CUDA: buffers worth page-locking
};

// `options` with the rank's device chosen as above: `uses_cuda` says the
// backend resolves to CUDA, `visible_devices` how many the process sees.
RankDevice rank_device(const Options& options, int local_rank, bool uses_cuda, int visible_devices);

// Collective over `comm`: the options of this rank's local transforms
// (rank_device above, from its node-local rank, the backend `options`
// resolve to and the devices this process sees), and its local plans'
// progress left empty: a distributed plan reports the whole job's steps
// instead, never one rank's bricks. A failure on any rank is every rank's.
RankDevice local_transform_options(MPI_Comm comm, const Options& options);

}  // namespace oocfft::distributed
