#pragma once
// The output dataset's chunk shape and the chunk caches of streamed runs:
// one place for both choices, with their reasons.
#include <cstddef>
#include <vector>

namespace oocfft::io {

// Chunks of the output dataset (dims as stored, x last).
std::vector<std::size_t> output_chunks(const std::vector<std::size_t>& dims, std::size_t element_bytes);

// H5Pset_chunk_cache's arguments for one dataset.
struct ChunkCache {
  std::size_t slots = 0;
  std::size_t bytes = 0;
  double w0 = 1.0;
};

// A cache that holds every chunk one brick of `brick_bytes` touches, at
// most twice the brick; none (bytes 0) where that would take more.
// `dims` and `chunks` as stored, `element_bytes` of one stored value.
ChunkCache chunk_cache_for(const std::vector<std::size_t>& dims, const std::vector<std::size_t>& chunks,
                           std::size_t element_bytes, std::size_t brick_bytes);

}  // namespace oocfft::io
