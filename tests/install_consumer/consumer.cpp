// Transforms an impulse through the installed library: the spectrum of a
// unit impulse at the origin is all ones.
#include <oocfft/oocfft.hpp>

#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

int main() {
  const oocfft::Shape shape{4, 6, 5};
  std::vector<std::complex<double>> v(shape.elements(), {0.0, 0.0});
  v[0] = {1.0, 0.0};
  oocfft::Options o;
  o.backend = oocfft::Backend::host;
  oocfft::fft3d(v.data(), shape, oocfft::Direction::forward, o);
  for (const auto& z : v)
    if (std::abs(z - std::complex<double>(1.0, 0.0)) > 1e-12) {
      std::puts("wrong spectrum");
      return 1;
    }
  std::puts("ok");
  return 0;
}
