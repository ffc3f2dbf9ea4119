#pragma once
// NodeSegments: a distributed plan's node window (node_window.hpp) for its
// exchanges, opened once when the plan is made, or none, and the line of
// describe() that says which and why. Shared by the complex and the real
// plan, which route their exchanges between ranks of a node through it.
#include <mpi.h>

#include <cstddef>
#include <optional>
#include <string>

#include "distributed/node_window.hpp"

namespace oocfft::distributed {

class NodeSegments {
 public:
  // Collective over `comm`: segments of `bytes` a rank (the bound of one
  // round of the plan's largest exchange, the same on every rank), where
  // several ranks exchange anything. Where MPI cannot allocate them (or
  // /dev/shm is too small), every rank keeps none and the exchanges go
  // through MPI alone; note() says why. Never throws for that.
  void open(MPI_Comm comm, int ranks, std::size_t bytes);

  // The window for BoxExchange::run, or null.
  const NodeWindow* window() const { return window_ ? &*window_ : nullptr; }
  // "points for the 3 other rank(s) of this node through shared segments
  // of 64 MiB a rank ...", or why there are none.
  const std::string& note() const { return note_; }

 private:
  std::optional<NodeWindow> window_;
  std::string note_;
};

}  // namespace oocfft::distributed
