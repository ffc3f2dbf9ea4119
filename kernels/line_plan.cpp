#include "kernels/line_plan.hpp"

#include <cstdint>

#include "kernels/direct_prime.hpp"
#include "kernels/roots_of_unity.hpp"
#include "kernels/smooth_transform.hpp"

namespace oocfft::kernels {

template <class T>
std::string LinePlan<T>::summary() const {
  if (factorization.algorithm == LineAlgorithm::bluestein) {
    return "bluestein M=" + std::to_string(factorization.convolution_length) + " (" + convolution->summary() + ")";
  }
  if (factorization.radices.empty()) return "identity";
  std::string s;
  for (int r : factorization.radices) s += (s.empty() ? "" : "x") + std::to_string(r);
  return s;
}

namespace {

template <class T>
Complex<T> narrow(std::complex<long double> z) {
  return {static_cast<T>(z.real()), static_cast<T>(z.imag())};
}

template <class T>
void build_stockham(LinePlan<T>& plan) {
  const std::size_t n = plan.factorization.length;
  if (plan.factorization.radices.empty()) return;
  const RootsOfUnity roots(n);
  std::size_t span = 1;
  for (int radix : plan.factorization.radices) {
    StockhamPass pass{radix, span, plan.twiddles.size()};
    const std::size_t r_count = static_cast<std::size_t>(radix);
    const std::size_t step = n / (span * r_count);  // w_{span R} = w_n^step
    for (std::size_t k = 0; k < span; ++k)
      for (std::size_t r = 1; r < r_count; ++r) plan.twiddles.push_back(narrow<T>(roots(k * r * step)));
    // A direct prime pass reads its butterfly's constants from the table:
    // w_R^k = w_n^(k n/R), k < R, after the twiddles.
    if (is_direct_prime(radix))
      for (std::size_t k = 0; k < r_count; ++k) plan.twiddles.push_back(narrow<T>(roots(k * (n / r_count))));
    plan.passes.push_back(pass);
    span *= r_count;
  }
}

template <class T>
void build_bluestein(LinePlan<T>& plan, CompositeRadices composites) {
  const std::size_t n = plan.factorization.length;
  const std::size_t m = plan.factorization.convolution_length;
  const RootsOfUnity roots(2 * static_cast<std::uint64_t>(n));
  std::vector<std::complex<long double>> chirp(n);
  for (std::size_t j = 0; j < n; ++j) {
    // exp(-pi i j^2 / n) = w_{2n}^(j^2 mod 2n), the square taken exactly.
    const unsigned __int128 square = static_cast<unsigned __int128>(j) * j;
    chirp[j] = roots(static_cast<std::uint64_t>(square % (2 * static_cast<unsigned __int128>(n))));
  }
  plan.chirp.resize(n);
  for (std::size_t j = 0; j < n; ++j) plan.chirp[j] = narrow<T>(chirp[j]);

  // The convolution kernel's spectrum, in double whatever T is.
  std::vector<Complex<double>> kernel(m, Complex<double>{0.0, 0.0});
  for (std::size_t j = 0; j < n; ++j) {
    const Complex<double> b = {static_cast<double>(chirp[j].real()), -static_cast<double>(chirp[j].imag())};
    kernel[j] = b;
    if (j > 0) kernel[m - j] = b;
  }
  smooth_forward_transform(kernel.data(), m, 1.0 / static_cast<double>(m));
  plan.kernel_spectrum.resize(m);
  for (std::size_t j = 0; j < m; ++j)
    plan.kernel_spectrum[j] = {static_cast<T>(kernel[j].re), static_cast<T>(kernel[j].im)};
  plan.convolution = make_line_plan<T>(m, composites, LineUse::convolution);
}

}  // namespace

template <class T>
std::shared_ptr<const LinePlan<T>> make_line_plan(std::size_t n, CompositeRadices composites, LineUse use) {
  auto plan = std::make_shared<LinePlan<T>>();
  plan->factorization = choose_line_algorithm(n, composites, use);
  if (plan->factorization.algorithm == LineAlgorithm::bluestein) {
    build_bluestein(*plan, composites);
  } else {
    build_stockham(*plan);
  }
  return plan;
}

template struct LinePlan<float>;
template struct LinePlan<double>;
template std::shared_ptr<const LinePlan<float>> make_line_plan<float>(std::size_t, CompositeRadices, LineUse);
template std::shared_ptr<const LinePlan<double>> make_line_plan<double>(std::size_t, CompositeRadices, LineUse);

}  // namespace oocfft::kernels
