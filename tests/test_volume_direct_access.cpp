// HostVolume's direct-DMA capability, seen through the VolumeStore seam the
// engine uses, with a PageLocker that records what it was asked to do (the
// CUDA backend's locker is exercised by the GPU suites). Runs in CI.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <numeric>
#include <vector>

#include "transpose/run_copy.hpp"
#include "volume/host_volume.hpp"
#include "volume/real_spectrum_store.hpp"

namespace oocfft::volume {
namespace {

// Locks whatever it is asked to, except ranges starting at or past
// `refuse_from` bytes into the array; remembers what is locked.
class RecordingLocker final : public PageLocker {
 public:
  explicit RecordingLocker(const std::byte* array, std::size_t refuse_from = SIZE_MAX)
      : array_(array), refuse_from_(refuse_from) {}
  bool lock(std::byte* data, std::size_t bytes) const noexcept override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (std::size_t(data - array_) >= refuse_from_) return false;
    locked_[data] = bytes;
    ++locks_;
    return true;
  }
  void unlock(std::byte* data) const noexcept override {
    std::lock_guard<std::mutex> lock(mutex_);
    locked_.erase(data);
  }
  bool is_locked(const std::byte* data, std::size_t bytes) const noexcept override {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [start, length] : locked_)
      if (data >= start && data + bytes <= start + length) return true;
    return false;
  }
  std::size_t locked_ranges() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return locked_.size();
  }
  std::size_t locks() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return locks_;
  }

 private:
  const std::byte* array_;
  std::size_t refuse_from_;
  mutable std::mutex mutex_;
  mutable std::map<const std::byte*, std::size_t> locked_;
  mutable std::size_t locks_ = 0;
};

// A volume of 64 planes of 256 x 512 complex64 (1 MiB each): the 256 MiB
// registration chunks of HostVolume hold 256 planes, so a 64 MiB volume is
// one chunk; the chunked test uses a taller one.
struct Volume {
  Shape shape;
  std::vector<std::uint64_t> values;
  explicit Volume(Shape s) : shape(s), values(s.elements()) { std::iota(values.begin(), values.end(), 7); }
  std::byte* bytes() { return reinterpret_cast<std::byte*>(values.data()); }
};

// What the DMA copies of `box` would put on the device, with the device
// brick poisoned first, against the staged gather of the same box.
void expect_copies_move_box(const std::vector<DmaCopy>& copies, Volume& v, const Box& box) {
  std::vector<std::uint64_t> device(box.elements(), 0xDEADBEEFull), staged(box.elements());
  auto* dev = reinterpret_cast<std::byte*>(device.data());
  for (const DmaCopy& c : copies)
    for (std::size_t row = 0; row < c.rows; ++row)
      std::memcpy(dev + c.device_offset + row * c.width, c.host + row * c.host_pitch, c.width);
  transpose::gather_runs(v.bytes(), v.shape, 8, box, reinterpret_cast<std::byte*>(staged.data()));
  EXPECT_EQ(device, staged);
}

TEST(VolumeDirectAccess, OffByPolicyOrWhenNotLocked) {
  Volume v({8, 16, 32});
  HostVolume store(v.bytes(), v.shape, 8);
  RecordingLocker locker(v.bytes());
  EXPECT_EQ(store.open_direct_access(HostRegistration::off, locker), nullptr);
  EXPECT_EQ(store.open_direct_access(HostRegistration::automatic, locker), nullptr) << "not locked: stage";
  EXPECT_EQ(locker.locks(), 0u) << "automatic never locks the caller's memory";
}

TEST(VolumeDirectAccess, AlreadyLockedArrayGoesDirectWithoutLocking) {
  Volume v({8, 16, 32});
  HostVolume store(v.bytes(), v.shape, 8);
  RecordingLocker locker(v.bytes());
  ASSERT_TRUE(locker.lock(v.bytes(), v.values.size() * 8));  // the caller locked it
  for (HostRegistration policy : {HostRegistration::automatic, HostRegistration::on}) {
    auto direct = store.open_direct_access(policy, locker);
    ASSERT_NE(direct, nullptr);
    const Box slab{2, 0, 0, {3, 16, 32}}, yslab{0, 5, 0, {8, 4, 32}}, narrow{1, 3, 4, {5, 6, 7}};
    for (const Box& b : {slab, yslab, narrow}) {
      const std::vector<DmaCopy> copies = direct->copies(b, Transfer::upload);
      ASSERT_FALSE(copies.empty());
      expect_copies_move_box(copies, v, b);
    }
    EXPECT_EQ(direct->finish(), 0.0) << "nothing was locked by the session";
  }
  EXPECT_EQ(locker.locks(), 1u);
  EXPECT_EQ(locker.locked_ranges(), 1u) << "the caller's registration stays";
}

TEST(VolumeDirectAccess, OnLocksInChunksAndUnlocksEverything) {
  Volume v({600, 256, 512});  // 600 MiB: three chunks of 256 planes (about 256 MiB)
  HostVolume store(v.bytes(), v.shape, 8);
  RecordingLocker locker(v.bytes());
  {
    auto direct = store.open_direct_access(HostRegistration::on, locker);
    ASSERT_NE(direct, nullptr);
    const Box last{590, 0, 0, {10, 256, 512}};
    const std::vector<DmaCopy> copies = direct->copies(last, Transfer::upload);  // waits for the last chunk
    ASSERT_FALSE(copies.empty());
    expect_copies_move_box(copies, v, last);
    EXPECT_GE(locker.locks(), 3u);
    EXPECT_GT(direct->finish(), 0.0);
    EXPECT_EQ(locker.locked_ranges(), 0u) << "finish unlocks every chunk";
  }
  {
    auto direct = store.open_direct_access(HostRegistration::on, locker);
    (void)direct->copies(Box{0, 0, 0, {1, 256, 512}}, Transfer::upload);
  }  // destroyed without finish(): still unlocks
  EXPECT_EQ(locker.locked_ranges(), 0u);
}

TEST(VolumeDirectAccess, BricksPastARefusedChunkStage) {
  Volume v({600, 256, 512});
  HostVolume store(v.bytes(), v.shape, 8);
  const std::size_t plane = 256 * 512 * 8;
  RecordingLocker locker(v.bytes(), 300 * plane);  // chunks starting past plane 300 (the third, at 512) are refused
  auto direct = store.open_direct_access(HostRegistration::on, locker);
  ASSERT_NE(direct, nullptr);
  const Box early{0, 0, 0, {4, 256, 512}}, late{550, 0, 0, {4, 256, 512}};
  const std::vector<DmaCopy> first = direct->copies(early, Transfer::upload);
  ASSERT_FALSE(first.empty());
  expect_copies_move_box(first, v, early);
  EXPECT_TRUE(direct->copies(late, Transfer::upload).empty()) << "locking stopped short: this brick must stage";
  (void)direct->finish();
  EXPECT_EQ(locker.locked_ranges(), 0u);
}


// Real rows packed at their own width for a staged DMA that spreads or
// gathers them at the padded pitch (VolumeStore::packed_row_bytes): a
// forward's upload in its first pass, an inverse's download in its last;
// whole rows and part of a row (the last complex column of an odd row
// holds one real), the same values read() lays at the padded pitch, and
// write_packed() puts them where write() does; nothing packs in the other
// passes or directions.
TEST(VolumeDirectAccess, RealRowsPackAtTheirOwnWidthOnTheRealSide) {
  const Shape real{2, 3, 7}, half{2, 3, 4};
  std::vector<float> x(real.elements());
  std::iota(x.begin(), x.end(), 1.0f);
  std::vector<std::complex<float>> spectrum(half.elements());
  HostVolume real_volume(reinterpret_cast<std::byte*>(x.data()), real, sizeof(float));
  HostVolume spectrum_volume(reinterpret_cast<std::byte*>(spectrum.data()), half, sizeof(std::complex<float>));
  RealSpectrumStore store(real_volume, spectrum_volume);
  store.run_starting(2);

  const Box rows{1, 1, 0, {1, 2, 4}};  // two whole rows of plane 1
  ASSERT_EQ(store.packed_row_bytes(rows, Transfer::upload), 7 * sizeof(float));
  EXPECT_EQ(store.packed_row_bytes(rows, Transfer::download), 0u) << "a forward writes the half spectrum";
  std::vector<float> packed(14, -1.0f), padded(16, -1.0f);
  store.read_packed(rows, reinterpret_cast<std::byte*>(packed.data()));
  store.read(rows, BrickLayout::natural, reinterpret_cast<std::byte*>(padded.data()));
  for (std::size_t r = 0; r < 2; ++r)
    for (std::size_t i = 0; i < 7; ++i) {
      const float want = x[(1 * 3 + 1 + r) * 7 + i];
      EXPECT_EQ(packed[r * 7 + i], want) << "packed row " << r << ", point " << i;
      EXPECT_EQ(padded[r * 8 + i], want) << "padded row " << r << ", point " << i;
    }

  const Box tail{0, 2, 3, {1, 1, 1}};  // the last complex column: real point 6 alone
  ASSERT_EQ(store.packed_row_bytes(tail, Transfer::upload), sizeof(float));
  float last = -1.0f;
  store.read_packed(tail, reinterpret_cast<std::byte*>(&last));
  EXPECT_EQ(last, x[2 * 7 + 6]);

  store.pass_finished(0);
  EXPECT_EQ(store.packed_row_bytes(rows, Transfer::upload), 0u) << "the second pass reads the half spectrum";

  // An inverse of two passes: its last pass writes the real rows.
  std::vector<float> back(real.elements(), -1.0f);
  HostVolume back_volume(reinterpret_cast<std::byte*>(back.data()), real, sizeof(float));
  RealSpectrumStore inverse(spectrum_volume, back_volume, nullptr);
  inverse.run_starting(2);
  EXPECT_EQ(inverse.packed_row_bytes(rows, Transfer::download), 0u) << "an inverse's first pass writes the spectrum";
  inverse.pass_finished(0);
  ASSERT_EQ(inverse.packed_row_bytes(rows, Transfer::download), 7 * sizeof(float));
  EXPECT_EQ(inverse.packed_row_bytes(rows, Transfer::upload), 0u) << "its last pass reads the spectrum";
  inverse.write_packed(rows, reinterpret_cast<const std::byte*>(packed.data()));
  for (std::size_t i = 0; i < back.size(); ++i) {
    const bool written = i >= (1 * 3 + 1) * 7 && i < (1 * 3 + 3) * 7;
    EXPECT_EQ(back[i], written ? x[i] : -1.0f) << "point " << i;
  }
}

}  // namespace
}  // namespace oocfft::volume
