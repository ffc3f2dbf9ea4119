// HostArray, PinnedAllocator and Plan::pin on any machine: zeroed, usable
// as a transform's data with the same result as a std::vector, movable,
// huge pages advised where the kernel has them, page-locked exactly when a
// CUDA device is usable, and a refused lock leaves plain working memory.
// The GPU side (DMA straight from the array, unlocking) is in
// test_engine_cuda.cpp.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <algorithm>
#include <complex>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/api/host_array_memory.hpp"
#include "tests/engine_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

using c64 = std::complex<float>;

TEST(HostArray, StartsZeroedAndTransformsLikeAVector) {
  const Shape shape{12, 20, 18};
  const std::size_t n = shape.elements();
  HostArray<c64> a(shape);
  ASSERT_EQ(a.size(), n);
  ASSERT_NE(a.data(), nullptr);
  for (const c64& v : a) ASSERT_EQ(v, c64(0, 0));
  const auto x = to_precision<float>(random_signal(n, 314));
  std::copy(x.begin(), x.end(), a.begin());
  Options o;
  o.backend = Backend::host;
  fft3d(a.data(), shape, Direction::forward, o);
  const auto ref = in_core_result(x, shape, Direction::forward);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(a[i], ref[i]) << i;
}

TEST(HostArray, MovesOwnership) {
  HostArray<c64> a(std::size_t{1000});
  a[999] = {1, 2};
  c64* p = a.data();
  HostArray<c64> b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(b.size(), 1000u);
  EXPECT_EQ(b[999], c64(1, 2));
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(a.size(), 0u);
  HostArray<c64> c(std::size_t{10});
  c = std::move(b);
  EXPECT_EQ(c.data(), p);
  EXPECT_EQ(b.data(), nullptr);
}

TEST(HostArray, PageLockedExactlyWhenADeviceIsUsable) {
  HostArray<c64> a(std::size_t{1} << 20);
  EXPECT_EQ(a.page_locked(), cuda_available()) << a.lock_failure();
  if (!a.page_locked()) EXPECT_FALSE(a.lock_failure().empty());
  // madvise(MADV_HUGEPAGE) is accepted wherever the kernel has transparent
  // huge pages at all (whatever their mode).
  const bool kernel_has_thp = std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled");
  EXPECT_EQ(a.huge_pages_advised(), kernel_has_thp);
}

// A locker that refuses, as cudaHostRegister does under RLIMIT_MEMLOCK or
// without memory, and one that counts what it is asked.
struct RefusingLocker final : volume::PageLocker {
  bool lock(std::byte*, std::size_t) const noexcept override { return false; }
  void unlock(std::byte*) const noexcept override { ADD_FAILURE() << "unlock of memory never locked"; }
  bool is_locked(const std::byte*, std::size_t) const noexcept override { return false; }
};
struct CountingLocker final : volume::PageLocker {
  mutable int locks = 0, unlocks = 0;
  mutable std::size_t bytes = 0;
  bool lock(std::byte*, std::size_t b) const noexcept override {
    ++locks;
    bytes = b;
    return true;
  }
  void unlock(std::byte*) const noexcept override { ++unlocks; }
  bool is_locked(const std::byte*, std::size_t) const noexcept override { return false; }
};

// PageLocking::pageable: the same zeroed, writable memory, never locked
// (on a GPU machine too), and the reason says it was asked for.
TEST(HostArray, PageableByRequestIsNeverLocked) {
  HostArray<std::complex<float>> a(std::size_t{1} << 20, PageLocking::pageable);
  EXPECT_FALSE(a.page_locked());
  EXPECT_NE(a.lock_failure().find("pageable"), std::string::npos) << a.lock_failure();
  EXPECT_TRUE(std::all_of(a.begin(), a.end(), [](const std::complex<float>& z) { return z == std::complex<float>{}; }));
  a[12345] = {1.5f, -2.5f};
  EXPECT_EQ(a[12345], std::complex<float>(1.5f, -2.5f));
}

TEST(HostArray, ARefusedLockLeavesPlainWorkingMemory) {
  const std::size_t bytes = 3 * (std::size_t{1} << 20) + 5;
  RefusingLocker refusing;
  detail::PinnedAllocation a = engine::allocate_pinned(bytes, &refusing);
  ASSERT_NE(a.data, nullptr);
  EXPECT_FALSE(a.page_locked);
  EXPECT_NE(a.lock_failure.find("refused"), std::string::npos) << a.lock_failure;
  auto* p = static_cast<unsigned char*>(a.data);
  p[0] = 1;
  p[bytes - 1] = 2;
  EXPECT_EQ(p[0] + p[bytes - 1], 3);
  engine::deallocate_pinned(a.data, bytes, nullptr);

  CountingLocker counting;
  a = engine::allocate_pinned(bytes, &counting);
  EXPECT_TRUE(a.page_locked);
  EXPECT_TRUE(a.lock_failure.empty());
  EXPECT_EQ(counting.locks, 1);
  EXPECT_GE(counting.bytes, bytes);  // whole 2 MiB pages
  engine::deallocate_pinned(a.data, bytes, &counting);
  EXPECT_EQ(counting.unlocks, 1);
}

TEST(HostArray, RefusesSizesThatOverflow) {
  EXPECT_THROW(HostArray<c64>(std::numeric_limits<std::size_t>::max() / 4), Error);
}

TEST(PinnedAllocator, VectorTransformsLikeAPlainVector) {
  const Shape shape{9, 16, 11};
  const std::size_t n = shape.elements();
  const auto x = to_precision<float>(random_signal(n, 2718));
  std::vector<c64, PinnedAllocator<c64>> v(x.begin(), x.end());
  Options o;
  o.backend = Backend::host;
  fft3d(v.data(), shape, Direction::forward, o);
  const auto ref = in_core_result(x, shape, Direction::forward);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(v[i], ref[i]) << i;
}

TEST(PlanPin, HostBackendLocksNothingAndSaysWhy) {
  Options o;
  o.backend = Backend::host;
  const Plan plan(Shape{4, 4, 4}, Precision::single, o);
  std::vector<c64> x(64);
  const PinnedMemory pinned = plan.pin(x.data(), x.size() * sizeof(c64));
  EXPECT_FALSE(pinned.locked());
  EXPECT_NE(pinned.reason().find("host backend"), std::string::npos) << pinned.reason();
  EXPECT_THROW(plan.pin(nullptr, 64), Error);
  EXPECT_THROW(plan.pin(x.data(), 0), Error);
  EXPECT_FALSE(PinnedMemory().locked());
}

}  // namespace
}  // namespace oocfft::test
