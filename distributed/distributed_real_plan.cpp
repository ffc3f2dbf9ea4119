// DistributedRealPlan (include/oocfft/distributed_real.hpp): the complex
// plan's z-slab pencils (distributed_plan.cpp) with the real x stage in
// the planes. numpy's rfftn is rfft along x, then complex transforms along
// y and z of the half spectrum; the x and y steps are one rank's planes,
// so the real values cross the network once, as real values, and every
// step after the planes is the complex plan's over the half spectrum
// (nz, ny, nx/2+1).
// Forward:
//   1. real boxes -> real z-slabs (BoxExchange of real values; between
//      ranks of a node through its shared segments, NodeSegments, as the
//      complex plan's exchanges);
//   2. each z-slab's planes, real to half spectrum (engine::
//      RealPlaneTransform: the engine's plane program with RealPlan's x
//      stage, normalised over ny * nx);
//   3-5. the z lines of the half spectrum, normalised over nz, as the
//      complex plan runs them (z_line_steps.hpp): z-slabs -> y-slabs, the
//      z lines of each y-slab, y-slabs -> the spectrum boxes; or, where
//      every spectrum box is its z-slab, the pencil rounds in the
//      spectrum array itself.
// Inverse, the reverse order, so that the x stage (half spectrum back to
// real rows) comes last: spectrum boxes -> y-slabs, z lines, y-slabs ->
// z-slabs (or the pencil rounds in a copy of the input), the planes'
// inverse into real z-slabs, real z-slabs -> real boxes.
// The two partial norms multiply to numpy's over the real N = nz * ny * nx,
// as in the complex plan. Every step a rank may fail alone runs under
// agree_on() (failure_agreement.hpp).
#include "oocfft/distributed_real.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "distributed/box_exchange.hpp"
#include "distributed/box_partition.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/in_precision.hpp"
#include "distributed/mpi_communicator.hpp"
#include "distributed/network_rate.hpp"
#include "distributed/node_segments.hpp"
#include "distributed/plan_arguments.hpp"
#include "distributed/rank_device.hpp"
#include "distributed/run_controls.hpp"
#include "distributed/uninitialised_buffer.hpp"
#include "distributed/z_line_steps.hpp"
#include "engine/api/real_plane_transform.hpp"
#include "engine/planning/normalization.hpp"
#include "oocfft/real.hpp"

namespace oocfft {

using distributed::agree_on;
using distributed::BoxExchange;
using distributed::UninitialisedBuffer;

namespace {

// Whether [a, a + a_bytes) and [b, b + b_bytes) share a byte.
bool overlap(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
  return a_bytes != 0 && b_bytes != 0 && x < y + b_bytes && y < x + a_bytes;
}

}  // namespace

class DistributedRealPlan::Impl {
 public:
  Impl(MPI_Comm caller, Shape shape, Box3 real_box, Box3 spectrum_box, Precision precision, const Options& options)
      : comm_(caller),
        shape_(shape),
        spectrum_(half_spectrum_shape(shape)),
        real_box_(real_box),
        spectrum_box_(spectrum_box),
        precision_(precision),
        options_(options),
        controls_(options, comm_.rank(), steps) {
    const int ranks = comm_.size();
    const int rank = comm_.rank();
    const distributed::RankBoxes boxes = distributed::gather_checked_boxes(
        comm_.get(), shape, precision, options, real_box, spectrum_box, {shape, "real"}, {spectrum_, "spectrum"});
    const distributed::RankDevice device = distributed::local_transform_options(comm_.get(), options);
    device_note_ = device.note;
    const Options& local = device.options;

    agree_on(comm_.get(), [&] {
      if (options.shift)
        throw Error(ErrorKind::unsupported, "Options::shift in a distributed real plan (not built yet)");
      const std::vector<Box3> real_z_slabs = distributed::slab_boxes(shape, 0, ranks);
      real_z_slab_ = real_z_slabs[static_cast<std::size_t>(rank)];
      z_slab_ = slab_box(spectrum_, 0, rank, ranks);
      const std::size_t value = precision == Precision::single ? sizeof(float) : sizeof(double);
      real_to_z_slabs_.emplace(boxes.first, real_z_slabs, rank, value);
      z_slabs_to_real_.emplace(real_z_slabs, boxes.first, rank, value);
      if (!real_z_slab_.empty()) planes_.emplace(precision, real_z_slab_.extent(), local);
      z_lines_.emplace(spectrum_, boxes.second, rank, ranks, precision, local, device.uses_cuda);
    });
    z_lines_->place_buffers(comm_.get());
    node_segments_.open(comm_.get(), ranks,
                        std::max({real_to_z_slabs_->round_bound_bytes(), z_slabs_to_real_->round_bound_bytes(),
                                  z_lines_->round_bound_bytes()}));
    network_ = distributed::measure_network_rate(comm_.get());
  }

  // The node's segments for the exchanges, or null.
  const distributed::NodeWindow* node_window() const { return node_segments_.window(); }

  // Refuses, on every rank alike, arrays that do not fit the plan: the
  // wrong precision, a null array for a box that holds points, a real and
  // a spectrum array that overlap (in place is not built).
  template <class T>
  void check_arrays(const T* real, const std::complex<T>* spectrum, const char* call) const {
    const Precision called = std::is_same_v<T, float> ? Precision::single : Precision::double_precision;
    if (called != precision_)
      throw Error(ErrorKind::invalid_argument, std::string("DistributedRealPlan::") + call + ": a " +
                                                   to_string(precision_) + " plan called with " + to_string(called) +
                                                   " arrays");
    const std::string rank = "DistributedRealPlan::" + std::string(call) + ": rank " + std::to_string(comm_.rank());
    if (real == nullptr && !real_box_.empty())
      throw Error(ErrorKind::invalid_argument,
                  rank + ": null real array for its real box " + distributed::to_string(real_box_));
    if (spectrum == nullptr && !spectrum_box_.empty())
      throw Error(ErrorKind::invalid_argument,
                  rank + ": null spectrum array for its spectrum box " + distributed::to_string(spectrum_box_));
    if (real != nullptr && spectrum != nullptr &&
        overlap(real, real_box_.count() * sizeof(T), spectrum, spectrum_box_.count() * sizeof(std::complex<T>)))
      throw Error(ErrorKind::unsupported, rank + ": the real and the spectrum arrays overlap; the distributed real "
                                                 "plan runs out of place only (in place is not built)");
  }

  template <class T>
  void forward(const T* real, std::complex<T>* spectrum) const {
    const MPI_Comm comm = comm_.get();
    // In rounds, every spectrum box is its z-slab: the planes write
    // straight into the caller's spectrum array, and the rounds run there.
    const bool planes_into_output = z_lines_->in_rounds() && spectrum != nullptr;
    std::optional<UninitialisedBuffer<T>> real_slab;
    std::optional<UninitialisedBuffer<std::complex<T>>> z_slab;
    agree_on(comm, [&] {
      check_arrays(real, spectrum, "forward");
      real_slab.emplace(real_z_slab_.count());
      if (!planes_into_output) z_slab.emplace(z_slab_.count());
    });
    std::complex<T>* planes = planes_into_output ? spectrum : z_slab->data();
    real_to_z_slabs_->run(comm, distributed::mpi_datatype<T>(), real, real_slab->data(), node_window());
    agree_on(comm, [&] {
      if (const auto* p = planes_.get<T>()) p->forward(real_slab->data(), planes, plane_scale(Direction::forward));
    });
    real_slab.reset();
    controls_.step_done(0);
    const double z_scale = engine::norm_scale(options_.norm, Direction::forward, shape_.nz);
    z_lines_->to_boxes(comm, planes, spectrum, false, z_scale, controls_, 1, node_window());
    controls_.step_done(2);
  }

  template <class T>
  void inverse(const std::complex<T>* spectrum, T* real) const {
    const MPI_Comm comm = comm_.get();
    std::optional<UninitialisedBuffer<T>> real_slab;
    std::optional<UninitialisedBuffer<std::complex<T>>> z_slab;
    agree_on(comm, [&] {
      check_arrays(real, spectrum, "inverse");
      z_slab.emplace(z_slab_.count());  // the caller's spectrum is never written
    });
    const double z_scale = engine::norm_scale(options_.norm, Direction::inverse, shape_.nz);
    z_lines_->from_boxes(comm, spectrum, z_slab->data(), true, z_scale, controls_, 0, node_window());
    agree_on(comm, [&] {
      real_slab.emplace(real_z_slab_.count());
      if (const auto* p = planes_.get<T>())
        p->inverse(z_slab->data(), real_slab->data(), plane_scale(Direction::inverse));
    });
    z_slab.reset();
    controls_.step_done(1);
    z_slabs_to_real_->run(comm, distributed::mpi_datatype<T>(), static_cast<const T*>(real_slab->data()), real,
                          node_window());
    controls_.step_done(2);
  }

  // The planes' share of numpy's norm: over ny * nx real points.
  double plane_scale(Direction direction) const {
    return engine::norm_scale(options_.norm, direction, shape_.ny * shape_.nx);
  }

  std::string describe() const {
    const std::string planes = planes_.describe();
    std::string s = "distributed real 3D FFT " + shape_.to_string() + " " + to_string(precision_) +
                    " <-> half spectrum " + spectrum_.to_string() + ", rank " + std::to_string(comm_.rank()) +
                    " of " + std::to_string(comm_.size()) + "\n";
    s += "  real box " + distributed::to_string(real_box_) + ", spectrum box " + distributed::to_string(spectrum_box_) +
         "\n";
    s += "  device of the planes and the z lines: " + device_note_ + "\n";
    // A forward's bytes to other nodes (an inverse moves as many).
    const std::size_t to_other_nodes =
        real_to_z_slabs_->sent_to(network_.on_other_node) * real_to_z_slabs_->element_bytes() +
        z_lines_->bytes_to(network_.on_other_node);
    s += "  network: " + network_.describe_floor(to_other_nodes) + "\n";
    s += "  exchanges: " + node_segments_.note() + "\n";
    s += "  forward:\n";
    s += "  1. real boxes -> real z-slabs (real values): " + real_to_z_slabs_->summary() + "\n";
    s += "  2. rfft2 of real z-slab " + distributed::to_string(real_z_slab_) +
         " into its half spectrum by the single-node engine (its plane program with the real x stage)" +
         (planes.empty() ? std::string(" (empty)\n") : ":\n" + planes);
    s += z_lines_->describe(3, "spectrum");
    s += "  inverse: " + z_lines_->describe_backwards("spectrum") +
         ", the planes' irfft2, real z-slabs -> real boxes (" + z_slabs_to_real_->summary() + ")\n";
    return s;
  }

  distributed::DuplicatedCommunicator comm_;
  Shape shape_;
  Shape spectrum_;
  Box3 real_box_, spectrum_box_;
  Precision precision_;
  Options options_;
  std::string device_note_;  // which device this rank's local transforms use, and why
  distributed::NetworkRate network_;  // the nodes, and the rate between them measured at plan time
  Box3 real_z_slab_, z_slab_;  // z_slab_: of the half spectrum
  std::optional<BoxExchange> real_to_z_slabs_, z_slabs_to_real_;
  distributed::InPrecision<engine::RealPlaneTransform> planes_;
  std::optional<distributed::ZLineSteps> z_lines_;  // steps 3-5, over the half spectrum
  // Three steps reported (distributed_real.hpp).
  static constexpr unsigned steps = 3;
  distributed::RunControls controls_;
  distributed::NodeSegments node_segments_;  // declared last: freed first, while comm_ lives
};

DistributedRealPlan::DistributedRealPlan(MPI_Comm comm, Shape real_shape, Box3 real_box, Box3 spectrum_box,
                                         Precision precision, const Options& options)
    : impl_(std::make_unique<Impl>(distributed::usable_communicator(comm, "DistributedRealPlan"), real_shape,
                                   real_box, spectrum_box, precision, options)) {}
DistributedRealPlan::~DistributedRealPlan() = default;
DistributedRealPlan::DistributedRealPlan(DistributedRealPlan&&) noexcept = default;
DistributedRealPlan& DistributedRealPlan::operator=(DistributedRealPlan&&) noexcept = default;

void DistributedRealPlan::forward(const float* real, std::complex<float>* spectrum) const {
  impl_->forward(real, spectrum);
}
void DistributedRealPlan::forward(const double* real, std::complex<double>* spectrum) const {
  impl_->forward(real, spectrum);
}
void DistributedRealPlan::inverse(const std::complex<float>* spectrum, float* real) const {
  impl_->inverse(spectrum, real);
}
void DistributedRealPlan::inverse(const std::complex<double>* spectrum, double* real) const {
  impl_->inverse(spectrum, real);
}

Shape DistributedRealPlan::shape() const { return impl_->shape_; }
Shape DistributedRealPlan::spectrum_shape() const { return impl_->spectrum_; }
Precision DistributedRealPlan::precision() const { return impl_->precision_; }
Box3 DistributedRealPlan::real_box() const { return impl_->real_box_; }
Box3 DistributedRealPlan::spectrum_box() const { return impl_->spectrum_box_; }
std::string DistributedRealPlan::describe() const { return impl_->describe(); }

}  // namespace oocfft
