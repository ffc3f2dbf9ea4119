// Angular-spectrum propagation (include/oocfft/asm.hpp) for Python, on
// arrays and on HDF5 datasets. Arrays arrive as 3D C-order views from the
// Python layer (python/oocfft/asm.py): a stack (nz, ny, nx), a field as
// (1, ny, nx), a hologram out as (1, ny, nx). Real fields are taken as
// they are (widened a brick at a time by the library) and written to a
// complex output; complex stacks are propagated in place.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <oocfft/asm.hpp>

#include <complex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "array_access.hpp"
#include "bindings.hpp"
#include "dataset_arguments.hpp"
#include "interruptible_run.hpp"
#include "python_errors.hpp"
#include "python_options.hpp"

namespace py = pybind11;

namespace oocfft::python {

namespace {

Shape shape_of(const py::object& obj, const char* what) {
  if (!py::isinstance<py::array>(obj)) raise("DtypeError", std::string(what) + " is not a numpy array");
  const auto a = py::reinterpret_borrow<py::array>(obj);
  if (a.ndim() != 3) raise("InvalidArgumentError", std::string(what) + " must have 3 axes here");
  return {std::size_t(a.shape(0)), std::size_t(a.shape(1)), std::size_t(a.shape(2))};
}

bool is_real(const py::object& obj) {
  return py::isinstance<py::array_t<float, 0>>(obj) || py::isinstance<py::array_t<double, 0>>(obj);
}
bool is_double(const py::object& obj) {
  return py::isinstance<py::array_t<double, 0>>(obj) || py::isinstance<py::array_t<std::complex<double>, 0>>(obj);
}

// Runs `operation(options)` with the hooks wired into the FFT options.
template <class Operation>
void run_asm(const py::dict& options, const py::object& progress, Operation&& operation) {
  RunHooks hooks;
  AsmOptions a = asm_options_from(options);
  a.fft = hooks.wire(a.fft);
  hooks.run(progress, [&] { operation(a); });
}

template <class T>
void propagate_typed(const py::object& stack, const py::object& out, const std::vector<double>& distances,
                     const py::dict& options, const py::object& progress) {
  const Shape s = shape_of(stack, "the field");
  if (is_real(stack)) {
    const T* in = checked_data<T>(stack, s, "the field", false);
    auto* result = checked_data<std::complex<T>>(out, s, "the output", true);
    run_asm(options, progress, [&](const AsmOptions& a) { propagate_stack(in, s, distances, result, a); });
  } else {
    auto* data = checked_data<std::complex<T>>(stack, s, "the field", true);
    run_asm(options, progress, [&](const AsmOptions& a) { propagate_stack(data, s, distances, a); });
  }
}

template <class T>
void refocus_typed(const py::object& field, const py::object& out, const std::vector<double>& distances,
                   const py::dict& options, const py::object& progress) {
  const Shape s = shape_of(field, "the field");
  const Shape volume{distances.size(), s.ny, s.nx};
  auto* result = checked_data<std::complex<T>>(out, volume, "the output", true);
  if (is_real(field)) {
    const T* in = checked_data<T>(field, s, "the field", false);
    run_asm(options, progress, [&](const AsmOptions& a) { refocus_stack(in, s.ny, s.nx, distances, result, a); });
  } else {
    const auto* in = checked_data<std::complex<T>>(field, s, "the field", false);
    run_asm(options, progress, [&](const AsmOptions& a) { refocus_stack(in, s.ny, s.nx, distances, result, a); });
  }
}

template <class T>
void layer_sum_typed(const py::object& layers, const py::object& out, const std::vector<double>& distances,
                     const py::dict& options, const py::object& progress) {
  const Shape s = shape_of(layers, "the layers");
  auto* result = checked_data<std::complex<T>>(out, Shape{1, s.ny, s.nx}, "the output", true);
  if (is_real(layers)) {
    const T* in = checked_data<T>(layers, s, "the layers", false);
    run_asm(options, progress, [&](const AsmOptions& a) { layer_sum(in, s, distances, result, a); });
  } else {
    const auto* in = checked_data<std::complex<T>>(layers, s, "the layers", false);
    run_asm(options, progress, [&](const AsmOptions& a) { layer_sum(in, s, distances, result, a); });
  }
}

AsmMode mode_of(const std::string& mode) {
  if (mode == "propagate") return AsmMode::propagate;
  if (mode == "refocus") return AsmMode::refocus;
  if (mode == "layer_sum") return AsmMode::layer_sum;
  raise("InvalidArgumentError", "mode \"" + mode + "\" is not propagate, refocus or layer_sum");
}

}  // namespace

void bind_asm(py::module_& m) {
  m.def(
      "asm_propagate",
      [](const py::object& stack, const py::object& out, const std::vector<double>& distances,
         const py::dict& options, const py::object& progress) {
        is_double(stack) ? propagate_typed<double>(stack, out, distances, options, progress)
                         : propagate_typed<float>(stack, out, distances, options, progress);
      },
      py::arg("stack"), py::arg("out"), py::arg("distances"), py::arg("options"), py::arg("progress"));
  m.def(
      "asm_refocus",
      [](const py::object& field, const py::object& out, const std::vector<double>& distances,
         const py::dict& options, const py::object& progress) {
        is_double(field) ? refocus_typed<double>(field, out, distances, options, progress)
                         : refocus_typed<float>(field, out, distances, options, progress);
      },
      py::arg("field"), py::arg("out"), py::arg("distances"), py::arg("options"), py::arg("progress"));
  m.def(
      "asm_layer_sum",
      [](const py::object& layers, const py::object& out, const std::vector<double>& distances,
         const py::dict& options, const py::object& progress) {
        is_double(layers) ? layer_sum_typed<double>(layers, out, distances, options, progress)
                          : layer_sum_typed<float>(layers, out, distances, options, progress);
      },
      py::arg("layers"), py::arg("out"), py::arg("distances"), py::arg("options"), py::arg("progress"));
  m.def(
      "asm_propagate_dataset",
      [](const std::string& input, const std::optional<std::string>& output, const std::string& mode,
         const std::vector<double>& distances, bool in_place, std::size_t host_memory, const py::dict& options,
         const py::object& progress) {
        const DatasetPath in = DatasetPath::parse(input);
        const DatasetPath out = output_path(in, output, in_place);
        const AsmMode asm_mode = mode_of(mode);
        AsmDatasetReport report;
        run_asm(options, progress, [&](const AsmOptions& a) {
          report = propagate_dataset(in, out, asm_mode, distances, a, file_options(in_place, host_memory));
        });
        py::dict d;
        d["input"] = report.input.path.to_string();
        d["output"] = report.output.to_string();
        d["output_shape"] = py::make_tuple(report.output_shape.nz, report.output_shape.ny, report.output_shape.nx);
        d["read_seconds"] = report.read_seconds;
        d["propagate_seconds"] = report.propagate_seconds;
        d["write_seconds"] = report.write_seconds;
        d["seconds"] = report.seconds;
        return d;
      },
      py::arg("input"), py::arg("output"), py::arg("mode"), py::arg("distances"), py::arg("in_place"),
      py::arg("host_memory"), py::arg("options"), py::arg("progress"));
}

}  // namespace oocfft::python
