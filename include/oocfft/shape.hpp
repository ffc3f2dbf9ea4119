#pragma once
// Shape of a 3D volume in C order: x is the fastest axis, as numpy, h5py,
// FFTW and cuFFT store it. An axis of length 1 makes a 2D or 1D transform.
#include <cstddef>
#include <string>

namespace oocfft {

struct Shape {
  std::size_t nz = 1;
  std::size_t ny = 1;
  std::size_t nx = 1;

  // Number of elements. Throws Error(invalid_argument) when the product
  // overflows std::size_t.
  std::size_t elements() const;
  // Byte count of `element_bytes`-sized elements, checked for overflow.
  std::size_t bytes(std::size_t element_bytes) const;
  std::string to_string() const;  // "nz x ny x nx"
  // Spelled out rather than defaulted: the CUDA sources, compiled as C++17,
  // take a brick's extent as a Shape (core/geometry.hpp).
  friend bool operator==(const Shape& a, const Shape& b) { return a.nz == b.nz && a.ny == b.ny && a.nx == b.nx; }
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }
};

}  // namespace oocfft
