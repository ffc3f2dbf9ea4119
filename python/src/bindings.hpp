#pragma once
// The parts of the compiled module oocfft._oocfft, one file each; module.cpp
// calls them in order.
#include <pybind11/pybind11.h>

#include <oocfft/run_report.hpp>

namespace oocfft::python {

void bind_transforms(pybind11::module_& m);  // ComplexPlan, RealPlan, TrigPlan
void bind_host_arrays(pybind11::module_& m);  // empty() over HostArray memory
void bind_datasets(pybind11::module_& m);    // HDF5 dataset transforms
void bind_asm(pybind11::module_& m);         // angular-spectrum propagation

// A RunReport as a dict of its scalar fields.
pybind11::dict report_dict(const RunReport& report);

}  // namespace oocfft::python
