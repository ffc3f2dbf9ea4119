// DistributedPlan (include/oocfft/distributed.hpp): z-slab pencils, the
// simplest correct algorithm first.
//   1. the caller's in boxes -> z-slabs (BoxExchange: MPI_Alltoallv rounds);
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
// Every step a rank may fail alone runs under agree_on()
// (failure_agreement.hpp) before the next exchange, so a failure becomes
// the same Error on every rank and no rank waits in an exchange alone.
#include "oocfft/distributed.hpp"

#include <optional>
#include <type_traits>
#include <string>
#include <vector>

#include "distributed/box_exchange.hpp"
#include "distributed/box_partition.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/mpi_communicator.hpp"
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
        comm_.get(), shape, precision, in_box, out_box, {shape, "in"}, {shape, "out"});
    // The local plans' own progress would be one rank's bricks: the plan
    // reports the whole job's steps instead (RunControls).
    const distributed::RankDevice device = distributed::local_transform_options(comm_.get(), options);
    device_note_ = device.note;
    const Options& local = device.options;

    agree_on(comm_.get(), [&] {
      if (options.shift)
        throw Error(ErrorKind::unsupported, "Options::shift in a distributed plan (not built yet)");
      const std::vector<Box3> z_slabs = distributed::slab_boxes(shape, 0, ranks);
      z_slab_ = z_slabs[static_cast<std::size_t>(rank)];
      const std::size_t element = precision == Precision::single ? 8 : 16;
      to_z_slabs_.emplace(boxes.first, z_slabs, rank, element);
      if (!z_slab_.empty()) planes_.emplace(z_slab_.extent(), precision, Axes::planes, local);
      z_lines_.emplace(shape, boxes.second, rank, ranks, precision, local);
    });
  }

  template <class T>
  void execute(const std::complex<T>* in, std::complex<T>* out, Direction direction) const {
    const MPI_Comm comm = comm_.get();
    // In place, with this rank's box its z-slab: its planes are transformed
    // in the caller's array, and no z-slab copy is made.
    const bool planes_in_place = static_cast<const void*>(in) == out && in_box_ == z_slab_;
    std::optional<distributed::UninitialisedBuffer<std::complex<T>>> z_slab;
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
    const MPI_Datatype type = distributed::mpi_datatype<std::complex<T>>();
    std::complex<T>* planes = planes_in_place ? out : z_slab->data();
    to_z_slabs_->run(comm, type, in, planes);
    agree_on(comm, [&] {
      if (planes_) planes_->execute(planes, direction);
    });
    controls_.step_done(0);
    const double scale = engine::norm_scale(options_.norm, direction, shape_.nz);
    z_lines_->to_boxes(comm, planes, out, direction == Direction::inverse, scale, controls_, 1);
    controls_.step_done(2);
  }

  std::string describe() const {
    std::string s = "distributed 3D FFT " + shape_.to_string() + " " + to_string(precision_) + ", rank " +
                    std::to_string(comm_.rank()) + " of " + std::to_string(comm_.size()) + "\n";
    s += "  in box " + distributed::to_string(in_box_) + ", out box " + distributed::to_string(out_box_) + "\n";
    s += "  device of steps 2 and 4: " + device_note_ + "\n";
    s += "  1. in boxes -> z-slabs (MPI_Alltoallv): " + to_z_slabs_->summary() + "\n";
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
  Box3 z_slab_;
  std::optional<BoxExchange> to_z_slabs_;
  std::optional<Plan> planes_;
  std::optional<distributed::ZLineSteps> z_lines_;  // steps 3-5
  // Three steps reported: the planes, the z lines, the last exchange.
  static constexpr unsigned steps = 3;
  distributed::RunControls controls_;
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
