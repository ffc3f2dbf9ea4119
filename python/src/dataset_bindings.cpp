// The HDF5 dataset transforms (include/oocfft/hdf5.hpp) for Python: the
// command's semantics and file safety (the output written under a
// temporary name and linked only when complete; an error, a Ctrl-C or a
// cancel leaves the input as it was), with the GIL released and Ctrl-C
// cancelling through RunHooks.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <oocfft/hdf5.hpp>
#include <oocfft/trig.hpp>

#include <optional>
#include <string>

#include "bindings.hpp"
#include "dataset_arguments.hpp"
#include "interruptible_run.hpp"
#include "python_errors.hpp"
#include "python_options.hpp"

namespace py = pybind11;

namespace oocfft::python {

namespace {

const char* element_name(StoredElement e) {
  switch (e) {
    case StoredElement::complex_compound: return "complex_compound";
    case StoredElement::complex_pairs: return "complex_pairs";
    case StoredElement::real: return "real";
  }
  return "?";
}

const char* intermediate_name(IntermediateSpectrum i) {
  switch (i) {
    case IntermediateSpectrum::none: return "none";
    case IntermediateSpectrum::host_memory: return "host_memory";
    case IntermediateSpectrum::output_file: return "output_file";
  }
  return "?";
}

py::tuple shape_tuple(const Shape& s) { return py::make_tuple(s.nz, s.ny, s.nx); }

py::dict info_dict(const DatasetInfo& info) {
  py::dict d;
  d["path"] = info.path.to_string();
  d["dims"] = info.dims;
  d["shape"] = shape_tuple(info.shape);
  d["precision"] = to_string(info.precision);
  d["element"] = element_name(info.element);
  d["dtype"] = info.dtype;
  d["chunks"] = info.chunks;
  d["allocated_bytes"] = info.allocated_bytes;
  d["chunks_written"] = info.chunks_written;
  d["chunks_in_all"] = info.chunks_in_all;
  d["fully_allocated"] = info.fully_allocated;
  d["filters"] = info.filters;
  d["unavailable_filters"] = info.unavailable_filters;
  return d;
}

py::dict transform_report_dict(const DatasetTransformReport& r) {
  py::dict d;
  d["input"] = info_dict(r.input);
  d["output"] = r.output.to_string();
  d["output_shape"] = shape_tuple(r.output_shape);
  d["intermediate"] = intermediate_name(r.intermediate);
  d["in_memory"] = r.in_memory;
  d["host_memory_budget"] = r.host_memory_budget;
  d["read_seconds"] = r.read_seconds;
  d["transform_seconds"] = r.transform_seconds;
  d["write_seconds"] = r.write_seconds;
  d["seconds"] = r.seconds;
  d["run"] = report_dict(r.run);
  return d;
}

// Runs one dataset transform with the hooks wired into its options.
template <class Transform>
py::dict run_dataset(const py::dict& options, const py::object& progress, Transform&& transform) {
  RunHooks hooks;
  const Options wired = hooks.wire(options_from(options));
  DatasetTransformReport report;
  hooks.run(progress, [&] { report = transform(wired); });
  return transform_report_dict(report);
}

}  // namespace

void bind_datasets(py::module_& m) {
  m.def(
      "inspect_dataset",
      [](const std::string& path) {
        const DatasetPath p = DatasetPath::parse(path);
        DatasetInfo info;
        {
          py::gil_scoped_release release;
          info = inspect_dataset(p);
        }
        return info_dict(info);
      },
      py::arg("path"));
  m.def(
      "describe_dataset_transform",
      [](const std::string& input, bool real, bool inverse, std::size_t real_nx, std::size_t host_memory,
         const py::dict& options) {
        const DatasetPath in = DatasetPath::parse(input);
        const Options o = options_from(options);
        std::string text;
        py::gil_scoped_release release;  // opens the file and plans
        text = real ? describe_real_dataset_transform(in, inverse ? Direction::inverse : Direction::forward, o,
                                                      file_options(false, host_memory), real_nx)
                    : describe_dataset_transform(in, o, file_options(false, host_memory));
        return text;
      },
      py::arg("input"), py::arg("real"), py::arg("inverse"), py::arg("real_nx"), py::arg("host_memory"),
      py::arg("options"));
  m.def(
      "transform_dataset",
      [](const std::string& input, const std::optional<std::string>& output, bool inverse, bool in_place,
         std::size_t host_memory, const py::dict& options, const py::object& progress) {
        const DatasetPath in = DatasetPath::parse(input);
        const DatasetPath out = output_path(in, output, in_place);
        return run_dataset(options, progress, [&](const Options& o) {
          return transform_dataset(in, out, inverse ? Direction::inverse : Direction::forward, o,
                                   file_options(in_place, host_memory));
        });
      },
      py::arg("input"), py::arg("output"), py::arg("inverse"), py::arg("in_place"), py::arg("host_memory"),
      py::arg("options"), py::arg("progress"));
  m.def(
      "transform_real_dataset",
      [](const std::string& input, const std::string& output, bool inverse, std::size_t real_nx,
         std::size_t host_memory, const py::dict& options, const py::object& progress) {
        const DatasetPath in = DatasetPath::parse(input);
        const DatasetPath out = DatasetPath::parse(output);
        return run_dataset(options, progress, [&](const Options& o) {
          return transform_real_dataset(in, out, inverse ? Direction::inverse : Direction::forward, o,
                                        file_options(false, host_memory), real_nx);
        });
      },
      py::arg("input"), py::arg("output"), py::arg("inverse"), py::arg("real_nx"), py::arg("host_memory"),
      py::arg("options"), py::arg("progress"));
  m.def(
      "transform_trig_dataset",
      [](const std::string& input, const std::optional<std::string>& output, const std::string& kind, int type,
         bool inverse, bool in_place, std::size_t host_memory, const py::dict& options, const py::object& progress) {
        const TrigTransform t = trig_transform(kind, type);
        const DatasetPath in = DatasetPath::parse(input);
        const DatasetPath out = output_path(in, output, in_place);
        return run_dataset(options, progress, [&](const Options& o) {
          return transform_trig_dataset(in, out, t, inverse ? Direction::inverse : Direction::forward, o,
                                        file_options(in_place, host_memory));
        });
      },
      py::arg("input"), py::arg("output"), py::arg("kind"), py::arg("type"), py::arg("inverse"),
      py::arg("in_place"), py::arg("host_memory"), py::arg("options"), py::arg("progress"));
}

}  // namespace oocfft::python
