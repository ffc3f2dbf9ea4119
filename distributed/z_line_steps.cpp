#include "distributed/z_line_steps.hpp"

#include "distributed/box_partition.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/uninitialised_buffer.hpp"

namespace oocfft::distributed {

ZLineSteps::ZLineSteps(Shape shape, const std::vector<Box3>& boxes, int rank, int ranks, Precision precision,
                       const Options& local) {
  const std::vector<Box3> z_slabs = slab_boxes(shape, 0, ranks);
  const std::vector<Box3> y_slabs = slab_boxes(shape, 1, ranks);
  y_slab_ = y_slabs[static_cast<std::size_t>(rank)];
  const std::size_t element = precision == Precision::single ? 8 : 16;
  if (boxes == z_slabs) {
    pencils_.emplace(shape, rank, ranks, precision, local);
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
void ZLineSteps::to_boxes(MPI_Comm comm, std::complex<T>* z_slab, std::complex<T>* out, bool inverse, double scale,
                          const RunControls& controls, unsigned z_lines_step) const {
  const MPI_Datatype type = mpi_datatype<std::complex<T>>();
  if (pencils_) {
    agree_on(comm, [&] { controls.poll_cancel("the z lines"); });
    pencils_->run(comm, z_slab, inverse, scale);
    controls.step_done(z_lines_step);
    z_slabs_to_boxes_->run(comm, type, static_cast<const std::complex<T>*>(z_slab), out);
    return;
  }
  std::optional<UninitialisedBuffer<std::complex<T>>> y_slab;
  agree_on(comm, [&] { y_slab.emplace(y_slab_.count()); });
  z_slabs_to_y_slabs_->run(comm, type, static_cast<const std::complex<T>*>(z_slab), y_slab->data());
  z_lines_of(comm, y_slab->data(), inverse, scale, controls);
  controls.step_done(z_lines_step);
  y_slabs_to_boxes_->run(comm, type, static_cast<const std::complex<T>*>(y_slab->data()), out);
}

template <class T>
void ZLineSteps::from_boxes(MPI_Comm comm, const std::complex<T>* in, std::complex<T>* z_slab, bool inverse,
                            double scale, const RunControls& controls, unsigned z_lines_step) const {
  const MPI_Datatype type = mpi_datatype<std::complex<T>>();
  if (pencils_) {
    boxes_to_z_slabs_->run(comm, type, in, z_slab);
    agree_on(comm, [&] { controls.poll_cancel("the z lines"); });
    pencils_->run(comm, z_slab, inverse, scale);
    controls.step_done(z_lines_step);
    return;
  }
  std::optional<UninitialisedBuffer<std::complex<T>>> y_slab;
  agree_on(comm, [&] { y_slab.emplace(y_slab_.count()); });
  boxes_to_y_slabs_->run(comm, type, in, y_slab->data());
  z_lines_of(comm, y_slab->data(), inverse, scale, controls);
  controls.step_done(z_lines_step);
  y_slabs_to_z_slabs_->run(comm, type, static_cast<const std::complex<T>*>(y_slab->data()), z_slab);
}

std::string ZLineSteps::describe(unsigned first, const std::string& boxes) const {
  const std::string a = "  " + std::to_string(first), b = "  " + std::to_string(first + 1),
                    c = "  " + std::to_string(first + 2);
  if (pencils_)
    return a + "-" + std::to_string(first + 1) + ". " + pencils_->describe() + c + ". z-slabs -> " + boxes +
           " boxes (each rank's own z-slab: a copy at most)\n";
  const std::string z_lines = z_lines_.describe();
  return a + ". z-slabs -> y-slabs (MPI_Alltoallv): " + z_slabs_to_y_slabs_->summary() + "\n" + b + ". z of y-slab " +
         to_string(y_slab_) + " by the single-node engine (its z pass alone)" +
         (z_lines.empty() ? std::string(" (empty)\n") : ":\n" + z_lines) + c + ". y-slabs -> " + boxes +
         " boxes (MPI_Alltoallv): " + y_slabs_to_boxes_->summary() + "\n";
}

std::string ZLineSteps::describe_backwards(const std::string& boxes) const {
  if (pencils_) return boxes + " boxes -> z-slabs (a copy), the same pencil rounds";
  return boxes + " boxes -> y-slabs (" + boxes_to_y_slabs_->summary() + "), the z lines, y-slabs -> z-slabs (" +
         y_slabs_to_z_slabs_->summary() + ")";
}

template void ZLineSteps::to_boxes(MPI_Comm, std::complex<float>*, std::complex<float>*, bool, double,
                                   const RunControls&, unsigned) const;
template void ZLineSteps::to_boxes(MPI_Comm, std::complex<double>*, std::complex<double>*, bool, double,
                                   const RunControls&, unsigned) const;
template void ZLineSteps::from_boxes(MPI_Comm, const std::complex<float>*, std::complex<float>*, bool, double,
                                     const RunControls&, unsigned) const;
template void ZLineSteps::from_boxes(MPI_Comm, const std::complex<double>*, std::complex<double>*, bool, double,
                                     const RunControls&, unsigned) const;

}  // namespace oocfft::distributed
