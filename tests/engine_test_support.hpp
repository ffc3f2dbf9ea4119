#pragma once
// Helpers for the streaming-engine suites: budgets that force a strategy
// with a chosen brick size, and the in-core result to compare with.
#include <oocfft/oocfft.hpp>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <vector>

#include "tests/reference.hpp"

namespace oocfft::test {

// Device budget for `streams` streams whose bricks hold `multiple` times the
// smallest brick `strategy` needs (multiple 1 = the most bricks). Mirrors
// the planner's rule: a stream's share holds a brick (the kernels of these
// lengths need no workspace); the line-transpose chunk is
// DevMem / (3 V_d N_stream).
inline std::size_t budget_for(Strategy strategy, const Shape& s, std::size_t element_bytes, unsigned streams,
                              std::size_t multiple) {
  const std::size_t longest = std::max({s.nz, s.ny, s.nx});
  std::size_t brick = 0;
  switch (strategy) {
    case Strategy::two_pass: brick = std::max(s.ny * s.nx, s.nz); break;
    case Strategy::three_pass: brick = longest; break;
    case Strategy::line_transpose: return 3 * element_bytes * streams * longest * multiple;
    default: brick = s.elements(); break;
  }
  return streams * brick * multiple * element_bytes;
}

template <class T>
std::vector<std::complex<T>> in_core_result(const std::vector<std::complex<T>>& x, const Shape& shape,
                                            Direction direction, Norm norm = Norm::backward) {
  std::vector<std::complex<T>> y = x;
  Options o;
  o.backend = Backend::host;
  o.norm = norm;
  fft3d(y.data(), shape, direction, o);
  return y;
}

template <class T>
std::vector<LongComplex> widen(const std::vector<std::complex<T>>& y) {
  std::vector<LongComplex> w(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) w[i] = {y[i].real(), y[i].imag()};
  return w;
}

}  // namespace oocfft::test
