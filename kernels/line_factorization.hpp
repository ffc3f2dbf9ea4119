#pragma once
// How a 1D transform of length n is computed: a chain of Stockham radix
// passes, or Bluestein's chirp-z convolution of a smooth length M >= 2n-1.
// choose_line_algorithm() is the one place that decides, with a cost model
// that can be read (and is reported in Plan::describe()).
#include <cstddef>
#include <string>
#include <vector>

#include "kernels/radix_schedule.hpp"

namespace oocfft::kernels {

enum class LineAlgorithm { stockham, bluestein };

// What a line plan transforms: whole lines, Bluestein's convolutions, or the
// complex lines of a real transform whose real ends its tile folds in. On
// the device their schedules differ where a whole line runs the in-place
// tile and the other two the Stockham tile of its settled schedule
// (device_radix_schedule and convolution_radix_schedule in
// cuda/schedule_choice.hpp); elsewhere they are the same.
enum class LineUse { whole_line, convolution, real_ends };

const char* to_string(LineAlgorithm) noexcept;

struct LineFactorization {
  std::size_t length = 1;
  LineAlgorithm algorithm = LineAlgorithm::stockham;
  // Stockham radices in pass order; their product is `length` (empty for 1).
  std::vector<int> radices;
  // Bluestein: the convolution length M (a Stockham length), else 0.
  std::size_t convolution_length = 0;
  // One line saying why, with the two costs, for plan reports.
  std::string reason;
};

// The radices of n in pass order: the direct primes 17..largest_direct_prime
// first (direct_prime.hpp), then radix_schedule() of the rest
// (radix_schedule.hpp: 16s, 8/4/2, then 9, 3, 5, 7, 11, 13 and the
// composites), the definition the compiled device kernels share; an empty
// vector when n has a larger prime factor (or n == 1). `composites`: which
// composite radices the schedule may use (host_composite_radices or
// device_composite_radices<T>(), radix_schedule.hpp).
std::vector<int> stockham_radices(std::size_t n, CompositeRadices composites, LineUse use = LineUse::whole_line);

// Estimated work of a chain of radix passes over n points: per pass, the
// butterfly's real operations per point plus twiddle and load/store costs.
double stockham_cost(std::size_t n, const std::vector<int>& radices);

// Smallest M >= minimum whose prime factors are all in {2, 3, 5, 7}.
std::size_t next_smooth_length(std::size_t minimum);

// Bluestein's convolution length for a line of n: the power of two >= 2n-1
// when it is within 1.35x of the smallest 7-smooth such length, that smooth
// length otherwise.
std::size_t bluestein_length(std::size_t n);

// The decision: Stockham when stockham_radices(n, composites) has a schedule
// and it is cheaper than Bluestein, Bluestein otherwise.
LineFactorization choose_line_algorithm(std::size_t n, CompositeRadices composites,
                                        LineUse use = LineUse::whole_line);

}  // namespace oocfft::kernels
