#include "kernels/spectrum_multiply.hpp"

#include <tbb/parallel_for.h>

namespace oocfft::kernels {

SpectrumFilter SpectrumFilter::at_distances(const optics::TransferFunction& h, const double* distances,
                                            std::size_t count, std::size_t planes) {
  SpectrumFilter f;
  f.h = h;
  f.planes.resize(planes);
  for (std::size_t j = 0; j < planes; ++j) {
    const double z = count == 1 ? distances[0] : distances[j];
    f.planes[j] = {z, optics::TransferFunction::band_edge(h.k, h.nx, h.pitch_x, z),
                   optics::TransferFunction::band_edge(h.k, h.ny, h.pitch_y, z)};
  }
  return f;
}

template <class T>
void multiply_brick(Complex<T>* brick, const Shape& extent, const BrickOrigin& origin,
                    const SpectrumFilter& filter) {
  const optics::TransferFunction& h = filter.h;
  tbb::parallel_for(std::size_t{0}, extent.nz * extent.ny, [&](std::size_t row) {
    const std::size_t z = row / extent.ny, y = row % extent.ny;
    const FilterPlane& plane = filter.planes[origin.z0 + z];
    const double fy = optics::TransferFunction::frequency(origin.y0 + y, h.ny, h.pitch_y);
    Complex<T>* line = brick + row * extent.nx;
    for (std::size_t x = 0; x < extent.nx; ++x) {
      const Complex<double> w = h.at(optics::TransferFunction::frequency(origin.x0 + x, h.nx, h.pitch_x), fy,
                                     plane.z, plane.edge_x, plane.edge_y);
      const Complex<double> p = Complex<double>{double(line[x].re), double(line[x].im)} * w;
      line[x] = {T(p.re), T(p.im)};
    }
  });
}

template void multiply_brick<float>(Complex<float>*, const Shape&, const BrickOrigin&, const SpectrumFilter&);
template void multiply_brick<double>(Complex<double>*, const Shape&, const BrickOrigin&, const SpectrumFilter&);

}  // namespace oocfft::kernels
