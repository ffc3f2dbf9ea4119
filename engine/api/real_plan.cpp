#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include "engine/api/call_guards.hpp"
#include "engine/api/host_threads.hpp"
#include "engine/api/pinned_memory.hpp"
#include "engine/pipeline/streaming_engine.hpp"
#include "engine/planning/normalization.hpp"
#include "engine/planning/options_check.hpp"
#include "oocfft/real.hpp"
#include "volume/host_buffer.hpp"
#include "volume/host_volume.hpp"
#include "volume/real_spectrum_store.hpp"

namespace oocfft {

using engine::live_impl;
using engine::out_of_memory_as_error;

Shape half_spectrum_shape(const Shape& real_shape) { return {real_shape.nz, real_shape.ny, real_shape.nx / 2 + 1}; }

namespace {

void validate_real_shape(const Shape& shape) {
  if (shape.nz == 0 || shape.ny == 0 || shape.nx == 0)
    throw Error(ErrorKind::invalid_argument, "real shape " + shape.to_string() + " has an axis of length 0");
  (void)half_spectrum_shape(shape).bytes(sizeof(std::complex<double>));  // refuses byte counts that overflow
}

template <class T>
constexpr Precision precision_of() {
  return std::is_same_v<T, float> ? Precision::single : Precision::double_precision;
}

template <class T>
constexpr const char* type_name() {
  return std::is_same_v<T, float> ? "float" : "double";
}

template <class P>
void check_pointer(const P* p, const char* call, const char* what) {
  if (p == nullptr) throw Error(ErrorKind::invalid_argument, std::string(call) + ": " + what + " is a null pointer");
  if (reinterpret_cast<std::uintptr_t>(p) % alignof(P) != 0)
    throw Error(ErrorKind::invalid_argument,
                std::string(call) + ": " + what + " is not aligned to " + std::to_string(alignof(P)) + " bytes");
}

// Rows of `rows` x `width` bytes between a packed array and one whose rows
// lie `pitch` bytes apart (FFTW's padded layout), in parallel.
void copy_rows(const std::byte* from, std::size_t from_pitch, std::byte* to, std::size_t to_pitch, std::size_t rows,
               std::size_t width) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows, 64), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) std::memcpy(to + i * to_pitch, from + i * from_pitch, width);
  });
}


}  // namespace

class RealPlan::Impl {
 public:
  Impl(Shape shape_in, Precision precision_in, const Options& options_in)
      : shape((validate_real_shape(shape_in), engine::check_options(options_in), shape_in)),
        spectrum(half_spectrum_shape(shape_in)),
        precision(precision_in),
        options(options_in),
        arena(engine::make_arena(options_in)),
        streaming(spectrum, precision, options, engine::resolve_backend(options_in.backend),
                  kernels::VolumeTransform{kernels::TransformKind::real, shape_in.nx}) {}

  template <class T>
  void check_type(const char* call) const {
    if (precision_of<T>() != precision)
      throw Error(ErrorKind::invalid_argument, std::string(call) + ": the plan is " + to_string(precision) +
                                                   " precision but the arrays hold " + type_name<T>());
  }

  double scale(Direction direction) const { return engine::norm_scale(options.norm, direction, shape.elements()); }

  std::size_t real_row_bytes(std::size_t value_bytes) const { return shape.nx * value_bytes; }
  std::size_t padded_row_bytes(std::size_t value_bytes) const { return spectrum.nx * 2 * value_bytes; }
  std::size_t rows() const { return shape.nz * shape.ny; }

  template <class T>
  void forward(const T* real, std::complex<T>* out, RunReport* report) const {
    check_pointer(real, "RealPlan::forward", "the real array");
    check_pointer(out, "RealPlan::forward", "the spectrum array");
    check_type<T>("RealPlan::forward");
    engine::check_apart(real, shape.bytes(sizeof(T)), out, spectrum.bytes(sizeof(std::complex<T>)),
                        "RealPlan::forward: the real and the spectrum arrays overlap; for one array in FFTW's padded "
                        "layout call forward_in_place");
    auto* out_bytes = reinterpret_cast<std::byte*>(out);
    // The store reads the real array and never writes it.
    auto* in_bytes = const_cast<std::byte*>(reinterpret_cast<const std::byte*>(real));
    if (streaming.host_in_place()) {
      // The rows into FFTW's padded layout in the output, then in place.
      arena->execute([&] {
        copy_rows(in_bytes, real_row_bytes(sizeof(T)), out_bytes, padded_row_bytes(sizeof(T)), rows(),
                  real_row_bytes(sizeof(T)));
      });
      streaming.execute_in_place(out_bytes, false, scale(Direction::forward), *arena, report);
      return;
    }
    volume::HostVolume real_side(in_bytes, shape, sizeof(T));
    volume::HostVolume spectrum_side(out_bytes, spectrum, sizeof(std::complex<T>));
    volume::RealSpectrumStore store(real_side, spectrum_side);
    streaming.execute(store, false, scale(Direction::forward), *arena, report);
  }

  template <class T>
  void inverse(const std::complex<T>* in, T* real, RunReport* report) const {
    check_pointer(in, "RealPlan::inverse", "the spectrum array");
    check_pointer(real, "RealPlan::inverse", "the real array");
    check_type<T>("RealPlan::inverse");
    engine::check_apart(real, shape.bytes(sizeof(T)), in, spectrum.bytes(sizeof(std::complex<T>)),
                        "RealPlan::inverse: the spectrum and the real arrays overlap; for one array in FFTW's padded "
                        "layout call inverse_in_place");
    auto* in_bytes = const_cast<std::byte*>(reinterpret_cast<const std::byte*>(in));
    auto* out_bytes = reinterpret_cast<std::byte*>(real);
    if (streaming.host_in_place()) {
      // A copy of the spectrum is transformed where it lies, then its rows
      // come out of the padded layout: the caller's spectrum is not written.
      volume::HostBuffer scratch(spectrum.bytes(sizeof(std::complex<T>)), "a copy of the half spectrum to invert");
      arena->execute([&] {
        copy_rows(in_bytes, padded_row_bytes(sizeof(T)), scratch.data(), padded_row_bytes(sizeof(T)), rows(),
                  padded_row_bytes(sizeof(T)));
      });
      streaming.execute_in_place(scratch.data(), true, scale(Direction::inverse), *arena, report);
      arena->execute([&] {
        copy_rows(scratch.data(), padded_row_bytes(sizeof(T)), out_bytes, real_row_bytes(sizeof(T)), rows(),
                  real_row_bytes(sizeof(T)));
      });
      return;
    }
    volume::HostVolume input_side(in_bytes, spectrum, sizeof(std::complex<T>));
    volume::HostVolume real_side(out_bytes, shape, sizeof(T));
    volume::RealSpectrumStore store(input_side, real_side, nullptr);
    streaming.execute(store, true, scale(Direction::inverse), *arena, report);
    if (report != nullptr) report->host_scratch_bytes = store.scratch_bytes();
  }

  template <class T>
  void in_place(T* padded, bool inverse, RunReport* report) const {
    const char* call = inverse ? "RealPlan::inverse_in_place" : "RealPlan::forward_in_place";
    check_pointer(padded, call, "the padded array");
    check_type<T>(call);
    auto* bytes = reinterpret_cast<std::byte*>(padded);
    const Direction direction = inverse ? Direction::inverse : Direction::forward;
    if (streaming.host_in_place()) {
      streaming.execute_in_place(bytes, inverse, scale(direction), *arena, report);
      return;
    }
    // The padded array is the half spectrum, byte for byte.
    volume::HostVolume store(bytes, spectrum, sizeof(std::complex<T>));
    streaming.execute(store, inverse, scale(direction), *arena, report);
  }

  std::string describe() const {
    std::string s = "oocfft real plan: shape " + shape.to_string() + ", real " + to_string(precision) +
                    " -> half spectrum " + spectrum.to_string() + ", backend " + to_string(streaming.backend()) +
                    ", norm " + to_string(options.norm) + ", threads " +
                    (options.threads == 0 ? std::string("all") : std::to_string(options.threads)) + "\n";
    const std::size_t value = precision == Precision::single ? sizeof(float) : sizeof(double);
    s += "  real volume: " + format_bytes(double(shape.bytes(value))) +
         "; half spectrum: " + format_bytes(double(spectrum.bytes(2 * value))) +
         "; the passes run over the half spectrum, the x stage turning real rows into it first (forward) and "
         "back last (the inverse runs the passes in reverse order)\n";
    const engine::PassPlan plan = streaming.plan();
    if (plan.writes_between_passes())
      s += "  an out-of-place inverse keeps the half spectrum between its passes in host memory (" +
           format_bytes(double(spectrum.bytes(2 * value))) + "); inverse_in_place needs none\n";
    s += streaming.describe();
    return s;
  }

  Shape shape;
  Shape spectrum;
  Precision precision;
  Options options;
  std::shared_ptr<tbb::task_arena> arena;
  engine::StreamingEngine streaming;
};

RealPlan::RealPlan(Shape shape, Precision precision, const Options& options)
    : impl_(out_of_memory_as_error("planning the real transform of " + shape.to_string(),
                                   [&] { return std::make_unique<Impl>(shape, precision, options); })) {}
RealPlan::~RealPlan() = default;
RealPlan::RealPlan(RealPlan&&) noexcept = default;
RealPlan& RealPlan::operator=(RealPlan&&) noexcept = default;

void RealPlan::forward(const float* real, std::complex<float>* spectrum, RunReport* report) const {
  out_of_memory_as_error("RealPlan::forward", [&] { live_impl(impl_, "RealPlan").forward(real, spectrum, report); });
}
void RealPlan::forward(const double* real, std::complex<double>* spectrum, RunReport* report) const {
  out_of_memory_as_error("RealPlan::forward", [&] { live_impl(impl_, "RealPlan").forward(real, spectrum, report); });
}
void RealPlan::inverse(const std::complex<float>* spectrum, float* real, RunReport* report) const {
  out_of_memory_as_error("RealPlan::inverse", [&] { live_impl(impl_, "RealPlan").inverse(spectrum, real, report); });
}
void RealPlan::inverse(const std::complex<double>* spectrum, double* real, RunReport* report) const {
  out_of_memory_as_error("RealPlan::inverse", [&] { live_impl(impl_, "RealPlan").inverse(spectrum, real, report); });
}
void RealPlan::forward_in_place(float* padded, RunReport* report) const {
  out_of_memory_as_error("RealPlan::forward_in_place",
                         [&] { live_impl(impl_, "RealPlan").in_place(padded, false, report); });
}
void RealPlan::forward_in_place(double* padded, RunReport* report) const {
  out_of_memory_as_error("RealPlan::forward_in_place",
                         [&] { live_impl(impl_, "RealPlan").in_place(padded, false, report); });
}
void RealPlan::inverse_in_place(float* padded, RunReport* report) const {
  out_of_memory_as_error("RealPlan::inverse_in_place",
                         [&] { live_impl(impl_, "RealPlan").in_place(padded, true, report); });
}
void RealPlan::inverse_in_place(double* padded, RunReport* report) const {
  out_of_memory_as_error("RealPlan::inverse_in_place",
                         [&] { live_impl(impl_, "RealPlan").in_place(padded, true, report); });
}
PinnedMemory RealPlan::pin(void* data, std::size_t bytes) const {
  return engine::pin_for_device(data, bytes, live_impl(impl_, "RealPlan").streaming.backend());
}
Shape RealPlan::shape() const { return live_impl(impl_, "RealPlan").shape; }
Shape RealPlan::spectrum_shape() const { return live_impl(impl_, "RealPlan").spectrum; }
Precision RealPlan::precision() const { return live_impl(impl_, "RealPlan").precision; }
Backend RealPlan::backend() const { return live_impl(impl_, "RealPlan").streaming.backend(); }
std::string RealPlan::describe() const { return live_impl(impl_, "RealPlan").describe(); }

void rfft3d(const float* real, std::complex<float>* spectrum, Shape real_shape, const Options& options) {
  RealPlan(real_shape, Precision::single, options).forward(real, spectrum);
}
void rfft3d(const double* real, std::complex<double>* spectrum, Shape real_shape, const Options& options) {
  RealPlan(real_shape, Precision::double_precision, options).forward(real, spectrum);
}
void irfft3d(const std::complex<float>* spectrum, float* real, Shape real_shape, const Options& options) {
  RealPlan(real_shape, Precision::single, options).inverse(spectrum, real);
}
void irfft3d(const std::complex<double>* spectrum, double* real, Shape real_shape, const Options& options) {
  RealPlan(real_shape, Precision::double_precision, options).inverse(spectrum, real);
}

}  // namespace oocfft
