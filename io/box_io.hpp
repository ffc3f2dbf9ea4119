#pragma once
// Reading and writing one box of a dataset as interleaved complex values in
// natural (C) order: a hyperslab of the file, the packed box in memory, the
// stored element converted by HDF5's memory type on the way (stored_type.hpp).
// The caller holds hdf5_library_mutex().
#include <hdf5.h>

#include <cstddef>
#include <string>

#include "io/stored_type.hpp"
#include "core/geometry.hpp"

namespace oocfft::io {

// One dataset seen as a complex volume. Does not own `id`.
struct StoredDataset {
  hid_t id = H5I_INVALID_HID;
  StoredType type;
  std::size_t complex_rank = 3;  // 1..3: the volume's leading axes of length 1 are not in the file
  std::string name;              // "file:/dataset", for messages
};

// `box.elements()` complex values into `natural`. Real data is read into the
// first half of the box's bytes and widened to complex in place.
void read_box(const StoredDataset& dataset, const oocfft::Box& box, std::byte* natural);
// `box.elements()` complex values from `natural` into a complex compound dataset.
void write_box(const StoredDataset& dataset, const oocfft::Box& box, const std::byte* natural);

}  // namespace oocfft::io
