#include "distributed/z_line_steps.hpp"

#include <algorithm>

#include "distributed/box_partition.hpp"
#include "distributed/failure_agreement.hpp"

namespace oocfft::distributed {

ZLineSteps::ZLineSteps(Shape shape, const std::vector<Box3>& boxes, int rank, int ranks, Precision precision,
                       const Options& local, bool page_locked)
    : rank_(rank), ranks_(ranks) {
  const std::vector<Box3> z_slabs = slab_boxes(shape, 0, ranks);
  const std::vector<Box3> y_slabs = slab_boxes(shape, 1, ranks);
  y_slab_ = y_slabs[static_cast<std::size_t>(rank)];
  for (const Box3& b : y_slabs) largest_y_slab_ = std::max(largest_y_slab_, b.count());
  const std::size_t element = precision == Precision::single ? 8 : 16;
  if (boxes == z_slabs) {
    pencils_.emplace(shape, rank, ranks, precision, local,
                     PencilRounds::Setup{.overlap = true, .page_locked = page_locked});
    z_slabs_to_boxes_.emplace(z_slabs, boxes, rank, element);
    boxes_to_z_slabs_.emplace(boxes, z_slabs, rank, element);
    return;
  }
  z_slabs_to_y_slabs_.emplace(z_slabs, y_slabs, rank, element);
  y_slabs_to_boxes_.emplace(y_slabs, boxes, rank, element);
  boxes_to_y_slabs_.emplace(boxes, y_slabs, rank, element);
  y_slabs_to_z_slabs_.emplace(y_slabs, z_slabs, rank, element);
  if (!y_slab_.empty()) z_lines_.emplace(precision, y_slab_.extent(), local);
}

void ZLineSteps::place_buffers(MPI_Comm comm) {
  if (pencils_) pencils_->place_buffers(comm);
}

std::size_t ZLineSteps::round_bound_bytes() const {
  // Pencils in shared memory exchange without segments (pencil_rounds.hpp).
  std::size_t bytes = pencils_ && !pencils_->shares_pencils() ? pencils_->round_bound_bytes() : 0;
  for (const auto* e : {&z_slabs_to_y_slabs_, &y_slabs_to_boxes_, &boxes_to_y_slabs_, &y_slabs_to_z_slabs_,
                        &z_slabs_to_boxes_, &boxes_to_z_slabs_})
    if (*e) bytes = std::max(bytes, (*e)->round_bound_bytes());
  return bytes;
}

std::size_t ZLineSteps::bytes_to(const std::vector<bool>& chosen) const {
  // One direction's run: a forward's exchanges (a backward run moves as many).
  std::size_t elements = 0;
  for (const auto* e : {&z_slabs_to_y_slabs_, &y_slabs_to_boxes_, &z_slabs_to_boxes_})
    if (*e) elements += (*e)->sent_to(chosen) * (*e)->element_bytes();
  return elements + (pencils_ ? pencils_->bytes_to(chosen) : 0);
}

// The y-slabs in the node's shared memory when it has room (every rank
// alike: a refusal on one node is every rank's, and they all fall back to
// their own memory, as describe() says), else this rank's own.
template <class T>
void ZLineSteps::allocate(MPI_Comm comm, YSlabs<T>& slabs) const {
  if (ranks_ > 1) {
    try {
      agree_on(comm, [&] { slabs.shared.emplace(comm, largest_y_slab_ * sizeof(std::complex<T>)); });
    } catch (const Error&) {
      slabs.shared.reset();
    }
  }
  agree_on(comm, [&] {
    if (!slabs.shared) slabs.own.emplace(y_slab_.count());
  });
  slabs.data = slabs.shared ? reinterpret_cast<std::complex<T>*>(slabs.shared->segment(rank_)) : slabs.own->data();
}

// Polled here too, not only by the engine's bricks: a rank with no y-slab
// runs none.
template <class T>
void ZLineSteps::z_lines_of(MPI_Comm comm, std::complex<T>* y_slab, bool inverse, double scale,
                            const RunControls& controls) const {
  agree_on(comm, [&] {
    controls.poll_cancel("the z lines");
    if (const auto* z_lines = z_lines_.get<T>()) z_lines->execute(y_slab, inverse, scale);
  });
}

template <class T>
void ZLineSteps::into_boxes(MPI_Comm comm, const BoxExchange& exchange, std::complex<T>* last, const Box3& slab,
                            std::complex<T>* out, bool inverse, const NodeWindow* node,
                            std::optional<PeerArrays> peers, const CentringPhases* centring) const {
  const MPI_Datatype type = mpi_datatype<std::complex<T>>();
  const Direction direction = inverse ? Direction::inverse : Direction::forward;
  // The peers read the slabs straight: every rank's phases first (every
  // rank of the node takes part in the barrier, whichever branch it takes).
  auto phased = [&] {
    if (centring != nullptr && peers) peers->window->synchronise();
  };
  // Where this rank's box is its slab and `out` another array, the copy
  // the exchange would make carries the phases (no sweep of their own).
  if (centring != nullptr && exchange.to_box() == slab && last != out) {
    centring->after_transform(static_cast<const std::complex<T>*>(last), out, slab, direction);
    phased();
    exchange.run(comm, type, static_cast<const std::complex<T>*>(out), out, node, peers);
    return;
  }
  if (centring != nullptr) centring->after_transform(last, slab, direction);
  phased();
  exchange.run(comm, type, static_cast<const std::complex<T>*>(last), out, node, peers);
}

template <class T>
void ZLineSteps::to_boxes(MPI_Comm comm, std::complex<T>* z_slab, std::complex<T>* out, bool inverse, double scale,
                          const RunControls& controls, unsigned z_lines_step, const NodeWindow* node,
                          const CentringPhases* centring) const {
  if (pencils_) {
    agree_on(comm, [&] { controls.poll_cancel("the z lines"); });
    pencils_->run(comm, z_slab, inverse, scale, node);
    controls.step_done(z_lines_step);
    into_boxes(comm, *z_slabs_to_boxes_, z_slab, z_slabs_to_boxes_->from_box(), out, inverse, node, std::nullopt,
               centring);
    return;
  }
  YSlabs<T> y;
  allocate(comm, y);
  z_slabs_to_y_slabs_->run(comm, mpi_datatype<std::complex<T>>(), static_cast<const std::complex<T>*>(z_slab), y.data,
                           node, y.peers(PeerArrays::Side::to));
  z_lines_of(comm, y.data, inverse, scale, controls);
  controls.step_done(z_lines_step);
  into_boxes(comm, *y_slabs_to_boxes_, y.data, y_slab_, out, inverse, node, y.peers(PeerArrays::Side::from), centring);
}

template <class T>
void ZLineSteps::from_boxes(MPI_Comm comm, const std::complex<T>* in, std::complex<T>* z_slab, bool inverse,
                            double scale, const RunControls& controls, unsigned z_lines_step,
                            const NodeWindow* node) const {
  const MPI_Datatype type = mpi_datatype<std::complex<T>>();
  if (pencils_) {
    boxes_to_z_slabs_->run(comm, type, in, z_slab, node);
    agree_on(comm, [&] { controls.poll_cancel("the z lines"); });
    pencils_->run(comm, z_slab, inverse, scale, node);
    controls.step_done(z_lines_step);
    return;
  }
  YSlabs<T> y;
  allocate(comm, y);
  boxes_to_y_slabs_->run(comm, type, in, y.data, node, y.peers(PeerArrays::Side::to));
  z_lines_of(comm, y.data, inverse, scale, controls);
  controls.step_done(z_lines_step);
  y_slabs_to_z_slabs_->run(comm, type, static_cast<const std::complex<T>*>(y.data), z_slab, node,
                           y.peers(PeerArrays::Side::from));
}

std::string ZLineSteps::describe(unsigned first, const std::string& boxes) const {
  const std::string a = "  " + std::to_string(first), b = "  " + std::to_string(first + 1),
                    c = "  " + std::to_string(first + 2);
  if (pencils_)
    return a + "-" + std::to_string(first + 1) + ". " + pencils_->describe() + c + ". z-slabs -> " + boxes +
           " boxes (each rank's own z-slab: a copy at most)\n";
  const std::string z_lines = z_lines_.describe();
  const std::string shared =
      ranks_ > 1 ? " (the y-slabs in the node's shared memory when /dev/shm has room for them, allocated by each "
                   "run: the ranks of a node write straight into each other's and read straight from them)"
                 : "";
  return a + ". z-slabs -> y-slabs: " + z_slabs_to_y_slabs_->summary() + shared + "\n" + b + ". z of y-slab " +
         to_string(y_slab_) + " by the single-node engine (its z pass alone)" +
         (z_lines.empty() ? std::string(" (empty)\n") : ":\n" + z_lines) + c + ". y-slabs -> " + boxes +
         " boxes: " + y_slabs_to_boxes_->summary() + "\n";
}

std::string ZLineSteps::describe_backwards(const std::string& boxes) const {
  if (pencils_) return boxes + " boxes -> z-slabs (a copy), the same pencil rounds";
  return boxes + " boxes -> y-slabs (" + boxes_to_y_slabs_->summary() + "), the z lines, y-slabs -> z-slabs (" +
         y_slabs_to_z_slabs_->summary() + ")";
}

template void ZLineSteps::to_boxes(MPI_Comm, std::complex<float>*, std::complex<float>*, bool, double,
                                   const RunControls&, unsigned, const NodeWindow*, const CentringPhases*) const;
template void ZLineSteps::to_boxes(MPI_Comm, std::complex<double>*, std::complex<double>*, bool, double,
                                   const RunControls&, unsigned, const NodeWindow*, const CentringPhases*) const;
template void ZLineSteps::from_boxes(MPI_Comm, const std::complex<float>*, std::complex<float>*, bool, double,
                                     const RunControls&, unsigned, const NodeWindow*) const;
template void ZLineSteps::from_boxes(MPI_Comm, const std::complex<double>*, std::complex<double>*, bool, double,
                                     const RunControls&, unsigned, const NodeWindow*) const;

}  // namespace oocfft::distributed
