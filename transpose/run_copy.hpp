#pragma once
// Copies of a box between a volume in host memory (C order) and a staging
// buffer in the natural layout. A box is a set of contiguous runs: whole
// z-slabs are one run, y-slabs nz runs of by*nx elements, anything narrower
// by*bz runs of bx elements. The runs are copied with memcpy, split into
// pieces of at most a few hundred KiB and spread over the caller's TBB
// arena, which is what keeps the host side near memcpy speed (docs/ARCHITECTURE.md,
// "Measured ceilings": 31 GB/s for y-slab gathers, against 3.3 GB/s element
// by element).
#include <cstddef>

#include "core/geometry.hpp"

namespace oocfft::transpose {

void gather_runs(const std::byte* volume, const Shape& volume_shape, std::size_t element_bytes, const Box& box,
                 std::byte* staging);
void scatter_runs(std::byte* volume, const Shape& volume_shape, std::size_t element_bytes, const Box& box,
                  const std::byte* staging);

// Whether a gather of `box` (into staging) and a scatter of it (into a
// volume of `volume_shape`) use streaming stores: a gather when the box is
// too large to stay cached; a scatter also whenever the volume is, since
// the volume is not read again before the next pass.
bool gather_streams(std::size_t element_bytes, const Box& box);
bool scatter_streams(const Shape& volume_shape, std::size_t element_bytes, const Box& box);

// The contiguous runs of a box: `count` runs of `length` elements; run r
// starts at volume element offset(r) and at staging element r * length.
struct RunGeometry {
  std::size_t count = 0;
  std::size_t length = 0;
  std::size_t runs_per_z = 0;   // runs in one z plane of the box
  std::size_t volume_plane = 0; // ny * nx of the volume
  std::size_t volume_row = 0;   // nx of the volume
  std::size_t first = 0;        // volume offset of run 0
  std::size_t offset(std::size_t r) const {
    const std::size_t z = r / runs_per_z, y = r % runs_per_z;
    return first + z * volume_plane + y * volume_row;
  }
};
RunGeometry run_geometry(const Shape& volume_shape, const Box& box);

}  // namespace oocfft::transpose
