#include <tbb/task_arena.h>

#include <cstdint>
#include <new>
#include <type_traits>

#include "engine/api/call_guards.hpp"
#include "engine/api/host_threads.hpp"
#include "engine/api/pinned_memory.hpp"
#include "engine/api/trig_volume.hpp"
#include "engine/pipeline/streaming_engine.hpp"
#include "engine/planning/options_check.hpp"
#include "oocfft/trig.hpp"
#include "volume/host_volume.hpp"

namespace oocfft {

using engine::live_impl;
using engine::out_of_memory_as_error;

const char* to_string(TrigTransform t) noexcept {
  switch (t) {
    case TrigTransform::dct2:
      return "dct2";
    case TrigTransform::dct3:
      return "dct3";
    case TrigTransform::dst2:
      return "dst2";
    case TrigTransform::dst3:
      return "dst3";
  }
  return "?";
}

namespace {

void validate(const Shape& shape) {
  if (shape.nz == 0 || shape.ny == 0 || shape.nx == 0)
    throw Error(ErrorKind::invalid_argument, "shape " + shape.to_string() + " has an axis of length 0");
  (void)shape.bytes(sizeof(double));
}

void validate_rank(const Shape& shape, unsigned rank) {
  if (rank < 1 || rank > 3)
    throw Error(ErrorKind::invalid_argument, "rank " + std::to_string(rank) + " is not 1, 2 or 3");
  if ((rank < 3 && shape.nz != 1) || (rank < 2 && shape.ny != 1))
    throw Error(ErrorKind::invalid_argument, "shape " + shape.to_string() + " is not an array of rank " +
                                                 std::to_string(rank) + ": its leading axes must have length 1");
}

}  // namespace

class TrigPlan::Impl {
 public:
  Impl(Shape shape_in, Precision precision_in, TrigTransform transform_in, unsigned rank_in,
       const Options& options_in)
      : shape((validate(shape_in), validate_rank(shape_in, rank_in), engine::check_options(options_in), shape_in)),
        precision(precision_in),
        transform(transform_in),
        rank(rank_in),
        options(options_in),
        arena(engine::make_arena(options_in)),
        streaming(shape, precision, options, engine::resolve_backend(options_in.backend),
                  engine::trig_volume_transform(transform_in, options_in.norm)) {}

  double scale(bool inverse) const {
    return engine::trig_scale(transform, options.norm, shape, inverse ? Direction::inverse : Direction::forward,
                              rank);
  }

  template <class T>
  void execute(T* data, Direction direction, RunReport* report) const {
    if (data == nullptr) throw Error(ErrorKind::invalid_argument, "TrigPlan::execute: data is a null pointer");
    if (reinterpret_cast<std::uintptr_t>(data) % alignof(T) != 0)
      throw Error(ErrorKind::invalid_argument, std::string("TrigPlan::execute: data is not aligned to ") +
                                                   std::to_string(alignof(T)) + " bytes (" +
                                                   (std::is_same_v<T, float> ? "float" : "double") + ")");
    engine::check_direction(direction);
    const Precision given = std::is_same_v<T, float> ? Precision::single : Precision::double_precision;
    if (given != precision)
      throw Error(ErrorKind::invalid_argument, std::string("TrigPlan::execute: the plan is ") + to_string(precision) +
                                                   " precision but the array holds " +
                                                   (std::is_same_v<T, float> ? "float" : "double"));
    const bool inverse = direction == Direction::inverse;
    auto* bytes = reinterpret_cast<std::byte*>(data);
    if (streaming.host_in_place()) {
      streaming.execute_in_place(bytes, inverse, scale(inverse), *arena, report);
      return;
    }
    volume::HostVolume store(bytes, shape, sizeof(T));
    streaming.execute(store, inverse, scale(inverse), *arena, report);
  }

  std::string describe() const {
    const std::size_t value = precision == Precision::single ? sizeof(float) : sizeof(double);
    std::string s = std::string("oocfft trig plan: ") + to_string(transform) + " over all axes of " +
                    shape.to_string() + ", real " + to_string(precision) + ", backend " +
                    to_string(streaming.backend()) + ", norm " + to_string(options.norm) + "\n";
    s += "  volume: " + format_bytes(double(shape.bytes(value))) +
         "; each axis a real-to-real line through a complex FFT of its length (Makhoul), two lines a complex line\n";
    return s + streaming.describe();
  }

  Shape shape;
  Precision precision;
  TrigTransform transform;
  unsigned rank;  // the array's own axes, the last `rank` of the shape
  Options options;
  std::shared_ptr<tbb::task_arena> arena;
  engine::StreamingEngine streaming;
};

namespace {
TrigTransform transform_of(bool cosine, int type) {
  if (type != 2 && type != 3)
    throw Error(ErrorKind::invalid_argument, std::string(cosine ? "dctn" : "dstn") + ": type " + std::to_string(type) +
                                                 " is not supported; types 2 and 3 are");
  if (cosine) return type == 2 ? TrigTransform::dct2 : TrigTransform::dct3;
  return type == 2 ? TrigTransform::dst2 : TrigTransform::dst3;
}

template <class T>
void one_shot(T* data, Shape shape, bool cosine, int type, Direction direction, const Options& options) {
  constexpr Precision p = std::is_same_v<T, float> ? Precision::single : Precision::double_precision;
  TrigPlan(shape, p, transform_of(cosine, type), options).execute(data, direction);
}
}  // namespace

TrigPlan::TrigPlan(Shape shape, Precision precision, TrigTransform transform, const Options& options)
    : TrigPlan(shape, precision, transform, 3, options) {}
TrigPlan::TrigPlan(Shape shape, Precision precision, TrigTransform transform, unsigned rank, const Options& options)
    : impl_(out_of_memory_as_error("planning the " + std::string(to_string(transform)) + " of " + shape.to_string(),
                                   [&] {
                                     return std::make_unique<Impl>(shape, precision, transform, rank, options);
                                   })) {}
TrigPlan::~TrigPlan() = default;
TrigPlan::TrigPlan(TrigPlan&&) noexcept = default;
TrigPlan& TrigPlan::operator=(TrigPlan&&) noexcept = default;

void TrigPlan::execute(float* data, Direction direction, RunReport* report) const {
  out_of_memory_as_error("TrigPlan::execute", [&] { live_impl(impl_, "TrigPlan").execute(data, direction, report); });
}
void TrigPlan::execute(double* data, Direction direction, RunReport* report) const {
  out_of_memory_as_error("TrigPlan::execute", [&] { live_impl(impl_, "TrigPlan").execute(data, direction, report); });
}
PinnedMemory TrigPlan::pin(void* data, std::size_t bytes) const {
  return engine::pin_for_device(data, bytes, live_impl(impl_, "TrigPlan").streaming.backend());
}
Shape TrigPlan::shape() const { return live_impl(impl_, "TrigPlan").shape; }
Precision TrigPlan::precision() const { return live_impl(impl_, "TrigPlan").precision; }
TrigTransform TrigPlan::transform() const { return live_impl(impl_, "TrigPlan").transform; }
Backend TrigPlan::backend() const { return live_impl(impl_, "TrigPlan").streaming.backend(); }
std::string TrigPlan::describe() const { return live_impl(impl_, "TrigPlan").describe(); }

void dctn(float* d, Shape s, int type, const Options& o) { one_shot(d, s, true, type, Direction::forward, o); }
void dctn(double* d, Shape s, int type, const Options& o) { one_shot(d, s, true, type, Direction::forward, o); }
void idctn(float* d, Shape s, int type, const Options& o) { one_shot(d, s, true, type, Direction::inverse, o); }
void idctn(double* d, Shape s, int type, const Options& o) { one_shot(d, s, true, type, Direction::inverse, o); }
void dstn(float* d, Shape s, int type, const Options& o) { one_shot(d, s, false, type, Direction::forward, o); }
void dstn(double* d, Shape s, int type, const Options& o) { one_shot(d, s, false, type, Direction::forward, o); }
void idstn(float* d, Shape s, int type, const Options& o) { one_shot(d, s, false, type, Direction::inverse, o); }
void idstn(double* d, Shape s, int type, const Options& o) { one_shot(d, s, false, type, Direction::inverse, o); }

}  // namespace oocfft
