#include "transpose/host_volume.hpp"

#include "transpose/line_transpose.hpp"
#include "transpose/run_copy.hpp"

namespace oocfft::transpose {

void HostVolume::read(const Box& box, BrickLayout layout, std::byte* staging) const {
  if (layout == BrickLayout::natural) {
    gather_runs(data_, shape_, element_bytes_, box, staging);
  } else {
    gather_lines(data_, shape_, element_bytes_, box, layout, staging);
  }
}

void HostVolume::write(const Box& box, BrickLayout layout, const std::byte* staging) {
  if (layout == BrickLayout::natural) {
    scatter_runs(data_, shape_, element_bytes_, box, staging);
  } else {
    scatter_lines(data_, shape_, element_bytes_, box, layout, staging);
  }
}

}  // namespace oocfft::transpose
