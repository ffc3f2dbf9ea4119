// inspect_dataset and DatasetInfo::complex_bytes (include/oocfft/hdf5.hpp).
#include <mutex>

#include "io/hdf5_handle.hpp"
#include "io/hdf5_library.hpp"
#include "io/stored_type.hpp"
#include "oocfft/hdf5.hpp"

namespace oocfft {

std::size_t DatasetInfo::complex_bytes() const { return shape.bytes(io::complex_bytes(precision)); }

DatasetInfo inspect_dataset(const DatasetPath& path) {
  using namespace io;
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  Hid file = open_file_read_only(path.file, path.to_string());
  Hid dataset = open_dataset(file.get(), path);
  return describe_dataset(dataset.get(), path).info;
}

}  // namespace oocfft
