#pragma once
// AngularSpectrum: the padded grid, the transfer function and the pass
// programs of one field size, shared by propagate, refocus_stack and
// layer_sum (include/oocfft/asm.hpp). Every operation is a plane program
// of the streaming engine (engine/planning/pass_planner.hpp): the planes go through
// the stream pipeline, padded in the gather and cropped in the scatter
// (plane_store.hpp), and forward FFT2, multiply by H and inverse FFT2 run
// on the device while the plane stays there. A plane that does not fit a
// stream's share runs as rows, columns (where the multiply is), rows.
#include <tbb/task_arena.h>

#include <complex>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/planning/pass_program.hpp"
#include "engine/pipeline/streaming_engine.hpp"
#include "oocfft/asm.hpp"
#include "oocfft/run_report.hpp"
#include "optics/plane_store.hpp"
#include "optics/transfer_function.hpp"

namespace oocfft::optics {

// Refuses what cannot describe a propagation, naming the option.
void check_asm_options(const AsmOptions& options);
// Throws Error(invalid_argument, "asm: " + what) unless `ok`.
void require(bool ok, const std::string& what);
// Refuses no distance, or one that is not a finite number, naming it.
void check_distances(std::span<const double> distances);

template <class T>
class AngularSpectrum {
 public:
  using C = std::complex<T>;
  // Throws Error(invalid_argument) for options that describe no
  // propagation, before anything is planned.
  AngularSpectrum(std::size_t ny, std::size_t nx, const AsmOptions& options);

  const PaddedGrid& grid() const { return grid_; }

  // Plane j of `in` (planes x (ny, nx)) propagated by distances[j], or all
  // by distances[0], into plane j of `out` (which may be `in`).
  void propagate(const C* in, C* out, std::size_t planes, std::span<const double> distances) const;
  // `field` (ny, nx) propagated to every distance, into `volume`.
  void refocus(const C* field, std::span<const double> distances, C* volume) const;
  // The same, each plane written to `out` (distances.size(), ny, nx) as
  // soon as it is done: a stack larger than host memory.
  void refocus(const C* field, std::span<const double> distances, volume::VolumeStore& out) const;
  // IFFT2[ sum_j FFT2[layer j] H(distances[j]) ] into `hologram` (ny, nx).
  void layer_sum(const C* layers, std::size_t planes, std::span<const double> distances, C* hologram) const;

  // The same with the planes in stores of (planes, ny, nx) (HDF5
  // datasets): read as bricks need them and written as they are done, so
  // a stack may be larger than host memory. `out` may read and write the
  // same dataset as `in` only as DatasetTransfer's streamed store does
  // (reads of a plane come before its writes).
  void propagate(volume::VolumeStore& in, volume::VolumeStore& out, std::size_t planes,
                 std::span<const double> distances) const;
  void layer_sum(volume::VolumeStore& layers, std::size_t planes, std::span<const double> distances,
                 C* hologram) const;
  // refocus() of a field in a store of one plane (a real hologram, widened
  // as it is read: volume/widened_real_store.hpp).
  void refocus(volume::VolumeStore& field, std::span<const double> distances, C* volume) const;

  // The report of the last plane program that ran (the last of an
  // operation's runs), for benchmarks and tests.
  const RunReport& last_report() const { return report_; }

 private:
  // Runs `program` over `planes` planes from `source` to `sink`: one
  // execution of all planes when a plane fits a stream's share, else one
  // execution per plane through a padded scratch. `distances` for the
  // multiply (one, or one per plane). Progress counts planes from `done`
  // of `total`; none is reported when `total` is 0.
  void run(const std::vector<engine::Stage>& program, std::size_t planes,
           typename PlaneStore<T>::Source source, typename PlaneStore<T>::Sink sink,
           std::span<const double> distances, std::size_t done, std::size_t total) const;

  // The runs of a plane program that does not fit whole planes: `one`,
  // planned for a single plane, run on each plane in turn.
  void run_plane_by_plane(const engine::StreamingEngine& one, std::size_t planes,
                          const typename PlaneStore<T>::Source& source, const typename PlaneStore<T>::Sink& sink,
                          std::span<const double> distances, std::size_t done, std::size_t total,
                          double scale) const;
  // The layer sum from `layers`: spectra added into one padded plane, one inverse.
  void sum_layers(const typename PlaneStore<T>::Source& layers, std::size_t planes,
                  std::span<const double> distances, C* hologram) const;

  PaddedGrid grid_;
  TransferFunction h_;
  AsmOptions options_;
  Backend backend_;
  std::shared_ptr<tbb::task_arena> arena_;
  mutable RunReport report_;
};

// A padded plane of scratch, with out-of-memory reported as an Error.
template <class T>
std::vector<std::complex<T>> padded_buffer(std::size_t elements);

}  // namespace oocfft::optics
