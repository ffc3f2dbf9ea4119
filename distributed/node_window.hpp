#pragma once
// NodeWindow: one shared-memory segment per rank of a node (MPI-3's
// MPI_Win_allocate_shared over the ranks that share the node's memory),
// through which BoxExchange moves the points bound for a rank of the same
// node. The sender packs them into its own segment; after one barrier the
// receiver copies its part straight out of the sender's segment into its
// array. Both copies run on all the rank's threads.
//
// Why not MPI_Alltoallv for these too: the MPI library's shared-memory
// transport (OpenMPI's vader) copies each message on one thread, through
// its own buffers, far below what a node's memory can copy (the measured
// rates are in bench/RESULTS.md, "Beyond one node"); the exchanges took
// most of a large transform. Points bound for other nodes still go
// through MPI_Alltoallv.
//
// The window is held in a passive-target epoch for its whole life
// (MPI_Win_lock_all), and synchronise() is the separate-memory-model-safe
// pattern for direct loads and stores (MPI_Win_sync, a barrier of the
// node, MPI_Win_sync): MPI 3.1, section 11.5.5, example 11.21.
#include <mpi.h>

#include <cstddef>
#include <vector>

namespace oocfft::distributed {

class NodeWindow {
 public:
  // Collective over `comm`. Each rank gets a segment of `segment_bytes`.
  // `node`: the ranks of `comm` that share this rank's memory (tests pass
  // their own groups); MPI_COMM_NULL splits `comm` by
  // MPI_COMM_TYPE_SHARED. Throws Error(out_of_memory) when /dev/shm, where
  // the MPI library maps the segments, has too little room for the node's
  // segments, and Error(io) when MPI cannot allocate them.
  NodeWindow(MPI_Comm comm, std::size_t segment_bytes, MPI_Comm node = MPI_COMM_NULL);
  ~NodeWindow();
  NodeWindow(const NodeWindow&) = delete;
  NodeWindow& operator=(const NodeWindow&) = delete;

  // Whether rank `rank` of `comm` is on this rank's node (itself too).
  bool shares_memory_with(int rank) const { return node_rank_[static_cast<std::size_t>(rank)] >= 0; }
  // Whether every rank of `comm` is on this node: no point needs MPI.
  bool holds_every_rank() const { return node_size_ == static_cast<int>(node_rank_.size()); }
  // The segment of rank `rank` of `comm`, which must share this rank's memory.
  std::byte* segment(int rank) const { return bases_[static_cast<std::size_t>(node_rank_[static_cast<std::size_t>(rank)])]; }
  std::size_t segment_bytes() const { return segment_bytes_; }
  int node_size() const { return node_size_; }

  // Collective over the node: what any rank of the node stored in any
  // segment before it is seen by every rank of the node after it, and no
  // rank passes it before all have reached it.
  void synchronise() const;

 private:
  MPI_Comm node_ = MPI_COMM_NULL;  // owned: a split or a duplicate of the caller's
  MPI_Win window_ = MPI_WIN_NULL;
  std::size_t segment_bytes_ = 0;
  int node_size_ = 0;
  std::vector<int> node_rank_;      // per rank of comm: its rank on this node, or -1
  std::vector<std::byte*> bases_;  // per rank of the node: its segment here
};

}  // namespace oocfft::distributed
