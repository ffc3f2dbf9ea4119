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

#include "oocfft/asm_options.hpp"
#include "oocfft/hdf5.hpp"
#include "oocfft/options.hpp"
#include "oocfft/shape.hpp"

namespace oocfft {

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

// A real field, a recorded hologram's intensity say, wherever a complex one
// is taken: read real and widened to complex a brick at a time (imaginary
// parts zero), so no complex copy of the input is made on the host. The
// result is complex, so these write to a separate output.
void propagate_stack(const float* stack, Shape shape, std::span<const double> distances, std::complex<float>* out,
                     const AsmOptions& options);
void propagate_stack(const double* stack, Shape shape, std::span<const double> distances, std::complex<double>* out,
                     const AsmOptions& options);
void refocus_stack(const float* field, std::size_t ny, std::size_t nx, std::span<const double> distances,
                   std::complex<float>* volume, const AsmOptions& options);
void refocus_stack(const double* field, std::size_t ny, std::size_t nx, std::span<const double> distances,
                   std::complex<double>* volume, const AsmOptions& options);
void layer_sum(const float* layers, Shape shape, std::span<const double> distances, std::complex<float>* hologram,
               const AsmOptions& options);
void layer_sum(const double* layers, Shape shape, std::span<const double> distances, std::complex<double>* hologram,
               const AsmOptions& options);

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
