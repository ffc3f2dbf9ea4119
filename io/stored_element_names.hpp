#pragma once
// The names of StoredElement (include/oocfft/hdf5.hpp) in the one table of
// enum names (core/enum_names.hpp), kept with the I/O layer that owns the
// enum. Free of HDF5's headers, so the command's reports can include it.
#include "core/enum_names.hpp"
#include "oocfft/hdf5.hpp"

namespace oocfft {

template <>
struct EnumTable<StoredElement> {
  static constexpr EnumName<StoredElement> rows[] = {
      {StoredElement::complex_compound, "complex_compound", "complex_compound"},
      {StoredElement::complex_pairs, "complex_pairs", "complex_pairs"},
      {StoredElement::real, "real", "real"},
  };
};

}  // namespace oocfft
