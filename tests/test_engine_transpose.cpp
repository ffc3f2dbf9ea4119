// The host side of brick movement: run copies and the element-wise line
// transposes against a direct index computation, for boxes of every kind
// (z-slabs, y-slabs, narrow boxes, edge boxes), and their round trip.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "volume/host_chunks.hpp"
#include "volume/host_volume.hpp"
#include "transpose/line_transpose.hpp"
#include "transpose/run_copy.hpp"
#include "transpose/streaming_copy.hpp"

namespace oocfft::transpose {
using volume::ChunkCopy;
using volume::HostChunks;
using volume::HostVolume;
using volume::chunk_copies;
using volume::last_chunk;
namespace {

struct Pair {
  std::uint64_t a, b;  // a 16-byte element
  friend bool operator==(const Pair&, const Pair&) = default;
};

const Shape volume{9, 7, 11};
const Box boxes[] = {
    {0, 0, 0, {9, 7, 11}},  // everything
    {3, 0, 0, {4, 7, 11}},  // z-slab
    {0, 2, 0, {9, 3, 11}},  // y-slab
    {1, 2, 3, {5, 4, 6}},   // narrow
    {8, 6, 10, {1, 1, 1}},  // the last element
    {0, 6, 4, {9, 1, 7}},   // edge
};

std::size_t index(const Shape& v, std::size_t z, std::size_t y, std::size_t x) { return (z * v.ny + y) * v.nx + x; }

// Where element (z, y, x) of the box lies in the staging buffer.
std::size_t staged_index(const Box& b, BrickLayout layout, std::size_t z, std::size_t y, std::size_t x) {
  const Shape& e = b.extent;
  switch (layout) {
    case BrickLayout::natural: return (z * e.ny + y) * e.nx + x;
    case BrickLayout::y_lines: return (z * e.nx + x) * e.ny + y;
    case BrickLayout::z_lines: return (y * e.nx + x) * e.nz + z;
  }
  return 0;
}

template <class E>
void check_layout(BrickLayout layout) {
  std::vector<E> vol(volume.elements());
  for (std::size_t i = 0; i < vol.size(); ++i) {
    if constexpr (sizeof(E) == 8) {
      vol[i] = i * 2654435761u;
    } else {
      vol[i] = {i, ~i};
    }
  }
  const std::vector<E> original = vol;
  HostVolume store(reinterpret_cast<std::byte*>(vol.data()), volume, sizeof(E));
  for (const Box& b : boxes) {
    std::vector<E> staging(b.elements());
    store.read(b, layout, reinterpret_cast<std::byte*>(staging.data()));
    for (std::size_t z = 0; z < b.extent.nz; ++z)
      for (std::size_t y = 0; y < b.extent.ny; ++y)
        for (std::size_t x = 0; x < b.extent.nx; ++x)
          ASSERT_EQ(staging[staged_index(b, layout, z, y, x)], vol[index(volume, b.z0 + z, b.y0 + y, b.x0 + x)]);
    // Write back a changed brick, check exactly the box changed, restore.
    std::vector<E> changed = staging;
    for (E& v : changed) {
      if constexpr (sizeof(E) == 8) {
        v = ~v;
      } else {
        v.a = ~v.a;
      }
    }
    store.write(b, layout, reinterpret_cast<const std::byte*>(changed.data()));
    std::size_t differing = 0;
    for (std::size_t i = 0; i < vol.size(); ++i) differing += !(vol[i] == original[i]);
    EXPECT_EQ(differing, b.elements());
    store.write(b, layout, reinterpret_cast<const std::byte*>(staging.data()));
    EXPECT_EQ(vol, original);
  }
}

TEST(EngineTranspose, NaturalRunsEightByteElements) { check_layout<std::uint64_t>(BrickLayout::natural); }
TEST(EngineTranspose, NaturalRunsSixteenByteElements) { check_layout<Pair>(BrickLayout::natural); }
TEST(EngineTranspose, YLineTransposes) {
  check_layout<std::uint64_t>(BrickLayout::y_lines);
  check_layout<Pair>(BrickLayout::y_lines);
}
TEST(EngineTranspose, ZLineTransposes) {
  check_layout<std::uint64_t>(BrickLayout::z_lines);
  check_layout<Pair>(BrickLayout::z_lines);
}

TEST(EngineTranspose, RunGeometryMergesContiguousRuns) {
  EXPECT_EQ(run_geometry(volume, boxes[1]).count, 1u);   // a z-slab is one run
  EXPECT_EQ(run_geometry(volume, boxes[2]).count, 9u);   // a y-slab: one run per z
  EXPECT_EQ(run_geometry(volume, boxes[2]).length, 33u);
  EXPECT_EQ(run_geometry(volume, boxes[3]).count, 20u);  // narrow: one run per (z, y)
}

// Runs longer than one copy piece are split across tasks and still land.
TEST(EngineTranspose, LongRunsSplitIntoPieces) {
  const Shape big{3, 256, 1024};
  std::vector<std::uint64_t> vol(big.elements());
  std::iota(vol.begin(), vol.end(), 0);
  const Box slab{1, 0, 0, {2, 256, 1024}};
  std::vector<std::uint64_t> staging(slab.elements());
  gather_runs(reinterpret_cast<const std::byte*>(vol.data()), big, 8, slab, reinterpret_cast<std::byte*>(staging.data()));
  for (std::size_t i = 0; i < staging.size(); ++i) ASSERT_EQ(staging[i], 256 * 1024 + i);
}

// The streaming-store copy at every alignment of source and destination and
// every length around the cache-line and head/tail boundaries: exactly the
// destination bytes change, and they equal the source.
TEST(EngineTranspose, StreamingCopyEveryAlignmentAndLength) {
  constexpr std::size_t guard = 80;
  std::vector<std::uint8_t> source(512 + 64);
  for (std::size_t i = 0; i < source.size(); ++i) source[i] = std::uint8_t(i * 37 + 11);
  for (std::size_t to_offset = 0; to_offset < 64; to_offset += 3)
    for (std::size_t from_offset = 0; from_offset < 16; from_offset += 5)
      for (std::size_t bytes : {0, 1, 15, 63, 64, 65, 127, 128, 200, 511}) {
        std::vector<std::uint8_t> target(guard + 64 + 512 + guard, 0xA5);  // poisoned
        std::byte* to = reinterpret_cast<std::byte*>(target.data()) + guard + to_offset;
        copy_streaming(to, reinterpret_cast<const std::byte*>(source.data()) + from_offset, bytes);
        store_fence();
        for (std::size_t i = 0; i < target.size(); ++i) {
          const std::size_t at = i - guard - to_offset;
          const bool inside = i >= guard + to_offset && at < bytes;
          ASSERT_EQ(target[i], inside ? source[from_offset + at] : 0xA5)
              << "to offset " << to_offset << ", from offset " << from_offset << ", " << bytes << " bytes, byte " << i;
        }
      }
}

// Gathers into staging stream only for boxes too large to stay cached;
// scatters also stream for any box of a volume far larger than the caches,
// which is not read again before the next pass.
TEST(EngineTranspose, StreamingStoresForLargeBoxesAndScattersIntoLargeVolumes) {
  const Shape large{2048, 1024, 1024};  // 16 GiB of 8-byte elements
  const Shape small{16, 64, 64};
  const Box piece{5, 0, 0, {1, 512, 1024}};  // 4 MiB
  const Box slab{0, 0, 0, {4, 1024, 1024}};  // 32 MiB
  EXPECT_FALSE(gather_streams(8, piece));
  EXPECT_TRUE(gather_streams(8, slab));
  EXPECT_TRUE(scatter_streams(large, 8, piece));
  EXPECT_FALSE(scatter_streams(small, 8, Box{0, 0, 0, small}));
}

// Boxes large enough for streaming stores (16 MiB and up) gather and
// scatter exactly like the small ones: a y-slab of odd-length runs.
TEST(EngineTranspose, LargeBoxesWithStreamingStores) {
  const Shape big{5, 1000, 1001};  // 38 MiB of 8-byte elements
  std::vector<std::uint64_t> vol(big.elements());
  std::iota(vol.begin(), vol.end(), 7);
  const Box slab{0, 3, 0, {5, 997, 1001}};
  std::vector<std::uint64_t> staging(slab.elements(), 0xDEADBEEFull);
  gather_runs(reinterpret_cast<const std::byte*>(vol.data()), big, 8, slab, reinterpret_cast<std::byte*>(staging.data()));
  for (std::size_t z = 0; z < 5; ++z)
    for (std::size_t i = 0; i < 997 * 1001; ++i)
      ASSERT_EQ(staging[z * 997 * 1001 + i], 7 + index(big, z, 3, 0) + i);
  for (std::uint64_t& v : staging) v = ~v;
  std::vector<std::uint64_t> expected = vol;
  for (std::size_t z = 0; z < 5; ++z)
    for (std::size_t i = 0; i < 997 * 1001; ++i) expected[index(big, z, 3, 0) + i] = ~expected[index(big, z, 3, 0) + i];
  scatter_runs(reinterpret_cast<std::byte*>(vol.data()), big, 8, slab, reinterpret_cast<const std::byte*>(staging.data()));
  EXPECT_EQ(vol, expected);
}

// Chunk copies move a box exactly as the staged gather does, and each copy
// stays inside its chunk: for arrays at every page offset of interest,
// chunk sizes that cut planes and rows anywhere, and boxes of every kind.
TEST(EngineTranspose, ChunkCopiesStayInsideChunksAndMoveTheBox) {
  const Shape v{9, 7, 11};
  const std::size_t e = 8, page = 64;  // a small "page" puts boundaries inside rows
  std::vector<std::uint64_t> vol(v.elements());
  std::iota(vol.begin(), vol.end(), 1);
  const auto* bytes = reinterpret_cast<const std::byte*>(vol.data());
  for (std::uintptr_t address : {std::uintptr_t{0}, std::uintptr_t{16}, std::uintptr_t{40}, std::uintptr_t{63}})
    for (std::size_t planes : {1, 2, 4, 9}) {
      const HostChunks chunks(address, v, e, planes, page);
      ASSERT_EQ(chunks.begin(0), 0u);
      for (std::size_t c = 1; c < chunks.count(); ++c) {
        EXPECT_EQ((address + chunks.begin(c)) % page, 0u) << "chunk " << c << " starts inside a page";
        EXPECT_LT(chunks.begin(c - 1), chunks.begin(c));
      }
      EXPECT_EQ(chunks.end(chunks.count() - 1), v.elements() * e);
      for (const Box& b : boxes) {
        const std::vector<ChunkCopy> copies = chunk_copies(v, e, b, chunks);
        std::vector<std::uint64_t> device(b.elements(), 0xBADull), staged(b.elements());
        auto* dev = reinterpret_cast<std::byte*>(device.data());
        for (const ChunkCopy& c : copies)
          for (std::size_t row = 0; row < c.rows; ++row) {
            const std::size_t h = c.host_offset + row * c.host_pitch;
            ASSERT_GE(h, chunks.begin(c.chunk));
            ASSERT_LE(h + c.width, chunks.end(c.chunk)) << "a copy leaves its chunk";
            std::memcpy(dev + c.device_offset + row * c.width, bytes + h, c.width);
          }
        gather_runs(bytes, v, e, b, reinterpret_cast<std::byte*>(staged.data()));
        EXPECT_EQ(device, staged) << "address " << address << ", " << planes << " planes per chunk";
        EXPECT_EQ(last_chunk(copies), chunks.chunk_of((b.z0 * v.ny + b.y0 + b.extent.ny - 1) * v.nx * e +
                                                      (b.extent.nz - 1) * v.ny * v.nx * e + (b.x0 + b.extent.nx) * e - 1));
      }
    }
}

// Runs at a constant stride inside one chunk become one 2D copy: a y-slab
// of a single-chunk array is one copy; a narrow box one copy per z plane.
TEST(EngineTranspose, ChunkCopiesMergeStridedRuns) {
  const Shape v{9, 7, 11};
  const HostChunks whole(v.elements() * 8);
  const std::vector<ChunkCopy> slab = chunk_copies(v, 8, boxes[2], whole);
  ASSERT_EQ(slab.size(), 1u);
  EXPECT_EQ(slab[0].rows, 9u);
  EXPECT_EQ(slab[0].host_pitch, 7u * 11 * 8);
  EXPECT_EQ(slab[0].width, 3u * 11 * 8);
  EXPECT_EQ(chunk_copies(v, 8, boxes[3], whole).size(), 5u);  // narrow box: 5 planes
  EXPECT_EQ(chunk_copies(v, 8, boxes[1], whole).size(), 1u);  // z-slab: one run
}

}  // namespace
}  // namespace oocfft::transpose
