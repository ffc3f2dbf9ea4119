#pragma once
// The error measure of the tests, the benchmarks and the command's checks:
// relative L2, ||y - ref|| / ||ref|| (docs/ARCHITECTURE.md, "Tests"; FFTW's accuracy
// method). One definition, so a tolerance means the same thing everywhere.
//
// Elements may be real, std::complex of any precision, or any type with
// `re` and `im` members (the kernels' Complex). Every element is widened to
// long double before the difference is taken and the squares are summed in
// long double: a long-double reference (fftwl, the direct DFT) keeps its
// extra digits, and the sum over a gigabyte volume does not lose the error
// of a double transform to rounding. L2Sums lets a caller split the sum
// (over threads, over the lines it reads one at a time) and combine it.
// C++17 (traits rather than concepts): the CUDA benchmark, compiled as
// C++17, uses it too.
#include <cmath>
#include <complex>
#include <cstddef>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>

namespace oocfft {

namespace relative_l2_detail {
template <class T, class = void>
struct has_re_im : std::false_type {};
template <class T>
struct has_re_im<T, std::void_t<decltype(std::declval<const T&>().re), decltype(std::declval<const T&>().im)>>
    : std::true_type {};

template <class T, class = void>
struct has_real_imag : std::false_type {};
template <class T>
struct has_real_imag<
    T, std::void_t<decltype(std::declval<const T&>().real()), decltype(std::declval<const T&>().imag())>>
    : std::true_type {};

template <class T>
std::complex<long double> widen(const T& v) {
  if constexpr (has_re_im<T>::value)
    return {static_cast<long double>(v.re), static_cast<long double>(v.im)};
  else if constexpr (has_real_imag<T>::value)
    return {static_cast<long double>(v.real()), static_cast<long double>(v.imag())};
  else
    return {static_cast<long double>(v), 0.0L};
}
}  // namespace relative_l2_detail

// The two sums behind the measure: sum |y - scale ref|^2 and sum |scale ref|^2.
struct L2Sums {
  long double difference = 0;
  long double reference = 0;

  template <class Y, class R>
  void add(const Y& got, const R& want, long double scale = 1.0L) {
    const std::complex<long double> r = relative_l2_detail::widen(want) * scale;
    difference += std::norm(relative_l2_detail::widen(got) - r);
    reference += std::norm(r);
  }
  L2Sums& operator+=(const L2Sums& other) {
    difference += other.difference;
    reference += other.reference;
    return *this;
  }
  friend L2Sums operator+(L2Sums a, const L2Sums& b) { return a += b; }

  // ||y - ref|| / ||ref||; the absolute ||y|| when the reference is zero,
  // and infinity when a NaN got in (an element left unwritten fails a test
  // instead of passing a NaN comparison).
  double relative() const {
    if (std::isnan(difference) || std::isnan(reference)) return std::numeric_limits<double>::infinity();
    return static_cast<double>(reference == 0 ? std::sqrt(difference) : std::sqrt(difference / reference));
  }
};

// The sums over n elements of y against `scale` times ref.
template <class Y, class R>
L2Sums l2_sums(const Y* y, const R* ref, std::size_t n, long double scale = 1.0L) {
  L2Sums s;
  for (std::size_t i = 0; i < n; ++i) s.add(y[i], ref[i], scale);
  return s;
}

template <class Y, class R>
double relative_l2(const Y* y, const R* ref, std::size_t n, long double scale = 1.0L) {
  return l2_sums(y, ref, n, scale).relative();
}

// Over two arrays (std::vector, std::span, ...) of the same length; arrays
// of different lengths are infinitely far apart.
template <class YRange, class RRange, class = decltype(std::data(std::declval<const YRange&>())),
          class = decltype(std::data(std::declval<const RRange&>()))>
double relative_l2(const YRange& y, const RRange& ref, long double scale = 1.0L) {
  if (std::size(y) != std::size(ref)) return std::numeric_limits<double>::infinity();
  return relative_l2(std::data(y), std::data(ref), std::size(y), scale);
}

}  // namespace oocfft
