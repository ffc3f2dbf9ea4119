#include "oocfft/plan.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cstdint>
#include <new>
#include <string>
#include <type_traits>

#include "engine/api/call_guards.hpp"
#include "engine/api/host_threads.hpp"
#include "engine/api/pinned_memory.hpp"
#include "engine/pipeline/execution_backend.hpp"
#include "engine/pipeline/streaming_engine.hpp"
#include "engine/planning/normalization.hpp"
#include "engine/planning/options_check.hpp"
#include "volume/host_volume.hpp"
#include "volume/out_of_place_store.hpp"
#include "volume/widened_real_store.hpp"

namespace oocfft {

using engine::live_impl;
using engine::out_of_memory_as_error;

namespace {

void validate_shape(const Shape& shape) {
  if (shape.nz == 0 || shape.ny == 0 || shape.nx == 0)
    throw Error(ErrorKind::invalid_argument, "shape " + shape.to_string() + " has an axis of length 0");
  // Complex<double> is the larger element: refuse shapes whose byte count
  // overflows in either precision.
  (void)shape.bytes(sizeof(std::complex<double>));
}

template <class T>
constexpr Precision precision_of() {
  return std::is_same_v<T, float> ? Precision::single : Precision::double_precision;
}

}  // namespace

class Plan::Impl {
 public:
  Impl(Shape shape_in, Precision precision_in, Axes axes_in, const Options& options_in)
      : shape((validate_shape(shape_in), engine::check_options(options_in), check_axes(axes_in, options_in),
               shape_in)),
        precision(precision_in),
        axes(axes_in),
        options(options_in),
        arena(engine::make_arena(options_in)),
        // Makes the backend, chooses the strategy and builds the kernels;
        // refuses bad options before any data is seen.
        streaming(make_engine(shape, precision, axes, options)) {}

  template <class T>
  void check_array(const std::complex<T>* data, const char* name, Direction direction) const {
    if (data == nullptr)
      throw Error(ErrorKind::invalid_argument, std::string("execute: ") + name + " is a null pointer");
    if (reinterpret_cast<std::uintptr_t>(data) % alignof(std::complex<T>) != 0)
      throw Error(ErrorKind::invalid_argument, std::string("execute: ") + name + " is not aligned for complex<" +
                                                   (std::is_same_v<T, float> ? "float" : "double") + "> (" +
                                                   std::to_string(alignof(std::complex<T>)) + " bytes)");
    engine::check_direction(direction);
    if (precision_of<T>() != precision)
      throw Error(ErrorKind::invalid_argument, std::string("execute: the plan is ") + to_string(precision) +
                                                   " precision but the array holds complex<" +
                                                   (std::is_same_v<T, float> ? "float" : "double") + ">");
  }

  template <class T>
  void execute(const std::complex<T>* in, std::complex<T>* out, Direction direction, RunReport* report) const {
    if (in == out) return execute(out, direction, report);
    check_array(in, "the input", direction);
    check_array(out, "the output", direction);
    const std::size_t bytes = shape.bytes(sizeof(std::complex<T>));
    engine::check_apart(in, bytes, out, bytes,
                        "execute: the input and the output overlap (give the same array for an in-place transform)");
    const double scale = engine::norm_scale(options.norm, direction, transform_points());
    const bool inverse = direction == Direction::inverse;
    auto* target = reinterpret_cast<std::byte*>(out);
    // The caller's input is never written: the store only reads it.
    auto* source = reinterpret_cast<std::byte*>(const_cast<std::complex<T>*>(in));
    if (streaming.host_in_place()) {
      // The host backend's in-core plan works where the array lies: the
      // output, after a parallel copy of the input.
      arena->execute([&] {
        volume::HostVolume(target, {shape.nz, shape.ny, shape.nx}, sizeof(std::complex<T>))
            .write(Box{0, 0, 0, shape}, BrickLayout::natural, source);
      });
      streaming.execute_in_place(target, inverse, scale, *arena, report);
      return;
    }
    volume::HostVolume input(source, {shape.nz, shape.ny, shape.nx}, sizeof(std::complex<T>));
    volume::HostVolume output(target, {shape.nz, shape.ny, shape.nx}, sizeof(std::complex<T>));
    volume::OutOfPlaceStore store(input, output);
    streaming.execute(store, inverse, scale, *arena, report);
  }

  template <class T>
  void execute(const T* in, std::complex<T>* out, Direction direction, RunReport* report) const {
    check_array(out, "the output", direction);
    if (in == nullptr) throw Error(ErrorKind::invalid_argument, "execute: the real input is a null pointer");
    if (reinterpret_cast<std::uintptr_t>(in) % alignof(T) != 0)
      throw Error(ErrorKind::invalid_argument, "execute: the real input is not aligned");
    engine::check_apart(in, shape.bytes(sizeof(T)), out, shape.bytes(sizeof(std::complex<T>)),
                        "execute: the real input and the output overlap");
    const double scale = engine::norm_scale(options.norm, direction, transform_points());
    const bool inverse = direction == Direction::inverse;
    auto* target = reinterpret_cast<std::byte*>(out);
    if (streaming.host_in_place()) {
      // The host backend's in-core plan works where the array lies: the
      // output, widened from the input in parallel.
      arena->execute([&] {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, shape.elements(), std::size_t{1} << 16),
                          [&](const tbb::blocked_range<std::size_t>& r) {
                            for (std::size_t i = r.begin(); i != r.end(); ++i) out[i] = {in[i], T(0)};
                          });
      });
      streaming.execute_in_place(target, inverse, scale, *arena, report);
      return;
    }
    // Read only: the widened store refuses writes, and the real HostVolume
    // is never handed one.
    volume::HostVolume real(reinterpret_cast<std::byte*>(const_cast<T*>(in)), {shape.nz, shape.ny, shape.nx},
                            sizeof(T));
    volume::WidenedRealStore input(real);
    volume::HostVolume output(target, {shape.nz, shape.ny, shape.nx}, sizeof(std::complex<T>));
    volume::OutOfPlaceStore store(input, output);
    streaming.execute(store, inverse, scale, *arena, report);
  }

  template <class T>
  void execute(std::complex<T>* data, Direction direction, RunReport* report = nullptr) const {
    check_array(data, "data", direction);
    const double scale = engine::norm_scale(options.norm, direction, transform_points());
    const bool inverse = direction == Direction::inverse;
    auto* bytes = reinterpret_cast<std::byte*>(data);
    if (streaming.host_in_place()) {
      streaming.execute_in_place(bytes, inverse, scale, *arena, report);
      return;
    }
    // The caller's array as a volume store: the engine streams it like any other.
    volume::HostVolume store(bytes, {shape.nz, shape.ny, shape.nx}, sizeof(std::complex<T>));
    streaming.execute(store, inverse, scale, *arena, report);
  }

  std::string describe() const {
    std::string s = "oocfft plan: shape " + shape.to_string() + ", complex " + to_string(precision) +
                    (axes == Axes::planes ? ", axes y and x of each z plane" : "") + ", backend " +
                    to_string(streaming.backend()) + ", norm " + to_string(options.norm) + ", threads " +
                    (options.threads == 0 ? std::string("all") : std::to_string(options.threads)) + "\n";
    s += "  volume: " + format_bytes(double(shape.bytes(element_bytes()))) + "\n";
    s += streaming.describe();
    return s;
  }

  std::size_t element_bytes() const {
    return precision == Precision::single ? sizeof(std::complex<float>) : sizeof(std::complex<double>);
  }

  // Points of one transform, for the norm: the volume, or one plane.
  std::size_t transform_points() const { return axes == Axes::planes ? shape.ny * shape.nx : shape.elements(); }

  static int check_axes(Axes axes, const Options& options) {
    if (axes != Axes::all && axes != Axes::planes)
      throw Error(ErrorKind::invalid_argument, "axes is neither all nor planes");
    if (axes == Axes::planes && options.shift)
      throw Error(ErrorKind::unsupported, "options.shift is not supported for a stack of 2D transforms "
                                          "(Axes::planes): apply numpy's fftshift over the last two axes instead");
    return 0;
  }

  static engine::StreamingEngine make_engine(const Shape& shape, Precision precision, Axes axes,
                                             const Options& options) {
    const Backend backend = engine::resolve_backend(options.backend);
    if (axes == Axes::planes)
      return engine::StreamingEngine(shape, precision, options, backend,
                                     std::vector<engine::Stage>{engine::Stage::transform});
    return engine::StreamingEngine(shape, precision, options, backend);
  }

  Shape shape;
  Precision precision;
  Axes axes;
  Options options;
  // Limits the host threads (host_threads.hpp); shared with other plans
  // when options.host_threads is set.
  std::shared_ptr<tbb::task_arena> arena;
  engine::StreamingEngine streaming;
};

Plan::Plan(Shape shape, Precision precision, const Options& options) : Plan(shape, precision, Axes::all, options) {}
Plan::Plan(Shape shape, Precision precision, Axes axes, const Options& options)
    : impl_(out_of_memory_as_error("planning " + shape.to_string(),
                                   [&] { return std::make_unique<Impl>(shape, precision, axes, options); })) {}
Plan::~Plan() = default;
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;

void Plan::execute(std::complex<float>* data, Direction direction) const { execute(data, direction, nullptr); }
void Plan::execute(std::complex<double>* data, Direction direction) const { execute(data, direction, nullptr); }
void Plan::execute(std::complex<float>* data, Direction direction, RunReport* report) const {
  out_of_memory_as_error("execute", [&] { live_impl(impl_, "Plan").execute(data, direction, report); });
}
void Plan::execute(std::complex<double>* data, Direction direction, RunReport* report) const {
  out_of_memory_as_error("execute", [&] { live_impl(impl_, "Plan").execute(data, direction, report); });
}
void Plan::execute(const std::complex<float>* in, std::complex<float>* out, Direction direction,
                   RunReport* report) const {
  out_of_memory_as_error("execute", [&] { live_impl(impl_, "Plan").execute(in, out, direction, report); });
}
void Plan::execute(const std::complex<double>* in, std::complex<double>* out, Direction direction,
                   RunReport* report) const {
  out_of_memory_as_error("execute", [&] { live_impl(impl_, "Plan").execute(in, out, direction, report); });
}
void Plan::execute(const float* in, std::complex<float>* out, Direction direction, RunReport* report) const {
  out_of_memory_as_error("execute", [&] { live_impl(impl_, "Plan").execute(in, out, direction, report); });
}
void Plan::execute(const double* in, std::complex<double>* out, Direction direction, RunReport* report) const {
  out_of_memory_as_error("execute", [&] { live_impl(impl_, "Plan").execute(in, out, direction, report); });
}
PinnedMemory Plan::pin(void* data, std::size_t bytes) const {
  return engine::pin_for_device(data, bytes, live_impl(impl_, "Plan").streaming.backend());
}
Shape Plan::shape() const { return live_impl(impl_, "Plan").shape; }
Precision Plan::precision() const { return live_impl(impl_, "Plan").precision; }
Axes Plan::axes() const { return live_impl(impl_, "Plan").axes; }
Backend Plan::backend() const { return live_impl(impl_, "Plan").streaming.backend(); }
std::string Plan::describe() const { return live_impl(impl_, "Plan").describe(); }

bool cuda_available() noexcept { return engine::cuda_usable(); }
int cuda_device_count() noexcept { return engine::cuda_usable() ? engine::cuda_devices_visible() : 0; }

void fft3d(std::complex<float>* data, Shape shape, Direction direction, const Options& options) {
  if (data == nullptr) throw Error(ErrorKind::invalid_argument, "fft3d: data is a null pointer");
  Plan(shape, Precision::single, options).execute(data, direction);
}

void fft3d(std::complex<double>* data, Shape shape, Direction direction, const Options& options) {
  if (data == nullptr) throw Error(ErrorKind::invalid_argument, "fft3d: data is a null pointer");
  Plan(shape, Precision::double_precision, options).execute(data, direction);
}

}  // namespace oocfft
