#pragma once
// HostArray<T>: host memory the library owns for a volume, for transforms
// that run at the PCIe floor. It is mapped with transparent huge pages
// advised, first touched from all cores, then page-locked for the GPU
// (cudaHostRegister), so a plan DMAs every brick straight from it and needs
// no staging: on the H100 machine a 16 GiB resident transform took 0.690 s
// page-locked against 0.769 s from pageable memory (bench/RESULTS.md).
// Where no GPU is usable (a host-only build, no device) or locking is
// refused (RLIMIT_MEMLOCK, no memory), it is plain memory: page_locked()
// says which, lock_failure() why. Elements start as zero. Move-only; the
// destructor unlocks and unmaps.
//
// PinnedAllocator<T> gives std::vector the same memory, one mapping per
// allocation: std::vector<std::complex<float>, oocfft::PinnedAllocator<...>>.
#include <cstddef>
#include <limits>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "oocfft/error.hpp"
#include "oocfft/shape.hpp"

namespace oocfft {

// Whether a HostArray's memory is page-locked for the GPU. Pageable memory
// keeps the huge pages and the parallel first touch, which make a large
// array ready to write at memory speed, without the locking's cost (about
// 0.05 s/GiB): for a transform's output that stages anyway.
enum class PageLocking { locked, pageable };

namespace detail {

struct PinnedAllocation {
  void* data = nullptr;
  bool page_locked = false;
  bool huge_pages_advised = false;
  std::string lock_failure;  // why it is not page-locked; empty when it is
};

// Maps, advises huge pages, first-touches and (when `lock`) page-locks
// `bytes` (> 0). Throws Error(out_of_memory) when the memory cannot be
// mapped.
PinnedAllocation allocate_pinned(std::size_t bytes, bool lock = true);
// Unlocks (when `page_locked`) and unmaps what allocate_pinned(bytes) gave.
void deallocate_pinned(void* data, std::size_t bytes, bool page_locked) noexcept;

template <class T>
std::size_t bytes_for(std::size_t count) {
  if (count > std::numeric_limits<std::size_t>::max() / sizeof(T))
    throw Error(ErrorKind::invalid_argument, "HostArray: " + std::to_string(count) + " elements overflow size_t bytes");
  return count * sizeof(T);
}

}  // namespace detail

template <class T>
class HostArray {
  // Objects live in the mapping from the start (implicit-lifetime types).
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "HostArray holds trivially copyable element types (std::complex<float>, float, ...)");

 public:
  HostArray() = default;
  explicit HostArray(std::size_t count, PageLocking locking = PageLocking::locked) : count_(count) {
    if (count > 0) allocation_ = detail::allocate_pinned(detail::bytes_for<T>(count), locking == PageLocking::locked);
  }
  // A volume of `shape` (C order, x fastest).
  explicit HostArray(const Shape& shape, PageLocking locking = PageLocking::locked)
      : HostArray(shape.elements(), locking) {}
  ~HostArray() { release(); }
  HostArray(HostArray&& other) noexcept
      : count_(std::exchange(other.count_, 0)), allocation_(std::exchange(other.allocation_, {})) {}
  HostArray& operator=(HostArray&& other) noexcept {
    if (this != &other) {
      release();
      count_ = std::exchange(other.count_, 0);
      allocation_ = std::exchange(other.allocation_, {});
    }
    return *this;
  }
  HostArray(const HostArray&) = delete;
  HostArray& operator=(const HostArray&) = delete;

  T* data() const noexcept { return static_cast<T*>(allocation_.data); }
  std::size_t size() const noexcept { return count_; }
  T* begin() const noexcept { return data(); }
  T* end() const noexcept { return data() + count_; }
  T& operator[](std::size_t i) const noexcept { return data()[i]; }

  bool page_locked() const noexcept { return allocation_.page_locked; }
  bool huge_pages_advised() const noexcept { return allocation_.huge_pages_advised; }
  const std::string& lock_failure() const noexcept { return allocation_.lock_failure; }

 private:
  void release() noexcept {
    if (allocation_.data != nullptr)
      detail::deallocate_pinned(allocation_.data, count_ * sizeof(T), allocation_.page_locked);
    allocation_ = {};
    count_ = 0;
  }
  std::size_t count_ = 0;
  detail::PinnedAllocation allocation_;
};

// A std::allocator in the same memory. Stateless: every allocation is its
// own page-locked mapping, so use it for a few large arrays, not for many
// small ones.
template <class T>
struct PinnedAllocator {
  using value_type = T;
  PinnedAllocator() = default;
  template <class U>
  PinnedAllocator(const PinnedAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    try {
      return static_cast<T*>(detail::allocate_pinned(detail::bytes_for<T>(n)).data);
    } catch (const Error&) {
      throw std::bad_alloc();
    }
  }
  // Unlocking memory that was not locked is a no-op.
  void deallocate(T* p, std::size_t n) noexcept { detail::deallocate_pinned(p, n * sizeof(T), true); }
  template <class U>
  bool operator==(const PinnedAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace oocfft
