#include "volume/host_chunks.hpp"

#include <algorithm>

#include "transpose/run_copy.hpp"

namespace oocfft::volume {

HostChunks::HostChunks(std::size_t array_bytes) : bytes_(array_bytes), starts_{0} {}

HostChunks::HostChunks(std::uintptr_t array_address, const Shape& volume, std::size_t element_bytes,
                       std::size_t planes_per_chunk, std::size_t page_bytes)
    : bytes_(volume.elements() * element_bytes), starts_{0} {
  const std::size_t plane_bytes = volume.ny * volume.nx * element_bytes;
  const std::size_t step = std::max<std::size_t>(1, planes_per_chunk);
  for (std::size_t z = step; z < volume.nz; z += step) {
    const std::uintptr_t at = array_address + z * plane_bytes;
    const std::size_t start = (at + page_bytes - 1) / page_bytes * page_bytes - array_address;
    // A chunk ends where the next begins; skip starts that would leave a
    // chunk empty or run past the array (planes smaller than a page).
    if (start > starts_.back() && start < bytes_) starts_.push_back(start);
  }
}

std::size_t HostChunks::chunk_of(std::size_t byte_offset) const {
  return std::size_t(std::upper_bound(starts_.begin(), starts_.end(), byte_offset) - starts_.begin()) - 1;
}

std::vector<ChunkCopy> chunk_copies(const Shape& volume, std::size_t element_bytes, const Box& box,
                                    const HostChunks& chunks) {
  const transpose::RunGeometry g = transpose::run_geometry(volume, box);
  const std::size_t run_bytes = g.length * element_bytes;
  std::vector<ChunkCopy> copies;
  bool last_is_whole_run = false;  // the last copy holds whole runs only and may grow
  for (std::size_t r = 0; r < g.count; ++r) {
    const std::size_t host = g.offset(r) * element_bytes, device = r * run_bytes;
    const std::size_t c = chunks.chunk_of(host);
    if (host + run_bytes <= chunks.end(c)) {  // the whole run inside one chunk
      if (last_is_whole_run) {
        ChunkCopy& last = copies.back();
        const std::size_t stride = host - last.host_offset;
        const bool fits = last.chunk == c && last.width == run_bytes &&
                          (last.rows == 1 ? stride >= run_bytes : host == last.host_offset + last.rows * last.host_pitch);
        if (fits) {
          if (last.rows == 1) last.host_pitch = stride;
          ++last.rows;
          continue;
        }
      }
      copies.push_back({host, device, run_bytes, 1, run_bytes, c});
      last_is_whole_run = true;
      continue;
    }
    // A run across chunk boundaries: one copy per chunk it touches.
    for (std::size_t done = 0; done < run_bytes;) {
      const std::size_t at = host + done, k = chunks.chunk_of(at);
      const std::size_t n = std::min(run_bytes - done, chunks.end(k) - at);
      copies.push_back({at, device + done, n, 1, n, k});
      done += n;
    }
    last_is_whole_run = false;
  }
  return copies;
}

std::size_t last_chunk(const std::vector<ChunkCopy>& copies) {
  std::size_t c = 0;
  for (const ChunkCopy& copy : copies) c = std::max(c, copy.chunk);
  return c;
}

}  // namespace oocfft::volume
