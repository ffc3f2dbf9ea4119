#pragma once
// oocfft::Error as Python exceptions: each ErrorKind becomes a class of
// oocfft.errors (python/oocfft/errors.py), all derived from oocfft.Error
// and from the built-in class a Python user catches for that kind
// (ValueError, MemoryError, OSError, ...). std::bad_alloc becomes
// oocfft.OutOfMemoryError too.
#include <pybind11/pybind11.h>

#include <oocfft/error.hpp>

namespace oocfft::python {

// Installs the translator for every function of the module.
void register_error_translation();

// Raises, as a Python exception set on the interpreter, the class of
// oocfft.errors named `class_name` with `message`; for checks the binding
// makes itself (a wrong dtype, a read-only array).
[[noreturn]] void raise(const char* class_name, const std::string& message);

}  // namespace oocfft::python
