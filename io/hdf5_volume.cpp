#include "io/hdf5_volume.hpp"

#include <hdf5.h>

#include <mutex>
#include <vector>

#include "io/hdf5_library.hpp"
#include "transpose/line_transpose.hpp"

namespace oocfft::io {

Hdf5Volume::Hdf5Volume(StoredDataset input, StoredDataset output, oocfft::Shape shape, Values values)
    : input_(std::move(input)),
      output_(std::move(output)),
      shape_(shape),
      values_(values),
      element_bytes_(values == Values::real ? real_bytes(input_.type.precision)
                                            : complex_bytes(input_.type.precision)) {}

void Hdf5Volume::read_natural(const oocfft::Box& box, std::byte* natural) const {
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  const StoredDataset& from = reading_output_.load() ? output_ : input_;
  if (values_ == Values::real) {
    read_real_box(from, box, natural);
  } else {
    read_box(from, box, natural);
  }
}

void Hdf5Volume::write_natural(const oocfft::Box& box, const std::byte* natural) {
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  if (values_ == Values::real) {
    write_real_box(output_, box, natural);
  } else {
    write_box(output_, box, natural);
  }
}

void Hdf5Volume::read(const oocfft::Box& box, oocfft::BrickLayout layout, std::byte* staging) const {
  if (layout == oocfft::BrickLayout::natural) return read_natural(box, staging);
  // The scratch is a volume of the box's own shape; its lines are gathered
  // as the host store gathers them from the whole volume.
  std::vector<std::byte> scratch(box.elements() * element_bytes_);
  read_natural(box, scratch.data());
  transpose::gather_lines(scratch.data(), box.extent, element_bytes_, oocfft::Box{0, 0, 0, box.extent}, layout,
                          staging);
}

void Hdf5Volume::write(const oocfft::Box& box, oocfft::BrickLayout layout, const std::byte* staging) {
  if (layout == oocfft::BrickLayout::natural) return write_natural(box, staging);
  std::vector<std::byte> scratch(box.elements() * element_bytes_);
  transpose::scatter_lines(scratch.data(), box.extent, element_bytes_, oocfft::Box{0, 0, 0, box.extent}, layout,
                           staging);
  write_natural(box, scratch.data());
}

void Hdf5Volume::pass_finished(unsigned pass) {
  // Pass 0 read the input and wrote its result to the output; every later
  // pass continues from that result.
  if (pass == 0) reading_output_.store(true);
  // HDF5 keeps the blocks it frees on its own free lists; hand them back
  // between passes (measured: 625 -> 490 MB peak RSS streaming 1 GiB
  // through a 256 MiB budget).
  const std::lock_guard lock(hdf5_library_mutex());
  H5garbage_collect();
}

}  // namespace oocfft::io
