#include "python_errors.hpp"

#include <new>

namespace py = pybind11;

namespace oocfft::python {
namespace {

const char* class_of(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::invalid_argument: return "InvalidArgumentError";
    case ErrorKind::out_of_memory: return "OutOfMemoryError";
    case ErrorKind::io: return "FileError";
    case ErrorKind::cuda: return "DeviceError";
    case ErrorKind::unsupported: return "UnsupportedError";
    case ErrorKind::cancelled: return "CancelledError";
  }
  return "Error";
}

void set_error(const char* class_name, const char* message) {
  const py::object cls = py::module_::import("oocfft.errors").attr(class_name);
  PyErr_SetString(cls.ptr(), message);
}

}  // namespace

void register_error_translation() {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      set_error(class_of(e.kind()), e.what());
    } catch (const std::bad_alloc&) {
      set_error("OutOfMemoryError", "out of host memory (std::bad_alloc)");
    }
  });
}

void raise(const char* class_name, const std::string& message) {
  set_error(class_name, message.c_str());
  throw py::error_already_set();
}

}  // namespace oocfft::python
