#pragma once
// The dataset arguments every file entry point of the module takes (the
// transforms and ASM): where the result goes, and the file options.
#include <oocfft/hdf5.hpp>

#include <cstddef>
#include <optional>
#include <string>

namespace oocfft::python {

// The output's path: `output`, or the input's when replacing it in place.
// Refuses an in-place call that names another output, and an out-of-place
// one that names none (oocfft.InvalidArgumentError).
DatasetPath output_path(const DatasetPath& input, const std::optional<std::string>& output, bool in_place);

DatasetTransformOptions file_options(bool in_place, std::size_t host_memory);

}  // namespace oocfft::python
