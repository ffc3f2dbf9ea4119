// DistributedPlan (include/oocfft/distributed.hpp): z-slab pencils, the
// simplest correct algorithm first.
//   1. the caller's in boxes -> z-slabs (BoxExchange: MPI_Alltoallv rounds);
//   2. each rank's z-slab: the single-node engine's 2D transform of its
//      planes (Plan over Axes::planes: normalised over ny * nx), in the
//      caller's array when the call is in place and the box is the z-slab;
//   3. z-slabs -> y-slabs, the global transpose (BoxExchange);
//      (3-4 where every rank's out box is its z-slab: the z lines in
//      rounds of pencils that leave the z-slabs and come back,
//      pencil_rounds.hpp, with no y-slab);
//   4. each rank's y-slab: the transform along z alone, streamed through
//      the rank's device by the engine's lone z pass
//      (engine::ZLineTransform, normalised over nz);
//   5. y-slabs -> the caller's out boxes (BoxExchange).
// The two partial norms multiply to numpy's over the global shape (for
// each norm, the factor of N points is the product of the factors of
// ny * nx and of nz points). An inverse runs the same steps: the axes'
// transforms commute.
//
// Centred data (Options::shift): the shifts over the global shape are
// phase multiplies by the shift theorem (centring_phases.hpp), the
// input's on each rank's z-slab between steps 1 and 2, the output's on its
// y-slab (pencil rounds: its z-slab) between steps 4 and 5; pointwise, so
// they commute with the exchanges and with the other axes' transforms.
// Where a rank's in box is its z-slab (out box: the slab of step 5), the
// copy step 1 (step 5) makes of it carries the phases; elsewhere they are
// a host sweep of their own (into_z_slabs, into_out_boxes).
//
// Every step a rank may fail alone runs under agree_on()
// (failure_agreement.hpp) before the next exchange, so a failure becomes
// the same Error on every rank and no rank waits in an exchange alone.
#include "oocfft/distributed.hpp"

#include <algorithm>
#include <optional>
#include <type_traits>
#include <string>
#include <vector>

#include "core/format_bytes.hpp"
#include "distributed/box_exchange.hpp"
#include "distributed/box_partition.hpp"
#include "distributed/centring_phases.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/mpi_communicator.hpp"
#include "distributed/network_rate.hpp"
#include "distributed/node_window.hpp"
#include "distributed/pencil_rounds.hpp"
#include "distributed/rank_device.hpp"
#include "distributed/uninitialised_buffer.hpp"
#include "core/format_bytes.hpp"
#include "engine/api/z_line_transform.hpp"
#include "engine/planning/normalization.hpp"
#include "oocfft/plan.hpp"

namespace oocfft {
namespace {

using distributed::agree_on;
using distributed::BoxExchange;

// What every rank says about its arguments, gathered on every rank.
struct RankArguments {
  std::int64_t shape[3];
  std::int64_t precision;
  std::int64_t norm, shift;  // what is computed: the same on every rank
  std::int64_t in_low[3], in_high[3], out_low[3], out_high[3];
};
constexpr int argument_count = sizeof(RankArguments) / sizeof(std::int64_t);

RankArguments arguments_of(Shape shape, Precision precision, const Options& options, const Box3& in,
                           const Box3& out) {
  RankArguments a{};
  const std::size_t n[3] = {shape.nz, shape.ny, shape.nx};
  for (int k = 0; k < 3; ++k) {
    a.shape[k] = static_cast<std::int64_t>(n[k]);
    a.in_low[k] = in.low[k];
    a.in_high[k] = in.high[k];
    a.out_low[k] = out.low[k];
    a.out_high[k] = out.high[k];
  }
  a.precision = static_cast<std::int64_t>(precision);
  a.norm = static_cast<std::int64_t>(options.norm);
  a.shift = options.shift ? 1 : 0;
  return a;
}

// Why the gathered arguments cannot make a plan; the same on every rank.
void check_arguments(const std::vector<RankArguments>& all, Shape shape, std::vector<Box3>& in_boxes,
                     std::vector<Box3>& out_boxes) {
  if (shape.nz == 0 || shape.ny == 0 || shape.nx == 0)
    throw Error(ErrorKind::invalid_argument, "distributed plan of the empty shape " + shape.to_string());
  for (std::size_t r = 0; r < all.size(); ++r) {
    const RankArguments& a = all[r];
    for (int k = 0; k < 3; ++k)
      if (a.shape[k] != all[0].shape[k])
        throw Error(ErrorKind::invalid_argument, "rank " + std::to_string(r) + " passes another shape than rank 0's " +
                                                     shape.to_string());
    if (a.precision != all[0].precision)
      throw Error(ErrorKind::invalid_argument, "rank " + std::to_string(r) + " passes another precision than rank 0");
    // One rank's norm or shift alone would give a volume that is no
    // transform at all, silently.
    if (a.norm != all[0].norm)
      throw Error(ErrorKind::invalid_argument,
                  "rank " + std::to_string(r) + " passes another Options::norm than rank 0");
    if (a.shift != all[0].shift)
      throw Error(ErrorKind::invalid_argument,
                  "rank " + std::to_string(r) + " passes another Options::shift than rank 0");
    Box3 in, out;
    for (int k = 0; k < 3; ++k) {
      in.low[k] = a.in_low[k];
      in.high[k] = a.in_high[k];
      out.low[k] = a.out_low[k];
      out.high[k] = a.out_high[k];
    }
    in_boxes.push_back(in);
    out_boxes.push_back(out);
  }
  if (auto fault = distributed::tiling_fault(in_boxes, shape, "in")) throw Error(ErrorKind::invalid_argument, *fault);
  if (auto fault = distributed::tiling_fault(out_boxes, shape, "out"))
    throw Error(ErrorKind::invalid_argument, *fault);
}

template <class T>
MPI_Datatype mpi_type_of() {
  return std::is_same_v<T, float> ? MPI_C_FLOAT_COMPLEX : MPI_C_DOUBLE_COMPLEX;
}

}  // namespace

class DistributedPlan::Impl {
 public:
  Impl(MPI_Comm caller, Shape shape, Box3 in_box, Box3 out_box, Precision precision, const Options& options)
      : comm_(caller), shape_(shape), in_box_(in_box), out_box_(out_box), precision_(precision), options_(options) {
    const int ranks = comm_.size();
    const int rank = comm_.rank();
    std::vector<RankArguments> all(static_cast<std::size_t>(ranks));
    const RankArguments mine = arguments_of(shape, precision, options, in_box, out_box);
    distributed::check_mpi(MPI_Allgather(&mine, argument_count, MPI_INT64_T, all.data(), argument_count,
                                         MPI_INT64_T, comm_.get()),
                           "MPI_Allgather");
    std::vector<Box3> in_boxes, out_boxes;
    agree_on(comm_.get(), [&] { check_arguments(all, shape, in_boxes, out_boxes); });
    int local_rank = 0;
    agree_on(comm_.get(), [&] { local_rank = distributed::node_local_rank(comm_.get()); });
    const bool uses_cuda =
        options.backend == Backend::cuda || (options.backend == Backend::automatic && cuda_available());
    const distributed::RankDevice device = distributed::rank_device(options, local_rank, uses_cuda, cuda_device_count());
    device_note_ = device.note;

    agree_on(comm_.get(), [&] {
      if (options.shift) centring_.emplace(shape);
      const std::vector<Box3> z_slabs = distributed::slab_boxes(shape, 0, ranks);
      const std::vector<Box3> y_slabs = distributed::slab_boxes(shape, 1, ranks);
      z_slab_ = z_slabs[static_cast<std::size_t>(rank)];
      y_slab_ = y_slabs[static_cast<std::size_t>(rank)];
      for (const Box3& b : y_slabs) largest_y_slab_ = std::max(largest_y_slab_, b.count());
      const std::size_t element = precision == Precision::single ? 8 : 16;
      to_z_slabs_.emplace(in_boxes, z_slabs, rank, element);
      // The local plan's own progress would be one rank's bricks: the
      // plan reports the whole job's steps instead (report_step).
      Options local = device.options;
      local.progress = nullptr;
      // The local transforms see a rank's part of the volume: its shift
      // would be over the part's shape. The plan applies the global one.
      local.shift = false;
      if (!z_slab_.empty()) planes_.emplace(z_slab_.extent(), precision, Axes::planes, local);
      if (out_boxes == z_slabs) {
        // Every rank wants its z-slab back: the z lines in rounds of
        // pencils, no y-slab (pencil_rounds.hpp).
        pencils_.emplace(shape, rank, ranks, precision, local,
                         distributed::PencilRounds::Setup{.overlap = true, .page_locked = uses_cuda});
        to_out_boxes_.emplace(z_slabs, out_boxes, rank, element);
        return;
      }
      transpose_.emplace(z_slabs, y_slabs, rank, element);
      to_out_boxes_.emplace(y_slabs, out_boxes, rank, element);
      if (!y_slab_.empty()) {
        if (precision == Precision::single)
          z_lines_single_.emplace(y_slab_.extent(), local);
        else
          z_lines_double_.emplace(y_slab_.extent(), local);
      }
    });
    if (pencils_) pencils_->place_buffers(comm_.get());
    open_node_window();
    network_ = distributed::measure_network_rate(comm_.get());
  }

  // Bytes this rank sends to ranks of other nodes in one transform.
  std::size_t bytes_to_other_nodes() const {
    const std::size_t element = precision_ == Precision::single ? 8 : 16;
    std::size_t elements = 0;
    for (const auto* e : {&to_z_slabs_, &transpose_, &to_out_boxes_})
      if (*e) elements += (*e)->sent_to(network_.on_other_node);
    return elements * element + (pencils_ ? pencils_->bytes_to(network_.on_other_node) : 0);
  }

  // The node's shared segments (node_window.hpp), one round of the
  // largest exchange each; the same size on every rank (the bounds come
  // from every rank's boxes). Where MPI cannot allocate them, every
  // exchange goes through MPI alone, and describe() says why.
  void open_node_window() {
    // Pencils in shared memory exchange without segments (pencil_rounds.hpp).
    std::size_t bytes = pencils_ && !pencils_->shares_pencils() ? pencils_->round_bound_bytes() : 0;
    for (const auto* e : {&to_z_slabs_, &transpose_, &to_out_boxes_})
      if (*e) bytes = std::max(bytes, (*e)->round_bound_bytes());
    if (comm_.size() < 2 || bytes == 0) {
      node_note_ = comm_.size() < 2 ? "none: one rank"
                                    : "no segments: no exchange between ranks needs them (see the steps)";
      return;
    }
    try {
      agree_on(comm_.get(), [&] { node_window_.emplace(comm_.get(), bytes); });
      node_note_ = "points for the " + std::to_string(node_window_->node_size() - 1) +
                   " other rank(s) of this node through shared segments of " + format_bytes(double(bytes)) +
                   " a rank (MPI_Win_allocate_shared, copies on the rank's threads)" +
                   (node_window_->holds_every_rank() ? "" : ", for the others MPI_Alltoallv");
    } catch (const Error& e) {
      node_window_.reset();
      node_note_ = std::string("every exchange through MPI_Alltoallv: no shared segments (") + e.what() + ")";
    }
  }

  template <class T>
  void execute(const std::complex<T>* in, std::complex<T>* out, Direction direction) const {
    const MPI_Comm comm = comm_.get();
    // In place, with this rank's box its z-slab: its planes are transformed
    // in the caller's array, and no z-slab copy is made.
    const bool planes_in_place = static_cast<const void*>(in) == out && in_box_ == z_slab_;
    std::optional<distributed::UninitialisedBuffer<std::complex<T>>> z_slab, y_slab;
    agree_on(comm, [&] {
      const Precision called = std::is_same_v<T, float> ? Precision::single : Precision::double_precision;
      if (called != precision_)
        throw Error(ErrorKind::invalid_argument, std::string("a ") + to_string(precision_) +
                                                     " distributed plan called with " + to_string(called) +
                                                     " arrays");
      const std::string rank = "rank " + std::to_string(comm_.rank());
      if (in == nullptr && !in_box_.empty())
        throw Error(ErrorKind::invalid_argument, rank + ": null input array for its in box " +
                                                     distributed::to_string(in_box_));
      if (out == nullptr && !out_box_.empty())
        throw Error(ErrorKind::invalid_argument, rank + ": null output array for its out box " +
                                                     distributed::to_string(out_box_));
      if (!planes_in_place) z_slab.emplace(z_slab_.count());
    });
    // The y-slabs: in the node's shared memory where it has room (one copy
    // each way, straight into and out of the peers' y-slabs), else each
    // rank's own.
    std::optional<distributed::NodeWindow> shared_y_slabs;
    if (!pencils_) {
      if (comm_.size() > 1) {
        try {
          agree_on(comm, [&] { shared_y_slabs.emplace(comm, largest_y_slab_ * sizeof(std::complex<T>)); });
        } catch (const Error&) {
          shared_y_slabs.reset();  // every rank alike: MPI alone, as describe() says
        }
      }
      agree_on(comm, [&] {
        if (!shared_y_slabs) y_slab.emplace(y_slab_.count());
      });
    }
    auto peers = [&](distributed::PeerArrays::Side side) -> std::optional<distributed::PeerArrays> {
      if (!shared_y_slabs) return std::nullopt;
      return distributed::PeerArrays{&*shared_y_slabs, 0, side};
    };
    std::complex<T>* const y = shared_y_slabs ? reinterpret_cast<std::complex<T>*>(shared_y_slabs->segment(comm_.rank()))
                               : y_slab                 ? y_slab->data()
                                                        : nullptr;
    const MPI_Datatype type = mpi_type_of<T>();
    std::complex<T>* planes = planes_in_place ? out : z_slab->data();
    const distributed::NodeWindow* node = node_window();
    into_z_slabs(comm, type, in, planes, direction);
    agree_on(comm, [&] {
      if (planes_) planes_->execute(planes, direction);
    });
    report_step(0);
    const double scale = engine::norm_scale(options_.norm, direction, shape_.nz);
    if (pencils_) {
      agree_on(comm, [&] { poll_cancel_before_z_lines(); });
      pencils_->run(comm, planes, direction == Direction::inverse, scale, node);
      report_step(1);
      into_out_boxes(comm, type, planes, z_slab_, out, direction);
      report_step(2);
      return;
    }
    transpose_->run(comm, type, static_cast<const std::complex<T>*>(planes), y, node,
                    peers(distributed::PeerArrays::Side::to));
    z_slab.reset();  // its memory back before the z lines
    agree_on(comm, [&] {
      poll_cancel_before_z_lines();
      if constexpr (std::is_same_v<T, float>) {
        if (z_lines_single_) z_lines_single_->execute(y, direction == Direction::inverse, scale);
      } else {
        if (z_lines_double_) z_lines_double_->execute(y, direction == Direction::inverse, scale);
      }
    });
    report_step(1);
    into_out_boxes(comm, type, y, y_slab_, out, direction, peers(distributed::PeerArrays::Side::from));
    report_step(2);
  }

  // Step 1 and, centred, the input's phases. Where this rank's in box is
  // its z-slab and the call is out of place, the exchange's only work for
  // it is to copy that box into the planes' array: that copy carries the
  // phases (the exchange still runs, being collective, with nothing of
  // this rank's left to move), and no sweep is made.
  template <class T>
  void into_z_slabs(MPI_Comm comm, MPI_Datatype type, const std::complex<T>* in, std::complex<T>* planes,
                    Direction direction) const {
    if (centring_ && in_box_ == z_slab_ && static_cast<const void*>(in) != planes) {
      centring_->before_transform(in, planes, z_slab_, direction);
      to_z_slabs_->run(comm, type, static_cast<const std::complex<T>*>(planes), planes, node_window());
      return;
    }
    to_z_slabs_->run(comm, type, in, planes, node_window());
    if (centring_) centring_->before_transform(planes, z_slab_, direction);
  }

  // Step 5 and, centred, the output's phases, from `last`, this rank's
  // `slab` (its y-slab, or its z-slab after pencil rounds): the same fold
  // where its out box is that slab and `out` is another array.
  // `peers`: the y-slabs of the node's ranks in its shared memory, read
  // straight by the ranks whose out boxes they hold points of. A rank
  // whose out box is its own slab is read by no other.
  template <class T>
  void into_out_boxes(MPI_Comm comm, MPI_Datatype type, std::complex<T>* last, const Box3& slab,
                      std::complex<T>* out, Direction direction,
                      std::optional<distributed::PeerArrays> peers = std::nullopt) const {
    // The peers read the slabs straight: every rank's phases first (every
    // rank of the node takes part in the barrier, whichever branch it takes).
    auto phased = [&] {
      if (centring_ && peers) peers->window->synchronise();
    };
    if (centring_ && out_box_ == slab && last != out) {
      centring_->after_transform(static_cast<const std::complex<T>*>(last), out, slab, direction);
      phased();
      to_out_boxes_->run(comm, type, static_cast<const std::complex<T>*>(out), out, node_window(), peers);
      return;
    }
    if (centring_) centring_->after_transform(last, slab, direction);
    phased();
    to_out_boxes_->run(comm, type, static_cast<const std::complex<T>*>(last), out, node_window(), peers);
  }

  // The node's segments for the exchanges, or null (open_node_window).
  const distributed::NodeWindow* node_window() const { return node_window_ ? &*node_window_ : nullptr; }

  // Polled here too, not only by the engine's bricks: a rank with no
  // y-slab or no pencils runs none.
  void poll_cancel_before_z_lines() const {
    if (options_.cancel && options_.cancel())
      throw Error(ErrorKind::cancelled, "rank " + std::to_string(comm_.rank()) + ": cancelled before the z lines");
  }

  // Rank 0 reports the whole job's progress (Options::progress): after the
  // planes and after the z lines every rank has finished the step (it
  // agreed on it); after the last exchange, rank 0 has all it receives.
  static constexpr unsigned steps = 3;
  void report_step(unsigned step) const {
    if (comm_.rank() == 0 && options_.progress) options_.progress(Progress{step + 1, steps, 0, step, steps});
  }

  std::string describe() const {
    const std::size_t element = precision_ == Precision::single ? 8 : 16;
    auto exchanged = [&](const BoxExchange& e) {
      return std::to_string(e.sent_to_others() * element) + " bytes sent to other ranks, " +
             std::to_string(e.received_from_others() * element) + " received, rounds: " + std::to_string(e.rounds());
    };
    std::string s = "distributed 3D FFT " + shape_.to_string() + " " + to_string(precision_) + ", rank " +
                    std::to_string(comm_.rank()) + " of " + std::to_string(comm_.size()) + "\n";
    s += "  in box " + distributed::to_string(in_box_) + ", out box " + distributed::to_string(out_box_) + "\n";
    s += "  device of steps 2 and 4: " + device_note_ + "\n";
    s += "  exchanges: " + node_note_ + "\n";
    s += "  network: " + network_.describe_floor(bytes_to_other_nodes()) + "\n";
    if (centring_) {
      // Where each multiply goes and what it costs: a sweep reads and
      // writes its slab once in host memory; a fold costs nothing beyond
      // the copy step 1 or 5 makes anyway (into_z_slabs, into_out_boxes).
      const Box3& last = pencils_ ? z_slab_ : y_slab_;
      // In place, the z-slab is the caller's array: there is no copy.
      const auto where = [&](const Box3& slab, bool own_box, const char* step, bool slab_is_callers_in_place) {
        const std::string sweep = "a host sweep over it (" + format_bytes(double(slab.count() * element)) + ")";
        if (!own_box) return sweep;
        const std::string copy = std::string("carried by the copy of step ") + step;
        return slab_is_callers_in_place ? copy + " when out of place, else " + sweep : copy;
      };
      s += "  centred (Options::shift: numpy's fftshift(fftn(ifftshift(u))), ifftn inverse, over the global shape):"
           " phase multiplies by the shift theorem; the input's on the z-slab before step 2, " +
           where(z_slab_, in_box_ == z_slab_, "1", true) + "; the output's on the " +
           (pencils_ ? "z-slab after steps 3-4, " : "y-slab after step 4, ") +
           where(last, out_box_ == last, "5", pencils_.has_value()) + "\n";
    }
    s += "  1. in boxes -> z-slabs: " + exchanged(*to_z_slabs_) + "\n";
    s += "  2. xy of z-slab " + distributed::to_string(z_slab_) + " by the single-node engine (Plan over Axes::planes)" +
         (planes_ ? ":\n" + planes_->describe() : std::string(" (empty)\n"));
    if (pencils_) {
      s += "  3-4. " + pencils_->describe();
      s += "  5. z-slabs -> out boxes (each rank's own z-slab: a copy at most)\n";
      return s;
    }
    s += "  3. z-slabs -> y-slabs: " + exchanged(*transpose_) +
         (comm_.size() > 1 ? "; the y-slabs in the node's shared memory when /dev/shm has room for them (a run "
                             "allocates them), so the ranks of a node write straight into each other's, and read "
                             "straight from them in step 5"
                           : "") +
         "\n";
    const std::string z_lines = z_lines_single_   ? z_lines_single_->describe()
                                : z_lines_double_ ? z_lines_double_->describe()
                                                  : std::string();
    s += "  4. z of y-slab " + distributed::to_string(y_slab_) + " by the single-node engine (its z pass alone)" +
         (z_lines.empty() ? std::string(" (empty)\n") : ":\n" + z_lines);
    s += "  5. y-slabs -> out boxes: " + exchanged(*to_out_boxes_) + "\n";
    return s;
  }

  distributed::DuplicatedCommunicator comm_;
  Shape shape_;
  Box3 in_box_, out_box_;
  Precision precision_;
  Options options_;
  std::string device_note_;  // which device this rank's local transforms use, and why
  std::string node_note_;    // how the exchanges move points between ranks of a node
  distributed::NetworkRate network_;  // the nodes, and the rate between them measured at plan time
  Box3 z_slab_, y_slab_;
  std::size_t largest_y_slab_ = 0;  // points of the largest rank's y-slab: the stride of shared y-slabs
  std::optional<BoxExchange> to_z_slabs_, transpose_, to_out_boxes_;
  std::optional<Plan> planes_;
  std::optional<distributed::PencilRounds> pencils_;  // steps 3-4 when every out box is its z-slab
  std::optional<distributed::CentringPhases> centring_;  // Options::shift
  std::optional<engine::ZLineTransform<float>> z_lines_single_;
  std::optional<engine::ZLineTransform<double>> z_lines_double_;
  std::optional<distributed::NodeWindow> node_window_;  // declared last: freed first, while comm_ lives
};

DistributedPlan::DistributedPlan(MPI_Comm comm, Shape shape, Box3 in_box, Box3 out_box, Precision precision,
                                 const Options& options)
    : impl_(std::make_unique<Impl>(distributed::usable_communicator(comm, "DistributedPlan"), shape, in_box, out_box,
                                   precision, options)) {}
DistributedPlan::~DistributedPlan() = default;
DistributedPlan::DistributedPlan(DistributedPlan&&) noexcept = default;
DistributedPlan& DistributedPlan::operator=(DistributedPlan&&) noexcept = default;

void DistributedPlan::forward(const std::complex<float>* in, std::complex<float>* out) const {
  impl_->execute(in, out, Direction::forward);
}
void DistributedPlan::forward(const std::complex<double>* in, std::complex<double>* out) const {
  impl_->execute(in, out, Direction::forward);
}
void DistributedPlan::inverse(const std::complex<float>* in, std::complex<float>* out) const {
  impl_->execute(in, out, Direction::inverse);
}
void DistributedPlan::inverse(const std::complex<double>* in, std::complex<double>* out) const {
  impl_->execute(in, out, Direction::inverse);
}

Shape DistributedPlan::shape() const { return impl_->shape_; }
Precision DistributedPlan::precision() const { return impl_->precision_; }
Box3 DistributedPlan::in_box() const { return impl_->in_box_; }
Box3 DistributedPlan::out_box() const { return impl_->out_box_; }
std::string DistributedPlan::describe() const { return impl_->describe(); }

}  // namespace oocfft
