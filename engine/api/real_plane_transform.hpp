#pragma once
// RealPlaneTransform: the real 2D transform of every z plane of a host
// volume (numpy's rfft2 / irfft2 of a (nz, ny, nx) array: the last two
// axes), out of place, streamed through the devices of its options by the
// engine: a plane program (the lone stage `transform`) over the planes'
// half spectrum (nz, ny, nx/2+1), with the real x stage of RealPlan, so
// the real rows go up real and come down complex.
//
// Internal entry point for the distributed real plan
// (include/oocfft/distributed_real.hpp): each rank's z-slab of real planes
// becomes its z-slab of the half spectrum (forward), or back (inverse),
// the global z lines being the plan's other step. The public API has no
// real planes-only transform (RealPlan transforms every axis).
#include <complex>
#include <memory>
#include <string>

#include "oocfft/options.hpp"
#include "oocfft/shape.hpp"

namespace oocfft::engine {

template <class T>
class RealPlaneTransform {
 public:
  // Plans the planes of a real volume of `real_shape` with `options` (its
  // backend, devices, budgets, streams, threads, progress and cancel;
  // Options::norm is not read: the caller passes the scale). Throws
  // Error(invalid_argument) for options RealPlan would refuse.
  RealPlaneTransform(Shape real_shape, const Options& options);
  ~RealPlaneTransform();
  RealPlaneTransform(RealPlaneTransform&&) noexcept;
  RealPlaneTransform& operator=(RealPlaneTransform&&) noexcept;

  Shape shape() const;           // the real volume's
  Shape spectrum_shape() const;  // (nz, ny, nx/2+1)
  // Each plane of `real` to its half spectrum in `spectrum`, times `scale`;
  // `real` is not written.
  void forward(const T* real, std::complex<T>* spectrum, double scale) const;
  // Each plane's half spectrum back to real values, times `scale`; the
  // imaginary parts a real plane's spectrum cannot have are ignored, as
  // numpy's irfft2 does. `spectrum` is not written (an inverse streamed in
  // several passes keeps its intermediate in memory of its own).
  void inverse(const std::complex<T>* spectrum, T* real, double scale) const;
  std::string describe() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

extern template class RealPlaneTransform<float>;
extern template class RealPlaneTransform<double>;

}  // namespace oocfft::engine
