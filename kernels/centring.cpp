#include "kernels/centring.hpp"

#include <tbb/parallel_for.h>

#include "kernels/roots_of_unity.hpp"

namespace oocfft::kernels {

namespace {

// exp(sign 2 pi i r / n) for an integer r, exactly reduced.
Complex<double> phase(std::uint64_t r, std::uint64_t n, int sign) {
  const std::complex<long double> w = unit_root(r % n, n);  // exp(-2 pi i r / n)
  return {double(w.real()), double(sign < 0 ? w.imag() : -w.imag())};
}

}  // namespace

CentringTables CentringTables::make(const Shape& volume, bool inverse) {
  CentringTables t;
  t.n[0] = volume.nz;
  t.n[1] = volume.ny;
  t.n[2] = volume.nx;
  const int sigma = inverse ? -1 : 1;
  for (int a = 0; a < 3; ++a) {
    const std::uint64_t n = t.n[a], s = n / 2, c = n - s;
    t.input[a].resize(n);
    t.output[a].resize(n);
    for (std::uint64_t j = 0; j < n; ++j) {
      t.input[a][j] = phase(c * j % n, n, -sigma);
      t.output[a][j] = phase(s * ((j + c) % n) % n, n, sigma);
    }
  }
  return t;
}

template <class T>
void centre_brick(const Complex<T>* from, Complex<T>* to, const Shape& staged, const BrickOrigin& origin,
                  const StagedAxes& axes, const CentringTables& tables, CentringSide side) {
  const std::size_t at[3] = {origin.z0, origin.y0, origin.x0};
  const auto& outer = tables.table(side, axes.axis[0]);
  const auto& middle = tables.table(side, axes.axis[1]);
  const auto& inner = tables.table(side, axes.axis[2]);
  const std::size_t o0 = at[axes.axis[0]], m0 = at[axes.axis[1]], i0 = at[axes.axis[2]];
  tbb::parallel_for(std::size_t{0}, staged.nz * staged.ny, [&](std::size_t row) {
    const std::size_t o = row / staged.ny, m = row % staged.ny;
    const Complex<double> w = outer[o0 + o] * middle[m0 + m];
    const Complex<T>* in = from + row * staged.nx;
    Complex<T>* out = to + row * staged.nx;
    for (std::size_t i = 0; i < staged.nx; ++i) {
      const Complex<double> p = Complex<double>{double(in[i].re), double(in[i].im)} * (w * inner[i0 + i]);
      out[i] = {T(p.re), T(p.im)};
    }
  });
}

template <class T>
void centre_brick(Complex<T>* brick, const Shape& staged, const BrickOrigin& origin, const StagedAxes& axes,
                  const CentringTables& tables, CentringSide side) {
  centre_brick(static_cast<const Complex<T>*>(brick), brick, staged, origin, axes, tables, side);
}

template void centre_brick<float>(Complex<float>*, const Shape&, const BrickOrigin&, const StagedAxes&,
                                  const CentringTables&, CentringSide);
template void centre_brick<double>(Complex<double>*, const Shape&, const BrickOrigin&, const StagedAxes&,
                                   const CentringTables&, CentringSide);
template void centre_brick<float>(const Complex<float>*, Complex<float>*, const Shape&, const BrickOrigin&,
                                  const StagedAxes&, const CentringTables&, CentringSide);
template void centre_brick<double>(const Complex<double>*, Complex<double>*, const Shape&, const BrickOrigin&,
                                   const StagedAxes&, const CentringTables&, CentringSide);

}  // namespace oocfft::kernels
