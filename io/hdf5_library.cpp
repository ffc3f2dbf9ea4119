#include "io/hdf5_library.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "oocfft/error.hpp"

namespace oocfft::io {

std::mutex& hdf5_library_mutex() {
  static std::mutex mutex;
  return mutex;
}

Hid open_file(const std::string& file, unsigned flags, const std::string& purpose, hid_t access) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec))
    throw Error(ErrorKind::io, purpose + ": HDF5 file " + file + " does not exist");
  if (std::filesystem::is_directory(file, ec))
    throw Error(ErrorKind::io, purpose + ": " + file + " is a directory, not an HDF5 file");
  const bool write = flags & H5F_ACC_RDWR;
  return checked_id(H5Fopen(file.c_str(), flags, access), HidKind::file,
                    purpose + ": opening HDF5 file " + file + (write ? " for writing" : ""));
}

Hid open_file_read_only(const std::string& file, const std::string& purpose, hid_t access) {
  return open_file(file, H5F_ACC_RDONLY, purpose, access);
}

bool link_exists(hid_t file, const std::string& name) {
  for (std::size_t end = name.find('/', 1);; end = name.find('/', end + 1)) {
    const std::string prefix = name.substr(0, end);
    if (prefix.empty() || prefix == "/") return true;
    const htri_t exists = H5Lexists(file, prefix.c_str(), H5P_DEFAULT);
    if (exists <= 0) {
      (void)hdf5_error_text();  // a failed lookup is an answer here, not an error
      return false;
    }
    if (end == std::string::npos) return true;
  }
}

void flush_to_disk(hid_t file, const std::string& what) {
  check(H5Fflush(file, H5F_SCOPE_LOCAL), "flushing " + what);
  // The default (sec2) driver's handle is its file descriptor.
  void* handle = nullptr;
  check(H5Fget_vfd_handle(file, H5P_DEFAULT, &handle), "flushing " + what + " to disk");
  const int fd = *static_cast<const int*>(handle);
  int status;
  do status = ::fsync(fd);
  while (status != 0 && errno == EINTR);
  if (status != 0) throw Error(ErrorKind::io, "flushing " + what + " to disk: " + std::strerror(errno));
}

void close_file(Hid& file, const std::string& what) {
  if (file.close() < 0) {
    const std::string detail = hdf5_error_text();
    throw Error(ErrorKind::io, "closing " + what + (detail.empty() ? "" : ": " + detail));
  }
}

Hid open_dataset(hid_t file, const DatasetPath& path, hid_t access) {
  const std::string where = path.to_string();
  if (!link_exists(file, path.dataset)) throw Error(ErrorKind::io, where + ": no such dataset in the file");
  {
    // H5Oopen + H5Iget_type reads the same on HDF5 1.10 and 1.12+ (H5Oget_info changed its signature).
    Hid object = checked_id(H5Oopen(file, path.dataset.c_str(), H5P_DEFAULT), HidKind::object, "opening " + where);
    const H5I_type_t type = H5Iget_type(object.get());
    if (type == H5I_GROUP) throw Error(ErrorKind::io, where + ": is a group, not a dataset");
    if (type != H5I_DATASET) throw Error(ErrorKind::io, where + ": is not a dataset");
  }
  return checked_id(H5Dopen2(file, path.dataset.c_str(), access), HidKind::dataset, "opening dataset " + where);
}

}  // namespace oocfft::io
