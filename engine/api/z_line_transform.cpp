#include "engine/api/z_line_transform.hpp"

#include <tbb/task_arena.h>

#include <type_traits>

#include "engine/api/host_threads.hpp"
#include "engine/pipeline/execution_backend.hpp"
#include "engine/pipeline/streaming_engine.hpp"
#include "volume/host_volume.hpp"

namespace oocfft::engine {

template <class T>
struct ZLineTransform<T>::State {
  State(Shape s, const Options& options)
      : shape(s),
        arena(make_arena(options)),
        streaming(s, std::is_same_v<T, float> ? Precision::single : Precision::double_precision, options,
                  resolve_backend(options.backend), StreamingEngine::ZLinesOnly{}) {}
  Shape shape;
  std::shared_ptr<tbb::task_arena> arena;
  StreamingEngine streaming;
};

template <class T>
ZLineTransform<T>::ZLineTransform(Shape shape, const Options& options)
    : state_(std::make_unique<State>(shape, options)) {}

template <class T>
ZLineTransform<T>::~ZLineTransform() = default;
template <class T>
ZLineTransform<T>::ZLineTransform(ZLineTransform&&) noexcept = default;
template <class T>
ZLineTransform<T>& ZLineTransform<T>::operator=(ZLineTransform&&) noexcept = default;

template <class T>
Shape ZLineTransform<T>::shape() const {
  return state_->shape;
}

template <class T>
void ZLineTransform<T>::execute(std::complex<T>* data, bool inverse, double scale, RunReport* report) const {
  if (state_->shape.elements() == 0) return;
  const Shape& s = state_->shape;
  volume::HostVolume store(reinterpret_cast<std::byte*>(data), {s.nz, s.ny, s.nx}, sizeof(std::complex<T>));
  state_->streaming.execute(store, inverse, scale, *state_->arena, report);
}

template <class T>
std::string ZLineTransform<T>::describe() const {
  return state_->streaming.describe();
}

template class ZLineTransform<float>;
template class ZLineTransform<double>;

}  // namespace oocfft::engine
