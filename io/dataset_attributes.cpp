#include "io/dataset_attributes.hpp"

#include <cstdint>
#include <mutex>

#include "io/hdf5_handle.hpp"
#include "io/hdf5_library.hpp"
#include "oocfft/error.hpp"

namespace oocfft::io {

void write_string_attribute(hid_t object, const char* name, const std::string& value, const std::string& where) {
  // Variable-length UTF-8: h5py reads it as a Python str.
  const std::string what = std::string("writing attribute ") + name + " of " + where;
  Hid type = checked_id(H5Tcopy(H5T_C_S1), HidKind::datatype, what);
  check(H5Tset_size(type.get(), H5T_VARIABLE), what);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), what);
  Hid space = checked_id(H5Screate(H5S_SCALAR), HidKind::dataspace, what);
  Hid attribute = checked_id(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                             HidKind::attribute, what);
  const char* text = value.c_str();
  check(H5Awrite(attribute.get(), type.get(), &text), what);
}

void write_sizes_attribute(hid_t object, const std::string& name, const std::vector<std::size_t>& values,
                           const std::string& where) {
  const std::string what = "writing attribute " + name + " of " + where;
  const std::vector<std::int64_t> stored(values.begin(), values.end());
  const hsize_t count = stored.size();
  Hid space = checked_id(H5Screate_simple(1, &count, nullptr), HidKind::dataspace, what);
  Hid attribute = checked_id(H5Acreate2(object, name.c_str(), H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                             HidKind::attribute, what);
  check(H5Awrite(attribute.get(), H5T_NATIVE_INT64, stored.data()), what);
}

std::optional<std::vector<std::size_t>> read_sizes_attribute(const DatasetPath& path, const std::string& name) {
  const std::lock_guard lock(hdf5_library_mutex());
  const ErrorStackSilencer silence;
  const std::string where = path.to_string();
  const std::string what = "reading attribute " + name + " of " + where;
  Hid file = open_file_read_only(path.file, where);
  Hid dataset = open_dataset(file.get(), path);
  if (check(H5Aexists(dataset.get(), name.c_str()), what) <= 0) return std::nullopt;
  Hid attribute = checked_id(H5Aopen(dataset.get(), name.c_str(), H5P_DEFAULT), HidKind::attribute, what);
  Hid type = checked_id(H5Aget_type(attribute.get()), HidKind::datatype, what);
  Hid space = checked_id(H5Aget_space(attribute.get()), HidKind::dataspace, what);
  const hssize_t count = H5Sget_simple_extent_npoints(space.get());
  if (H5Tget_class(type.get()) != H5T_INTEGER || H5Sget_simple_extent_ndims(space.get()) > 1 || count < 1 ||
      count > 8)
    throw Error(ErrorKind::invalid_argument, where + ": attribute " + name + " is not a list of integers");
  std::vector<std::int64_t> stored(static_cast<std::size_t>(count));
  check(H5Aread(attribute.get(), H5T_NATIVE_INT64, stored.data()), what);
  std::vector<std::size_t> values;
  for (const std::int64_t v : stored) {
    if (v < 0) throw Error(ErrorKind::invalid_argument, where + ": attribute " + name + " holds a negative value");
    values.push_back(static_cast<std::size_t>(v));
  }
  return values;
}

}  // namespace oocfft::io
