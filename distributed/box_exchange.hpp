#pragma once
// BoxExchange: moves a volume spread over the ranks in one set of boxes
// into another set. Rank r sends rank s the points its `from` box shares
// with s's `to` box, packed in C order of that shared box; s unpacks them
// into its `to` array. The same exchange serves the three steps of a
// distributed transform: the caller's in boxes to z-slabs, z-slabs to
// y-slabs (the global transpose: every shared box is a block of whole x
// rows), and y-slabs to the caller's out boxes; a real transform's real
// boxes to and from z-slabs move real values (any element size).
//
// The points a rank keeps (its from box ∩ its to box) are copied straight
// from one array to the other and never enter MPI. What goes to ranks of
// the same node moves through the node's shared segments when the caller
// passes them (node_window.hpp), the rest through MPI_Alltoallv, in
// rounds: round k carries the k-th of K
// near-equal runs of x rows of every shared box, so the send and receive
// buffers hold 1/K of the traffic, at most `round_bytes` each, instead of
// a second and third copy of the rank's share of the volume; and every
// count and displacement of a round fits MPI's int, whatever the size of
// the boxes. Every rank computes K from every rank's boxes, so all make
// the same number of calls.
//
// Packing copies x rows (contiguous in both arrays), never single points,
// in parallel over rows (TBB, in the caller's arena).
#include <mpi.h>

#include <complex>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <string>
#include <vector>

#include "distributed/node_window.hpp"
#include "oocfft/distributed.hpp"

namespace oocfft::distributed {

// Where the arrays of a rank's node peers lie for an exchange that copies
// straight into or out of them: in `window`'s segments, `offset` bytes in.
struct PeerArrays {
  enum class Side {
    to,    // the peers' `to` arrays: this rank writes its points for them there
    from,  // the peers' `from` arrays: this rank reads its points from them there
  };
  const NodeWindow* window = nullptr;
  std::size_t offset = 0;
  Side side = Side::to;
};

class BoxExchange {
 public:
  // Send and receive buffers of at most this many bytes each, per rank:
  // small beside a rank's share of a large volume, large enough that a
  // round's MPI_Alltoallv moves at network speed.
  static constexpr std::size_t default_round_bytes = std::size_t{1} << 30;

  // `from` and `to`: every rank's box, in rank order; `rank` is this one;
  // `element_bytes`: the size of one point. `from_array` and `to_array`:
  // the boxes this rank's arrays cover, when larger than its boxes (a
  // round of pencils read from and written back to a rank's z-slab);
  // none: the boxes themselves. Throws Error(unsupported) when one x row
  // is larger than a round, Error(invalid_argument) when a box is not
  // inside its array's.
  BoxExchange(const std::vector<Box3>& from, const std::vector<Box3>& to, int rank, std::size_t element_bytes,
              std::size_t round_bytes = default_round_bytes, std::optional<Box3> from_array = std::nullopt,
              std::optional<Box3> to_array = std::nullopt);

  // Collective over `comm` (whose ranks the boxes are in): `from` holds
  // this rank's from box, `to` receives its to box. `type` is the MPI
  // datatype of T, whose size is the constructor's element_bytes. `node`:
  // the shared-memory segments of this rank's node (node_window.hpp),
  // through which the points for ranks of the node move, when its
  // segments hold a round; null, or too small: every point through
  // MPI_Alltoallv. Every rank passes a window or none.
  //
  // `peers`: the arrays of the ranks of this node lie in a NodeWindow's
  // segments (PeerArrays), so their points are copied straight into their
  // `to` arrays or straight out of their `from` arrays, one copy with no
  // packing; only the ranks of other nodes then go through MPI (the
  // node's segments are not used). Every rank of a node passes the same
  // PeerArrays or none, and a peer's array there covers its box itself.
  // Reading (from), the exchange begins with the node's barrier: what the
  // peers wrote in their arrays before it is seen. It ends with one: the
  // peers' arrays are complete (to), or free to be written again (from).
  template <class T>
  void run(MPI_Comm comm, MPI_Datatype type, const T* from, T* to, const NodeWindow* node = nullptr,
           std::optional<PeerArrays> peers = std::nullopt) const;

  // Elements this rank sends to other ranks and receives from them (its
  // own share not counted): what crosses the network.
  std::size_t sent_to_others() const { return sent_to_others_; }
  std::size_t received_from_others() const { return received_from_others_; }
  // Elements this rank sends to the ranks r with `chosen[r]` (one flag per rank).
  std::size_t sent_to(const std::vector<bool>& chosen) const;
  // Rounds of one run through the segments or MPI_Alltoallv (0 when no
  // rank sends another anything; straight copies between shared arrays
  // make none).
  std::size_t rounds() const { return rounds_; }
  // The most bytes any rank sends to the others in one round (at most the
  // constructor's round_bytes; 0 when nothing moves): the segment a
  // NodeWindow needs for this exchange. The same on every rank.
  std::size_t round_bound_bytes() const { return round_bound_bytes_; }
  // "B bytes sent to other ranks, B received, rounds: K", for describe().
  std::string summary() const;
  // This rank's boxes, and the size of one point.
  const Box3& from_box() const { return from_box_; }
  const Box3& to_box() const { return to_box_; }
  std::size_t element_bytes() const { return element_bytes_; }

 private:
  // Points rank `from_rank` sends rank `to_rank` in round `round`.
  std::size_t round_count(int from_rank, int to_rank, std::size_t round) const;

  Box3 from_box_;
  Box3 to_box_;
  Box3 from_array_;  // the box the `from` array covers
  Box3 to_array_;    // the box the `to` array covers
  int rank_ = 0;
  std::size_t element_bytes_ = 0;
  std::vector<Box3> from_all_, to_all_;  // every rank's boxes: where a node's peers pack for this one
  std::size_t round_bound_bytes_ = 0;
  std::vector<Box3> send_blocks_;  // per rank: my from box ∩ its to box (empty for mine)
  std::vector<Box3> recv_blocks_;  // per rank: its from box ∩ my to box (empty for mine)
  Box3 kept_;                      // my from box ∩ my to box
  std::size_t rounds_ = 0;
  std::size_t sent_to_others_ = 0;
  std::size_t received_from_others_ = 0;
};

// The MPI datatype of the elements an exchange moves: the complex values
// of a spectrum, or the real values of a real transform's real side.
template <class T>
MPI_Datatype mpi_datatype() {
  if constexpr (std::is_same_v<T, std::complex<float>>) return MPI_C_FLOAT_COMPLEX;
  if constexpr (std::is_same_v<T, std::complex<double>>) return MPI_C_DOUBLE_COMPLEX;
  if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>> ||
                    std::is_same_v<T, std::complex<double>>,
                "an exchange moves float, double or their complex values");
  return MPI_DOUBLE;
}

extern template void BoxExchange::run(MPI_Comm, MPI_Datatype, const std::complex<float>*, std::complex<float>*,
                                      const NodeWindow*, std::optional<PeerArrays>) const;
extern template void BoxExchange::run(MPI_Comm, MPI_Datatype, const std::complex<double>*, std::complex<double>*,
                                      const NodeWindow*, std::optional<PeerArrays>) const;
extern template void BoxExchange::run(MPI_Comm, MPI_Datatype, const float*, float*, const NodeWindow*,
                                      std::optional<PeerArrays>) const;
extern template void BoxExchange::run(MPI_Comm, MPI_Datatype, const double*, double*, const NodeWindow*,
                                      std::optional<PeerArrays>) const;

}  // namespace oocfft::distributed
