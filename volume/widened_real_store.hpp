#pragma once
// WidenedRealStore: a store of real values seen as the complex volume they
// are (imaginary parts zero), for reading only: a recorded hologram is an
// intensity, and the angular-spectrum programs read complex field planes.
// Each brick is read real into the first half of its staging and widened
// there, so no complex copy of the whole volume is ever made on the host.
#include "volume/volume_store.hpp"

namespace oocfft::volume {

class WidenedRealStore final : public VolumeStore {
 public:
  // `real`: real values (element_bytes() 4 or 8) of the same shape.
  explicit WidenedRealStore(const VolumeStore& real);

  Shape shape() const override { return real_.shape(); }
  std::size_t element_bytes() const override { return 2 * real_.element_bytes(); }
  void read(const Box& box, BrickLayout layout, std::byte* staging) const override;
  // Throws Error(invalid_argument): a real input is never written.
  void write(const Box& box, BrickLayout layout, const std::byte* staging) override;

 private:
  const VolumeStore& real_;
};

}  // namespace oocfft::volume
