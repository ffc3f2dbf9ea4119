#include "oocfft/shape.hpp"

#include <limits>

#include "oocfft/error.hpp"

namespace oocfft {

namespace {
bool multiply_overflows(std::size_t a, std::size_t b, std::size_t& product) {
  return __builtin_mul_overflow(a, b, &product);
}
}  // namespace

std::size_t Shape::elements() const {
  std::size_t yz = 0, all = 0;
  if (multiply_overflows(nz, ny, yz) || multiply_overflows(yz, nx, all))
    throw Error(ErrorKind::invalid_argument, "shape " + to_string() + " overflows size_t: more elements than it can count");
  return all;
}

std::size_t Shape::bytes(std::size_t element_bytes) const {
  std::size_t total = 0;
  if (multiply_overflows(elements(), element_bytes, total))
    throw Error(ErrorKind::invalid_argument, "shape " + to_string() + " of " + std::to_string(element_bytes) +
                                                 "-byte elements overflows size_t bytes");
  return total;
}

std::string Shape::to_string() const {
  return std::to_string(nz) + " x " + std::to_string(ny) + " x " + std::to_string(nx);
}

}  // namespace oocfft
