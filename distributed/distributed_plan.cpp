// DistributedPlan (include/oocfft/distributed.hpp): z-slab pencils, the
// simplest correct algorithm first.
//   1. the caller's in boxes -> z-slabs (BoxExchange);
//   2. each rank's z-slab: the single-node engine's 2D transform of its
//      planes (Plan over Axes::planes: normalised over ny * nx), in the
//      caller's array when the call is in place and the box is the z-slab;
//   3-5. the z lines (z_line_steps.hpp), normalised over nz:
//   3. z-slabs -> y-slabs, the global transpose (BoxExchange);
//      (3-4 where every rank's out box is its z-slab: the z lines in
//      rounds of pencils that leave the z-slabs and come back,
//      pencil_rounds.hpp, with no y-slab);
//   4. each rank's y-slab: the transform along z alone, streamed through
//      the rank's device by the engine's lone z pass
//      (engine::ZLineTransform);
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
// a host sweep of their own (into_z_slabs, ZLineSteps).
//
// Resident on the node's GPUs: where every rank is on one node with a CUDA
// device of its own that holds its z-slab and y-slab, steps 2-4 run on the
// devices, the transpose as copies between them (node_device_steps.hpp),
// and step 5 is the exchange from the z-slabs to the out boxes; steps 1
// and 5 move nothing where a rank's boxes are its z-slab and nothing is
// centred: its slab goes up from the caller's input and comes down into
// its output.
//
// Every step a rank may fail alone runs under agree_on()
// (failure_agreement.hpp) before the next exchange, so a failure becomes
// the same Error on every rank and no rank waits in an exchange alone.
#include "oocfft/distributed.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/format_bytes.hpp"
#include "distributed/box_exchange.hpp"
#include "distributed/box_partition.hpp"
#include "distributed/centring_phases.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/mpi_communicator.hpp"
#include "distributed/network_rate.hpp"
#if OOCFFT_HAVE_CUDA
#include "distributed/node_device_steps.hpp"
#endif
#include "distributed/node_segments.hpp"
#include "distributed/plan_arguments.hpp"
#include "distributed/rank_device.hpp"
#include "distributed/run_controls.hpp"
#include "distributed/uninitialised_buffer.hpp"
#include "distributed/z_line_steps.hpp"
#include "engine/planning/normalization.hpp"
#include "oocfft/plan.hpp"

namespace oocfft {

using distributed::agree_on;
using distributed::BoxExchange;

class DistributedPlan::Impl {
 public:
  Impl(MPI_Comm caller, Shape shape, Box3 in_box, Box3 out_box, Precision precision, const Options& options)
      : comm_(caller),
        shape_(shape),
        in_box_(in_box),
        out_box_(out_box),
        precision_(precision),
        options_(options),
        controls_(options, comm_.rank(), steps) {
    const int ranks = comm_.size();
    const int rank = comm_.rank();
    const distributed::RankBoxes boxes = distributed::gather_checked_boxes(
        comm_.get(), shape, precision, options, in_box, out_box, {shape, "in"}, {shape, "out"});
    // The local plans' own progress would be one rank's bricks: the plan
    // reports the whole job's steps instead (RunControls).
    const distributed::RankDevice device = distributed::local_transform_options(comm_.get(), options);
    device_note_ = device.note;
    Options local = device.options;
    // The local transforms see a rank's part of the volume: its shift
    // would be over the part's shape. The plan applies the global one.
    local.shift = false;

#if OOCFFT_HAVE_CUDA
    node_device_ = distributed::NodeDeviceSteps::make(comm_.get(), shape, precision, local, node_device_why_not_);
#else
    node_device_why_not_ = "the library is built without CUDA";
#endif
    agree_on(comm_.get(), [&] {
      if (options.shift) centring_.emplace(shape);
      const std::vector<Box3> z_slabs = distributed::slab_boxes(shape, 0, ranks);
      z_slab_ = z_slabs[static_cast<std::size_t>(rank)];
      const std::size_t element = precision == Precision::single ? 8 : 16;
      to_z_slabs_.emplace(boxes.first, z_slabs, rank, element);
      if (on_node_devices()) {
        z_slabs_to_out_.emplace(z_slabs, boxes.second, rank, element);
        return;
      }
      if (!z_slab_.empty()) planes_.emplace(z_slab_.extent(), precision, Axes::planes, local);
      z_lines_.emplace(shape, boxes.second, rank, ranks, precision, local, device.uses_cuda);
    });
    if (z_lines_) z_lines_->place_buffers(comm_.get());
    node_segments_.open(comm_.get(), comm_.size(),
                        std::max(to_z_slabs_->round_bound_bytes(), z_lines_ ? z_lines_->round_bound_bytes()
                                                                             : z_slabs_to_out_->round_bound_bytes()));
    network_ = distributed::measure_network_rate(comm_.get());
  }

  // The node's segments for the exchanges, or null (NodeSegments: one
  // round of the largest exchange each, the same size on every rank).
  const distributed::NodeWindow* node_window() const { return node_segments_.window(); }

  // Steps 2-4 on the node's devices (node_device_steps.hpp): the same on every rank.
  bool on_node_devices() const {
#if OOCFFT_HAVE_CUDA
    return node_device_ != nullptr;
#else
    return false;
#endif
  }

  // Bytes this rank sends to ranks of other nodes in one transform.
  std::size_t bytes_to_other_nodes() const {
    const std::size_t steps = z_lines_ ? z_lines_->bytes_to(network_.on_other_node)
                                       : z_slabs_to_out_->sent_to(network_.on_other_node) * z_slabs_to_out_->element_bytes();
    return to_z_slabs_->sent_to(network_.on_other_node) * to_z_slabs_->element_bytes() + steps;
  }

  template <class T>
  void execute(const std::complex<T>* in, std::complex<T>* out, Direction direction) const {
    const MPI_Comm comm = comm_.get();
    // In place, with this rank's box its z-slab: its planes are transformed
    // in the caller's array, and no z-slab copy is made.
    const bool planes_in_place = static_cast<const void*>(in) == out && in_box_ == z_slab_;
    if (on_node_devices()) return execute_on_node_devices(in, out, direction, planes_in_place);
    std::optional<distributed::UninitialisedBuffer<std::complex<T>>> z_slab;
    agree_on(comm, [&] {
      check_arrays<T>(in, out);
      if (!planes_in_place) z_slab.emplace(z_slab_.count());
    });
    const MPI_Datatype type = distributed::mpi_datatype<std::complex<T>>();
    std::complex<T>* planes = planes_in_place ? out : z_slab->data();
    into_z_slabs(comm, type, in, planes, direction);
    agree_on(comm, [&] {
      if (planes_) planes_->execute(planes, direction);
    });
    controls_.step_done(0);
    const double scale = engine::norm_scale(options_.norm, direction, shape_.nz);
    z_lines_->to_boxes(comm, planes, out, direction == Direction::inverse, scale, controls_, 1, node_window(),
                       centring_ ? &*centring_ : nullptr);
    controls_.step_done(2);
  }

  // Throws on this rank when the call's arrays cannot be its boxes'.
  template <class T>
  void check_arrays(const std::complex<T>* in, const std::complex<T>* out) const {
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
  }

  // Steps 2-4 on the node's devices. A rank's slab goes up straight from
  // `in` when its in box is its z-slab and nothing is centred, and comes
  // down straight into `out` when its out box is; otherwise through its
  // host z-slab (the caller's array when the planes are in place, else a
  // buffer of this call), where steps 1 and 5 exchange and the centring
  // phases are swept. Steps 1 and 5 are collective: every rank runs them,
  // those with nothing to move copying nothing (same array, same box).
  template <class T>
  void execute_on_node_devices(const std::complex<T>* in, std::complex<T>* out, Direction direction,
                               bool planes_in_place) const {
#if OOCFFT_HAVE_CUDA
    const MPI_Comm comm = comm_.get();
    const bool straight_in = !centring_ && in_box_ == z_slab_;
    const bool straight_out = !centring_ && out_box_ == z_slab_;
    std::optional<distributed::UninitialisedBuffer<std::complex<T>>> buffer;
    agree_on(comm, [&] {
      check_arrays<T>(in, out);
      if (!planes_in_place && !(straight_in && straight_out)) buffer.emplace(z_slab_.count());
    });
    std::complex<T>* host_slab = planes_in_place ? out : buffer ? buffer->data() : nullptr;
    const MPI_Datatype type = distributed::mpi_datatype<std::complex<T>>();
    const std::complex<T>* up = in;
    if (straight_in)  // its own box to itself: nothing is written
      to_z_slabs_->run(comm, type, in, const_cast<std::complex<T>*>(in), node_window());
    else {
      into_z_slabs(comm, type, in, host_slab, direction);
      up = host_slab;
    }
    std::complex<T>* down = straight_out ? out : host_slab;
    const double scale = engine::norm_scale(options_.norm, direction, shape_.elements());
    node_device_->run(comm, up, down, direction == Direction::inverse, scale, controls_, 0);
    if (centring_) centring_->after_transform(down, z_slab_, direction);
    z_slabs_to_out_->run(comm, type, static_cast<const std::complex<T>*>(down), out, node_window());
    controls_.step_done(2);
#else
    (void)in, (void)out, (void)direction, (void)planes_in_place;
#endif
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

  std::string describe() const {
    const std::size_t element = precision_ == Precision::single ? 8 : 16;
    std::string s = "distributed 3D FFT " + shape_.to_string() + " " + to_string(precision_) + ", rank " +
                    std::to_string(comm_.rank()) + " of " + std::to_string(comm_.size()) + "\n";
    s += "  in box " + distributed::to_string(in_box_) + ", out box " + distributed::to_string(out_box_) + "\n";
    s += std::string("  device of steps 2 and ") + (on_node_devices() ? "3" : "4") + ": " + device_note_ + "\n";
    s += "  exchanges: " + node_segments_.note() + "\n";
    s += "  network: " + network_.describe_floor(bytes_to_other_nodes()) + "\n";
    if (centring_) {
      // Where each multiply goes and what it costs: a sweep reads and
      // writes its slab once in host memory; a fold costs nothing beyond
      // the copy step 1 or 5 makes anyway (into_z_slabs, ZLineSteps).
      const bool rounds = z_lines_->in_rounds();
      const Box3 last = rounds ? z_slab_ : slab_box(shape_, 1, comm_.rank(), comm_.size());
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
           (rounds ? "z-slab after steps 3-4, " : "y-slab after step 4, ") +
           where(last, out_box_ == last, "5", rounds) + "\n";
    }
    s += "  1. in boxes -> z-slabs: " + to_z_slabs_->summary() + "\n";
#if OOCFFT_HAVE_CUDA
    if (node_device_)
      return s + node_device_->describe(2) + "  4. z-slabs -> out boxes: " + z_slabs_to_out_->summary() + "\n";
#endif
    s += "  steps 2-4 on the hosts, not resident on the node's devices: " + node_device_why_not_ + "\n";
    s += "  2. xy of z-slab " + distributed::to_string(z_slab_) + " by the single-node engine (Plan over Axes::planes)" +
         (planes_ ? ":\n" + planes_->describe() : std::string(" (empty)\n"));
    return s + z_lines_->describe(3, "out");
  }

  distributed::DuplicatedCommunicator comm_;
  Shape shape_;
  Box3 in_box_, out_box_;
  Precision precision_;
  Options options_;
  std::string device_note_;  // which device this rank's local transforms use, and why
  distributed::NetworkRate network_;  // the nodes, and the rate between them measured at plan time
  Box3 z_slab_;
  std::optional<BoxExchange> to_z_slabs_;
  std::optional<Plan> planes_;
  std::optional<distributed::ZLineSteps> z_lines_;  // steps 3-5 on the hosts
#if OOCFFT_HAVE_CUDA
  std::unique_ptr<distributed::NodeDeviceSteps> node_device_;  // steps 2-4 on the node's devices, or null
#endif
  std::string node_device_why_not_;  // why steps 2-4 are not on the node's devices
  std::optional<BoxExchange> z_slabs_to_out_;  // step 5 after the node's devices
  std::optional<distributed::CentringPhases> centring_;  // Options::shift's phases over the global shape
  // Three steps reported: the planes, the z lines, the last exchange.
  static constexpr unsigned steps = 3;
  distributed::RunControls controls_;
  distributed::NodeSegments node_segments_;  // declared last: freed first, while comm_ lives
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
