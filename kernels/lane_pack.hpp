#pragma once
// LanePack<T, W>: W values of T, one per line of a block, operated on as a
// single value. Complex<LanePack<T, W>> runs the shared butterflies of
// butterfly.hpp on W lines at once: the compiler maps a pack onto vector
// registers (GCC/Clang vector extensions), which auto-vectorisation of the
// lane loop did not manage reliably. Host only.
#include <cstddef>
#include <cstring>

namespace oocfft::kernels {

template <class T, std::size_t W>
struct LanePack {
  typedef T Vector __attribute__((vector_size(W * sizeof(T))));
  Vector v;

  LanePack() = default;
  explicit LanePack(double scalar) {
    const T s = static_cast<T>(scalar);
    for (std::size_t i = 0; i < W; ++i) v[i] = s;
  }
  static LanePack broadcast(T scalar) { return LanePack(static_cast<double>(scalar)); }
  static LanePack load(const T* p) {
    LanePack r;
    std::memcpy(&r.v, p, sizeof(Vector));
    return r;
  }
  void store(T* p) const { std::memcpy(p, &v, sizeof(Vector)); }

  friend LanePack operator+(LanePack a, LanePack b) { return from(a.v + b.v); }
  friend LanePack operator-(LanePack a, LanePack b) { return from(a.v - b.v); }
  friend LanePack operator*(LanePack a, LanePack b) { return from(a.v * b.v); }
  friend LanePack operator-(LanePack a) { return from(-a.v); }

 private:
  static LanePack from(Vector x) {
    LanePack r;
    r.v = x;
    return r;
  }
};

}  // namespace oocfft::kernels
