#include "kernels/spectrum_multiply.hpp"

#include <tbb/parallel_for.h>

namespace oocfft::kernels {

template <class T>
void multiply_by_transfer_function(const Complex<T>* in, Complex<T>* out, const optics::TransferFunction& h, double z,
                                   SpectrumUpdate update) {
  const double edge_x = optics::TransferFunction::band_edge(h.k, h.nx, h.pitch_x, z);
  const double edge_y = optics::TransferFunction::band_edge(h.k, h.ny, h.pitch_y, z);
  tbb::parallel_for(std::size_t{0}, h.ny, [&](std::size_t y) {
    const double fy = optics::TransferFunction::frequency(y, h.ny, h.pitch_y);
    for (std::size_t x = 0; x < h.nx; ++x) {
      const std::size_t i = y * h.nx + x;
      const std::complex<double> w = h.at(optics::TransferFunction::frequency(x, h.nx, h.pitch_x), fy, z, edge_x, edge_y);
      const Complex<double> v{double(in[i].re), double(in[i].im)};
      const Complex<double> p{v.re * w.real() - v.im * w.imag(), v.re * w.imag() + v.im * w.real()};
      if (update == SpectrumUpdate::assign) {
        out[i] = {T(p.re), T(p.im)};
      } else {
        out[i] = {T(out[i].re + p.re), T(out[i].im + p.im)};
      }
    }
  });
}

template void multiply_by_transfer_function<float>(const Complex<float>*, Complex<float>*,
                                                   const optics::TransferFunction&, double, SpectrumUpdate);
template void multiply_by_transfer_function<double>(const Complex<double>*, Complex<double>*,
                                                    const optics::TransferFunction&, double, SpectrumUpdate);

}  // namespace oocfft::kernels
