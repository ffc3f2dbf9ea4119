#pragma once
// Centred transforms without moving data: numpy's
// fftshift(fftn(ifftshift(u))) (and the same with ifftn) as two pointwise
// phase multiplies on the bricks a transform holds anyway. Along an axis of
// length n, with s = floor(n/2) and c = ceil(n/2), the shift theorem gives
//   ifftshift before the transform = the input times exp(-sigma 2 pi i c j / n),
//   fftshift after it              = the output times exp(+sigma 2 pi i s (k + c) / n),
// sigma = +1 forward, -1 inverse; for even n both are signs, (-1)^j and
// (-1)^(k + n/2). The phases of a volume are products of one per axis,
// from exact-argument tables (roots_of_unity.hpp).
#include <cstddef>
#include <vector>

#include "core/geometry.hpp"
#include "kernels/complex.hpp"
#include "kernels/pointwise_stage.hpp"  // BrickOrigin

namespace oocfft::kernels {

// Which volume axis (0 z, 1 y, 2 x) each dimension of a staged brick is,
// outermost first: {0, 1, 2} for the natural layout.
struct StagedAxes {
  int axis[3] = {0, 1, 2};
};

enum class CentringSide { input, output };

struct CentringTables {
  std::size_t n[3] = {1, 1, 1};          // the volume's z, y, x
  std::vector<Complex<double>> input[3];   // per axis: phase of index j
  std::vector<Complex<double>> output[3];  // per axis: phase of index k

  static CentringTables make(const Shape& volume, bool inverse);
  const std::vector<Complex<double>>& table(CentringSide side, int axis) const {
    return side == CentringSide::input ? input[axis] : output[axis];
  }
};

// brick (staged shape `staged`, its dimensions the volume axes `axes`, at
// volume coordinates `origin`) times the phases of `side`.
template <class T>
void centre_brick(Complex<T>* brick, const Shape& staged, const BrickOrigin& origin, const StagedAxes& axes,
                  const CentringTables& tables, CentringSide side);
// The same, written to `to` (`from` unchanged; `to` may be `from`): a copy
// that has to be made anyway carries the phases, with no sweep of its own.
template <class T>
void centre_brick(const Complex<T>* from, Complex<T>* to, const Shape& staged, const BrickOrigin& origin,
                  const StagedAxes& axes, const CentringTables& tables, CentringSide side);

extern template void centre_brick<float>(Complex<float>*, const Shape&, const BrickOrigin&, const StagedAxes&,
                                         const CentringTables&, CentringSide);
extern template void centre_brick<double>(Complex<double>*, const Shape&, const BrickOrigin&,
                                          const StagedAxes&, const CentringTables&, CentringSide);
extern template void centre_brick<float>(const Complex<float>*, Complex<float>*, const Shape&, const BrickOrigin&,
                                         const StagedAxes&, const CentringTables&, CentringSide);
extern template void centre_brick<double>(const Complex<double>*, Complex<double>*, const Shape&,
                                          const BrickOrigin&, const StagedAxes&, const CentringTables&,
                                          CentringSide);

}  // namespace oocfft::kernels
