#pragma once
// oocfft::Plan: a reusable, immutable 3D FFT plan. Building it chooses the
// backend and factorises every axis (radix passes or Bluestein) and computes
// the twiddle tables once; execute() then transforms any array of the plan's
// shape and precision in place. fft3d() is the one-shot form.
#include <complex>
#include <memory>
#include <string>

#include "oocfft/error.hpp"
#include "oocfft/options.hpp"
#include "oocfft/pinned_memory.hpp"
#include "oocfft/run_report.hpp"
#include "oocfft/shape.hpp"

namespace oocfft {

class Plan {
 public:
  Plan(Shape shape, Precision precision, const Options& options = {});
  // A plan over `axes` (options.hpp): all three, or a stack of 2D
  // transforms of the z planes (numpy's fft2 of a 3D array).
  Plan(Shape shape, Precision precision, Axes axes, const Options& options = {});
  ~Plan();
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  // In-place transform of `data` (shape(), C order). The element type must
  // match precision(): complex<float> for single, complex<double> for double.
  void execute(std::complex<float>* data, Direction direction) const;
  void execute(std::complex<double>* data, Direction direction) const;
  // The same, filling `report` (may be null) with what the run did.
  void execute(std::complex<float>* data, Direction direction, RunReport* report) const;
  void execute(std::complex<double>* data, Direction direction, RunReport* report) const;
  // Out of place: `in` (never written) transformed into `out`, both of
  // shape() in C order. The first pass reads `in` and every pass writes
  // `out`, so this moves the bytes of an in-place run, with no copy of the
  // volume first. `in` == `out` is the in-place transform; arrays that
  // overlap otherwise are refused (Error(invalid_argument)). Each array
  // DMAs directly where it is page-locked (register_host_memory).
  void execute(const std::complex<float>* in, std::complex<float>* out, Direction direction,
               RunReport* report = nullptr) const;
  void execute(const std::complex<double>* in, std::complex<double>* out, Direction direction,
               RunReport* report = nullptr) const;
  // The full complex transform of real input (numpy's fftn of a real
  // array; rfftn's half spectrum is RealPlan's): `in` real values of
  // shape(), never written, read a brick at a time and widened to complex
  // (imaginary parts zero) as the first pass gathers them, so no complex
  // copy of the input is made; `out` complex. The arrays must not overlap.
  void execute(const float* in, std::complex<float>* out, Direction direction, RunReport* report = nullptr) const;
  void execute(const double* in, std::complex<double>* out, Direction direction, RunReport* report = nullptr) const;

  // Page-locks [data, data + bytes) for this plan's device until the
  // handle is destroyed (see PinnedMemory). Throws Error(invalid_argument)
  // for a null pointer or 0 bytes; a refusal is not an error (locked() is
  // false and executions stage as usual).
  PinnedMemory pin(void* data, std::size_t bytes) const;

  Shape shape() const;
  Precision precision() const;
  Axes axes() const;
  Backend backend() const;  // the resolved backend, never automatic
  // Human-readable explanation: backend, per-axis algorithm and radices,
  // Bluestein lengths, normalisation, memory.
  std::string describe() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// One-shot in-place 3D transform. Throws oocfft::Error on bad input.
void fft3d(std::complex<float>* data, Shape shape, Direction direction, const Options& options = {});
void fft3d(std::complex<double>* data, Shape shape, Direction direction, const Options& options = {});

// True when this build has the CUDA backend and a CUDA device is usable.
bool cuda_available() noexcept;
// The CUDA devices this process sees (cudaGetDeviceCount, under
// CUDA_VISIBLE_DEVICES); 0 when cuda_available() is false.
int cuda_device_count() noexcept;

}  // namespace oocfft
