#pragma once
// CentringPhases: Options::shift in a distributed transform, numpy's
// fftshift(fftn(ifftshift(u))) (and the same with ifftn) over the GLOBAL
// shape, without moving a point between ranks.
//
// A rank's local transforms see only its part of the volume (and the
// engine's Plan over Axes::planes refuses shift), so the distributed plan
// applies the shift theorem itself, with the engine's exact tables
// (kernels/centring.hpp) at global indices. Along an axis of length n,
// s = floor(n/2), c = ceil(n/2), sigma = +1 forward and -1 inverse, U the
// unnormalised transform of u:
//   ifftshift(u)[j] = u[(j + s) mod n], so its transform at m is
//     exp(+sigma 2 pi i s m / n) U[m];
//   fftshift(X)[k] = X[(k + c) mod n], so with m = k + c
//     y[k] = exp(+sigma 2 pi i s (k + c) / n)
//            sum_j u[j] exp(-sigma 2 pi i c j / n) exp(-sigma 2 pi i j k / n),
// that is the input times exp(-sigma 2 pi i c j / n) before the transform
// and the output times exp(+sigma 2 pi i s (k + c) / n) after it, exact for
// odd and even n (for even n the phases are the signs (-1)^j and
// (-1)^(k + n/2)). The 3D phases are products of one per axis, and the
// arguments are reduced modulo n in integers before they become angles, in
// long double, so large n stays accurate; the products are taken in double
// for float data too.
//
// Both phases are pointwise, so they go wherever a rank holds the points
// before the first axis is transformed and after the last one is: the
// input's on its z-slab before its planes, the output's on its y-slab (or,
// in pencil rounds, its z-slab again) after the z lines, in parallel over
// x rows (TBB, in the caller's arena, as the exchanges run). The planes
// and the z lines are the engine's, which has no stage for a rank's part
// of a global phase. Where a rank's own box is the slab (z-slabs in,
// y-slabs or z-slabs out: the file path's layout and FFTW's), the
// exchange's only work for it is to copy that box between two arrays, and
// the copying forms below carry the phases on that copy; otherwise (in
// place, or other boxes) a sweep of its own.
#include <complex>

#include "kernels/centring.hpp"
#include "oocfft/distributed.hpp"
#include "oocfft/options.hpp"

namespace oocfft::distributed {

class CentringPhases {
 public:
  // The tables of both directions for the global `shape`: 2 x (nz + ny +
  // nx) phases per direction.
  explicit CentringPhases(Shape shape);

  // `data`: the points of `box` of the global volume, C order over the box.
  // Times the input's phases (before any axis is transformed).
  template <class T>
  void before_transform(std::complex<T>* data, const Box3& box, Direction direction) const;
  // Times the output's phases (after every axis is transformed).
  template <class T>
  void after_transform(std::complex<T>* data, const Box3& box, Direction direction) const;
  // The same, from `from` into `to` (two arrays of `box`; `from` is not
  // written): a copy that carries the phases.
  template <class T>
  void before_transform(const std::complex<T>* from, std::complex<T>* to, const Box3& box,
                        Direction direction) const;
  template <class T>
  void after_transform(const std::complex<T>* from, std::complex<T>* to, const Box3& box, Direction direction) const;

 private:
  template <class T>
  void multiply(const std::complex<T>* from, std::complex<T>* to, const Box3& box, Direction direction,
                kernels::CentringSide side) const;

  kernels::CentringTables forward_, inverse_;
};

extern template void CentringPhases::before_transform(std::complex<float>*, const Box3&, Direction) const;
extern template void CentringPhases::before_transform(std::complex<double>*, const Box3&, Direction) const;
extern template void CentringPhases::after_transform(std::complex<float>*, const Box3&, Direction) const;
extern template void CentringPhases::after_transform(std::complex<double>*, const Box3&, Direction) const;
extern template void CentringPhases::before_transform(const std::complex<float>*, std::complex<float>*, const Box3&,
                                                      Direction) const;
extern template void CentringPhases::before_transform(const std::complex<double>*, std::complex<double>*,
                                                      const Box3&, Direction) const;
extern template void CentringPhases::after_transform(const std::complex<float>*, std::complex<float>*, const Box3&,
                                                     Direction) const;
extern template void CentringPhases::after_transform(const std::complex<double>*, std::complex<double>*,
                                                     const Box3&, Direction) const;

}  // namespace oocfft::distributed
