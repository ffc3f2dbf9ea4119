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
// `transfer`: HDF5's data transfer list (a collective MPI-IO transfer in
// the distributed file path, where every rank calls, a rank with nothing
// to move passing an empty box: it selects nothing).
void read_box(const StoredDataset& dataset, const oocfft::Box& box, std::byte* natural,
              hid_t transfer = H5P_DEFAULT);
// `box.elements()` complex values from `natural` into a complex compound dataset.
void write_box(const StoredDataset& dataset, const oocfft::Box& box, const std::byte* natural,
               hid_t transfer = H5P_DEFAULT);

// The real values of a real (float32/float64) dataset as they are stored,
// `box.elements()` of them, not widened to complex: the real side of a real
// transform (io/real_dataset_volume.hpp). Error(invalid_argument) for a
// dataset that is not real. `transfer` as read_box's.
void read_real_box(const StoredDataset& dataset, const oocfft::Box& box, std::byte* values,
                   hid_t transfer = H5P_DEFAULT);
void write_real_box(const StoredDataset& dataset, const oocfft::Box& box, const std::byte* values,
                    hid_t transfer = H5P_DEFAULT);
// The same with the box's rows `row_pitch` bytes apart in memory (a whole
// number of values, at least a row), the bytes between them untouched:
// HDF5 reads into, and writes from, a strided selection of memory, so
// FFTW's padded rows need no copy (volume/volume_store.hpp, read_rows).
void read_real_rows(const StoredDataset& dataset, const oocfft::Box& box, std::byte* values, std::size_t row_pitch);
void write_real_rows(const StoredDataset& dataset, const oocfft::Box& box, const std::byte* values,
                     std::size_t row_pitch);

}  // namespace oocfft::io
