#include "dataset_arguments.hpp"

#include "python_errors.hpp"

namespace oocfft::python {

DatasetPath output_path(const DatasetPath& input, const std::optional<std::string>& output, bool in_place) {
  if (in_place) {
    if (output && DatasetPath::parse(*output).normalised() != input.normalised())
      raise("InvalidArgumentError", "in_place=True writes over the input " + input.to_string() + ": give no output");
    return input;
  }
  if (!output) raise("InvalidArgumentError", "no output dataset: give one (\"FILE:/DATASET\") or in_place=True");
  return DatasetPath::parse(*output);
}

DatasetTransformOptions file_options(bool in_place, std::size_t host_memory) {
  DatasetTransformOptions f;
  f.in_place = in_place;
  f.host_memory_budget = host_memory;
  return f;
}

}  // namespace oocfft::python
