#include "distributed/box_exchange.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

#include "distributed/box_partition.hpp"
#include "distributed/mpi_communicator.hpp"
#include "oocfft/error.hpp"

namespace oocfft::distributed {
namespace {

int as_count(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw Error(ErrorKind::unsupported, std::string("an exchange's ") + what + " of " + std::to_string(n) +
                                            " elements exceeds MPI's int counts (2^31 - 1)");
  return static_cast<int>(n);
}

// Copies the x rows of `block` between the array of `box` (C order over
// its extents) and a packed array of `block` (C order over block's).
template <bool Pack, class Array, class Packed>
void copy_rows(const Box3& box, const Box3& block, Array* array, Packed* packed) {
  const Shape outer = box.extent();
  const Shape inner = block.extent();
  const std::size_t row_bytes = inner.nx * sizeof(Array);
  for (std::size_t z = 0; z < inner.nz; ++z)
    for (std::size_t y = 0; y < inner.ny; ++y) {
      const std::size_t oz = static_cast<std::size_t>(block.low[0] - box.low[0]) + z;
      const std::size_t oy = static_cast<std::size_t>(block.low[1] - box.low[1]) + y;
      const std::size_t ox = static_cast<std::size_t>(block.low[2] - box.low[2]);
      Array* in_array = array + (oz * outer.ny + oy) * outer.nx + ox;
      Packed* in_packed = packed + (z * inner.ny + y) * inner.nx;
      if constexpr (Pack)
        std::memcpy(in_packed, in_array, row_bytes);
      else
        std::memcpy(in_array, in_packed, row_bytes);
    }
}

}  // namespace

BoxExchange::BoxExchange(const std::vector<Box3>& from, const std::vector<Box3>& to, int rank)
    : from_box_(from[static_cast<std::size_t>(rank)]), to_box_(to[static_cast<std::size_t>(rank)]) {
  const std::size_t ranks = from.size();
  for (std::size_t r = 0; r < ranks; ++r) {
    send_blocks_.push_back(intersection(from_box_, to[r]));
    recv_blocks_.push_back(intersection(from[r], to_box_));
    const std::size_t sends = send_blocks_.back().count();
    const std::size_t receives = recv_blocks_.back().count();
    send_counts_.push_back(as_count(sends, "send count"));
    recv_counts_.push_back(as_count(receives, "receive count"));
    send_displs_.push_back(as_count(send_total_, "send displacement"));
    recv_displs_.push_back(as_count(recv_total_, "receive displacement"));
    send_total_ += sends;
    recv_total_ += receives;
    if (r != static_cast<std::size_t>(rank)) {
      sent_to_others_ += sends;
      received_from_others_ += receives;
    }
  }
  as_count(send_total_, "send buffer");
  as_count(recv_total_, "receive buffer");
}

template <class T>
void BoxExchange::run(MPI_Comm comm, MPI_Datatype type, const T* from, T* to) const {
  std::vector<T> send(send_total_);
  std::vector<T> receive(recv_total_);
  for (std::size_t r = 0; r < send_blocks_.size(); ++r)
    if (send_counts_[r] > 0)
      copy_rows<true>(from_box_, send_blocks_[r], from,
                         send.data() + static_cast<std::size_t>(send_displs_[r]));
  check_mpi(MPI_Alltoallv(send.data(), send_counts_.data(), send_displs_.data(), type, receive.data(),
                          recv_counts_.data(), recv_displs_.data(), type, comm),
            "MPI_Alltoallv");
  for (std::size_t r = 0; r < recv_blocks_.size(); ++r)
    if (recv_counts_[r] > 0)
      copy_rows<false>(to_box_, recv_blocks_[r], to, static_cast<const T*>(receive.data()) + static_cast<std::size_t>(recv_displs_[r]));
}

template void BoxExchange::run(MPI_Comm, MPI_Datatype, const std::complex<float>*, std::complex<float>*) const;
template void BoxExchange::run(MPI_Comm, MPI_Datatype, const std::complex<double>*, std::complex<double>*) const;

}  // namespace oocfft::distributed
