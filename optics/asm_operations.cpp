// propagate, propagate_stack, refocus_stack and layer_sum
// (include/oocfft/asm.hpp) over AngularSpectrum. Cancel is polled and
// progress reported per output plane (AsmOptions::fft's callbacks).
#include <string>

#include "oocfft/asm.hpp"
#include "oocfft/error.hpp"
#include "optics/angular_spectrum.hpp"

namespace oocfft {

namespace {

using optics::check_distances;
using optics::require;

// Polls cancel before plane `done` of `total` and reports the planes done.
class PlaneProgress {
 public:
  PlaneProgress(const Options& o, std::size_t total) : o_(o), total_(total) {}
  void before(std::size_t done) const {
    if (o_.cancel && o_.cancel())
      throw Error(ErrorKind::cancelled, "asm: cancelled after " + std::to_string(done) + " of " +
                                            std::to_string(total_) + " planes" +
                                            (done == 0 ? "; nothing was written" : ""));
  }
  void after(std::size_t done) const {
    if (!o_.progress) return;
    Progress p;
    p.bricks_done = done;
    p.bricks_total = total_;
    p.passes = 1;
    o_.progress(p);
  }

 private:
  const Options& o_;
  std::size_t total_;
};

template <class T>
void propagate_planes(std::complex<T>* stack, Shape shape, std::span<const double> distances, const AsmOptions& o) {
  require(stack != nullptr, "the field is a null pointer");
  check_distances(distances);
  require(distances.size() == 1 || distances.size() == shape.nz,
          std::to_string(distances.size()) + " distances for " + std::to_string(shape.nz) +
              " planes: give one per plane or one for all");
  const optics::AngularSpectrum<T> asm_plan(shape.ny, shape.nx, o);
  auto work = optics::padded_buffer<T>(asm_plan.padded_elements());
  const PlaneProgress progress(o.fft, shape.nz);
  const std::size_t plane = shape.ny * shape.nx;
  for (std::size_t j = 0; j < shape.nz; ++j) {
    progress.before(j);
    std::complex<T>* field = stack + j * plane;
    asm_plan.spectrum_of(field, work.data());
    asm_plan.apply(work.data(), distances.size() == 1 ? distances[0] : distances[j], work.data(), false);
    asm_plan.field_of(work.data(), field);
    progress.after(j + 1);
  }
}

template <class T>
void refocus(const std::complex<T>* field, std::size_t ny, std::size_t nx, std::span<const double> distances,
             std::complex<T>* volume, const AsmOptions& o) {
  require(field != nullptr && volume != nullptr, "the field or the output volume is a null pointer");
  check_distances(distances);
  const optics::AngularSpectrum<T> asm_plan(ny, nx, o);
  auto spectrum = optics::padded_buffer<T>(asm_plan.padded_elements());
  auto work = optics::padded_buffer<T>(asm_plan.padded_elements());
  asm_plan.spectrum_of(field, spectrum.data());
  const PlaneProgress progress(o.fft, distances.size());
  for (std::size_t j = 0; j < distances.size(); ++j) {
    progress.before(j);
    asm_plan.apply(spectrum.data(), distances[j], work.data(), false);
    asm_plan.field_of(work.data(), volume + j * ny * nx);
    progress.after(j + 1);
  }
}

template <class T>
void sum_layers(const std::complex<T>* layers, Shape shape, std::span<const double> distances,
                std::complex<T>* hologram, const AsmOptions& o) {
  require(layers != nullptr && hologram != nullptr, "the layers or the hologram is a null pointer");
  check_distances(distances);
  require(distances.size() == shape.nz, std::to_string(distances.size()) + " distances for " +
                                            std::to_string(shape.nz) + " layers: give one per layer");
  const optics::AngularSpectrum<T> asm_plan(shape.ny, shape.nx, o);
  auto sum = optics::padded_buffer<T>(asm_plan.padded_elements());
  auto work = optics::padded_buffer<T>(asm_plan.padded_elements());
  const PlaneProgress progress(o.fft, shape.nz);
  const std::size_t plane = shape.ny * shape.nx;
  for (std::size_t j = 0; j < shape.nz; ++j) {
    progress.before(j);
    asm_plan.spectrum_of(layers + j * plane, work.data());
    asm_plan.apply(work.data(), distances[j], sum.data(), true);
    progress.after(j + 1);
  }
  asm_plan.field_of(sum.data(), hologram);
}

}  // namespace

void propagate(std::complex<float>* field, std::size_t ny, std::size_t nx, double z, const AsmOptions& o) {
  propagate_planes(field, Shape{1, ny, nx}, std::span<const double>(&z, 1), o);
}
void propagate(std::complex<double>* field, std::size_t ny, std::size_t nx, double z, const AsmOptions& o) {
  propagate_planes(field, Shape{1, ny, nx}, std::span<const double>(&z, 1), o);
}
void propagate_stack(std::complex<float>* stack, Shape shape, std::span<const double> distances, const AsmOptions& o) {
  propagate_planes(stack, shape, distances, o);
}
void propagate_stack(std::complex<double>* stack, Shape shape, std::span<const double> distances,
                     const AsmOptions& o) {
  propagate_planes(stack, shape, distances, o);
}
void refocus_stack(const std::complex<float>* field, std::size_t ny, std::size_t nx,
                   std::span<const double> distances, std::complex<float>* volume, const AsmOptions& o) {
  refocus(field, ny, nx, distances, volume, o);
}
void refocus_stack(const std::complex<double>* field, std::size_t ny, std::size_t nx,
                   std::span<const double> distances, std::complex<double>* volume, const AsmOptions& o) {
  refocus(field, ny, nx, distances, volume, o);
}
void layer_sum(const std::complex<float>* layers, Shape shape, std::span<const double> distances,
               std::complex<float>* hologram, const AsmOptions& o) {
  sum_layers(layers, shape, distances, hologram, o);
}
void layer_sum(const std::complex<double>* layers, Shape shape, std::span<const double> distances,
               std::complex<double>* hologram, const AsmOptions& o) {
  sum_layers(layers, shape, distances, hologram, o);
}

}  // namespace oocfft
