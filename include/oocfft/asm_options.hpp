#pragma once
// The options and modes of angular-spectrum propagation (asm.hpp): plain
// types, apart from the operations, so that the layers below the engine
// (the transfer function, the table of enum names) can name them without
// depending on the engine's entry points.
#include "oocfft/options.hpp"

namespace oocfft {

// What H does where fx^2 + fy^2 > (n/lambda)^2.
enum class Evanescent {
  decay,  // exp(-2 pi |z| sqrt(fx^2 + fy^2 - (n/lambda)^2)), the physical field
  zero,   // removed
};

struct AsmOptions {
  double wavelength = 0;  // metres, in vacuum; > 0
  double pitch_x = 0;     // sample spacing along x, metres; > 0
  double pitch_y = 0;     // along y; 0 = pitch_x
  double index = 1.0;     // refractive index n of the medium; > 0
  // Band limit after Matsushima & Shimobaba, Opt. Express 17, 19662 (2009):
  // keep |fx| < 1 / ((lambda/n) sqrt((2 dfx z)^2 + 1)), dfx = 1 / (Nx_padded
  // pitch_x), and the same along y, where H is sampled finely enough not to
  // alias.
  bool band_limit = true;
  Evanescent evanescent = Evanescent::decay;
  // 1: the field is periodic (circular convolution). 2: zero-padded to
  // twice each axis (linear convolution), cropped back afterwards.
  unsigned pad = 2;
  Options fft;  // backend, threads, ... of the FFT2s (norm is ignored)
};

// The three operations on HDF5 datasets (hdf5.hpp's naming and file
// safety: the output is written under a temporary name and linked only
// when complete; an error or a cancel leaves the input as it was).
enum class AsmMode {
  propagate,  // a field (ny, nx) or a stack (nz, ny, nx): one distance, or one per plane; same shape out
  refocus,    // a field (ny, nx) to (len(distances), ny, nx)
  layer_sum,  // layers (nz, ny, nx), one distance each, to the hologram (ny, nx)
};
const char* to_string(AsmMode) noexcept;

}  // namespace oocfft
