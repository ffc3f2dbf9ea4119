#include "apps/marginal_check.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <cmath>

#include "core/relative_l2.hpp"

namespace oocfft::checks {

template <class T>
Marginals marginals(const std::complex<T>* a, const Shape& s) {
  using Line = std::vector<std::complex<double>>;
  auto zeros = [&] { return Marginals{Line(s.nz), Line(s.ny), Line(s.nx)}; };
  tbb::enumerable_thread_specific<Marginals> local(zeros);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, s.nz * s.ny, 16), [&](const auto& r) {
    Marginals& acc = local.local();
    for (std::size_t row = r.begin(); row != r.end(); ++row) {
      const std::size_t z = row / s.ny, y = row % s.ny;
      const std::complex<T>* p = a + row * s.nx;
      std::complex<double> sum = 0;
      for (std::size_t x = 0; x < s.nx; ++x) {
        const std::complex<double> v(p[x]);
        sum += v;
        acc.x[x] += v;
      }
      acc.z[z] += sum;
      acc.y[y] += sum;
    }
  });
  Marginals m = zeros();
  for (const Marginals& acc : local) {
    for (std::size_t i = 0; i < s.nz; ++i) m.z[i] += acc.z[i];
    for (std::size_t i = 0; i < s.ny; ++i) m.y[i] += acc.y[i];
    for (std::size_t i = 0; i < s.nx; ++i) m.x[i] += acc.x[i];
  }
  return m;
}

std::vector<std::complex<double>> dft(const std::vector<std::complex<double>>& v) {
  const std::size_t n = v.size();
  std::vector<std::complex<double>> out(n);
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t k) {
    std::complex<long double> s = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const long double angle = -2.0L * 3.141592653589793238462643383279502884L *
                                static_cast<long double>((j * k) % n) / static_cast<long double>(n);
      s += std::complex<long double>(v[j]) * std::complex<long double>(std::cos(angle), std::sin(angle));
    }
    out[k] = std::complex<double>(s);
  });
  return out;
}

template <class T>
double marginal_error(const std::complex<T>* transformed, const Shape& s, const Marginals& m, double scale) {
  const auto fz = dft(m.z), fy = dft(m.y), fx = dft(m.x);
  L2Sums sums;
  for (std::size_t k = 0; k < s.nz; ++k) sums.add(transformed[k * s.ny * s.nx], fz[k], scale);
  for (std::size_t k = 0; k < s.ny; ++k) sums.add(transformed[k * s.nx], fy[k], scale);
  for (std::size_t k = 0; k < s.nx; ++k) sums.add(transformed[k], fx[k], scale);
  return sums.relative();
}

template Marginals marginals<float>(const std::complex<float>*, const Shape&);
template Marginals marginals<double>(const std::complex<double>*, const Shape&);
template double marginal_error<float>(const std::complex<float>*, const Shape&, const Marginals&, double);
template double marginal_error<double>(const std::complex<double>*, const Shape&, const Marginals&, double);

}  // namespace oocfft::checks
