// The staging ring of a device stream (engine/backends/cuda/staging_ring.hpp) on its own:
// pieces of seeded data go up through the slots, come back down through
// them into a poisoned volume, for every slot count from one to more than
// the pieces; a gather or scatter that throws reaches the caller after
// every other copy has ended, and the ring goes on working afterwards.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "engine/backends/cuda/staging_ring.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/stream.hpp"
#include "tests/cuda_test_support.hpp"

namespace oocfft::test {
namespace {

using engine::StagingRing;

constexpr std::size_t piece_values = 1000;  // uint64 values per piece
constexpr std::size_t piece_bytes = piece_values * sizeof(std::uint64_t);

struct RingFixture {
  explicit RingFixture(std::size_t pieces, std::size_t slots)
      : staging(slots * piece_bytes), device(pieces * piece_bytes), source(pieces * piece_values),
        result(pieces * piece_values, poison) {
    std::mt19937_64 random(pieces * 31 + slots);
    for (std::uint64_t& v : source) v = random();
  }
  static constexpr std::uint64_t poison = 0xBADC0FFEE0DDF00Dull;

  StagingRing ring(tbb::task_arena& arena) {
    return StagingRing(staging.as<std::byte>(), staging.bytes(), piece_bytes, sizeof(std::uint64_t), stream.get(),
                       arena);
  }
  std::byte* device_piece(std::size_t k) { return device.as<std::byte>() + k * piece_bytes; }

  kc::PinnedHostBuffer staging;
  kc::DeviceBuffer device;
  kc::Stream stream;
  std::vector<std::uint64_t> source, result;
};

void upload(RingFixture& f, StagingRing& ring, std::size_t pieces, std::size_t throw_at = SIZE_MAX) {
  ring.upload(
      pieces,
      [&](std::size_t k, std::byte* slot) {
        if (k == throw_at) throw std::runtime_error("gather of piece " + std::to_string(k) + " failed");
        std::memcpy(slot, f.source.data() + k * piece_values, piece_bytes);
      },
      [&](std::size_t k, std::byte* slot) {
        kc::check_cuda(cudaMemcpyAsync(f.device_piece(k), slot, piece_bytes, cudaMemcpyHostToDevice, f.stream.get()),
                       "cudaMemcpyAsync");
      },
      [] {});
}

void download(RingFixture& f, StagingRing& ring, std::size_t pieces, std::size_t throw_at = SIZE_MAX) {
  ring.download(
      pieces,
      [&](std::size_t k, std::byte* slot) {
        kc::check_cuda(cudaMemcpyAsync(slot, f.device_piece(k), piece_bytes, cudaMemcpyDeviceToHost, f.stream.get()),
                       "cudaMemcpyAsync");
      },
      [&](std::size_t k, std::byte* slot) {
        if (k == throw_at) throw std::runtime_error("scatter of piece " + std::to_string(k) + " failed");
        std::memcpy(f.result.data() + k * piece_values, slot, piece_bytes);
      },
      [] {});
}

TEST(StagingRingCuda, RoundTripForEverySlotCount) {
  SKIP_WITHOUT_CUDA();
  tbb::task_arena arena(4);
  const std::size_t pieces = 37;
  for (std::size_t slots : {1, 2, 3, 5, 8, 64}) {
    RingFixture f(pieces, slots);
    StagingRing ring = f.ring(arena);
    ASSERT_EQ(ring.slots(), slots);
    ASSERT_EQ(ring.slot_bytes(), piece_bytes);
    kc::check_cuda(cudaMemsetAsync(f.device.get(), 0xAB, f.device.bytes(), f.stream.get()), "cudaMemsetAsync");
    upload(f, ring, pieces);
    download(f, ring, pieces);
    EXPECT_EQ(f.result, f.source) << slots << " slots";
  }
}

// An arena of one thread has no workers: the lane's own waits run the copies.
TEST(StagingRingCuda, AnArenaWithoutWorkersStillMovesEveryPiece) {
  SKIP_WITHOUT_CUDA();
  tbb::task_arena arena(1);
  RingFixture f(9, 4);
  StagingRing ring = f.ring(arena);
  upload(f, ring, 9);
  download(f, ring, 9);
  EXPECT_EQ(f.result, f.source);
}

TEST(StagingRingCuda, AFailedCopyIsRethrownAndTheRingGoesOn) {
  SKIP_WITHOUT_CUDA();
  tbb::task_arena arena(4);
  const std::size_t pieces = 20;
  RingFixture f(pieces, 4);
  StagingRing ring = f.ring(arena);
  EXPECT_THROW(
      {
        try {
          upload(f, ring, pieces, 6);
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "gather of piece 6 failed");
          throw;
        }
      },
      std::runtime_error);
  upload(f, ring, pieces);
  EXPECT_THROW(download(f, ring, pieces, 11), std::runtime_error);
  // Pieces before the failed one were scattered; after the error no new
  // piece starts beyond those already under way (at most a ring's worth).
  for (std::size_t k = 0; k < 11; ++k)
    EXPECT_EQ(f.result[k * piece_values], f.source[k * piece_values]) << "piece " << k;
  std::size_t written_after = 0;
  for (std::size_t k = 12; k < pieces; ++k) written_after += f.result[k * piece_values] != RingFixture::poison;
  EXPECT_LE(written_after, ring.slots());
  std::fill(f.result.begin(), f.result.end(), RingFixture::poison);
  download(f, ring, pieces);
  EXPECT_EQ(f.result, f.source);
}

}  // namespace
}  // namespace oocfft::test
