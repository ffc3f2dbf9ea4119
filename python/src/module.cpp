// oocfft._oocfft: the compiled half of the oocfft package. Python code
// calls it through python/oocfft, which gives it scipy.fft's shape; this
// module checks what it is given and calls the public C++ API only.
#include <pybind11/pybind11.h>

#include <oocfft/oocfft.hpp>

#include "bindings.hpp"
#include "python_errors.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_oocfft, m) {
  m.doc() = "The compiled part of oocfft: plans and runs of the C++ library (use the oocfft package).";
  oocfft::python::register_error_translation();
  m.attr("version") = OOCFFT_VERSION;
  m.def("cuda_available", &oocfft::cuda_available,
        "True when this build has the CUDA backend and a CUDA device is usable.");
  oocfft::python::bind_transforms(m);
  oocfft::python::bind_host_arrays(m);
  oocfft::python::bind_datasets(m);
  oocfft::python::bind_asm(m);
}
