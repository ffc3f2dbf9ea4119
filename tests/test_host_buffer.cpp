// HostBuffer, the volume layer's one type of owned host memory, and the
// pool of staging buffers made of it: page-locked or not as a property,
// unlocked before it is unmapped, reused while it fits, and a refusal to
// page-lock reported as the backends expect (std::bad_alloc).
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <new>
#include <vector>

#include "volume/host_buffer.hpp"
#include "volume/staging_pool.hpp"

namespace oocfft::volume {
namespace {

// Records what is locked; refuses once `refuse_after` locks were granted.
class RecordingLocker : public PageLocker {
 public:
  explicit RecordingLocker(int refuse_after = 1 << 30) : refuse_after_(refuse_after) {}
  bool lock(std::byte* data, std::size_t bytes) const noexcept override {
    if (granted_ >= refuse_after_) return false;
    ++granted_;
    locked_[data] = bytes;
    return true;
  }
  void unlock(std::byte* data) const noexcept override { locked_.erase(data); }
  bool is_locked(const std::byte* data, std::size_t) const noexcept override {
    return locked_.count(const_cast<std::byte*>(data)) != 0;
  }
  std::size_t locked_regions() const { return locked_.size(); }

 private:
  int refuse_after_;
  mutable int granted_ = 0;
  mutable std::map<std::byte*, std::size_t> locked_;
};

TEST(HostBuffer, PageLockedIsAPropertyUndoneBeforeUnmapping) {
  RecordingLocker locker;
  {
    HostBuffer b(3 << 20, "test buffer");
    EXPECT_EQ(b.bytes(), std::size_t{3} << 20);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % 4096, 0u) << "page-aligned";
    EXPECT_FALSE(b.page_locked());
    ASSERT_TRUE(b.lock(locker));
    EXPECT_TRUE(b.page_locked());
    EXPECT_TRUE(b.lock(locker)) << "locking twice is a no-op";
    EXPECT_EQ(locker.locked_regions(), 1u);
    HostBuffer moved = std::move(b);
    EXPECT_TRUE(moved.page_locked());
    EXPECT_FALSE(b.page_locked());
  }
  EXPECT_EQ(locker.locked_regions(), 0u) << "the destructor unlocks";
}

TEST(HostBuffer, RefusedLockLeavesItPageable) {
  RecordingLocker refusing(0);
  HostBuffer b(1 << 20, "test buffer");
  EXPECT_FALSE(b.lock(refusing));
  EXPECT_FALSE(b.page_locked());
  b.data()[0] = std::byte{1};  // still usable
}

TEST(HostBuffer, EmptyBufferLocksTriviallyWithoutTheLocker) {
  RecordingLocker refusing(0);  // would refuse, were it asked
  {
    HostBuffer b(0, "test buffer");
    EXPECT_EQ(b.data(), nullptr);
    EXPECT_TRUE(b.lock(refusing));
    EXPECT_TRUE(b.page_locked());
  }
  EXPECT_EQ(refusing.locked_regions(), 0u);
}

// A plan whose streams stage nothing asks for buffers of 0 bytes; that is
// not a refusal to page-lock.
TEST(StagingPool, EmptyBuffersWithALockerAreNotARefusal) {
  RecordingLocker refusing(0);
  StagingPool pool;
  std::vector<HostBuffer>* held = nullptr;
  ASSERT_NO_THROW(held = &pool.acquire(2, 0, &refusing));
  ASSERT_EQ(held->size(), 2u);
  EXPECT_TRUE((*held)[0].page_locked());
  EXPECT_EQ(pool.held_bytes(), 0u);
  EXPECT_EQ(&pool.acquire(2, 0, &refusing), held) << "reused";
  EXPECT_EQ(refusing.locked_regions(), 0u);
}

TEST(StagingPool, ReusesBuffersThatFitAndAreLockedTheSameWay) {
  RecordingLocker locker;
  StagingPool pool;
  std::byte* first = pool.acquire(2, 1 << 20, &locker)[0].data();
  EXPECT_EQ(locker.locked_regions(), 2u);
  EXPECT_EQ(pool.acquire(2, 1 << 19, &locker)[0].data(), first) << "smaller: reused";
  EXPECT_EQ(pool.held_bytes(), std::size_t{2} << 20);
  const auto& pageable = pool.acquire(2, 1 << 20, nullptr);
  EXPECT_FALSE(pageable[0].page_locked()) << "pageable asked: the locked set is replaced";
  EXPECT_EQ(locker.locked_regions(), 0u);
}

TEST(StagingPool, RefusedLockThrowsBadAllocAndHoldsNothing) {
  RecordingLocker refusing_second(1);
  StagingPool pool;
  EXPECT_THROW(pool.acquire(3, 1 << 20, &refusing_second), std::bad_alloc);
  EXPECT_EQ(pool.held_bytes(), 0u);
  EXPECT_EQ(refusing_second.locked_regions(), 0u);
}

}  // namespace
}  // namespace oocfft::volume
