#include "engine/api/real_dataset_job.hpp"

#include <algorithm>
#include <optional>

#include "engine/planning/options_check.hpp"
#include "io/dataset_attributes.hpp"
#include "oocfft/error.hpp"
#include "oocfft/real.hpp"

namespace oocfft::engine {

const char* real_transform_name(Direction direction) { return direction == Direction::forward ? "rfftn" : "irfftn"; }

std::string dims_text(const std::vector<std::size_t>& dims) {
  std::string out = "(";
  for (std::size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + std::to_string(dims[i]);
  return out + (dims.size() == 1 ? ",)" : ")");
}

namespace {

// A dataset's volume padded to 3 axes.
Shape padded(const std::vector<std::size_t>& dims) {
  std::size_t p[3] = {1, 1, 1};
  for (std::size_t a = 0; a < dims.size(); ++a) p[3 - dims.size() + a] = dims[a];
  return {p[0], p[1], p[2]};
}

// The real length of the inverse's last axis: `real_nx`, else the input's
// attribute; nx/2+1 must be the stored last axis either way.
std::size_t inverse_real_length(const DatasetInfo& info, const std::vector<std::size_t>& dims, std::size_t real_nx) {
  const std::string where = info.path.to_string();
  const std::size_t stored = dims.back();
  // The two real lengths whose half spectrum has `stored` values (only 1 for 1).
  const std::string fitting = stored == 1 ? "nx = 1"
                                          : "nx = " + std::to_string(2 * stored - 2) + " or " +
                                                std::to_string(2 * stored - 1);
  std::size_t nx = real_nx;
  if (nx == 0) {
    const std::optional<std::vector<std::size_t>> recorded = io::read_sizes_attribute(info.path, real_shape_attribute);
    if (!recorded)
      throw Error(ErrorKind::invalid_argument, where + ": no attribute " + real_shape_attribute +
                                                   " says the real length of the last axis; give it (" + fitting +
                                                   " fit its " + std::to_string(stored) + " values)");
    const std::vector<std::size_t>& r = *recorded;
    if (r.size() != dims.size() || !std::equal(dims.begin(), dims.end() - 1, r.begin()) || r.back() / 2 + 1 != stored)
      throw Error(ErrorKind::invalid_argument, where + ": attribute " + real_shape_attribute + " = " + dims_text(r) +
                                                   " does not fit the half spectrum " + dims_text(dims) +
                                                   " (expected the same leading axes and nx/2+1 = " +
                                                   std::to_string(stored) + ")");
    nx = r.back();
  }
  if (nx / 2 + 1 != stored)
    throw Error(ErrorKind::invalid_argument,
                where + ": a real last axis of " + std::to_string(nx) + " has a half spectrum of " +
                    std::to_string(nx / 2 + 1) + " values, but the stored last axis has " + std::to_string(stored) +
                    " (" + fitting + " fit)");
  return nx;
}

}  // namespace

RealJob real_job_of(Direction direction, const std::vector<std::size_t>& real_dims, Precision precision) {
  RealJob job;
  job.direction = direction;
  job.value_bytes = precision == Precision::single ? 4 : 8;
  job.real_dims = real_dims;
  job.spectrum_dims = real_dims;
  job.spectrum_dims.back() = real_dims.back() / 2 + 1;
  job.real_shape = padded(job.real_dims);
  job.spectrum_shape = half_spectrum_shape(job.real_shape);
  return job;
}

void check_real_request(const DatasetPath& input, Direction direction, const Options& options,
                        const DatasetTransformOptions& file_options) {
  check_options(options);
  check_direction(direction);
  const std::string where = input.to_string();
  if (options.shift)
    throw Error(ErrorKind::unsupported, std::string(real_transform_name(direction)) + " of " + where +
                                            ": shift (fftshift) is not offered for real transforms");
  if (file_options.in_place)
    throw Error(ErrorKind::invalid_argument, std::string(real_transform_name(direction)) + " of " + where +
                                                 ": a real transform changes the dtype and shape; it cannot "
                                                 "replace its input (in place)");
}

RealJob check_real_job(const DatasetPath& input, Direction direction, const Options& options,
                       const DatasetTransformOptions& file_options, std::size_t real_nx) {
  check_real_request(input, direction, options, file_options);
  const std::string where = input.to_string();
  const DatasetInfo info = inspect_dataset(input);
  std::vector<std::size_t> dims = info.dims;
  if (info.element == StoredElement::complex_pairs) dims.pop_back();
  std::vector<std::size_t> real_dims = dims;
  if (direction == Direction::forward) {
    if (info.element != StoredElement::real)
      throw Error(ErrorKind::invalid_argument,
                  where + ": holds complex values (" + info.dtype +
                      "); a real forward transform (rfftn) takes float32 or float64 data (fft transforms complex "
                      "data)");
    if (real_nx != 0 && real_nx != dims.back())
      throw Error(ErrorKind::invalid_argument, where + ": a real length of " + std::to_string(real_nx) +
                                                   " was given, but the last axis has " +
                                                   std::to_string(dims.back()) + " values");
  } else {
    if (info.element == StoredElement::real)
      throw Error(ErrorKind::invalid_argument,
                  where + ": holds real values (" + info.dtype +
                      "); a real inverse transform (irfftn) takes a half spectrum, complex (what rfftn writes)");
    real_dims.back() = inverse_real_length(info, dims, real_nx);
  }
  RealJob job = real_job_of(direction, real_dims, info.precision);
  job.input = info;
  return job;
}

io::OutputRecord real_output_record(const RealJob& job, Norm norm) {
  io::OutputRecord record;
  record.dims = job.forward() ? job.spectrum_dims : job.real_dims;
  record.element = job.forward() ? StoredElement::complex_compound : StoredElement::real;
  record.attributes = {{"direction", to_string(job.direction)},
                       {"norm", to_string(norm)},
                       {"transform", real_transform_name(job.direction)}};
  if (job.forward()) record.size_attributes = {{real_shape_attribute, job.real_dims}};
  return record;
}

}  // namespace oocfft::engine
