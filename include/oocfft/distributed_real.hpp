#pragma once
// oocfft::DistributedRealPlan: the real 3D FFT of a volume spread over the
// ranks of an MPI communicator, in numpy's rfftn / irfftn layout over the
// GLOBAL shape:
//   forward  real (nz, ny, nx) float or double -> the half spectrum
//            (nz, ny, nx/2+1) complex<float> or complex<double>;
//   inverse  the half spectrum and the real length nx (odd or even) ->
//            real (nz, ny, nx); the imaginary parts a real volume's
//            spectrum cannot have (x frequency 0, and nx/2 for even nx)
//            are ignored, as numpy's irfftn does.
// Normalisation as numpy's norm= over the global N = nz * ny * nx (the real
// shape's points; Options::norm).
//
// Each rank holds two boxes, as heFFTe's r2c plans take them: its real box,
// a box of the real index space (nz, ny, nx), and its spectrum box, a box
// of the half spectrum's index space (nz, ny, nx/2+1). forward() reads the
// real box and writes the spectrum box; inverse() reads the spectrum box
// and writes the real box. The ranks' real boxes must tile the real shape,
// their spectrum boxes the half spectrum. Out of place only: the real and
// the spectrum arrays of a rank must not overlap (Error(unsupported)
// otherwise); the input is never written.
//
// As DistributedPlan (distributed.hpp): a build with MPI only, every call
// collective over the plan's communicator (duplicated), the caller owns
// MPI, errors agreed on every rank before data moves on, Options::shift
// refused (Error(unsupported)), the rank's device chosen the same way, and
// progress on rank 0 for the whole job, after three steps.
#include <mpi.h>

#include <complex>
#include <memory>
#include <string>

#include "oocfft/distributed.hpp"
#include "oocfft/error.hpp"
#include "oocfft/options.hpp"
#include "oocfft/shape.hpp"

namespace oocfft {

class DistributedRealPlan {
 public:
  // Collective over `comm`. `real_shape` (nz, ny, nx) and `precision` must
  // be the same on every rank; `real_box` is this rank's box of the real
  // volume, `spectrum_box` its box of the half spectrum
  // (half_spectrum_shape(real_shape), real.hpp). Throws, on every rank
  // alike, Error(invalid_argument) for an empty shape, another shape or
  // precision on some rank, or boxes that do not tile their space, and
  // Error(unsupported) for Options::shift.
  DistributedRealPlan(MPI_Comm comm, Shape real_shape, Box3 real_box, Box3 spectrum_box, Precision precision,
                      const Options& options = {});
  ~DistributedRealPlan();
  DistributedRealPlan(DistributedRealPlan&&) noexcept;
  DistributedRealPlan& operator=(DistributedRealPlan&&) noexcept;
  DistributedRealPlan(const DistributedRealPlan&) = delete;
  DistributedRealPlan& operator=(const DistributedRealPlan&) = delete;

  // Collective. `real`: this rank's real box (C order over its extents);
  // `spectrum`: its spectrum box. A rank with an empty box may pass null
  // for it. The element types must match the plan's precision.
  //
  // Options::progress is called on rank 0 only, after each of three steps:
  // forward, the planes (with the exchange to z-slabs before them), the z
  // lines (with the transpose before them), the exchange to the spectrum
  // boxes; inverse, the z lines, the planes, the exchange to the real
  // boxes. Options::cancel is polled as by DistributedPlan.
  void forward(const float* real, std::complex<float>* spectrum) const;
  void forward(const double* real, std::complex<double>* spectrum) const;
  void inverse(const std::complex<float>* spectrum, float* real) const;
  void inverse(const std::complex<double>* spectrum, double* real) const;

  Shape shape() const;           // the real volume's
  Shape spectrum_shape() const;  // (nz, ny, nx/2+1)
  Precision precision() const;
  Box3 real_box() const;
  Box3 spectrum_box() const;
  // The steps of a run on this rank and the bytes each exchange moves.
  std::string describe() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace oocfft
