#pragma once
// BoxExchange: moves a volume spread over the ranks in one set of boxes
// into another set, with one MPI_Alltoallv. Rank r sends rank s the points
// its `from` box shares with s's `to` box, packed in C order of that
// shared box; s unpacks them into its `to` array. The same exchange serves
// the three steps of a distributed transform: the caller's in boxes to
// z-slabs, z-slabs to y-slabs (the global transpose: every shared box is
// a block of whole x rows), and y-slabs to the caller's out boxes.
//
// Packing copies x rows (contiguous in both arrays), never single points.
// Counts and displacements are MPI ints in elements: a rank's box beyond
// 2^31 - 1 elements is refused when the exchange is made (large counts,
// MPI 4's MPI_Alltoallv_c, are a later step).
#include <mpi.h>

#include <complex>
#include <cstddef>
#include <vector>

#include "oocfft/distributed.hpp"

namespace oocfft::distributed {

class BoxExchange {
 public:
  // `from` and `to`: every rank's box, in rank order; `rank` is this one.
  // Throws Error(unsupported) when a count does not fit an int.
  BoxExchange(const std::vector<Box3>& from, const std::vector<Box3>& to, int rank);

  // Collective over `comm` (whose ranks the boxes are in): `from` holds
  // this rank's from box, `to` receives its to box. `type` is the MPI
  // datatype of T.
  template <class T>
  void run(MPI_Comm comm, MPI_Datatype type, const T* from, T* to) const;

  // Elements this rank sends to other ranks and receives from them (its
  // own share not counted): what crosses the network.
  std::size_t sent_to_others() const { return sent_to_others_; }
  std::size_t received_from_others() const { return received_from_others_; }

 private:
  Box3 from_box_;
  Box3 to_box_;
  std::vector<Box3> send_blocks_;  // per rank: my from box ∩ its to box
  std::vector<Box3> recv_blocks_;  // per rank: its from box ∩ my to box
  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_;
  std::size_t send_total_ = 0;
  std::size_t recv_total_ = 0;
  std::size_t sent_to_others_ = 0;
  std::size_t received_from_others_ = 0;
};

extern template void BoxExchange::run(MPI_Comm, MPI_Datatype, const std::complex<float>*, std::complex<float>*) const;
extern template void BoxExchange::run(MPI_Comm, MPI_Datatype, const std::complex<double>*,
                                      std::complex<double>*) const;

}  // namespace oocfft::distributed
