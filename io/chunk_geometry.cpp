#include "io/chunk_geometry.hpp"

#include <algorithm>

namespace oocfft::io {
namespace {

// About 1 MiB per chunk: large enough that a chunk read is one efficient
// file read and the chunk index stays small (8192 chunks for 8 GiB), small
// enough that a brick edge that cuts a chunk re-reads little of it.
constexpr std::size_t target_chunk_bytes = std::size_t{1} << 20;
// At most this many y rows per chunk, so a y-slab of the two-pass plan
// (bands of y rows through all z) is not forced to read far more rows than
// it needs when it is narrow.
constexpr std::size_t max_chunk_rows = 64;

std::size_t next_prime(std::size_t n) {
  auto is_prime = [](std::size_t m) {
    if (m < 2) return false;
    for (std::size_t d = 2; d * d <= m; ++d)
      if (m % d == 0) return false;
    return true;
  };
  while (!is_prime(n)) ++n;
  return n;
}

std::size_t round_up(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }

}  // namespace

// Chunks of (a few z planes, up to 64 y rows, whole x rows), about 1 MiB.
// The two-pass plan reads z-slabs (runs of whole XY planes) in pass 1 and
// y-slabs (bands of y rows through every z) in pass 2. With whole x rows in
// every chunk, a z-slab reads whole chunk layers and a y-slab reads whole
// chunk columns: neither reads a chunk only to use a sliver of it, which a
// contiguous layout (pass 2 seeks nz times per brick) or cubic chunks (x
// rows split across chunks) would. Very long x rows are split only when
// one row alone exceeds the target. No compression: it would make every
// partial-chunk access a decompress-recompress and the volume is noise-like
// after a transform anyway.
std::vector<std::size_t> output_chunks(const std::vector<std::size_t>& dims, std::size_t element_bytes) {
  std::vector<std::size_t> chunks(dims.size(), 1);
  const std::size_t rank = dims.size();
  const std::size_t x = rank - 1;
  chunks[x] = std::min(dims[x], std::max<std::size_t>(1, target_chunk_bytes / element_bytes));
  const std::size_t row_bytes = chunks[x] * element_bytes;
  if (rank >= 2) {
    const std::size_t y = rank - 2;
    chunks[y] = std::clamp<std::size_t>(target_chunk_bytes / row_bytes, 1, std::min(dims[y], max_chunk_rows));
  }
  if (rank >= 3) {
    const std::size_t layer_bytes = row_bytes * chunks[rank - 2];
    chunks[0] = std::clamp<std::size_t>(target_chunk_bytes / layer_bytes, 1, dims[0]);
  }
  return chunks;
}

// bytes: the brick plus the largest layer of chunks a brick's edge can cut
// through, across z for a z-slab and across y for a y-slab (bricks always
// hold whole x rows, so no edge cuts across x): the partial chunks on a
// brick's edge stay cached until the neighbouring brick has used (read) or
// filled (written) the rest, so each chunk is read and written once instead
// of once per brick that touches it. (Counting the x axis as a layer once
// made the cache the whole volume: peak RSS 1.1 GB for a 1 GiB volume
// streamed through a 256 MiB budget.)
// When that is more than twice the brick (a y-layer of a large volume is
// itself gigabytes), no cache at all: HDF5 then reads or writes each chunk
// a brick touches straight through one chunk-sized buffer, and a brick edge
// that cuts a chunk costs a re-read of it. A cache smaller than the layer
// would only thrash (the bricks cycle through more chunks than it holds, so
// every access misses), and HDF 1.10 keeps every chunk one H5Dread or
// H5Dwrite touches in the cache until the call returns, beyond its byte
// limit: a 32 MiB cache over y-slabs of 16 MiB that cut 64 chunks of 1 MiB
// held 130-190 MB, and the process peaked at 338 MB streaming 512 MiB
// through a 128 MiB budget (84 MB without the cache, and faster).
// slots: a prime at least 10x the chunks that fit, as the HDF5 manual
// advises, so the hash of chunk indices rarely collides.
// w0 = 1: evict fully read or written chunks first; oocfft reads and writes
// each element once per pass, so a chunk used whole is not needed again.
ChunkCache chunk_cache_for(const std::vector<std::size_t>& dims, const std::vector<std::size_t>& chunks,
                           std::size_t element_bytes, std::size_t brick_bytes) {
  std::size_t chunk_bytes = element_bytes;
  for (std::size_t c : chunks) chunk_bytes *= c;
  const std::size_t rank = dims.size();
  std::size_t largest_layer = 0;
  // The axes a brick edge can cut: the volume's z and y (the last axis is x).
  for (std::size_t a = rank >= 3 ? rank - 3 : 0; a + 1 < rank; ++a) {
    std::size_t layer = chunks[a] * element_bytes;
    for (std::size_t b = 0; b < rank; ++b)
      if (b != a) layer *= round_up(dims[b], chunks[b]);
    largest_layer = std::max(largest_layer, layer);
  }
  ChunkCache cache;
  cache.w0 = 1.0;
  if (largest_layer > brick_bytes || chunk_bytes > brick_bytes) {
    cache.bytes = 0;
    cache.slots = 1;  // H5Pset_chunk_cache wants at least one slot
    return cache;
  }
  cache.bytes = brick_bytes + largest_layer;
  cache.slots = next_prime(10 * (cache.bytes / chunk_bytes + 1));
  return cache;
}

}  // namespace oocfft::io
