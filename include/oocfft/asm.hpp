#pragma once
// Angular-spectrum propagation (ASM) of complex fields, as holography and
// optics tools do it in memory: U(z) = IFFT2[ FFT2[U0] * H(z) ], with
//   H(fx, fy; z) = exp(i 2 pi z sqrt((n/lambda)^2 - fx^2 - fy^2)),
// fx, fy on numpy's fftfreq grid of the (padded) field. Fields are C-order
// planes (ny, nx), x fastest, in place or into a caller's array; a stack is
// (nz, ny, nx). Each operation is a pass program of the streaming engine on
// AsmOptions::fft's backend: planes are padded as they are gathered and
// cropped as they are scattered, and FFT2, the multiply by H (computed per
// sample in double precision, never stored) and IFFT2 run while the plane
// stays on the device; a plane larger than a stream's share of the device
// budget goes as rows, columns (with the multiply) and rows. Cancel is
// polled per brick; progress counts planes.
#include <complex>
#include <cstddef>
#include <span>

#include "oocfft/hdf5.hpp"
#include "oocfft/options.hpp"
#include "oocfft/shape.hpp"

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

// Propagates the plane `field` (ny, nx) by `z` metres, in place. Negative z
// propagates back.
void propagate(std::complex<float>* field, std::size_t ny, std::size_t nx, double z, const AsmOptions& options);
void propagate(std::complex<double>* field, std::size_t ny, std::size_t nx, double z, const AsmOptions& options);

// Propagates every plane of `stack` (shape.nz planes of shape.ny x
// shape.nx), in place: plane j by distances[j], or all by distances[0]
// when one distance is given.
void propagate_stack(std::complex<float>* stack, Shape shape, std::span<const double> distances,
                     const AsmOptions& options);
void propagate_stack(std::complex<double>* stack, Shape shape, std::span<const double> distances,
                     const AsmOptions& options);

// Hologram reconstruction: the field (ny, nx) propagated to every distance,
// into `volume` (distances.size(), ny, nx). The spectrum of the field is
// computed once.
void refocus_stack(const std::complex<float>* field, std::size_t ny, std::size_t nx,
                   std::span<const double> distances, std::complex<float>* volume, const AsmOptions& options);
void refocus_stack(const std::complex<double>* field, std::size_t ny, std::size_t nx,
                   std::span<const double> distances, std::complex<double>* volume, const AsmOptions& options);

// Layer-based CGH: IFFT2[ sum_j FFT2[layer_j] * H(distances[j]) ], the
// field at z = 0 of the layers (shape.nz planes, layer j at distance
// distances[j]), into `hologram` (ny, nx). One inverse transform.
void layer_sum(const std::complex<float>* layers, Shape shape, std::span<const double> distances,
               std::complex<float>* hologram, const AsmOptions& options);
void layer_sum(const std::complex<double>* layers, Shape shape, std::span<const double> distances,
               std::complex<double>* hologram, const AsmOptions& options);

// The three operations on HDF5 datasets (hdf5.hpp's naming and file
// safety: the output is written under a temporary name and linked only
// when complete; an error or a cancel leaves the input as it was).
enum class AsmMode {
  propagate,  // a field (ny, nx) or a stack (nz, ny, nx): one distance, or one per plane; same shape out
  refocus,    // a field (ny, nx) to (len(distances), ny, nx)
  layer_sum,  // layers (nz, ny, nx), one distance each, to the hologram (ny, nx)
};
const char* to_string(AsmMode) noexcept;

struct AsmDatasetReport {
  DatasetInfo input;
  DatasetPath output;
  Shape output_shape;
  double read_seconds = 0;       // the field of a refocus, read whole; else 0 (streamed)
  double propagate_seconds = 0;  // with the streamed reads and writes
  double write_seconds = 0;      // the hologram of a layer sum; else 0 (streamed)
  double seconds = 0;  // file opened to file closed
};

// Runs `mode` on the dataset `input` into the new dataset `output` (in
// place only for propagate). The planes stream through the engine's
// bricks, read as they are needed and written as they are done, so stacks
// may be larger than host memory: propagate holds only the bricks, refocus
// the field and its padded spectrum, layer_sum one padded plane and the
// hologram. That and the bricks' staging stay within
// file_options.host_memory_budget (0: 80% of MemAvailable); what cannot is
// refused with Error(out_of_memory) before anything is written. The
// output's attributes record the mode, the distances and the options.
AsmDatasetReport propagate_dataset(const DatasetPath& input, const DatasetPath& output, AsmMode mode,
                                   std::span<const double> distances, const AsmOptions& options,
                                   const DatasetTransformOptions& file_options = {});

}  // namespace oocfft
