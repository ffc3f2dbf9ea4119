#include "transpose/run_copy.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>

#include "transpose/streaming_copy.hpp"

namespace oocfft::transpose {
namespace {

// Large enough that the memcpy call and task overhead vanish, small enough
// that one box gives every thread several pieces.
constexpr std::size_t piece_bytes = std::size_t{256} << 10;

// Boxes at least this large are copied with streaming stores: they exceed
// what the caches could keep until the data is read again, so the cached
// stores' read for ownership would be wasted DRAM traffic
// (streaming_copy.hpp). Smaller boxes, which the host backend may still find
// in cache when it transforms them, keep ordinary stores.
constexpr std::size_t streaming_box_bytes = std::size_t{16} << 20;

// A scatter into a volume at least this large streams whatever the box's
// size: the pieces of a staging ring are a few MiB, but the volume they go
// to is not read again before the next pass, long after the caches have
// turned over (the host has at most a few hundred MiB of last-level cache).
constexpr std::size_t streaming_volume_bytes = std::size_t{1} << 30;

void copy_piece(std::byte* to, const std::byte* from, std::size_t bytes, bool streaming) {
  if (streaming) {
    copy_streaming(to, from, bytes);
  } else {
    std::memcpy(to, from, bytes);
  }
}

// Calls copy(volume offset, staging offset, elements, streaming) for every
// piece of every run, in parallel; streaming stores are fenced before the
// tasks end, so the copy is visible to whoever waits for the loop.
template <class Copy>
void for_each_piece(const RunGeometry& g, std::size_t element_bytes, bool streaming, Copy copy) {
  const std::size_t run_bytes = g.length * element_bytes;
  const std::size_t pieces_per_run = std::max<std::size_t>(1, (run_bytes + piece_bytes - 1) / piece_bytes);
  const std::size_t piece = (g.length + pieces_per_run - 1) / pieces_per_run;  // elements
  // Short runs: group several runs per task instead.
  const std::size_t grain = std::max<std::size_t>(1, piece_bytes / std::max<std::size_t>(1, run_bytes));
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, g.count * pieces_per_run, grain),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      for (std::size_t i = range.begin(); i != range.end(); ++i) {
                        const std::size_t r = i / pieces_per_run, k = i % pieces_per_run;
                        const std::size_t begin = k * piece;
                        if (begin >= g.length) continue;
                        const std::size_t n = std::min(piece, g.length - begin);
                        copy(g.offset(r) + begin, r * g.length + begin, n, streaming);
                      }
                      if (streaming) store_fence();
                    });
}

}  // namespace

bool gather_streams(std::size_t element_bytes, const Box& box) {
  return box.elements() * element_bytes >= streaming_box_bytes;
}

bool scatter_streams(const Shape& volume_shape, std::size_t element_bytes, const Box& box) {
  return gather_streams(element_bytes, box) || volume_shape.elements() * element_bytes >= streaming_volume_bytes;
}

RunGeometry run_geometry(const Shape& v, const Box& box) {
  const Shape& e = box.extent;
  RunGeometry g;
  g.volume_plane = v.ny * v.nx;
  g.volume_row = v.nx;
  g.first = (box.z0 * v.ny + box.y0) * v.nx + box.x0;
  if (e.nx == v.nx && e.ny == v.ny) {
    // A z-slab: one run (split into pieces by for_each_piece).
    g.count = 1;
    g.length = e.elements();
    g.runs_per_z = 1;
  } else if (e.nx == v.nx) {
    g.count = e.nz;
    g.length = e.ny * e.nx;
    g.runs_per_z = 1;
  } else {
    g.count = e.nz * e.ny;
    g.length = e.nx;
    g.runs_per_z = e.ny;
  }
  return g;
}

void gather_runs(const std::byte* volume, const Shape& volume_shape, std::size_t element_bytes, const Box& box,
                 std::byte* staging) {
  const RunGeometry g = run_geometry(volume_shape, box);
  const bool streaming = gather_streams(element_bytes, box);
  for_each_piece(g, element_bytes, streaming, [&](std::size_t from, std::size_t to, std::size_t n, bool streaming) {
    copy_piece(staging + to * element_bytes, volume + from * element_bytes, n * element_bytes, streaming);
  });
}

void scatter_runs(std::byte* volume, const Shape& volume_shape, std::size_t element_bytes, const Box& box,
                  const std::byte* staging) {
  const RunGeometry g = run_geometry(volume_shape, box);
  const bool streaming = scatter_streams(volume_shape, element_bytes, box);
  for_each_piece(g, element_bytes, streaming, [&](std::size_t to, std::size_t from, std::size_t n, bool streaming) {
    copy_piece(volume + to * element_bytes, staging + from * element_bytes, n * element_bytes, streaming);
  });
}

}  // namespace oocfft::transpose
