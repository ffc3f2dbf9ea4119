#pragma once
// core/relative_l2.hpp over threads: the benchmarks compare volumes of
// gigabytes, where a one-thread long-double sum would take longer than the
// transform it checks. The measure itself stays the core's.
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <cstddef>

#include "core/relative_l2.hpp"

namespace oocfft::bench {

template <class Y, class R>
double parallel_relative_l2(const Y* y, const R* ref, std::size_t n) {
  return tbb::parallel_reduce(
             tbb::blocked_range<std::size_t>(0, n, 1 << 16), L2Sums{},
             [&](const tbb::blocked_range<std::size_t>& r, L2Sums acc) {
               return acc + l2_sums(y + r.begin(), ref + r.begin(), r.size());
             },
             [](const L2Sums& a, const L2Sums& b) { return a + b; })
      .relative();
}

}  // namespace oocfft::bench
