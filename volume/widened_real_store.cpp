#include "volume/widened_real_store.hpp"

#include "oocfft/error.hpp"

namespace oocfft::volume {

namespace {
// Value i of the packed reals becomes complex i, from the last one down:
// complex i lies at bytes [2i s, 2i s + 2s), at or past real i's, so no real
// value is overwritten before it has moved.
template <class T>
void widen(std::byte* staging, std::size_t count) {
  const auto* real = reinterpret_cast<const T*>(staging);
  auto* complex = reinterpret_cast<T*>(staging);
  for (std::size_t i = count; i-- > 0;) {
    const T value = real[i];
    complex[2 * i + 1] = T(0);
    complex[2 * i] = value;
  }
}
}  // namespace

WidenedRealStore::WidenedRealStore(const VolumeStore& real) : real_(real) {
  if (real.element_bytes() != sizeof(float) && real.element_bytes() != sizeof(double))
    throw Error(ErrorKind::invalid_argument, "a widened real store reads float or double values, not elements of " +
                                                 std::to_string(real.element_bytes()) + " bytes");
}

void WidenedRealStore::read(const Box& box, BrickLayout layout, std::byte* staging) const {
  real_.read(box, layout, staging);
  if (real_.element_bytes() == sizeof(float))
    widen<float>(staging, box.elements());
  else
    widen<double>(staging, box.elements());
}

void WidenedRealStore::write(const Box&, BrickLayout, const std::byte*) {
  throw Error(ErrorKind::invalid_argument, "internal: a real input volume was to be written");
}

}  // namespace oocfft::volume
