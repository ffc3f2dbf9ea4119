#pragma once
// core/relative_l2.hpp over threads: the command's checks and the
// benchmarks compare volumes of gigabytes, where a one-thread long-double
// sum would take longer than the transform it checks. The measure itself
// stays the core's (a NaN gives infinity, never a passing comparison).
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <cstddef>

#include "core/relative_l2.hpp"

namespace oocfft::checks {

// The L2 sums of items [0, count) added in parallel: `add(begin, end, sums)`
// adds the pairs of its items to `sums` (an item may be one element or a
// chunk that regenerates its reference), `grain` items per task at least.
template <class AddRange>
L2Sums parallel_l2_sums(std::size_t count, std::size_t grain, AddRange add) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, count, grain), L2Sums{},
      [&](const tbb::blocked_range<std::size_t>& r, L2Sums acc) {
        add(r.begin(), r.end(), acc);
        return acc;
      },
      [](const L2Sums& a, const L2Sums& b) { return a + b; });
}

// ||y - ref|| / ||ref|| over n elements, summed in parallel.
template <class Y, class R>
double parallel_relative_l2(const Y* y, const R* ref, std::size_t n) {
  return parallel_l2_sums(n, std::size_t{1} << 16, [&](std::size_t begin, std::size_t end, L2Sums& acc) {
           acc += l2_sums(y + begin, ref + begin, end - begin);
         }).relative();
}

}  // namespace oocfft::checks
