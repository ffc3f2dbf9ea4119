#include "distributed/box_exchange.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

#include "distributed/box_partition.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/mpi_communicator.hpp"
#include "distributed/uninitialised_buffer.hpp"
#include "oocfft/error.hpp"

namespace oocfft::distributed {
namespace {

int as_count(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw Error(ErrorKind::unsupported, std::string("an exchange's ") + what + " of " + std::to_string(n) +
                                            " elements exceeds MPI's int counts (2^31 - 1)");
  return static_cast<int>(n);
}

// The x rows of a block: rows() of them, row i at (z, y) = (i / ny, i % ny)
// of the block, each extent().nx points long.
std::size_t rows_of(const Box3& block) { return block.empty() ? 0 : block.extent().nz * block.extent().ny; }

// Round k of `rounds`' share of `rows` rows: [begin, end).
struct RowRange {
  std::size_t begin = 0, end = 0;
  std::size_t count() const { return end - begin; }
};
RowRange round_rows(std::size_t rows, std::size_t round, std::size_t rounds) {
  return {rows * round / rounds, rows * (round + 1) / rounds};
}

// Copies rows [range) of `block` between an array of `box` (C order over
// its extents) and `packed` (those rows, one after another). Rows in
// parallel: a rank's share of a large volume is tens of gigabytes.
template <bool Pack, class T>
void copy_rows(const Box3& box, const Box3& block, RowRange range, const T* from, T* to) {
  const Shape outer = box.extent();
  const Shape inner = block.extent();
  const std::size_t row_bytes = inner.nx * sizeof(T);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(range.begin, range.end, 64), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      const std::size_t oz = static_cast<std::size_t>(block.low[0] - box.low[0]) + i / inner.ny;
      const std::size_t oy = static_cast<std::size_t>(block.low[1] - box.low[1]) + i % inner.ny;
      const std::size_t ox = static_cast<std::size_t>(block.low[2] - box.low[2]);
      const std::size_t in_box = (oz * outer.ny + oy) * outer.nx + ox;
      const std::size_t in_packed = (i - range.begin) * inner.nx;
      if constexpr (Pack)
        std::memcpy(to + in_packed, from + in_box, row_bytes);
      else
        std::memcpy(to + in_box, from + in_packed, row_bytes);
    }
  });
}

// The rows of `block` from an array of `from_box` into an array of
// `to_box`, both in C order over their boxes.
template <class T>
void copy_block(const Box3& from_box, const Box3& to_box, const Box3& block, const T* from, T* to) {
  const Shape src = from_box.extent(), dst = to_box.extent(), inner = block.extent();
  const std::size_t row_bytes = inner.nx * sizeof(T);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows_of(block), 64), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      const auto z = static_cast<std::int64_t>(i / inner.ny) + block.low[0];
      const auto y = static_cast<std::int64_t>(i % inner.ny) + block.low[1];
      const auto at = [&](const Box3& box, Shape e) {
        return (static_cast<std::size_t>(z - box.low[0]) * e.ny + static_cast<std::size_t>(y - box.low[1])) * e.nx +
               static_cast<std::size_t>(block.low[2] - box.low[2]);
      };
      std::memcpy(to + at(to_box, dst), from + at(from_box, src), row_bytes);
    }
  });
}

}  // namespace

BoxExchange::BoxExchange(const std::vector<Box3>& from, const std::vector<Box3>& to, int rank,
                         std::size_t element_bytes, std::size_t round_bytes, std::optional<Box3> from_array,
                         std::optional<Box3> to_array)
    : from_box_(from[static_cast<std::size_t>(rank)]),
      to_box_(to[static_cast<std::size_t>(rank)]),
      from_array_(from_array.value_or(from_box_)),
      to_array_(to_array.value_or(to_box_)),
      rank_(rank),
      element_bytes_(element_bytes),
      from_all_(from),
      to_all_(to) {
  const std::size_t ranks = from.size();
  const auto me = static_cast<std::size_t>(rank);
  auto inside = [](const Box3& box, const Box3& array) { return box.empty() || intersection(box, array) == box; };
  if (!inside(from_box_, from_array_) || !inside(to_box_, to_array_))
    throw Error(ErrorKind::invalid_argument, "an exchange's box " + to_string(from_box_) + " -> " +
                                                 to_string(to_box_) + " is not inside its arrays' " +
                                                 to_string(from_array_) + " -> " + to_string(to_array_));
  kept_ = intersection(from_box_, to_box_);
  // Each rank's bytes sent to and received from the others, from every
  // rank's boxes: the same K on every rank. A round's pieces are rounded
  // to whole rows, so one row per peer more than the even share is room
  // enough; a row alone larger than a round cannot be split.
  std::size_t widest = 0;
  std::size_t largest_row = 0;
  for (std::size_t r = 0; r < ranks; ++r) {
    std::size_t sends = 0, receives = 0;
    for (std::size_t s = 0; s < ranks; ++s) {
      if (s == r) continue;
      const Box3 out = intersection(from[r], to[s]);
      const Box3 in = intersection(from[s], to[r]);
      sends += out.count();
      receives += in.count();
      if (!out.empty()) largest_row = std::max<std::size_t>(largest_row, out.extent().nx);
    }
    widest = std::max({widest, sends, receives});
  }
  if (largest_row * element_bytes * ranks > round_bytes)
    throw Error(ErrorKind::unsupported, "an exchange of x rows of " + std::to_string(largest_row) + " points over " +
                                            std::to_string(ranks) + " ranks does not fit rounds of " +
                                            std::to_string(round_bytes) + " bytes");
  const std::size_t share = round_bytes - largest_row * element_bytes * ranks;
  rounds_ = widest == 0 ? 0 : (widest * element_bytes + share - 1) / std::max<std::size_t>(share, 1);
  if (widest > 0) rounds_ = std::max<std::size_t>(rounds_, 1);
  // Each peer's piece of a round is its even share plus at most one row:
  // a round's sends stay below widest / K + (ranks - 1) rows, which is
  // below round_bytes by the choice of K.
  if (rounds_ > 0)
    round_bound_bytes_ = std::min(round_bytes, ((widest + rounds_ - 1) / rounds_ + largest_row * (ranks - 1)) * element_bytes);
  // A round's counts are below round_bytes / element_bytes points.
  as_count(round_bytes / std::max<std::size_t>(element_bytes, 1), "round");

  for (std::size_t r = 0; r < ranks; ++r) {
    send_blocks_.push_back(r == me ? Box3{} : intersection(from_box_, to[r]));
    recv_blocks_.push_back(r == me ? Box3{} : intersection(from[r], to_box_));
    sent_to_others_ += send_blocks_.back().count();
    received_from_others_ += recv_blocks_.back().count();
  }
}

std::size_t BoxExchange::sent_to(const std::vector<bool>& chosen) const {
  std::size_t n = 0;
  for (std::size_t r = 0; r < send_blocks_.size() && r < chosen.size(); ++r)
    if (chosen[r]) n += send_blocks_[r].count();
  return n;
}

std::size_t BoxExchange::round_count(int from_rank, int to_rank, std::size_t round) const {
  if (from_rank == to_rank) return 0;
  const Box3 block =
      intersection(from_all_[static_cast<std::size_t>(from_rank)], to_all_[static_cast<std::size_t>(to_rank)]);
  return block.empty() ? 0 : round_rows(rows_of(block), round, rounds_).count() * block.extent().nx;
}

template <class T>
void BoxExchange::run(MPI_Comm comm, MPI_Datatype type, const T* from, T* to, const NodeWindow* node,
                      std::optional<PeerArrays> peers) const {
  // The same array in the same box (a rank's planes transformed in place)
  // keeps its points where they are.
  const bool same_array = static_cast<const void*>(from) == static_cast<const void*>(to) && from_array_ == to_array_;
  if (!kept_.empty() && !same_array) copy_block(from_array_, to_array_, kept_, from, to);
  if (rounds_ == 0) return;
  // A window too small for a round is not used (the same on every rank:
  // every rank passes the same segment and round sizes).
  if (node != nullptr && node->segment_bytes() < round_bound_bytes_) node = nullptr;
  if (peers && peers->window == nullptr) peers.reset();
  // With the peers' arrays shared, the node's segments have nothing to
  // carry (and a receiver's offsets into them must follow the sender's
  // routes, which only one grouping of the ranks makes certain).
  if (peers) node = nullptr;
  // The peers' `from` arrays are complete before anyone reads them: what
  // each rank wrote there before this call is seen by every reader.
  if (peers && peers->side == PeerArrays::Side::from) peers->window->synchronise();
  const int ranks = static_cast<int>(send_blocks_.size());
  enum class Route { mpi, segment, direct };
  std::vector<Route> routes(static_cast<std::size_t>(ranks), Route::mpi);
  for (int r = 0; r < ranks; ++r)
    if (peers && peers->window->shares_memory_with(r))
      routes[static_cast<std::size_t>(r)] = Route::direct;
    else if (node != nullptr && node->shares_memory_with(r))
      routes[static_cast<std::size_t>(r)] = Route::segment;
  // The same on every rank: some rank of another node, for every rank, or none.
  const bool needs_mpi = std::find(routes.begin(), routes.end(), Route::mpi) != routes.end();

  // Straight into the peers' arrays, or straight out of them: one copy,
  // no rounds (the arrays hold the whole boxes).
  if (peers) {
    for (int r = 0; r < ranks; ++r) {
      const auto i = static_cast<std::size_t>(r);
      if (routes[i] != Route::direct || r == rank_) continue;
      std::byte* theirs = peers->window->segment(r) + peers->offset;
      if (peers->side == PeerArrays::Side::to && !send_blocks_[i].empty())
        copy_block(from_array_, to_all_[i], send_blocks_[i], from, reinterpret_cast<T*>(theirs));
      if (peers->side == PeerArrays::Side::from && !recv_blocks_[i].empty())
        copy_block(from_all_[i], to_array_, recv_blocks_[i], reinterpret_cast<const T*>(theirs), to);
    }
  }

  if (needs_mpi || node != nullptr) {
    std::vector<int> send_counts(routes.size()), send_displs(routes.size()), recv_counts(routes.size()),
        recv_displs(routes.size());
    std::vector<RowRange> send_rows(routes.size()), recv_rows(routes.size());
    // A rank that cannot allocate its round buffers fails every rank here,
    // before any of them waits in a collective of the rounds.
    std::optional<UninitialisedBuffer<T>> send, receive;
    agree_on(comm, [&] {
      send.emplace(needs_mpi ? sent_to_others_ / rounds_ + routes.size() * from_box_.extent().nx + 1 : 0);
      receive.emplace(needs_mpi ? received_from_others_ / rounds_ + routes.size() * to_box_.extent().nx + 1 : 0);
    });
    T* const my_segment = node != nullptr ? reinterpret_cast<T*>(node->segment(rank_)) : nullptr;
    for (std::size_t round = 0; round < rounds_; ++round) {
      std::size_t send_total = 0, recv_total = 0, segment_total = 0;
      std::vector<std::size_t> segment_at(routes.size(), 0);
      for (std::size_t i = 0; i < routes.size(); ++i) {
        send_rows[i] = recv_rows[i] = RowRange{};
        send_counts[i] = recv_counts[i] = 0;
        send_displs[i] = as_count(send_total, "send displacement");
        recv_displs[i] = as_count(recv_total, "receive displacement");
        if (routes[i] == Route::direct) continue;
        send_rows[i] = round_rows(rows_of(send_blocks_[i]), round, rounds_);
        recv_rows[i] = round_rows(rows_of(recv_blocks_[i]), round, rounds_);
        const std::size_t sends = send_rows[i].count() * (send_blocks_[i].empty() ? 0 : send_blocks_[i].extent().nx);
        const std::size_t receives =
            recv_rows[i].count() * (recv_blocks_[i].empty() ? 0 : recv_blocks_[i].extent().nx);
        if (routes[i] == Route::segment) {
          segment_at[i] = segment_total;
          segment_total += sends;
          continue;
        }
        send_counts[i] = as_count(sends, "send count");
        recv_counts[i] = as_count(receives, "receive count");
        send_total += sends;
        recv_total += receives;
      }
      for (std::size_t i = 0; i < routes.size(); ++i) {
        if (send_rows[i].count() == 0 || send_blocks_[i].empty()) continue;
        T* packed = routes[i] == Route::segment ? my_segment + segment_at[i]
                                                : send->data() + static_cast<std::size_t>(send_displs[i]);
        copy_rows<true>(from_array_, send_blocks_[i], send_rows[i], from, packed);
      }
      if (node != nullptr) node->synchronise();  // every segment of the node packed
      if (needs_mpi)
        check_mpi(MPI_Alltoallv(send->data(), send_counts.data(), send_displs.data(), type, receive->data(),
                                recv_counts.data(), recv_displs.data(), type, comm),
                  "MPI_Alltoallv");
      for (int r = 0; r < ranks; ++r) {
        const auto i = static_cast<std::size_t>(r);
        if (recv_rows[i].count() == 0 || recv_blocks_[i].empty()) continue;
        const T* packed = static_cast<const T*>(receive->data()) + static_cast<std::size_t>(recv_displs[i]);
        if (routes[i] == Route::segment) {
          // Rank r packed for the ranks of its node in rank order.
          std::size_t at = 0;
          for (int d = 0; d < rank_; ++d)
            if (routes[static_cast<std::size_t>(d)] == Route::segment) at += round_count(r, d, round);
          packed = reinterpret_cast<const T*>(node->segment(r)) + at;
        }
        copy_rows<false>(to_array_, recv_blocks_[i], recv_rows[i], packed, to);
      }
      if (node != nullptr) node->synchronise();  // every segment read: free for the next round
    }
  }
  // Every direct copy of the node done: the peers' arrays are complete,
  // or free to be written again.
  if (peers) peers->window->synchronise();
}

template void BoxExchange::run(MPI_Comm, MPI_Datatype, const std::complex<float>*, std::complex<float>*,
                               const NodeWindow*, std::optional<PeerArrays>) const;
template void BoxExchange::run(MPI_Comm, MPI_Datatype, const std::complex<double>*, std::complex<double>*,
                               const NodeWindow*, std::optional<PeerArrays>) const;
template void BoxExchange::run(MPI_Comm, MPI_Datatype, const float*, float*, const NodeWindow*,
                               std::optional<PeerArrays>) const;
template void BoxExchange::run(MPI_Comm, MPI_Datatype, const double*, double*, const NodeWindow*,
                               std::optional<PeerArrays>) const;

std::string BoxExchange::summary() const {
  return std::to_string(sent_to_others_ * element_bytes_) + " bytes sent to other ranks, " +
         std::to_string(received_from_others_ * element_bytes_) + " received, rounds: " + std::to_string(rounds_);
}

}  // namespace oocfft::distributed
