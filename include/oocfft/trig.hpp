#pragma once
// The discrete cosine and sine transforms of types 2 and 3 over all three
// axes of a real volume, as scipy.fft's dctn / idctn / dstn / idstn:
//   forward  dctn(x, type) or dstn(x, type);
//   inverse  idctn(x, type) or idstn(x, type): the transform that undoes
//            the forward one (type 2's inverse is type 3 and the reverse).
// Options::norm is scipy's norm=: backward (the default: forward
// unscaled, inverse 1/prod(2 n)), ortho (orthogonal both ways: scipy's
// orthogonalize=True), forward (forward 1/prod(2 n)). Options::shift is
// refused (Error(unsupported)).
//
// In place on a C-order real array of the plan's shape, float or double.
// Each axis is a real-to-real line computed through a complex FFT of the
// same length (Makhoul's mapping, two real lines per complex line), in the
// same passes, bricks and strategies as the complex transform, at the real
// volume's size: half the bytes of the complex transform of that shape.
#include <memory>
#include <string>

#include "oocfft/error.hpp"
#include "oocfft/options.hpp"
#include "oocfft/pinned_memory.hpp"
#include "oocfft/run_report.hpp"
#include "oocfft/shape.hpp"

namespace oocfft {

enum class TrigTransform { dct2, dct3, dst2, dst3 };
const char* to_string(TrigTransform) noexcept;

class TrigPlan {
 public:
  // Throws Error on a bad shape or bad options, before any data is seen.
  TrigPlan(Shape shape, Precision precision, TrigTransform transform, const Options& options = {});
  // The transform of an array of `rank` axes (1, 2 or 3): scipy's dctn of a
  // 1D array (nx) as shape (1, 1, nx), or of a 2D one (ny, nx) as (1, ny,
  // nx). The leading axes of length 1 then stand for no axis: they bring
  // no factor (the 3D transform of a one-point axis doubles a type 2 run).
  // Throws Error(invalid_argument) for a rank outside 1..3 or a shape whose
  // leading axes are not of length 1.
  TrigPlan(Shape shape, Precision precision, TrigTransform transform, unsigned rank, const Options& options = {});
  ~TrigPlan();
  TrigPlan(TrigPlan&&) noexcept;
  TrigPlan& operator=(TrigPlan&&) noexcept;
  TrigPlan(const TrigPlan&) = delete;
  TrigPlan& operator=(const TrigPlan&) = delete;

  // In place: Direction::forward is dctn/dstn, Direction::inverse idctn/idstn.
  void execute(float* data, Direction direction, RunReport* report = nullptr) const;
  void execute(double* data, Direction direction, RunReport* report = nullptr) const;

  PinnedMemory pin(void* data, std::size_t bytes) const;
  Shape shape() const;
  Precision precision() const;
  TrigTransform transform() const;
  Backend backend() const;
  std::string describe() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// One-shot forms, in place: scipy.fft.dctn(x, type), idctn, dstn, idstn of a
// 3D array. `type` is 2 or 3 (Error(invalid_argument) otherwise).
void dctn(float* data, Shape shape, int type, const Options& options = {});
void dctn(double* data, Shape shape, int type, const Options& options = {});
void idctn(float* data, Shape shape, int type, const Options& options = {});
void idctn(double* data, Shape shape, int type, const Options& options = {});
void dstn(float* data, Shape shape, int type, const Options& options = {});
void dstn(double* data, Shape shape, int type, const Options& options = {});
void idstn(float* data, Shape shape, int type, const Options& options = {});
void idstn(double* data, Shape shape, int type, const Options& options = {});

}  // namespace oocfft
