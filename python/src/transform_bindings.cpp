// The plans, as Python classes of oocfft._oocfft: ComplexPlan (Plan, all
// axes or a stack of planes), RealPlan (numpy's rfftn / irfftn, out of
// place) and TrigPlan (scipy's dctn / dstn and their inverses, in place).
// Each owns its C++ plan and the RunHooks its options were wired to, so
// that every execution releases the GIL, answers Ctrl-C and reports
// progress (interruptible_run.hpp). Arrays arrive converted by the Python
// layer and are checked again here (array_access.hpp).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <oocfft/plan.hpp>
#include <oocfft/real.hpp>
#include <oocfft/trig.hpp>

#include <array>
#include <complex>
#include <memory>
#include <string>

#include "array_access.hpp"
#include "bindings.hpp"
#include "interruptible_run.hpp"
#include "python_options.hpp"

namespace py = pybind11;

namespace oocfft::python {

namespace {

using Extent = std::array<std::size_t, 3>;
Shape shape_of(const Extent& e) { return {e[0], e[1], e[2]}; }
Precision precision_of(bool double_precision) {
  return double_precision ? Precision::double_precision : Precision::single;
}

// A plan of the C++ library with the hooks its options call.
template <class CppPlan>
struct Hooked {
  RunHooks hooks;
  std::unique_ptr<CppPlan> plan;

  template <class... Args>
  explicit Hooked(const py::dict& options, Args&&... args) {
    const Options wired = hooks.wire(options_from(options));
    py::gil_scoped_release release;  // planning may compile kernels
    plan = std::make_unique<CppPlan>(std::forward<Args>(args)..., wired);
  }
};

class ComplexPlan : public Hooked<Plan> {
 public:
  ComplexPlan(const Extent& shape, bool double_precision, bool planes, const py::dict& options)
      : Hooked<Plan>(options, shape_of(shape), precision_of(double_precision), planes ? Axes::planes : Axes::all) {}

  py::dict execute(const py::object& array, bool inverse, const py::object& progress) const {
    return plan->precision() == Precision::single ? run<float>(array, inverse, progress)
                                                  : run<double>(array, inverse, progress);
  }

  py::dict execute_into(const py::object& input, const py::object& output, bool inverse,
                        const py::object& progress) const {
    return plan->precision() == Precision::single ? run_into<float>(input, output, inverse, progress)
                                                  : run_into<double>(input, output, inverse, progress);
  }

  py::dict execute_real_into(const py::object& input, const py::object& output, bool inverse,
                             const py::object& progress) const {
    return plan->precision() == Precision::single ? run_real_into<float>(input, output, inverse, progress)
                                                  : run_real_into<double>(input, output, inverse, progress);
  }

 private:
  template <class T>
  py::dict run_real_into(const py::object& input, const py::object& output, bool inverse,
                         const py::object& progress) const {
    const T* in = checked_data<T>(input, plan->shape(), "the real input", false);
    auto* out = checked_data<std::complex<T>>(output, plan->shape(), "the output", true);
    RunReport report;
    hooks.run(progress, [&] { plan->execute(in, out, inverse ? Direction::inverse : Direction::forward, &report); });
    return report_dict(report);
  }

  template <class T>
  py::dict run_into(const py::object& input, const py::object& output, bool inverse,
                    const py::object& progress) const {
    const auto* in = checked_data<std::complex<T>>(input, plan->shape(), "the input", false);
    auto* out = checked_data<std::complex<T>>(output, plan->shape(), "the output", true);
    RunReport report;
    hooks.run(progress, [&] { plan->execute(in, out, inverse ? Direction::inverse : Direction::forward, &report); });
    return report_dict(report);
  }

  template <class T>
  py::dict run(const py::object& array, bool inverse, const py::object& progress) const {
    auto* data = checked_data<std::complex<T>>(array, plan->shape(), "the array", true);
    RunReport report;
    hooks.run(progress, [&] { plan->execute(data, inverse ? Direction::inverse : Direction::forward, &report); });
    return report_dict(report);
  }
};

class RealTransformPlan : public Hooked<RealPlan> {
 public:
  RealTransformPlan(const Extent& real_shape, bool double_precision, const py::dict& options)
      : Hooked<RealPlan>(options, shape_of(real_shape), precision_of(double_precision)) {}

  py::dict forward(const py::object& real, const py::object& spectrum, const py::object& progress) const {
    return plan->precision() == Precision::single ? run_forward<float>(real, spectrum, progress)
                                                  : run_forward<double>(real, spectrum, progress);
  }
  py::dict inverse(const py::object& spectrum, const py::object& real, const py::object& progress) const {
    return plan->precision() == Precision::single ? run_inverse<float>(spectrum, real, progress)
                                                  : run_inverse<double>(spectrum, real, progress);
  }

 private:
  template <class T>
  py::dict run_forward(const py::object& real, const py::object& spectrum, const py::object& progress) const {
    const T* in = checked_data<T>(real, plan->shape(), "the real array", false);
    auto* out = checked_data<std::complex<T>>(spectrum, plan->spectrum_shape(), "the output", true);
    RunReport report;
    hooks.run(progress, [&] { plan->forward(in, out, &report); });
    return report_dict(report);
  }
  template <class T>
  py::dict run_inverse(const py::object& spectrum, const py::object& real, const py::object& progress) const {
    const auto* in = checked_data<std::complex<T>>(spectrum, plan->spectrum_shape(), "the half spectrum", false);
    T* out = checked_data<T>(real, plan->shape(), "the output", true);
    RunReport report;
    hooks.run(progress, [&] { plan->inverse(in, out, &report); });
    return report_dict(report);
  }
};

class TrigTransformPlan : public Hooked<TrigPlan> {
 public:
  TrigTransformPlan(const Extent& shape, bool double_precision, const std::string& kind, int type, unsigned rank,
                    const py::dict& options)
      : Hooked<TrigPlan>(options, shape_of(shape), precision_of(double_precision), trig_transform(kind, type), rank) {}

  py::dict execute(const py::object& array, bool inverse, const py::object& progress) const {
    return plan->precision() == Precision::single ? run<float>(array, inverse, progress)
                                                  : run<double>(array, inverse, progress);
  }

 private:
  template <class T>
  py::dict run(const py::object& array, bool inverse, const py::object& progress) const {
    T* data = checked_data<T>(array, plan->shape(), "the array", true);
    RunReport report;
    hooks.run(progress, [&] { plan->execute(data, inverse ? Direction::inverse : Direction::forward, &report); });
    return report_dict(report);
  }
};

}  // namespace

py::dict report_dict(const RunReport& r) {
  py::dict d;
  d["strategy"] = to_string(r.strategy);
  d["backend"] = to_string(r.backend);
  d["passes"] = r.passes;
  d["streams"] = r.streams;
  d["registered"] = r.registered;
  d["direct_bricks"] = r.direct_bricks;
  d["bricks"] = r.bricks;
  d["bytes_moved"] = r.bytes_moved;
  d["resident_bytes"] = r.resident_bytes;
  d["staging_bytes"] = r.staging_bytes;
  d["device_bytes"] = r.device_bytes;
  d["host_scratch_bytes"] = r.host_scratch_bytes;
  d["brick_bytes"] = r.brick_bytes;
  d["device_budget"] = r.device_budget;
  d["replans"] = r.replans;
  d["seconds"] = r.seconds;
  d["register_seconds"] = r.register_seconds;
  return d;
}

void bind_transforms(py::module_& m) {
  py::class_<ComplexPlan>(m, "ComplexPlan", "A complex plan over all axes or over the planes (oocfft::Plan).")
      .def(py::init<Extent, bool, bool, py::dict>(), py::arg("shape"), py::arg("double_precision"),
           py::arg("planes"), py::arg("options"))
      .def("execute", &ComplexPlan::execute, py::arg("array"), py::arg("inverse"), py::arg("progress"),
           "Transforms the C-order complex array of the plan's shape in place; returns the run's report.")
      .def("execute_into", &ComplexPlan::execute_into, py::arg("input"), py::arg("output"), py::arg("inverse"),
           py::arg("progress"),
           "Transforms `input` (never written) into `output` (the first pass reads the input, every pass "
           "writes the output); returns the run's report.")
      .def("execute_real_into", &ComplexPlan::execute_real_into, py::arg("input"), py::arg("output"),
           py::arg("inverse"), py::arg("progress"),
           "The full complex transform of the real `input` (never written; widened a brick at a time) into "
           "`output`; returns the run's report.")
      .def("describe", [](const ComplexPlan& p) { return p.plan->describe(); })
      .def_property_readonly("backend", [](const ComplexPlan& p) { return to_string(p.plan->backend()); });
  py::class_<RealTransformPlan>(m, "RealPlan", "numpy's rfftn / irfftn of a real volume (oocfft::RealPlan).")
      .def(py::init<Extent, bool, py::dict>(), py::arg("real_shape"), py::arg("double_precision"),
           py::arg("options"))
      .def("forward", &RealTransformPlan::forward, py::arg("real"), py::arg("spectrum"), py::arg("progress"))
      .def("inverse", &RealTransformPlan::inverse, py::arg("spectrum"), py::arg("real"), py::arg("progress"))
      .def("describe", [](const RealTransformPlan& p) { return p.plan->describe(); })
      .def_property_readonly("backend", [](const RealTransformPlan& p) { return to_string(p.plan->backend()); });
  py::class_<TrigTransformPlan>(m, "TrigPlan", "scipy's dctn / dstn of type 2 or 3 (oocfft::TrigPlan).")
      .def(py::init<Extent, bool, std::string, int, unsigned, py::dict>(), py::arg("shape"),
           py::arg("double_precision"), py::arg("kind"), py::arg("type"), py::arg("rank"), py::arg("options"))
      .def("execute", &TrigTransformPlan::execute, py::arg("array"), py::arg("inverse"), py::arg("progress"))
      .def("describe", [](const TrigTransformPlan& p) { return p.plan->describe(); })
      .def_property_readonly("backend", [](const TrigTransformPlan& p) { return to_string(p.plan->backend()); });
}

}  // namespace oocfft::python
