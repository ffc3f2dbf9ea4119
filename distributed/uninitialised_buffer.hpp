#pragma once
// UninitialisedBuffer: a rank's scratch array (a z-slab, a y-slab, a
// round's send or receive buffer), allocated and never zeroed.
// std::vector would zero tens of gigabytes on one thread first, only for
// a parallel exchange to overwrite every element; the first touch should
// be that parallel copy.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>

namespace oocfft::distributed {

template <class T>
class UninitialisedBuffer {
 public:
  explicit UninitialisedBuffer(std::size_t n)
      : data_(static_cast<T*>(::operator new(std::max<std::size_t>(n, 1) * sizeof(T)))) {}
  T* data() const { return data_.get(); }

 private:
  struct Free {
    void operator()(T* p) const noexcept { ::operator delete(p); }
  };
  std::unique_ptr<T, Free> data_;
};

}  // namespace oocfft::distributed
