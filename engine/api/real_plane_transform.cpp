#include "engine/api/real_plane_transform.hpp"

#include <tbb/task_arena.h>

#include <type_traits>

#include "engine/api/host_threads.hpp"
#include "engine/pipeline/execution_backend.hpp"
#include "engine/pipeline/streaming_engine.hpp"
#include "engine/planning/options_check.hpp"
#include "oocfft/real.hpp"
#include "volume/host_volume.hpp"
#include "volume/real_spectrum_store.hpp"

namespace oocfft::engine {

template <class T>
struct RealPlaneTransform<T>::State {
  State(Shape s, const Options& options)
      : shape((check_options(options), s)),
        spectrum(half_spectrum_shape(s)),
        arena(make_arena(options)),
        streaming(spectrum, std::is_same_v<T, float> ? Precision::single : Precision::double_precision, options,
                  resolve_backend(options.backend), kernels::VolumeTransform{kernels::TransformKind::real, s.nx},
                  std::vector<Stage>{Stage::transform}) {}
  Shape shape;
  Shape spectrum;
  std::shared_ptr<tbb::task_arena> arena;
  StreamingEngine streaming;
};

template <class T>
RealPlaneTransform<T>::RealPlaneTransform(Shape real_shape, const Options& options)
    : state_(std::make_unique<State>(real_shape, options)) {}

template <class T>
RealPlaneTransform<T>::~RealPlaneTransform() = default;
template <class T>
RealPlaneTransform<T>::RealPlaneTransform(RealPlaneTransform&&) noexcept = default;
template <class T>
RealPlaneTransform<T>& RealPlaneTransform<T>::operator=(RealPlaneTransform&&) noexcept = default;

template <class T>
Shape RealPlaneTransform<T>::shape() const {
  return state_->shape;
}

template <class T>
Shape RealPlaneTransform<T>::spectrum_shape() const {
  return state_->spectrum;
}

template <class T>
void RealPlaneTransform<T>::forward(const T* real, std::complex<T>* spectrum, double scale) const {
  if (state_->shape.elements() == 0) return;
  // The store reads the real array and never writes it.
  volume::HostVolume real_side(const_cast<std::byte*>(reinterpret_cast<const std::byte*>(real)), state_->shape,
                               sizeof(T));
  volume::HostVolume spectrum_side(reinterpret_cast<std::byte*>(spectrum), state_->spectrum, sizeof(std::complex<T>));
  volume::RealSpectrumStore store(real_side, spectrum_side);
  state_->streaming.execute(store, false, scale, *state_->arena, nullptr);
}

template <class T>
void RealPlaneTransform<T>::inverse(const std::complex<T>* spectrum, T* real, double scale) const {
  if (state_->shape.elements() == 0) return;
  volume::HostVolume input_side(const_cast<std::byte*>(reinterpret_cast<const std::byte*>(spectrum)),
                                state_->spectrum, sizeof(std::complex<T>));
  volume::HostVolume real_side(reinterpret_cast<std::byte*>(real), state_->shape, sizeof(T));
  volume::RealSpectrumStore store(input_side, real_side, nullptr);
  state_->streaming.execute(store, true, scale, *state_->arena, nullptr);
}

template <class T>
std::string RealPlaneTransform<T>::describe() const {
  return state_->streaming.describe();
}

template class RealPlaneTransform<float>;
template class RealPlaneTransform<double>;

}  // namespace oocfft::engine
