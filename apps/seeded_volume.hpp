#pragma once
// A seeded random volume that never needs a stored copy: element i is a
// hash of (i, seed), uniform in [-0.5, 0.5) in both parts. The demo and the
// benchmarks fill arrays from it in parallel (the values do not depend on
// the thread count) and regenerate the input on the fly for the round-trip
// and spot checks, so a check costs no second copy of a volume that may be
// most of host memory.
#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

namespace oocfft::checks {

// splitmix64's finaliser (Steele, Lea, Flood, "Fast splittable pseudorandom
// number generators", OOPSLA 2014): a bijection of 64 bits with full avalanche.
inline std::uint64_t mix64(std::uint64_t h) noexcept {
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 29;
  return h;
}

template <class T>
std::complex<T> seeded_value(std::size_t i, std::uint64_t seed) noexcept;

// 24 random bits per part: exact in float, and the values the benchmarks'
// published figures were measured on.
template <>
inline std::complex<float> seeded_value<float>(std::size_t i, std::uint64_t seed) noexcept {
  const std::uint64_t h = mix64((i + seed) * 0x9E3779B97F4A7C15ull);
  return {static_cast<float>(h & 0xFFFFFF) / 16777216.0f - 0.5f,
          static_cast<float>((h >> 24) & 0xFFFFFF) / 16777216.0f - 0.5f};
}

// 53 random bits per part (two hashes), so complex128 inputs are not float
// values in disguise.
template <>
inline std::complex<double> seeded_value<double>(std::size_t i, std::uint64_t seed) noexcept {
  const std::uint64_t h = mix64((i + seed) * 0x9E3779B97F4A7C15ull);
  const std::uint64_t g = mix64(h ^ 0xD1B54A32D192ED03ull);
  const double scale = 1.0 / 9007199254740992.0;  // 2^-53
  return {static_cast<double>(h >> 11) * scale - 0.5, static_cast<double>(g >> 11) * scale - 0.5};
}

// An uninitialised complex array: std::vector and new T[n] zero every
// element on one thread first (seconds for a 16 GiB volume), and the first
// touch should come from the parallel fill.
template <class T>
class VolumeBuffer {
 public:
  explicit VolumeBuffer(std::size_t elements)
      : data_(static_cast<std::complex<T>*>(::operator new(elements * sizeof(std::complex<T>), std::align_val_t{64}))),
        size_(elements) {}
  std::complex<T>* data() noexcept { return data_.get(); }
  const std::complex<T>* data() const noexcept { return data_.get(); }
  std::size_t size() const noexcept { return size_; }

 private:
  struct Free {
    void operator()(std::complex<T>* p) const noexcept { ::operator delete(p, std::align_val_t{64}); }
  };
  std::unique_ptr<std::complex<T>, Free> data_;
  std::size_t size_;
};

// v[i] = seeded_value<T>(i, seed) for i < n, in parallel (TBB).
template <class T>
void fill_seeded(std::complex<T>* v, std::size_t n, std::uint64_t seed);

// ||a - x|| / ||x|| with x[i] = seeded_value<T>(i, seed), the core's relative
// L2 (core/relative_l2.hpp, infinite when a NaN got in) summed in parallel:
// the round trip's error against an input that was never stored.
template <class T>
double round_trip_error(const std::complex<T>* a, std::size_t n, std::uint64_t seed);

}  // namespace oocfft::checks
