#include "engine/api/angular_spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <new>
#include <numbers>

#include "engine/pipeline/execution_backend.hpp"
#include "engine/api/host_threads.hpp"
#include "engine/planning/options_check.hpp"
#include "engine/pipeline/streaming_engine.hpp"
#include "optics/transfer_function_stage.hpp"
#include "oocfft/error.hpp"

namespace oocfft::optics {

using engine::Stage;

void require(bool ok, const std::string& what) {
  if (!ok) throw Error(ErrorKind::invalid_argument, "asm: " + what);
}

void check_distances(std::span<const double> distances) {
  require(!distances.empty(), "no distance given");
  for (std::size_t j = 0; j < distances.size(); ++j)
    require(std::isfinite(distances[j]), "distance " + std::to_string(j) + " is not a finite number of metres");
}

void check_asm_options(const AsmOptions& o) {
  require(std::isfinite(o.wavelength) && o.wavelength > 0,
          "wavelength is " + std::to_string(o.wavelength) + "; it must be a positive length in metres");
  require(std::isfinite(o.pitch_x) && o.pitch_x > 0,
          "pitch_x is " + std::to_string(o.pitch_x) + "; it must be a positive length in metres");
  require(std::isfinite(o.pitch_y) && o.pitch_y >= 0,
          "pitch_y is " + std::to_string(o.pitch_y) + "; it must be a positive length in metres (0: as pitch_x)");
  require(std::isfinite(o.index) && o.index > 0, "index is " + std::to_string(o.index) + "; it must be positive");
  require(o.pad == 1 || o.pad == 2, "pad is " + std::to_string(o.pad) + "; it must be 1 or 2");
  require(o.evanescent == Evanescent::decay || o.evanescent == Evanescent::zero,
          "evanescent is " + std::to_string(static_cast<int>(o.evanescent)) + ", not decay or zero");
}

namespace {

// The largest phase k |z| = 2 pi n |z| / wavelength the transfer function
// may hold: a double carries it to 2^45 * 2^-52 = 2^-7 rad, so past it the
// phase is noise, and far past it k^2 overflows to a field of NaNs.
constexpr double largest_phase = 35184372088832.0;  // 2^45 rad

void check_phase_range(const AsmOptions& o, std::span<const double> distances) {
  double farthest = 0;
  for (const double z : distances) farthest = std::max(farthest, std::abs(z));
  const double wavenumber = 2 * std::numbers::pi * o.index / o.wavelength;
  require(std::isfinite(wavenumber) && wavenumber * farthest <= largest_phase,
          "index " + std::to_string(o.index) + " over wavelength " + std::to_string(o.wavelength) +
              " m gives a wavenumber of " + std::to_string(wavenumber) + " rad/m, a phase of " +
              std::to_string(wavenumber * farthest) + " rad at the farthest distance (" + std::to_string(farthest) +
              " m): past 2^45 rad double precision cannot hold it; check the wavelength's and the index's units");
}

}  // namespace

template <class T>
std::vector<std::complex<T>> padded_buffer(std::size_t elements) {
  try {
    return std::vector<std::complex<T>>(elements);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::out_of_memory, "asm: could not allocate " + std::to_string(elements) +
                                              " elements of padded planes");
  }
}

namespace {

PaddedGrid checked_grid(std::size_t ny, std::size_t nx, const AsmOptions& o) {
  check_asm_options(o);
  require(ny > 0 && nx > 0,
          "a field of " + std::to_string(ny) + " x " + std::to_string(nx) + " samples has no samples");
  engine::check_options(o.fft);
  // Propagation commutes with a cyclic shift of the field, so a centred
  // field needs nothing: a shift option would do nothing, and is refused.
  require(!o.fft.shift, "fft.shift is set: a propagated field does not depend on where its origin lies, so "
                        "angular-spectrum work takes no shift");
  return PaddedGrid{ny, nx, o.pad};
}

template <class T>
constexpr Precision precision_of() {
  return std::is_same_v<T, float> ? Precision::single : Precision::double_precision;
}

}  // namespace

template <class T>
AngularSpectrum<T>::AngularSpectrum(std::size_t ny, std::size_t nx, const AsmOptions& options)
    : grid_(checked_grid(ny, nx, options)),
      h_{grid_.padded_nx(), grid_.padded_ny(), options.pitch_x, options.pitch_y > 0 ? options.pitch_y : options.pitch_x,
         options.index / options.wavelength, options.band_limit, options.evanescent == Evanescent::decay},
      options_(options),
      backend_(engine::resolve_backend(options.fft.backend)),
      arena_(engine::make_arena(options.fft)) {}

template <class T>
void AngularSpectrum<T>::run(const std::vector<Stage>& program, std::size_t planes,
                             typename PlaneStore<T>::Source source, typename PlaneStore<T>::Sink sink,
                             std::span<const double> distances, std::size_t done, std::size_t total) const {
  check_phase_range(options_, distances);
  const Options& user = options_.fft;
  // The engine counts bricks; an operation reports the planes it has done.
  std::size_t planes_per_brick = 1;
  Options f = user;
  f.norm = Norm::backward;
  f.progress = nullptr;
  if (user.progress && total > 0)
    f.progress = [&](const Progress& p) {
      Progress q;
      q.bricks_done = done + (p.bricks_done == p.bricks_total ? planes
                                                              : std::min(planes, p.bricks_done * planes_per_brick));
      q.bricks_total = total;
      q.bytes_moved = p.bytes_moved;
      q.passes = 1;
      user.progress(q);
    };
  const Shape shape{planes, grid_.padded_ny(), grid_.padded_nx()};
  // The inverse scales by 1 / (padded plane): U(0) comes back unchanged.
  const bool inverts = program.back() == Stage::inverse;
  const double scale = inverts ? 1.0 / double(grid_.padded_elements()) : 1.0;
  const engine::StreamingEngine engine(shape, precision_of<T>(), f, backend_, program);
  if (engine.plan().passes.size() == 1) {
    planes_per_brick = engine.plan().passes[0].brick.nz;
    const bool multiplies = engine.multiplies();
    const optics::TransferFunctionStage filter(h_, distances.data(), multiplies ? distances.size() : 0,
                                               multiplies ? planes : 0);
    PlaneStore<T> store(grid_, planes, 1, source, sink, {});
    engine.execute(store, false, scale, *arena_, &report_, multiplies ? &filter : nullptr);
    return;
  }
  // Rows, columns, rows: plane by plane through one padded scratch plane.
  f.progress = nullptr;
  const engine::StreamingEngine one(Shape{1, shape.ny, shape.nx}, precision_of<T>(), f, backend_, program);
  run_plane_by_plane(one, planes, source, sink, distances, done, total, scale);
}

template <class T>
void AngularSpectrum<T>::run_plane_by_plane(const engine::StreamingEngine& one, std::size_t planes,
                                            const typename PlaneStore<T>::Source& source,
                                            const typename PlaneStore<T>::Sink& sink,
                                            std::span<const double> distances, std::size_t done, std::size_t total,
                                            double scale) const {
  const Options& user = options_.fft;
  const bool multiplies = one.multiplies();
  auto scratch = padded_buffer<T>(grid_.padded_elements());
  const unsigned passes = static_cast<unsigned>(one.plan().passes.size());
  for (std::size_t j = 0; j < planes; ++j) {
    const double z = distances.empty() ? 0.0 : distances[distances.size() == 1 ? 0 : j];
    const optics::TransferFunctionStage filter(h_, &z, 1, multiplies ? 1 : 0);
    PlaneStore<T> store(grid_, 1, passes, source.at_plane(j, grid_), sink.at_plane(j, grid_), scratch);
    try {
      one.execute(store, false, scale, *arena_, &report_, multiplies ? &filter : nullptr);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::cancelled) throw;
      throw Error(ErrorKind::cancelled, "asm: cancelled at plane " + std::to_string(done + j + 1) + " of " +
                                            std::to_string(total) + " (" + e.what() + ")" +
                                            (done + j == 0 ? "; nothing was written" : ""));
    }
    if (user.progress && total > 0) {
      Progress q;
      q.bricks_done = done + j + 1;
      q.bricks_total = total;
      q.passes = 1;
      user.progress(q);
    }
  }
}

template <class T>
void AngularSpectrum<T>::propagate(const C* in, C* out, std::size_t planes, std::span<const double> distances) const {
  run({Stage::forward, Stage::multiply, Stage::inverse}, planes, {in, PlaneForm::field, false},
      {out, PlaneForm::field, PlaneWrite::assign}, distances, 0, planes);
}

template <class T>
void AngularSpectrum<T>::propagate(volume::VolumeStore& in, volume::VolumeStore& out, std::size_t planes,
                                   std::span<const double> distances) const {
  typename PlaneStore<T>::Source source;
  source.store = &in;
  typename PlaneStore<T>::Sink sink;
  sink.store = &out;
  run({Stage::forward, Stage::multiply, Stage::inverse}, planes, source, sink, distances, 0, planes);
}

template <class T>
void AngularSpectrum<T>::refocus(const C* field, std::span<const double> distances, C* volume) const {
  // FFT2 once; every distance then multiplies that spectrum and inverts.
  auto spectrum = padded_buffer<T>(grid_.padded_elements());
  run({Stage::forward}, 1, {field, PlaneForm::field, false}, {spectrum.data(), PlaneForm::padded, PlaneWrite::assign},
      {}, 0, 0);
  run({Stage::multiply, Stage::inverse}, distances.size(), {spectrum.data(), PlaneForm::padded, true},
      {volume, PlaneForm::field, PlaneWrite::assign}, distances, 0, distances.size());
}

template <class T>
void AngularSpectrum<T>::refocus(volume::VolumeStore& field, std::span<const double> distances, C* volume) const {
  auto spectrum = padded_buffer<T>(grid_.padded_elements());
  typename PlaneStore<T>::Source source;
  source.store = &field;
  run({Stage::forward}, 1, source, {spectrum.data(), PlaneForm::padded, PlaneWrite::assign}, {}, 0, 0);
  run({Stage::multiply, Stage::inverse}, distances.size(), {spectrum.data(), PlaneForm::padded, true},
      {volume, PlaneForm::field, PlaneWrite::assign}, distances, 0, distances.size());
}

template <class T>
void AngularSpectrum<T>::refocus(const C* field, std::span<const double> distances, volume::VolumeStore& out) const {
  auto spectrum = padded_buffer<T>(grid_.padded_elements());
  run({Stage::forward}, 1, {field, PlaneForm::field, false}, {spectrum.data(), PlaneForm::padded, PlaneWrite::assign},
      {}, 0, 0);
  typename PlaneStore<T>::Sink sink;
  sink.store = &out;
  run({Stage::multiply, Stage::inverse}, distances.size(), {spectrum.data(), PlaneForm::padded, true}, sink,
      distances, 0, distances.size());
}

template <class T>
void AngularSpectrum<T>::layer_sum(const C* layers, std::size_t planes, std::span<const double> distances,
                                   C* hologram) const {
  typename PlaneStore<T>::Source source{layers, PlaneForm::field, false};
  sum_layers(source, planes, distances, hologram);
}

template <class T>
void AngularSpectrum<T>::layer_sum(volume::VolumeStore& layers, std::size_t planes, std::span<const double> distances,
                                   C* hologram) const {
  typename PlaneStore<T>::Source source;
  source.store = &layers;
  sum_layers(source, planes, distances, hologram);
}

template <class T>
void AngularSpectrum<T>::sum_layers(const typename PlaneStore<T>::Source& layers, std::size_t planes,
                                    std::span<const double> distances, C* hologram) const {
  auto sum = padded_buffer<T>(grid_.padded_elements());
  run({Stage::forward, Stage::multiply}, planes, layers, {sum.data(), PlaneForm::padded, PlaneWrite::accumulate},
      distances, 0, planes);
  run({Stage::inverse}, 1, {sum.data(), PlaneForm::padded, false}, {hologram, PlaneForm::field, PlaneWrite::assign},
      {}, 0, 0);
}

template class AngularSpectrum<float>;
template class AngularSpectrum<double>;
template std::vector<std::complex<float>> padded_buffer<float>(std::size_t);
template std::vector<std::complex<double>> padded_buffer<double>(std::size_t);

}  // namespace oocfft::optics
