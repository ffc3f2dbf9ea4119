#pragma once
// UnitRoots<M>: cos(2 pi m / M) and sin(2 pi m / M), m = 0..M-1, as tables
// the compiler computes, for any M. They are the twiddles inside a stage of
// passes at span 1 (stage_pass in cuda/compiled_schedule_kernels.cuh), where M is a
// product of radices (30, 36, 48, ...); radix_constants.hpp holds the
// tables of the butterflies' own radices.
//
// The angle is reduced exactly (m / M in quarter turns, then the half of a
// quarter nearer 0) to x in [0, pi/4], where 14 terms of the Taylor series
// of cos and sin are below 1e-19: the result is within about one unit in
// the last place of double, and correctly rounded for float.
#include "kernels/complex.hpp"

namespace oocfft::kernels {

namespace detail {

inline constexpr double pi = 3.14159265358979323846264338327950288;

constexpr double taylor_cos(double x) {
  double term = 1, sum = 1;
  for (int k = 1; k <= 14; ++k) {
    term *= -x * x / ((2 * k - 1) * (2 * k));
    sum += term;
  }
  return sum;
}

constexpr double taylor_sin(double x) {
  double term = x, sum = x;
  for (int k = 1; k <= 14; ++k) {
    term *= -x * x / ((2 * k) * (2 * k + 1));
    sum += term;
  }
  return sum;
}

// cos (sine false) or sin (sine true) of 2 pi m / M.
constexpr double unit_root(int m, int M, bool sine) {
  m %= M;
  const int quarter = 4 * m / M;      // the angle is quarter pi/2 + phi
  const int rest = 4 * m - quarter * M;  // phi = (pi/2) rest / M, in [0, pi/2)
  double c = 0, s = 0;
  if (2 * rest <= M) {
    const double phi = pi / 2 * rest / M;
    c = taylor_cos(phi);
    s = taylor_sin(phi);
  } else {
    const double complement = pi / 2 * (M - rest) / M;  // pi/2 - phi
    c = taylor_sin(complement);
    s = taylor_cos(complement);
  }
  const double cos_of[4] = {c, -s, -c, s};
  const double sin_of[4] = {s, c, -s, -c};
  return sine ? sin_of[quarter] : cos_of[quarter];
}

}  // namespace detail

template <int M>
struct UnitRoots {
  struct Table {
    double cos[M] = {};
    double sin[M] = {};
  };
  static constexpr Table make() {
    Table t;
    for (int m = 0; m < M; ++m) {
      t.cos[m] = detail::unit_root(m, M, false);
      t.sin[m] = detail::unit_root(m, M, true);
    }
    return t;
  }
  OOCFFT_HD static constexpr double cos(int m) {
    constexpr Table t = make();
    return t.cos[m];
  }
  OOCFFT_HD static constexpr double sin(int m) {
    constexpr Table t = make();
    return t.sin[m];
  }
};

}  // namespace oocfft::kernels
