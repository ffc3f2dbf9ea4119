#include "distributed/pencil_rounds.hpp"

#include <algorithm>
#include <exception>
#include <optional>
#include <thread>
#include <type_traits>

#include "core/format_bytes.hpp"
#include "distributed/box_partition.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/mpi_communicator.hpp"
#include "engine/api/pinned_memory.hpp"
#include "oocfft/error.hpp"

namespace oocfft::distributed {

PencilRounds::PencilRounds(Shape shape, int rank, int ranks, Precision precision, const Options& local, Setup setup)
    : shape_(shape),
      rank_(rank),
      ranks_(ranks),
      element_(precision == Precision::single ? 8 : 16),
      setup_(setup),
      z_slab_(slab_box(shape, 0, rank, ranks)) {
  // K from the global shape, the same on every rank: the widest rank's
  // pencils of the whole y range, in rounds of at most setup.pencil_bytes.
  const std::size_t widest = (shape.nx + static_cast<std::size_t>(ranks) - 1) / static_cast<std::size_t>(ranks);
  const std::size_t all_pencils = shape.nz * shape.ny * widest * element_;
  const std::size_t round_bytes = std::max<std::size_t>(setup.pencil_bytes, 1);
  rounds_ = std::clamp<std::size_t>((all_pencils + round_bytes - 1) / round_bytes, 1,
                                    shape.ny);
  const Box3 my_x = slab_box(shape, 2, rank, ranks);
  for (std::size_t k = 0; k < rounds_; ++k) {
    const Box3 rows = y_range(k);
    const Box3 mine = intersection(rows, my_x);
    largest_pencils_ = std::max(largest_pencils_, mine.count());
    const std::vector<Box3> from = slab_rows(k), to = pencils_of(k);
    for (const Box3& theirs : to) buffer_bytes_ = std::max(buffer_bytes_, theirs.count() * element_);
    // Out of the z-slab and back into it: the rows' array is the slab.
    there_.emplace_back(from, to, rank, element_, BoxExchange::default_round_bytes, z_slab_, std::nullopt);
    back_.emplace_back(to, from, rank, element_, BoxExchange::default_round_bytes, std::nullopt, z_slab_);
    round_bound_bytes_ = std::max({round_bound_bytes_, there_.back().round_bound_bytes(), back_.back().round_bound_bytes()});
    if (mine.empty()) continue;
    const Shape extent = mine.extent();
    if (precision == Precision::single) {
      if (!single_.count(extent.ny)) single_.emplace(extent.ny, engine::ZLineTransform<float>(extent, local));
    } else {
      if (!double_.count(extent.ny)) double_.emplace(extent.ny, engine::ZLineTransform<double>(extent, local));
    }
  }
  buffer_count_ = rounds_ > 1 && setup.overlap ? 2 : 1;
}

std::size_t PencilRounds::bytes_to(const std::vector<bool>& chosen) const {
  std::size_t elements = 0;
  for (std::size_t k = 0; k < rounds_; ++k) elements += there_[k].sent_to(chosen) + back_[k].sent_to(chosen);
  return elements * element_;
}

void PencilRounds::place_buffers(MPI_Comm comm, MPI_Comm node) {
  // Held for the plan's life: a large run would otherwise fault in their
  // pages again each time, and page-locked once they let the z pass DMA
  // straight from them.
  const std::size_t bytes = buffer_count_ * buffer_bytes_;
  if (setup_.shared && ranks_ > 1 && bytes > 0) {
    try {
      agree_on(comm, [&] { shared_.emplace(comm, bytes, node); });
    } catch (const Error& e) {
      shared_.reset();
      buffers_note_ = std::string(", in this rank's memory: the node's shared memory was refused (") + e.what() + ")";
    }
  }
  if (shared_) {
    buffers_note_ = ", in memory shared by the node's " + std::to_string(shared_->node_size()) +
                    " rank(s), which copy straight between their z-slabs and each other's pencils";
    if (setup_.page_locked && largest_pencils_ > 0) {
      pinned_ = engine::pin_for_device(shared_->segment(rank_), bytes, Backend::cuda);
      buffers_note_ += pinned_.locked() ? ", page-locked" : ", pageable (" + pinned_.reason() + ")";
    }
    return;
  }
  agree_on(comm, [&] {
    const PageLocking locking = setup_.page_locked ? PageLocking::locked : PageLocking::pageable;
    for (int b = 0; b < buffer_count_; ++b) own_.emplace_back(largest_pencils_ * element_, locking);
  });
  if (buffers_note_.empty()) buffers_note_ = ", in this rank's memory";
  buffers_note_ += !own_.empty() && own_[0].page_locked() ? ", page-locked" : ", pageable";
}

Box3 PencilRounds::y_range(std::size_t round) const {
  Box3 b = whole_box(shape_);
  b.low[1] = static_cast<std::int64_t>(shape_.ny * round / rounds_);
  b.high[1] = static_cast<std::int64_t>(shape_.ny * (round + 1) / rounds_) - 1;
  return b;
}

std::vector<Box3> PencilRounds::slab_rows(std::size_t round) const {
  std::vector<Box3> boxes;
  for (const Box3& slab : slab_boxes(shape_, 0, ranks_)) boxes.push_back(intersection(slab, y_range(round)));
  return boxes;
}

std::vector<Box3> PencilRounds::pencils_of(std::size_t round) const {
  std::vector<Box3> boxes;
  for (int r = 0; r < ranks_; ++r) boxes.push_back(intersection(y_range(round), slab_box(shape_, 2, r, ranks_)));
  return boxes;
}

bool PencilRounds::can_overlap() {
  int provided = MPI_THREAD_SINGLE;
  int is_main = 0;
  MPI_Query_thread(&provided);
  MPI_Is_thread_main(&is_main);
  return provided >= MPI_THREAD_SERIALIZED || (provided == MPI_THREAD_FUNNELED && is_main);
}

template <class T>
void PencilRounds::z_lines(std::complex<T>* pencils, std::size_t round, bool inverse, double scale) const {
  const Box3 mine = pencils_of(round)[static_cast<std::size_t>(rank_)];
  if (mine.empty()) return;
  if constexpr (std::is_same_v<T, float>)
    single_.at(mine.extent().ny).execute(pencils, inverse, scale);
  else
    double_.at(mine.extent().ny).execute(pencils, inverse, scale);
}

template <class T>
void PencilRounds::run(MPI_Comm comm, std::complex<T>* planes, bool inverse, double scale,
                       const NodeWindow* node) const {
  const MPI_Datatype type = std::is_same_v<T, float> ? MPI_C_FLOAT_COMPLEX : MPI_C_DOUBLE_COMPLEX;
  // The same on every rank: the rounds' collectives must pair up.
  int overlap = buffer_count_ == 2 && can_overlap() ? 1 : 0;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &overlap, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (!shared_ && own_.empty())
    throw Error(ErrorKind::invalid_argument, "PencilRounds::run before place_buffers");
  auto slot = [&](std::size_t round) { return overlap ? round % 2 : std::size_t{0}; };
  auto buffer = [&](std::size_t round) {
    std::byte* b = shared_ ? shared_->segment(rank_) + slot(round) * buffer_bytes_ : own_[slot(round)].data();
    return reinterpret_cast<std::complex<T>*>(b);
  };
  // Where the node's peers keep this round's pencils, when shared.
  auto peers = [&](std::size_t round, PeerArrays::Side side) -> std::optional<PeerArrays> {
    if (!shared_) return std::nullopt;
    return PeerArrays{&*shared_, slot(round) * buffer_bytes_, side};
  };
  auto there = [&](std::size_t k) {
    there_[k].run(comm, type, static_cast<const std::complex<T>*>(planes), buffer(k), node,
                  peers(k, PeerArrays::Side::to));
  };
  auto back = [&](std::size_t k) {
    back_[k].run(comm, type, static_cast<const std::complex<T>*>(buffer(k)), planes, node,
                 peers(k, PeerArrays::Side::from));
  };
  if (!overlap) {
    for (std::size_t k = 0; k < rounds_; ++k) {
      there(k);
      agree_on(comm, [&] { z_lines(buffer(k), k, inverse, scale); });
      back(k);
    }
    return;
  }
  // Round k's z lines on a second thread while this one, which makes
  // every MPI call (MPI_THREAD_FUNNELED is enough), sends round k-1 back
  // and fetches round k+1 into the other buffer. The rows of the three
  // rounds are disjoint, so the z-slab is read and written at once safely.
  there(0);
  for (std::size_t k = 0; k < rounds_; ++k) {
    std::exception_ptr failure;
    {
      std::jthread transform([&] {
        try {
          z_lines(buffer(k), k, inverse, scale);
        } catch (...) {
          failure = std::current_exception();
        }
      });
      if (k > 0) back(k - 1);
      if (k + 1 < rounds_) there(k + 1);
    }  // joined: before the agreement, and before an exchange's error leaves
    agree_on(comm, [&] {
      if (failure) std::rethrow_exception(failure);
    });
  }
  back(rounds_ - 1);
}

std::string PencilRounds::describe() const {
  const bool overlapped = buffer_count_ == 2 && can_overlap();
  std::vector<bool> others(static_cast<std::size_t>(ranks_), true);
  others[static_cast<std::size_t>(rank_)] = false;
  std::string s = "z lines of the z-slabs in " + std::to_string(rounds_) + " round(s) of y rows: each round's pencils (all z, " +
                  "a range of y, this rank's x slab " + to_string(slab_box(shape_, 2, rank_, ranks_)) +
                  ") come from every z-slab, through the z pass and back; " +
                  format_bytes(double(pencil_bytes())) + " of pencils a round at most, held for the plan's life" +
                  buffers_note_ +
                  (overlapped ? " (two rounds held: round k's z lines run while k-1 goes back and k+1 comes, when every "
                                "rank's MPI thread level allows it as this one's does)"
                                      : buffer_count_ == 2 ? " (one round at a time: the MPI thread level allows no second thread beside the exchanges)"
                                             : "") +
                  ", " + std::to_string(bytes_to(others)) + " bytes to other ranks in all";
  const std::string z = !single_.empty() ? single_.begin()->second.describe()
                        : !double_.empty() ? double_.begin()->second.describe()
                                           : std::string();
  return s + (z.empty() ? std::string(" (no pencils on this rank)\n") : ":\n" + z);
}

template void PencilRounds::run(MPI_Comm, std::complex<float>*, bool, double, const NodeWindow*) const;
template void PencilRounds::run(MPI_Comm, std::complex<double>*, bool, double, const NodeWindow*) const;

}  // namespace oocfft::distributed
