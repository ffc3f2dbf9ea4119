#include "optics/angular_spectrum.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <new>

#include "kernels/spectrum_multiply.hpp"
#include "oocfft/error.hpp"

namespace oocfft::optics {

void require(bool ok, const std::string& what) {
  if (!ok) throw Error(ErrorKind::invalid_argument, "asm: " + what);
}

namespace {

Options fft_options(const AsmOptions& o) {
  Options f = o.fft;
  f.norm = Norm::backward;  // the inverse scales by 1/N: U(0) comes back unchanged
  // Polled and reported per plane by the operations instead: an FFT2 works
  // on a scratch plane, and its bricks mean nothing to the caller.
  f.progress = nullptr;
  f.cancel = nullptr;
  return f;
}

}  // namespace

template <class T>
typename AngularSpectrum<T>::Checked AngularSpectrum<T>::check(const AsmOptions& o, std::size_t ny, std::size_t nx) {
  check_asm_options(o);
  require(ny > 0 && nx > 0,
          "a field of " + std::to_string(ny) + " x " + std::to_string(nx) + " samples has no samples");
  return Checked{o};
}

void check_distances(std::span<const double> distances) {
  require(!distances.empty(), "no distance given");
  for (std::size_t j = 0; j < distances.size(); ++j)
    require(std::isfinite(distances[j]), "distance " + std::to_string(j) + " is not a finite number of metres");
}

void check_asm_options(const AsmOptions& o) {
  require(std::isfinite(o.wavelength) && o.wavelength > 0,
          "wavelength is " + std::to_string(o.wavelength) + "; it must be a positive length in metres");
  require(std::isfinite(o.pitch_x) && o.pitch_x > 0,
          "pitch_x is " + std::to_string(o.pitch_x) + "; it must be a positive length in metres");
  require(std::isfinite(o.pitch_y) && o.pitch_y >= 0,
          "pitch_y is " + std::to_string(o.pitch_y) + "; it must be a positive length in metres (0: as pitch_x)");
  require(std::isfinite(o.index) && o.index > 0, "index is " + std::to_string(o.index) + "; it must be positive");
  require(o.pad == 1 || o.pad == 2, "pad is " + std::to_string(o.pad) + "; it must be 1 or 2");
  require(o.evanescent == Evanescent::decay || o.evanescent == Evanescent::zero,
          "evanescent is " + std::to_string(static_cast<int>(o.evanescent)) + ", not decay or zero");
}

template <class T>
std::vector<std::complex<T>> padded_buffer(std::size_t elements) {
  try {
    return std::vector<std::complex<T>>(elements);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::out_of_memory, "asm: could not allocate a padded plane of " + std::to_string(elements) +
                                              " elements");
  }
}

template <class T>
AngularSpectrum<T>::AngularSpectrum(std::size_t ny, std::size_t nx, const AsmOptions& options)
    : AngularSpectrum(ny, nx, check(options, ny, nx)) {}

template <class T>
AngularSpectrum<T>::AngularSpectrum(std::size_t ny, std::size_t nx, Checked checked)
    : ny_(ny),
      nx_(nx),
      offset_y_((ny * checked.o.pad - ny) / 2),
      offset_x_((nx * checked.o.pad - nx) / 2),
      h_{nx * checked.o.pad, ny * checked.o.pad, checked.o.pitch_x, checked.o.pitch_y > 0 ? checked.o.pitch_y : checked.o.pitch_x, checked.o.index / checked.o.wavelength,
         checked.o.band_limit, checked.o.evanescent == Evanescent::decay},
      plan_(Shape{1, ny * checked.o.pad, nx * checked.o.pad}, std::is_same_v<T, float> ? Precision::single : Precision::double_precision,
            fft_options(checked.o)) {}

template <class T>
void AngularSpectrum<T>::spectrum_of(const C* field, C* spectrum) const {
  std::fill(spectrum, spectrum + padded_elements(), C{});
  tbb::parallel_for(std::size_t{0}, ny_, [&](std::size_t y) {
    std::copy(field + y * nx_, field + (y + 1) * nx_, spectrum + (y + offset_y_) * h_.nx + offset_x_);
  });
  plan_.execute(spectrum, Direction::forward);
}

template <class T>
void AngularSpectrum<T>::apply(const C* spectrum, double z, C* out, bool accumulate) const {
  using K = kernels::Complex<T>;
  kernels::multiply_by_transfer_function(reinterpret_cast<const K*>(spectrum), reinterpret_cast<K*>(out), h_, z,
                                         accumulate ? kernels::SpectrumUpdate::accumulate
                                                    : kernels::SpectrumUpdate::assign);
}

template <class T>
void AngularSpectrum<T>::field_of(C* spectrum, C* field) const {
  plan_.execute(spectrum, Direction::inverse);
  tbb::parallel_for(std::size_t{0}, ny_, [&](std::size_t y) {
    const C* row = spectrum + (y + offset_y_) * h_.nx + offset_x_;
    std::copy(row, row + nx_, field + y * nx_);
  });
}

template class AngularSpectrum<float>;
template class AngularSpectrum<double>;
template std::vector<std::complex<float>> padded_buffer<float>(std::size_t);
template std::vector<std::complex<double>> padded_buffer<double>(std::size_t);

}  // namespace oocfft::optics
