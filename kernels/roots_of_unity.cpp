#include "kernels/roots_of_unity.hpp"

#include <cmath>

namespace oocfft::kernels {

std::complex<long double> unit_root(std::uint64_t k, std::uint64_t n) {
  k %= n;
  // angle = (pi/4) * p / n with p = 8k in [0, 8n); fold into p in [0, n].
  std::uint64_t p = 8 * k;
  bool negate_sin = false, negate_cos = false, swap = false;
  if (p > 4 * n) {  // angle in (pi, 2pi): angle -> 2pi - angle
    p = 8 * n - p;
    negate_sin = true;
  }
  if (p > 2 * n) {  // angle in (pi/2, pi]: angle -> pi - angle
    p = 4 * n - p;
    negate_cos = true;
  }
  if (p > n) {  // angle in (pi/4, pi/2]: angle -> pi/2 - angle, swap cos/sin
    p = 2 * n - p;
    swap = true;
  }
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double angle = pi / 4 * (static_cast<long double>(p) / static_cast<long double>(n));
  long double c = std::cos(angle);
  long double s = std::sin(angle);
  if (swap) std::swap(c, s);
  if (negate_cos) c = -c;
  if (negate_sin) s = -s;
  return {c, -s};  // exp(-i angle)
}

RootsOfUnity::RootsOfUnity(std::uint64_t n) : n_(n) {
  fine_count_ = 1;
  while (fine_count_ * fine_count_ < n) ++fine_count_;
  fine_.resize(fine_count_);
  for (std::uint64_t j = 0; j < fine_count_; ++j) fine_[j] = unit_root(j, n);
  const std::uint64_t coarse_count = (n + fine_count_ - 1) / fine_count_ + 1;
  coarse_.resize(coarse_count);
  for (std::uint64_t j = 0; j < coarse_count; ++j) coarse_[j] = unit_root(j * fine_count_, n);
}

std::complex<long double> RootsOfUnity::operator()(std::uint64_t k) const {
  k %= n_;
  return coarse_[k / fine_count_] * fine_[k % fine_count_];
}

}  // namespace oocfft::kernels
