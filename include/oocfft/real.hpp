#pragma once
// Real-data 3D transforms in numpy's layout (numpy.fft.rfftn / irfftn):
//   forward  real (nz, ny, nx) float or double -> the half spectrum
//            (nz, ny, nx/2+1) complex<float> or complex<double>;
//   inverse  the half spectrum and the real length nx (odd or even) ->
//            real (nz, ny, nx). The imaginary parts that a real volume's
//            spectrum cannot have (x frequency 0, and nx/2 for even nx)
//            are ignored, as numpy's irfftn does.
// Normalisation as numpy's norm= over N = nz*ny*nx (Options::norm).
// Options::shift is not supported for real transforms (Error(unsupported)).
//
// Two layouts:
//   out of place  separate real and complex arrays, both C order; the
//                 input is never written. An inverse whose plan does not
//                 keep the whole volume on the device uses host memory for
//                 one half spectrum between its passes (describe() says);
//   in place      FFTW's padded layout: (nz, ny, 2*(nx/2+1)) reals, the nx
//                 values of each row first, the same bytes as the half
//                 spectrum. forward_in_place leaves the half spectrum there,
//                 inverse_in_place the padded real rows (what lies in the
//                 padding after an inverse is unspecified). No extra host
//                 memory.
//
// The passes are the complex engine's over the half spectrum: about half
// the host memory and half the PCIe traffic of the complex transform of the
// same shape. The x stage is the half-length complex transform and its
// split (even nx), or two real rows per complex row (odd nx); y and z are
// complex lines of the half spectrum.
#include <complex>
#include <memory>
#include <string>

#include "oocfft/error.hpp"
#include "oocfft/options.hpp"
#include "oocfft/pinned_memory.hpp"
#include "oocfft/run_report.hpp"
#include "oocfft/shape.hpp"

namespace oocfft {

// The half spectrum's shape of a real volume: (nz, ny, nx/2+1).
Shape half_spectrum_shape(const Shape& real_shape);

class RealPlan {
 public:
  // `real_shape`: (nz, ny, nx) of the real volume. Throws Error on a bad
  // shape or bad options, before any data is seen.
  RealPlan(Shape real_shape, Precision precision, const Options& options = {});
  ~RealPlan();
  RealPlan(RealPlan&&) noexcept;
  RealPlan& operator=(RealPlan&&) noexcept;
  RealPlan(const RealPlan&) = delete;
  RealPlan& operator=(const RealPlan&) = delete;

  // Out of place. `report` may be null.
  void forward(const float* real, std::complex<float>* spectrum, RunReport* report = nullptr) const;
  void forward(const double* real, std::complex<double>* spectrum, RunReport* report = nullptr) const;
  void inverse(const std::complex<float>* spectrum, float* real, RunReport* report = nullptr) const;
  void inverse(const std::complex<double>* spectrum, double* real, RunReport* report = nullptr) const;
  // In place, FFTW's padded layout (above).
  void forward_in_place(float* padded, RunReport* report = nullptr) const;
  void forward_in_place(double* padded, RunReport* report = nullptr) const;
  void inverse_in_place(float* padded, RunReport* report = nullptr) const;
  void inverse_in_place(double* padded, RunReport* report = nullptr) const;

  // Page-locks [data, data + bytes) for this plan's device (Plan::pin).
  PinnedMemory pin(void* data, std::size_t bytes) const;

  Shape shape() const;           // the real volume's
  Shape spectrum_shape() const;  // (nz, ny, nx/2+1)
  Precision precision() const;
  Backend backend() const;
  // Backend, the x stage, passes over the half spectrum, memory, the PCIe
  // floor at the real sizes, and each axis's kernels.
  std::string describe() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// One-shot forms, out of place (numpy.fft.rfftn / irfftn of a 3D array).
void rfft3d(const float* real, std::complex<float>* spectrum, Shape real_shape, const Options& options = {});
void rfft3d(const double* real, std::complex<double>* spectrum, Shape real_shape, const Options& options = {});
void irfft3d(const std::complex<float>* spectrum, float* real, Shape real_shape, const Options& options = {});
void irfft3d(const std::complex<double>* spectrum, double* real, Shape real_shape, const Options& options = {});

}  // namespace oocfft
