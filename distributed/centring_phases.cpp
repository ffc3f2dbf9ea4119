#include "distributed/centring_phases.hpp"

#include <cstddef>

namespace oocfft::distributed {

CentringPhases::CentringPhases(Shape shape)
    : forward_(kernels::CentringTables::make(shape, false)), inverse_(kernels::CentringTables::make(shape, true)) {}

template <class T>
void CentringPhases::multiply(const std::complex<T>* from, std::complex<T>* to, const Box3& box, Direction direction,
                              kernels::CentringSide side) const {
  if (box.empty()) return;
  // The box is a brick of the global volume at its low corner, in the
  // natural layout: the engine's own brick multiply, with global indices.
  const kernels::BrickOrigin origin{static_cast<std::size_t>(box.low[0]), static_cast<std::size_t>(box.low[1]),
                                    static_cast<std::size_t>(box.low[2])};
  kernels::centre_brick(reinterpret_cast<const kernels::Complex<T>*>(from), reinterpret_cast<kernels::Complex<T>*>(to),
                        box.extent(), origin, kernels::StagedAxes{},
                        direction == Direction::inverse ? inverse_ : forward_, side);
}

template <class T>
void CentringPhases::before_transform(std::complex<T>* data, const Box3& box, Direction direction) const {
  multiply(static_cast<const std::complex<T>*>(data), data, box, direction, kernels::CentringSide::input);
}

template <class T>
void CentringPhases::after_transform(std::complex<T>* data, const Box3& box, Direction direction) const {
  multiply(static_cast<const std::complex<T>*>(data), data, box, direction, kernels::CentringSide::output);
}

template <class T>
void CentringPhases::before_transform(const std::complex<T>* from, std::complex<T>* to, const Box3& box,
                                      Direction direction) const {
  multiply(from, to, box, direction, kernels::CentringSide::input);
}

template <class T>
void CentringPhases::after_transform(const std::complex<T>* from, std::complex<T>* to, const Box3& box,
                                     Direction direction) const {
  multiply(from, to, box, direction, kernels::CentringSide::output);
}

template void CentringPhases::before_transform(std::complex<float>*, const Box3&, Direction) const;
template void CentringPhases::before_transform(std::complex<double>*, const Box3&, Direction) const;
template void CentringPhases::after_transform(std::complex<float>*, const Box3&, Direction) const;
template void CentringPhases::after_transform(std::complex<double>*, const Box3&, Direction) const;
template void CentringPhases::before_transform(const std::complex<float>*, std::complex<float>*, const Box3&,
                                               Direction) const;
template void CentringPhases::before_transform(const std::complex<double>*, std::complex<double>*, const Box3&,
                                               Direction) const;
template void CentringPhases::after_transform(const std::complex<float>*, std::complex<float>*, const Box3&,
                                              Direction) const;
template void CentringPhases::after_transform(const std::complex<double>*, std::complex<double>*, const Box3&,
                                              Direction) const;

}  // namespace oocfft::distributed
