#include "distributed/node_segments.hpp"

#include "core/format_bytes.hpp"
#include "distributed/failure_agreement.hpp"
#include "oocfft/error.hpp"

namespace oocfft::distributed {

void NodeSegments::open(MPI_Comm comm, int ranks, std::size_t bytes) {
  window_.reset();
  if (ranks < 2 || bytes == 0) {
    note_ = ranks < 2 ? "none: one rank" : "no segments: no exchange between ranks needs them (see the steps)";
    return;
  }
  try {
    agree_on(comm, [&] { window_.emplace(comm, bytes); });
    note_ = "points for the " + std::to_string(window_->node_size() - 1) +
            " other rank(s) of this node through shared segments of " + format_bytes(double(bytes)) +
            " a rank (MPI_Win_allocate_shared, copies on the rank's threads), where the steps do not copy "
            "straight between shared arrays" +
            (window_->holds_every_rank() ? "" : "; for the others MPI_Alltoallv");
  } catch (const Error& e) {
    window_.reset();
    note_ = std::string("every exchange through MPI_Alltoallv: no shared segments (") + e.what() + ")";
  }
}

}  // namespace oocfft::distributed
