#include "io/output_dataset.hpp"

#include "io/chunk_geometry.hpp"
#include "io/dataset_attributes.hpp"
#include "io/output_temporaries.hpp"
#include "io/stored_type.hpp"

namespace oocfft::io {

OutputRecord transform_record(Direction direction, Norm norm, bool shifted) {
  OutputRecord r;
  r.attributes = {{"direction", to_string(direction)}, {"norm", to_string(norm)}, {"shift", shifted ? "fftshift" : "none"}};
  return r;
}

Hid create_partial_output(hid_t file, const std::string& partial_name, const std::vector<std::size_t>& dims,
                          StoredElement element, Precision precision, const std::string& where) {
  const std::string what = "creating output dataset " + where;
  const bool real = element == StoredElement::real;
  const std::size_t element_bytes = real ? real_bytes(precision) : complex_bytes(precision);
  const std::vector<std::size_t> chunk_dims = output_chunks(dims, element_bytes);
  std::vector<hsize_t> extent(dims.begin(), dims.end()), chunks(chunk_dims.begin(), chunk_dims.end());

  Hid space = checked_id(H5Screate_simple(static_cast<int>(extent.size()), extent.data(), nullptr),
                         HidKind::dataspace, what);
  Hid type = real ? checked_id(H5Tcopy(precision == Precision::single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE),
                               HidKind::datatype, what)
                  : h5py_complex_file_type(precision);
  Hid create = checked_id(H5Pcreate(H5P_DATASET_CREATE), HidKind::property_list, what);
  check(H5Pset_chunk(create.get(), static_cast<int>(chunks.size()), chunks.data()), what);
  // Every element is written before commit(): filling chunks with zeros
  // first would only double the writes.
  check(H5Pset_fill_time(create.get(), H5D_FILL_TIME_NEVER), what);
  // Missing groups on the way to the output name are created, as h5py's
  // require_group would.
  Hid link_create = checked_id(H5Pcreate(H5P_LINK_CREATE), HidKind::property_list, what);
  check(H5Pset_create_intermediate_group(link_create.get(), 1), what);
  return checked_id(H5Dcreate2(file, partial_name.c_str(), type.get(), space.get(), link_create.get(), create.get(),
                               H5P_DEFAULT),
                    HidKind::dataset, what);
}

void record_output(hid_t dataset, const OutputRecord& record, const DatasetPath& output, const DatasetPath& source,
                   const std::string& source_dtype, long owner_pid) {
  const std::string where = output.to_string();
  mark_temporary(dataset, "the partial output of " + output.dataset, where, owner_pid);
  for (const auto& [name, value] : record.attributes) write_string_attribute(dataset, name.c_str(), value, where);
  for (const auto& [name, values] : record.size_attributes) write_sizes_attribute(dataset, name, values, where);
  write_string_attribute(dataset, "source", source.to_string(), where);
  write_string_attribute(dataset, "original_dtype", source_dtype, where);
  write_string_attribute(dataset, "oocfft_version", OOCFFT_VERSION, where);
}

}  // namespace oocfft::io
