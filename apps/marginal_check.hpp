#pragma once
// Marginal self-test of a 3D forward transform, O(N) and reference-free:
// summing the input over y and x gives m_z[z], and its 1D DFT equals the
// transform's line X[:, 0, 0]; likewise m_y against X[0, :, 0] and m_x
// against X[0, 0, :]. The sums are taken before the transform (which is in
// place), the small DFTs after. Catches wrong twiddles, a wrong axis order
// and lost or duplicated bricks along every axis, at the cost of one read of
// the volume, where a full reference (FFTW, a second copy) would not fit.
#include <complex>
#include <vector>

#include <oocfft/shape.hpp>

namespace oocfft::checks {

struct Marginals {
  std::vector<std::complex<double>> z, y, x;
};

// The sums over the other two axes, in double, parallel over rows (TBB).
template <class T>
Marginals marginals(const std::complex<T>* volume, const Shape& shape);

// Direct DFT (forward sign) in long double with the angle reduced exactly
// (j k mod n) before the sine and cosine; O(n^2), parallel over k.
std::vector<std::complex<double>> dft(const std::vector<std::complex<double>>& v);

// Relative L2 error over the three lines through the origin of
// `transformed` against `scale` x the DFTs of the marginals: scale is the
// forward normalisation (1 for norm=backward, 1/sqrt N ortho, 1/N forward).
template <class T>
double marginal_error(const std::complex<T>* transformed, const Shape& shape, const Marginals& m,
                      double scale = 1.0);

}  // namespace oocfft::checks
