#pragma once
// Attributes of datasets. Integer lists: a real transform's half spectrum
// records the real volume's dims in one (oocfft_real_shape), and the inverse
// reads it back to know the real length of the last axis; written as
// little-endian int64, so that h5py reads a numpy int64 array. Strings: an
// output's record and the mark of a temporary, as variable-length UTF-8,
// which h5py reads as a Python str.
#include <hdf5.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "oocfft/hdf5.hpp"

namespace oocfft::io {

// Writes `values` as a 1D int64 attribute `name` of the open `object`;
// `where` names it in messages. The caller holds hdf5_library_mutex().
void write_sizes_attribute(hid_t object, const std::string& name, const std::vector<std::size_t>& values,
                           const std::string& where);

// Writes `value` as a scalar string attribute `name` of the open `object`;
// `where` names it in messages. The caller holds hdf5_library_mutex().
void write_string_attribute(hid_t object, const char* name, const std::string& value, const std::string& where);

// Opens `path` read-only and reads attribute `name`: nullopt when the
// dataset has none; Error(invalid_argument) naming the dataset when it is
// not a list of at most 8 non-negative integers. Takes the HDF5 lock.
std::optional<std::vector<std::size_t>> read_sizes_attribute(const DatasetPath& path, const std::string& name);

}  // namespace oocfft::io
