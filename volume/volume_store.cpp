#include "volume/volume_store.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "oocfft/error.hpp"

namespace oocfft::volume {

namespace {
// The write scratch of the default write_rows: rows go out in groups of at
// most this many bytes, so the scratch stays small beside a brick.
constexpr std::size_t row_group_bytes = std::size_t{8} << 20;
}  // namespace

// Read packed, then spread the rows to their pitch from the last one down:
// row i moves from i*width to i*row_pitch >= i*width, so no row is
// overwritten before it has moved.
void VolumeStore::read_rows(const Box& box, std::byte* staging, std::size_t row_pitch) const {
  read(box, BrickLayout::natural, staging);
  const std::size_t width = box.extent.nx * element_bytes();
  if (row_pitch == width) return;
  const std::size_t rows = box.extent.nz * box.extent.ny;
  for (std::size_t i = rows; i-- > 1;) std::memmove(staging + i * row_pitch, staging + i * width, width);
}

void VolumeStore::write_rows(const Box& box, const std::byte* staging, std::size_t row_pitch) {
  const std::size_t width = box.extent.nx * element_bytes();
  if (row_pitch == width) {
    write(box, BrickLayout::natural, staging);
    return;
  }
  // Groups of whole rows of one plane, packed into the scratch.
  const std::size_t group_rows = std::max<std::size_t>(1, std::min(box.extent.ny, row_group_bytes / width));
  std::vector<std::byte> scratch(group_rows * width);
  std::size_t row = 0;
  for (std::size_t z = 0; z < box.extent.nz; ++z)
    for (std::size_t y = 0; y < box.extent.ny; y += group_rows) {
      const std::size_t n = std::min(group_rows, box.extent.ny - y);
      for (std::size_t k = 0; k < n; ++k) std::memcpy(scratch.data() + k * width, staging + (row + k) * row_pitch, width);
      write({box.z0 + z, box.y0 + y, box.x0, {1, n, box.extent.nx}}, BrickLayout::natural, scratch.data());
      row += n;
    }
}

void VolumeStore::read_packed(const Box& box, std::byte* staging) const {
  (void)box, (void)staging;
  throw Error(ErrorKind::invalid_argument, "internal: read_packed() of a store whose rows do not pack");
}

void VolumeStore::write_packed(const Box& box, const std::byte* staging) {
  (void)box, (void)staging;
  throw Error(ErrorKind::invalid_argument, "internal: write_packed() of a store whose rows do not pack");
}

}  // namespace oocfft::volume
