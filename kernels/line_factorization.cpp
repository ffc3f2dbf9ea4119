#include "kernels/line_factorization.hpp"

#include <cstdio>
#include <limits>

#include "kernels/butterfly.hpp"
#include "kernels/cuda/schedule_geometry.hpp"
#include "kernels/direct_prime.hpp"
#include "kernels/radix_schedule.hpp"

namespace oocfft::kernels {

const char* to_string(LineAlgorithm a) noexcept {
  switch (a) {
    case LineAlgorithm::stockham: return "stockham";
    case LineAlgorithm::bluestein: return "bluestein";
  }
  return "?";
}

namespace {
// The schedule of a line without direct primes: the device's sets ask the
// tile that runs it (device_radix_schedule), so that a line plan's passes
// are the ones its compiled kernel runs.
RadixSchedule schedule_of(std::size_t n, CompositeRadices composites, LineUse use) {
  const bool whole = use == LineUse::whole_line;
  switch (composites) {
    case CompositeRadices::device_complex64:
      return whole ? cuda::device_radix_schedule<float>(n) : cuda::convolution_radix_schedule<float>(n);
    case CompositeRadices::device_complex128:
      return whole ? cuda::device_radix_schedule<double>(n) : cuda::convolution_radix_schedule<double>(n);
    case CompositeRadices::up_to_fifteen:
    case CompositeRadices::up_to_ten_through_4096: break;
  }
  return radix_schedule(n, composites);
}
}  // namespace

std::vector<int> stockham_radices(std::size_t n, CompositeRadices composites, LineUse use) {
  // Direct primes first: their pass then has span 1 and needs no twiddles,
  // and a prime line is that one pass.
  std::vector<int> radices;
  for (int p = 17; p <= largest_direct_prime; p += 2) {
    if (!is_direct_prime(p)) continue;
    for (; n % static_cast<std::size_t>(p) == 0; n /= static_cast<std::size_t>(p)) radices.push_back(p);
  }
  if (n == 1) return radices;
  const RadixSchedule s =
      radices.empty() ? schedule_of(n, composites, use) : radix_schedule(n, without_pairings(composites));
  if (s.count == 0) return {};
  radices.insert(radices.end(), s.radices, s.radices + s.count);
  return radices;
}

namespace {
// Real operations per point of one butterfly of radix r (counted from
// butterfly.hpp): adds and multiplies divided by r.
double butterfly_ops_per_point(int r) {
  // The composites A x B (dft_composite): both butterflies per point, plus
  // (A-1)(B-1) internal twiddle multiplies of 6 real operations.
  if (const int a = composite_factor(r); a != 0) {
    const int b = r / a;
    return butterfly_ops_per_point(a) + butterfly_ops_per_point(b) + 6.0 * (a - 1) * (b - 1) / r;
  }
  switch (r) {
    case 2: return 2.0;
    case 4: return 4.0;
    case 8: return 6.5;
    case 16: return 9.0;
    default: {
      // dft_odd_prime, and direct_prime_pairs for the primes above 13:
      // ((r-1)/2)^2 pairs of 4 real multiply-adds, plus sums.
      const double h = (r - 1) / 2.0;
      return (8.0 * h * h + 4.0 * r) / r;
    }
  }
}
// Per point and pass: one complex twiddle multiply (6 real ops) and one
// load plus one store, which on every machine we target cost more than the
// arithmetic; 8 is a rough weight for the memory trip.
constexpr double twiddle_ops = 6.0;
constexpr double memory_trip = 8.0;
// Bluestein does two transforms of length M, three pointwise complex
// multiplies and more memory traffic than its operation count says;
// pocketfft weighs it by 1.5 for the same reason.
constexpr double bluestein_overhead = 1.5;
}  // namespace

double stockham_cost(std::size_t n, const std::vector<int>& radices) {
  double per_point = 0.0;
  for (int r : radices) per_point += butterfly_ops_per_point(r) + twiddle_ops + memory_trip;
  return static_cast<double>(n) * per_point;
}

std::size_t next_smooth_length(std::size_t minimum) {
  if (minimum <= 1) return 1;
  std::size_t best = std::numeric_limits<std::size_t>::max();
  // Enumerate 2^a 3^b 5^c 7^d >= minimum; at most a few thousand candidates.
  for (std::size_t f7 = 1; f7 < best && f7 < 2 * minimum; f7 *= 7)
    for (std::size_t f5 = f7; f5 < best && f5 < 2 * minimum; f5 *= 5)
      for (std::size_t f3 = f5; f3 < best && f3 < 2 * minimum; f3 *= 3) {
        std::size_t m = f3;
        while (m < minimum) m *= 2;
        if (m < best) best = m;
      }
  return best;
}

std::size_t bluestein_length(std::size_t n) {
  const std::size_t smooth = next_smooth_length(2 * n - 1);
  std::size_t power = 1;
  while (power < 2 * n - 1) power *= 2;
  // Power-of-two kernels run at copy speed where the odd radices of a
  // smooth M do not (1009 -> 2025 = 3^4 5^2 against 2048); a power of two
  // within 1.35x of the smooth length costs fewer cycles than it adds points.
  return static_cast<double>(power) <= 1.35 * static_cast<double>(smooth) ? power : smooth;
}

LineFactorization choose_line_algorithm(std::size_t n, CompositeRadices composites, LineUse use) {
  LineFactorization f;
  f.length = n;
  if (n <= 1) {
    f.reason = "length 1: identity";
    return f;
  }
  const std::vector<int> direct = stockham_radices(n, composites, use);
  const std::size_t m = bluestein_length(n);
  const std::vector<int> conv_radices = stockham_radices(m, composites, LineUse::convolution);
  const double bluestein = bluestein_overhead * (2.0 * stockham_cost(m, conv_radices) +
                                                 3.0 * (twiddle_ops + memory_trip) * static_cast<double>(m));
  char text[200];
  if (!direct.empty()) {
    const double stockham = stockham_cost(n, direct);
    if (stockham <= bluestein) {
      f.radices = direct;
      std::snprintf(text, sizeof text, "stockham cost %.3g <= bluestein(M=%zu) cost %.3g", stockham, m,
                    bluestein);
      f.reason = text;
      return f;
    }
    std::snprintf(text, sizeof text, "bluestein(M=%zu) cost %.3g < stockham cost %.3g", m, bluestein,
                  stockham);
  } else {
    std::snprintf(text, sizeof text, "prime factor above %d: bluestein with M=%zu", largest_direct_prime, m);
  }
  f.algorithm = LineAlgorithm::bluestein;
  f.convolution_length = m;
  f.reason = text;
  return f;
}

}  // namespace oocfft::kernels
