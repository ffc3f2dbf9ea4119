#pragma once
// The output dataset of a transform as it is created: under its temporary
// name beside the output's name (io/output_temporaries.hpp), chunked for
// bricks, never filled (every value is written before the commit), marked
// as oocfft's temporary, with the attributes that record how it was made.
// DatasetTransfer creates it from one process; the distributed file path
// creates it from every rank at once, and parallel HDF5 wants those
// metadata calls made by every rank with the same values: hence the
// owner's pid is an argument, not this process's.
#include <hdf5.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "io/hdf5_handle.hpp"
#include "oocfft/hdf5.hpp"
#include "oocfft/options.hpp"

namespace oocfft::io {

// What the output dataset is besides its values: its dims, when they are
// not the input's (a refocused stack from one field), and the attributes
// that record how it was made, written as UTF-8 strings. source,
// original_dtype and oocfft_version are always written as well.
struct OutputRecord {
  std::vector<std::size_t> dims;  // empty: the input's complex dims
  // h5py's complex compound {r, i}, or real float32/float64 (a real
  // inverse's result), in the input's precision.
  StoredElement element = StoredElement::complex_compound;
  std::vector<std::pair<std::string, std::string>> attributes;
  // Integer lists, written as int64 arrays (io/dataset_attributes.hpp).
  std::vector<std::pair<std::string, std::vector<std::size_t>>> size_attributes;
};

// An FFT's record: direction, norm and shift.
OutputRecord transform_record(Direction direction, Norm norm, bool shifted);

// Creates the dataset `partial_name` in `file` (missing groups on the way
// created, as h5py's require_group would): `dims` as stored, of `element`
// (complex compound or real) in `precision`. `where` names the output in
// messages. Error(io) on failure. The caller holds the HDF5 lock.
Hid create_partial_output(hid_t file, const std::string& partial_name, const std::vector<std::size_t>& dims,
                          StoredElement element, Precision precision, const std::string& where);

// Marks the new `dataset` as the temporary of `output` written by process
// `owner_pid`, and writes `record`'s attributes and source (the input's
// name), original_dtype (`source_dtype`) and oocfft_version. The caller
// holds the HDF5 lock.
void record_output(hid_t dataset, const OutputRecord& record, const DatasetPath& output, const DatasetPath& source,
                   const std::string& source_dtype, long owner_pid);

}  // namespace oocfft::io
