#include "io/real_dataset_volume.hpp"

#include <mutex>

#include "io/hdf5_library.hpp"
#include "oocfft/error.hpp"

namespace oocfft::io {

namespace {
void check_natural(oocfft::BrickLayout layout, const std::string& name) {
  if (layout != oocfft::BrickLayout::natural)
    throw Error(ErrorKind::invalid_argument, "internal: real dataset " + name + " asked for a line layout");
}
}  // namespace

RealDatasetVolume::RealDatasetVolume(StoredDataset dataset, oocfft::Shape shape)
    : dataset_(std::move(dataset)), shape_(shape), element_bytes_(real_bytes(dataset_.type.precision)) {}

void RealDatasetVolume::read(const oocfft::Box& box, oocfft::BrickLayout layout, std::byte* staging) const {
  check_natural(layout, dataset_.name);
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  read_real_box(dataset_, box, staging);
}

void RealDatasetVolume::write(const oocfft::Box& box, oocfft::BrickLayout layout, const std::byte* staging) {
  check_natural(layout, dataset_.name);
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  write_real_box(dataset_, box, staging);
}

void RealDatasetVolume::read_rows(const oocfft::Box& box, std::byte* staging, std::size_t row_pitch) const {
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  read_real_rows(dataset_, box, staging, row_pitch);
}

void RealDatasetVolume::write_rows(const oocfft::Box& box, const std::byte* staging, std::size_t row_pitch) {
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  write_real_rows(dataset_, box, staging, row_pitch);
}

}  // namespace oocfft::io
