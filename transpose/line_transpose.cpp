#include "transpose/line_transpose.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstdint>
#include <stdexcept>

namespace oocfft::transpose {
namespace {

// Fixed-size element so the copy is one or two moves, not a memcpy call:
// complex<float> and complex<double>, and the real values of the
// trigonometric transforms (float 4 bytes, double 8).
template <std::size_t Bytes>
struct Element {
  std::uint64_t word[Bytes / 8];
};
template <>
struct Element<4> {
  std::uint32_t word;
};

// Line l of the chunk, point p: staging[l * length + p]; the volume element
// is at base(l) + p * stride.
template <class E, bool ToStaging>
void move_lines(E* volume, E* staging, const Shape& v, const Box& box, BrickLayout layout) {
  const Shape& e = box.extent;
  const bool y_lines = layout == BrickLayout::y_lines;
  const std::size_t length = y_lines ? e.ny : e.nz;
  const std::size_t stride = y_lines ? v.nx : v.ny * v.nx;
  const std::size_t outer = y_lines ? e.nz : e.ny;  // lines are (outer, x)
  const std::size_t lines = outer * e.nx;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, lines, 16), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t l = r.begin(); l != r.end(); ++l) {
      const std::size_t o = l / e.nx, x = box.x0 + l % e.nx;
      const std::size_t z = y_lines ? box.z0 + o : box.z0;
      const std::size_t y = y_lines ? box.y0 : box.y0 + o;
      E* line = volume + (z * v.ny + y) * v.nx + x;
      E* chunk = staging + l * length;
      for (std::size_t p = 0; p < length; ++p) {
        if constexpr (ToStaging) {
          chunk[p] = line[p * stride];
        } else {
          line[p * stride] = chunk[p];
        }
      }
    }
  });
}

template <bool ToStaging>
void dispatch(std::byte* volume, std::byte* staging, const Shape& v, std::size_t element_bytes, const Box& box,
              BrickLayout layout) {
  if (layout == BrickLayout::natural) throw std::invalid_argument("line transpose of a natural-layout brick");
  switch (element_bytes) {
    case 4:
      return move_lines<Element<4>, ToStaging>(reinterpret_cast<Element<4>*>(volume),
                                               reinterpret_cast<Element<4>*>(staging), v, box, layout);
    case 8:
      return move_lines<Element<8>, ToStaging>(reinterpret_cast<Element<8>*>(volume),
                                               reinterpret_cast<Element<8>*>(staging), v, box, layout);
    case 16:
      return move_lines<Element<16>, ToStaging>(reinterpret_cast<Element<16>*>(volume),
                                                reinterpret_cast<Element<16>*>(staging), v, box, layout);
    default: throw std::invalid_argument("line transpose: element size must be 4, 8 or 16 bytes");
  }
}

}  // namespace

void gather_lines(const std::byte* volume, const Shape& volume_shape, std::size_t element_bytes, const Box& box,
                  BrickLayout layout, std::byte* staging) {
  // The volume is only read on this path.
  dispatch<true>(const_cast<std::byte*>(volume), staging, volume_shape, element_bytes, box, layout);
}

void scatter_lines(std::byte* volume, const Shape& volume_shape, std::size_t element_bytes, const Box& box,
                   BrickLayout layout, const std::byte* staging) {
  // The staging buffer is only read on this path.
  dispatch<false>(volume, const_cast<std::byte*>(staging), volume_shape, element_bytes, box, layout);
}

}  // namespace oocfft::transpose
