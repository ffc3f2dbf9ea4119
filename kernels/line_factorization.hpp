#pragma once
// How a 1D transform of length n is computed: a chain of Stockham radix
// passes, or Bluestein's chirp-z convolution of a smooth length M >= 2n-1.
// choose_line_algorithm() is the one place that decides, with a cost model
// that can be read (and is reported in Plan::describe()).
#include <cstddef>
#include <string>
#include <vector>

namespace oocfft::kernels {

enum class LineAlgorithm { stockham, bluestein };

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

// The radices of n in pass order (16s, then 8/4/2 for the remaining powers
// of two, then 9, 3, 5, 7, 11, 13), or an empty vector when n has a prime
// factor above 13 (or n == 1): radix_schedule() (radix_schedule.hpp), the
// definition the compiled device kernels share.
std::vector<int> stockham_radices(std::size_t n);

// Estimated work of a chain of radix passes over n points: per pass, the
// butterfly's real operations per point plus twiddle and load/store costs.
double stockham_cost(std::size_t n, const std::vector<int>& radices);

// Smallest M >= minimum whose prime factors are all in {2, 3, 5, 7}.
std::size_t next_smooth_length(std::size_t minimum);

// Bluestein's convolution length for a line of n: the power of two >= 2n-1
// when it is within 1.35x of the smallest 7-smooth such length, that smooth
// length otherwise.
std::size_t bluestein_length(std::size_t n);

// The decision: Stockham when n is 13-smooth and cheaper than Bluestein,
// Bluestein otherwise.
LineFactorization choose_line_algorithm(std::size_t n);

}  // namespace oocfft::kernels
