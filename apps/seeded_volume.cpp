#include "apps/seeded_volume.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "apps/parallel_l2.hpp"

namespace oocfft::checks {

template <class T>
void fill_seeded(std::complex<T>* v, std::size_t n, std::uint64_t seed) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 16), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) v[i] = seeded_value<T>(i, seed);
  });
}

// The core's measure (core/relative_l2.hpp), with the sum split over
// threads: a NaN in `a` makes the error infinite rather than a comparison
// with the tolerance that is false, so a broken result cannot pass.
template <class T>
double round_trip_error(const std::complex<T>* a, std::size_t n, std::uint64_t seed) {
  return parallel_l2_sums(n, std::size_t{1} << 16, [&](std::size_t begin, std::size_t end, L2Sums& acc) {
           for (std::size_t i = begin; i != end; ++i) acc.add(a[i], seeded_value<T>(i, seed));
         }).relative();
}

template void fill_seeded<float>(std::complex<float>*, std::size_t, std::uint64_t);
template void fill_seeded<double>(std::complex<double>*, std::size_t, std::uint64_t);
template double round_trip_error<float>(const std::complex<float>*, std::size_t, std::uint64_t);
template double round_trip_error<double>(const std::complex<double>*, std::size_t, std::uint64_t);

}  // namespace oocfft::checks
