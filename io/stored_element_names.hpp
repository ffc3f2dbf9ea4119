#pragma once
// The names of StoredElement and IntermediateSpectrum
// (include/oocfft/hdf5.hpp) in the one table of enum names
// (core/enum_names.hpp), kept with the I/O layer that owns the enums.
// Free of HDF5's headers, so the command's reports can include it.
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

template <>
struct EnumTable<IntermediateSpectrum> {
  static constexpr EnumName<IntermediateSpectrum> rows[] = {
      {IntermediateSpectrum::none, "none", "none"},
      {IntermediateSpectrum::host_memory, "host_memory", "host_memory"},
      {IntermediateSpectrum::output_file, "output_file", "output_file"},
  };
};

}  // namespace oocfft
