#pragma once
// AngularSpectrum: the padded grid, the FFT2 plan and the transfer function
// of one field size, shared by propagate, refocus_stack and layer_sum
// (include/oocfft/asm.hpp). The field sits centred in the padded grid, so
// a centred field stays centred; padding 2x makes the convolution linear.
#include <complex>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "oocfft/asm.hpp"
#include "oocfft/plan.hpp"
#include "optics/transfer_function.hpp"

namespace oocfft::optics {

// Refuses what cannot describe a propagation, naming the option.
void check_asm_options(const AsmOptions& options);
// Throws Error(invalid_argument, "asm: " + what) unless `ok`.
void require(bool ok, const std::string& what);
// Refuses no distance, or one that is not a finite number, naming it.
void check_distances(std::span<const double> distances);

template <class T>
class AngularSpectrum {
 public:
  using C = std::complex<T>;
  // Throws Error(invalid_argument) for options that describe no
  // propagation, before anything is planned.
  AngularSpectrum(std::size_t ny, std::size_t nx, const AsmOptions& options);

  std::size_t padded_elements() const { return h_.ny * h_.nx; }
  // The spectrum of `field` (ny, nx): padded, then FFT2.
  void spectrum_of(const C* field, C* spectrum) const;
  // spectrum * H(z) into `out` (assign), or added to it (accumulate).
  void apply(const C* spectrum, double z, C* out, bool accumulate) const;
  // IFFT2 of the padded spectrum `spectrum` (overwritten), cropped into
  // `field` (ny, nx).
  void field_of(C* spectrum, C* field) const;

 private:
  // Options that passed check(), so the members below are built from
  // valid ones only.
  struct Checked {
    const AsmOptions& o;
  };
  static Checked check(const AsmOptions& options, std::size_t ny, std::size_t nx);
  AngularSpectrum(std::size_t ny, std::size_t nx, Checked checked);
  std::size_t ny_, nx_, offset_y_, offset_x_;
  TransferFunction h_;
  Plan plan_;
};

// A padded plane of scratch, with out-of-memory reported as an Error.
template <class T>
std::vector<std::complex<T>> padded_buffer(std::size_t elements);

}  // namespace oocfft::optics
