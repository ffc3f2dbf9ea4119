#pragma once
// How a dataset's values are stored, and the HDF5 memory types that turn
// them into interleaved complex values (docs/ARCHITECTURE.md, "Conventions": h5py's
// compound {r, i}, also real/imag and Real/Imaginary; a trailing axis of
// two; real float32/float64).
#include <hdf5.h>

#include <cstddef>
#include <string>
#include <vector>

#include "io/hdf5_handle.hpp"
#include "oocfft/hdf5.hpp"

namespace oocfft::io {

struct StoredType {
  StoredElement element = StoredElement::complex_compound;
  Precision precision = Precision::single;
  std::string dtype;      // numpy's name: "complex64", "float32", ...
  std::string real_name;  // compound member names as the file spells them
  std::string imag_name;
};

// A dataset as opened: what it holds and how it is stored.
struct OpenedDataset {
  DatasetInfo info;
  StoredType type;
  std::size_t complex_rank = 0;  // axes of the complex volume (1..3)
};

// Describes the open dataset `dataset` named `path`. Throws
// Error(unsupported) for a type or rank oocfft cannot transform and
// Error(invalid_argument) for an axis of length 0, naming the file, the
// dataset and the type; Error(io) when HDF5 cannot tell.
OpenedDataset describe_dataset(hid_t dataset, const DatasetPath& path);

// Refuses what a transform cannot read (include/oocfft/hdf5.hpp, after
// inspect_dataset): a filter without its plugin, values never written.
void check_transformable(const DatasetInfo& info);

// The memory type one stored element is read as: the interleaved complex
// compound {real_name @0, imag_name @sizeof(T)} (HDF5 converts compounds
// member by member, matched by name, so the file's names are used), or
// the native float / double of pairs and real data.
Hid memory_type(const StoredType& type);

// h5py's complex compound {r @0, i @sizeof(T)} as written to a file
// (little-endian IEEE, as h5py writes on every platform oocfft runs on).
Hid h5py_complex_file_type(Precision precision);

// A short description of an HDF5 type for messages: "int32", "string",
// "compound {x: float64, y: int32}".
std::string describe_type(hid_t type);

inline std::size_t real_bytes(Precision p) { return p == Precision::single ? 4 : 8; }
inline std::size_t complex_bytes(Precision p) { return 2 * real_bytes(p); }

}  // namespace oocfft::io
