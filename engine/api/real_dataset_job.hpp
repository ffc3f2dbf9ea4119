#pragma once
// RealJob: one real transform (numpy's rfftn or irfftn) of one HDF5
// dataset, checked before anything is written: what the single-process
// transform_real_dataset (real_dataset_transform.cpp) and the one over MPI
// ranks (distributed/distributed_real_dataset_transform.cpp) both refuse,
// and the record their outputs carry.
#include <cstddef>
#include <string>
#include <vector>

#include "io/output_dataset.hpp"
#include "oocfft/hdf5.hpp"

namespace oocfft::engine {

// The attribute in which a half spectrum records its real volume's dims.
inline constexpr const char* real_shape_attribute = "oocfft_real_shape";

// "rfftn" or "irfftn".
const char* real_transform_name(Direction direction);

// "(2, 3, 4)", numpy's way ("(4,)" for one axis).
std::string dims_text(const std::vector<std::size_t>& dims);

// One real transform of one dataset, checked before anything is written.
struct RealJob {
  DatasetInfo input;
  Direction direction = Direction::forward;
  std::vector<std::size_t> real_dims;      // as stored (1..3 axes)
  std::vector<std::size_t> spectrum_dims;  // the same axes, the last nx/2+1
  Shape real_shape;
  Shape spectrum_shape;
  std::size_t value_bytes = 4;  // one real value

  bool forward() const { return direction == Direction::forward; }
  std::size_t real_bytes() const { return real_shape.bytes(value_bytes); }
  std::size_t spectrum_bytes() const { return spectrum_shape.bytes(2 * value_bytes); }
};

// The checks of the request alone (no file opened): the options and
// direction, no shift, not in place. Error(invalid_argument) or
// Error(unsupported) naming the dataset.
void check_real_request(const DatasetPath& input, Direction direction, const Options& options,
                        const DatasetTransformOptions& file_options);

// Checks the request, opens `input` read-only (HDF5's own driver) and
// checks the job: a forward's input real (float32/float64), an inverse's
// complex; the real length of the last
// axis: `real_nx` (0: the inverse's input attribute real_shape_attribute),
// whose half spectrum must be the stored last axis. Error(invalid_argument)
// or Error(unsupported) naming the dataset.
RealJob check_real_job(const DatasetPath& input, Direction direction, const Options& options,
                       const DatasetTransformOptions& file_options, std::size_t real_nx);

// The job of `direction` on a real volume of `real_dims` (as stored, 1..3
// axes) in `precision`, its half spectrum's dims and both padded shapes
// derived; `input` left empty (check_real_job fills it).
RealJob real_job_of(Direction direction, const std::vector<std::size_t>& real_dims, Precision precision);

// The output's record: its dims and element (the half spectrum, complex;
// or the real volume, real), direction, norm, transform, and a forward's
// real_shape_attribute.
io::OutputRecord real_output_record(const RealJob& job, Norm norm);

}  // namespace oocfft::engine
