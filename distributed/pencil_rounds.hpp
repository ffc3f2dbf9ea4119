#pragma once
// PencilRounds: steps 3 and 4 of a distributed transform (the global
// transpose and the z lines) when every rank wants its z-slab back, in
// rounds that need only two rounds' memory beside the rank's planes.
//
// The y-slab path moves a rank's whole share into a y-slab, a second copy
// of it, transforms the z lines there and moves it on. Here round k of K
// takes the rows of one range of y, C_k, from every rank's z-slab: rank r
// receives the pencils (all z) x C_k x X_r (its x slab), transforms their z
// lines through its devices, and sends them back to the z-slabs they came
// from. The points return to where they were read, so the z-slab (the
// caller's array when the planes ran in place) holds the result, and a rank
// holds two rounds' pencils beside its share, not a second share: a volume
// near the ranks' memory can be transformed in place. Every round is collective
// (every rank makes K of them, K from the global shape); the round's
// exchanges cross the network as the y-slab path's do, the same bytes.
//
// The rounds overlap: round k's z lines run on a second thread while the
// calling thread, which makes every MPI call, sends round k-1 back and
// fetches round k+1 (two rounds' pencils held). This needs MPI_THREAD_FUNNELED
// from the calling thread, or MPI_THREAD_SERIALIZED; below that (MPI_Init
// asks for MPI_THREAD_SINGLE) the rounds run one after another.
//
// Where the ranks share a node, the pencils lie in its shared memory
// (place_buffers): a rank copies its z-slab's rows straight into its
// peers' pencils and reads them straight back (BoxExchange's PeerArrays),
// one copy each way with no packing.
#include <mpi.h>

#include <complex>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "distributed/box_exchange.hpp"
#include "distributed/node_window.hpp"
#include "engine/api/z_line_transform.hpp"
#include "oocfft/host_array.hpp"
#include "oocfft/pinned_memory.hpp"
#include "oocfft/distributed.hpp"
#include "oocfft/options.hpp"

namespace oocfft::distributed {

class PencilRounds {
 public:
  // A round's pencils of one rank: small beside a share of tens of
  // gigabytes, large enough that the device's z pass streams several
  // bricks on each stream.
  static constexpr std::size_t default_pencil_bytes = std::size_t{2} << 30;

  struct Setup {
    // Rounds overlap when MPI's thread level allows (above).
    bool overlap = true;
    // The pencils' buffers page-locked for the device the z pass runs on.
    bool page_locked = false;
    // The pencils' buffers in memory the ranks of a node share
    // (place_buffers), so that the exchanges copy straight between a
    // rank's z-slab and its peers' pencils.
    bool shared = true;
    // A round's pencils on the widest rank, at most.
    std::size_t pencil_bytes = default_pencil_bytes;
  };

  // `shape`, this rank of `ranks`, the precision; `local`: the options of
  // the rank's z pass (its device, budgets, threads, cancel).
  PencilRounds(Shape shape, int rank, int ranks, Precision precision, const Options& local, Setup setup);

  // Collective over `comm`, once, before run: allocates the pencils'
  // buffers (two rounds' when the rounds overlap), which it keeps. With
  // Setup::shared, in a NodeWindow (each rank's in its own segment, at the
  // same offsets on every rank); where MPI cannot allocate that, and
  // without Setup::shared, in the rank's own memory (a HostArray).
  // `node`: the ranks that share memory (NodeWindow's); MPI_COMM_NULL:
  // those of this rank's node.
  void place_buffers(MPI_Comm comm, MPI_Comm node = MPI_COMM_NULL);

  // Collective over `comm`: the z lines of the volume whose z-slab this
  // rank holds in `planes` (C order over the slab), in place, times
  // `scale`. A failure or a cancel on any rank becomes the same Error on
  // every rank (failure_agreement.hpp), between rounds. `node`: the
  // node's shared segments for exchanges with ranks whose pencils are not
  // shared (BoxExchange::run), or null.
  template <class T>
  void run(MPI_Comm comm, std::complex<T>* planes, bool inverse, double scale, const NodeWindow* node = nullptr) const;

  std::size_t rounds() const { return rounds_; }
  // Bytes this rank sends in one run (both ways) to the ranks r with `chosen[r]`.
  std::size_t bytes_to(const std::vector<bool>& chosen) const;
  // The largest round's pencils on this rank, in bytes.
  std::size_t pencil_bytes() const { return largest_pencils_ * element_; }
  // The segment a NodeWindow needs for every round's exchanges.
  std::size_t round_bound_bytes() const { return round_bound_bytes_; }
  // Whether the pencils' buffers are in the node's shared memory.
  bool shares_pencils() const { return shared_.has_value(); }
  std::string describe() const;

 private:
  Box3 y_range(std::size_t round) const;  // C_k over the whole z and x
  std::vector<Box3> slab_rows(std::size_t round) const;  // every z-slab's rows of C_k
  std::vector<Box3> pencils_of(std::size_t round) const;  // every rank's pencils of C_k
  // Whether the calling thread may leave the z lines to another (above).
  static bool can_overlap();
  template <class T>
  void z_lines(std::complex<T>* pencils, std::size_t round, bool inverse, double scale) const;

  Shape shape_;
  int rank_ = 0;
  int ranks_ = 1;
  std::size_t element_ = 8;
  std::size_t rounds_ = 0;
  std::size_t round_bound_bytes_ = 0;
  std::vector<BoxExchange> there_, back_;  // per round: out of the z-slabs, and back
  Setup setup_;
  std::size_t largest_pencils_ = 0;  // points of this rank's largest round
  std::size_t buffer_bytes_ = 0;     // the widest rank's largest round, bytes: a buffer's stride in the segments
  int buffer_count_ = 1;             // two when rounds overlap
  // The buffers: in the node's shared memory (segment b * buffer_bytes_
  // of each rank's segment), or the rank's own.
  std::optional<NodeWindow> shared_;
  PinnedMemory pinned_;  // this rank's segment page-locked for the z pass
  std::vector<HostArray<std::byte>> own_;
  std::string buffers_note_;
  Box3 z_slab_;
  // The z pass of this rank's pencils, by the round's extent along y (the
  // rounds differ by one row at most: two plans).
  std::map<std::size_t, engine::ZLineTransform<float>> single_;
  std::map<std::size_t, engine::ZLineTransform<double>> double_;
};

extern template void PencilRounds::run(MPI_Comm, std::complex<float>*, bool, double, const NodeWindow*) const;
extern template void PencilRounds::run(MPI_Comm, std::complex<double>*, bool, double, const NodeWindow*) const;

}  // namespace oocfft::distributed
