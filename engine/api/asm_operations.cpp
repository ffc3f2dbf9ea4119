// propagate, propagate_stack, refocus_stack and layer_sum
// (include/oocfft/asm.hpp): their checks, then AngularSpectrum's plane
// programs. Cancel is polled per brick and progress reported in planes
// (AsmOptions::fft's callbacks).
#include <string>

#include "oocfft/asm.hpp"
#include "oocfft/error.hpp"
#include "engine/api/angular_spectrum.hpp"
#include "engine/api/call_guards.hpp"
#include "volume/host_volume.hpp"
#include "volume/widened_real_store.hpp"

namespace oocfft {

namespace {

using optics::check_distances;
using optics::require;

template <class T>
void propagate_planes(std::complex<T>* stack, Shape shape, std::span<const double> distances, const AsmOptions& o) {
  require(stack != nullptr, "the field is a null pointer");
  check_distances(distances);
  require(distances.size() == 1 || distances.size() == shape.nz,
          std::to_string(distances.size()) + " distances for " + std::to_string(shape.nz) +
              " planes: give one per plane or one for all");
  optics::AngularSpectrum<T>(shape.ny, shape.nx, o).propagate(stack, stack, shape.nz, distances);
}

template <class T>
void refocus(const std::complex<T>* field, std::size_t ny, std::size_t nx, std::span<const double> distances,
             std::complex<T>* volume, const AsmOptions& o) {
  require(field != nullptr && volume != nullptr, "the field or the output volume is a null pointer");
  check_distances(distances);
  optics::AngularSpectrum<T>(ny, nx, o).refocus(field, distances, volume);
}

template <class T>
void sum_layers(const std::complex<T>* layers, Shape shape, std::span<const double> distances,
                std::complex<T>* hologram, const AsmOptions& o) {
  require(layers != nullptr && hologram != nullptr, "the layers or the hologram is a null pointer");
  check_distances(distances);
  require(distances.size() == shape.nz, std::to_string(distances.size()) + " distances for " +
                                            std::to_string(shape.nz) + " layers: give one per layer");
  optics::AngularSpectrum<T>(shape.ny, shape.nx, o).layer_sum(layers, shape.nz, distances, hologram);
}

// A real input as the complex volume it is, read a brick at a time.
template <class T>
struct WidenedInput {
  WidenedInput(const T* data, const Shape& shape)
      : real(const_cast<std::byte*>(reinterpret_cast<const std::byte*>(data)), shape, sizeof(T)), complex(real) {}
  volume::HostVolume real;  // read only
  volume::WidenedRealStore complex;
};

template <class T>
void propagate_real(const T* stack, Shape shape, std::span<const double> distances, std::complex<T>* out,
                    const AsmOptions& o) {
  require(stack != nullptr && out != nullptr, "the field or the output is a null pointer");
  check_distances(distances);
  require(distances.size() == 1 || distances.size() == shape.nz,
          std::to_string(distances.size()) + " distances for " + std::to_string(shape.nz) +
              " planes: give one per plane or one for all");
  engine::check_apart(stack, shape.bytes(sizeof(T)), out, shape.bytes(sizeof(std::complex<T>)),
                      "propagate_stack: the real input and the complex output overlap; give them separate arrays");
  WidenedInput<T> in(stack, shape);
  volume::HostVolume sink(reinterpret_cast<std::byte*>(out), shape, sizeof(std::complex<T>));
  optics::AngularSpectrum<T>(shape.ny, shape.nx, o).propagate(in.complex, sink, shape.nz, distances);
}

template <class T>
void refocus_real(const T* field, std::size_t ny, std::size_t nx, std::span<const double> distances,
                  std::complex<T>* volume, const AsmOptions& o) {
  require(field != nullptr && volume != nullptr, "the field or the output volume is a null pointer");
  check_distances(distances);
  engine::check_apart(field, ny * nx * sizeof(T), volume, distances.size() * ny * nx * sizeof(std::complex<T>),
                      "refocus_stack: the real field and the output volume overlap; give them separate arrays");
  WidenedInput<T> in(field, Shape{1, ny, nx});
  optics::AngularSpectrum<T>(ny, nx, o).refocus(in.complex, distances, volume);
}

template <class T>
void sum_real_layers(const T* layers, Shape shape, std::span<const double> distances, std::complex<T>* hologram,
                     const AsmOptions& o) {
  require(layers != nullptr && hologram != nullptr, "the layers or the hologram is a null pointer");
  check_distances(distances);
  require(distances.size() == shape.nz, std::to_string(distances.size()) + " distances for " +
                                            std::to_string(shape.nz) + " layers: give one per layer");
  engine::check_apart(layers, shape.bytes(sizeof(T)), hologram, shape.ny * shape.nx * sizeof(std::complex<T>),
                      "layer_sum: the real layers and the hologram overlap; give them separate arrays");
  WidenedInput<T> in(layers, shape);
  optics::AngularSpectrum<T>(shape.ny, shape.nx, o).layer_sum(in.complex, shape.nz, distances, hologram);
}

}  // namespace

void propagate_stack(const float* stack, Shape shape, std::span<const double> distances, std::complex<float>* out,
                     const AsmOptions& o) {
  propagate_real(stack, shape, distances, out, o);
}
void propagate_stack(const double* stack, Shape shape, std::span<const double> distances, std::complex<double>* out,
                     const AsmOptions& o) {
  propagate_real(stack, shape, distances, out, o);
}
void refocus_stack(const float* field, std::size_t ny, std::size_t nx, std::span<const double> distances,
                   std::complex<float>* volume, const AsmOptions& o) {
  refocus_real(field, ny, nx, distances, volume, o);
}
void refocus_stack(const double* field, std::size_t ny, std::size_t nx, std::span<const double> distances,
                   std::complex<double>* volume, const AsmOptions& o) {
  refocus_real(field, ny, nx, distances, volume, o);
}
void layer_sum(const float* layers, Shape shape, std::span<const double> distances, std::complex<float>* hologram,
               const AsmOptions& o) {
  sum_real_layers(layers, shape, distances, hologram, o);
}
void layer_sum(const double* layers, Shape shape, std::span<const double> distances, std::complex<double>* hologram,
               const AsmOptions& o) {
  sum_real_layers(layers, shape, distances, hologram, o);
}

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
