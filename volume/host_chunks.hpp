#pragma once
// The caller's array as a sequence of page-aligned chunks that are
// page-locked (cudaHostRegister) one at a time while a transform runs, and
// the DMA copies of a brick split so that each stays inside one chunk.
//
// Why chunks: page-locking costs about 0.04 s per GiB and does not get
// faster from several threads (bench/RESULTS.md, "Host transfers and page-locking"), so
// locking the whole array before the first brick would stall the pipeline;
// locked chunk by chunk ahead of the bricks it overlaps the first pass.
// Why split copies: CUDA refuses ("invalid argument") a copy whose host
// range spans two registrations, measured on the H100 machine. Chunk
// boundaries are page boundaries, because two registrations may not share a
// page.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/geometry.hpp"

namespace oocfft::volume {


class HostChunks {
 public:
  // One chunk covering the whole array (an array the caller page-locked).
  explicit HostChunks(std::size_t array_bytes);
  // Chunks of `planes_per_chunk` z planes, each starting at the first page
  // boundary at or after its first plane (chunk 0 at the array's start, so
  // the array's first page is locked with it). `array_address` is the
  // array's address, which fixes where the page boundaries fall.
  HostChunks(std::uintptr_t array_address, const Shape& volume, std::size_t element_bytes,
             std::size_t planes_per_chunk, std::size_t page_bytes = 4096);

  std::size_t count() const { return starts_.size(); }
  // Byte range [begin(c), end(c)) of chunk c, as offsets into the array.
  std::size_t begin(std::size_t c) const { return starts_[c]; }
  std::size_t end(std::size_t c) const { return c + 1 < starts_.size() ? starts_[c + 1] : bytes_; }
  std::size_t chunk_of(std::size_t byte_offset) const;

 private:
  std::size_t bytes_ = 0;
  std::vector<std::size_t> starts_;
};

// One DMA between the array and a packed device brick: `rows` runs of
// `width` bytes, `host_pitch` apart in the array, adjacent on the device;
// all inside chunk `chunk`.
struct ChunkCopy {
  std::size_t host_offset = 0;    // bytes from the array's start
  std::size_t device_offset = 0;  // bytes from the brick's start
  std::size_t width = 0;
  std::size_t rows = 1;
  std::size_t host_pitch = 0;
  std::size_t chunk = 0;
};

// The copies that move a natural-layout box: its contiguous runs, split at
// chunk boundaries, with runs of one chunk at a constant stride merged into
// one 2D copy. A z-slab is one run, a y-slab one 2D copy per chunk, a
// narrower box one 2D copy per z plane.
std::vector<ChunkCopy> chunk_copies(const Shape& volume, std::size_t element_bytes, const Box& box,
                                    const HostChunks& chunks);

// The highest chunk any of `copies` touches.
std::size_t last_chunk(const std::vector<ChunkCopy>& copies);

}  // namespace oocfft::volume
