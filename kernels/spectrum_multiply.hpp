#pragma once
// The pointwise stage of an angular-spectrum pass program: a brick of a
// padded spectrum volume (planes (ny, nx) in fftfreq order, each plane at
// its own distance) times H(fx, fy; z), with H computed per sample
// (optics/transfer_function.hpp) and never read from memory. The host
// version is here; kernels/cuda/spectrum_multiply.hpp holds the device one.
#include <cstddef>
#include <vector>

#include "core/geometry.hpp"
#include "kernels/complex.hpp"
#include "optics/transfer_function.hpp"

namespace oocfft::kernels {

// One plane of the volume under the filter: its distance and the band
// edges that follow from it (computed once per plane, not per sample).
struct FilterPlane {
  double z = 0;
  double edge_x = 0, edge_y = 0;
};

// Where a brick lies in the volume.
struct BrickOrigin {
  std::size_t z0 = 0, y0 = 0, x0 = 0;
};

// The multiply stage's data: the padded grid's H and every z plane's
// distance.
struct SpectrumFilter {
  optics::TransferFunction h;
  std::vector<FilterPlane> planes;  // one per z plane of the volume

  // `planes` z planes: plane j at distances[j], or every plane at
  // distances[0] when `count` is 1. (A pointer, not a span: the device
  // code includes this header as C++17.)
  static SpectrumFilter at_distances(const optics::TransferFunction& h, const double* distances, std::size_t count,
                                     std::size_t planes);
};

// brick[z][y][x] *= H(fx(x0 + x), fy(y0 + y); z of plane z0 + z), for a
// natural-layout brick of `extent` at `origin` in the volume.
template <class T>
void multiply_brick(Complex<T>* brick, const Shape& extent, const BrickOrigin& origin,
                    const SpectrumFilter& filter);

extern template void multiply_brick<float>(Complex<float>*, const Shape&, const BrickOrigin&,
                                           const SpectrumFilter&);
extern template void multiply_brick<double>(Complex<double>*, const Shape&, const BrickOrigin&,
                                            const SpectrumFilter&);

}  // namespace oocfft::kernels
