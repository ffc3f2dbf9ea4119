#pragma once
// The checks a numpy array passes before the library touches its memory:
// the plan's element type exactly, C order, aligned, the plan's shape, and
// writable where the library writes. The Python layer converts what it can
// (dtype, order) before calling; what reaches here wrong is refused with
// the exception of oocfft.errors that names the problem, never read.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <oocfft/shape.hpp>

#include <complex>
#include <string>
#include <type_traits>

#include "python_errors.hpp"

namespace oocfft::python {

template <class T>
const char* dtype_name() {
  if constexpr (std::is_same_v<T, float>) return "float32";
  else if constexpr (std::is_same_v<T, double>) return "float64";
  else if constexpr (std::is_same_v<T, std::complex<float>>) return "complex64";
  else return "complex128";
}

inline std::string shape_text(const pybind11::array& a) {
  std::string s = "(";
  for (pybind11::ssize_t i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

// The data of `a` as T, checked against `shape` (3 axes, C order).
template <class T>
T* checked_data(const pybind11::object& obj, const Shape& shape, const char* what, bool written) {
  if (!pybind11::isinstance<pybind11::array>(obj))
    raise("DtypeError", std::string(what) + " is not a numpy array");
  auto a = pybind11::reinterpret_borrow<pybind11::array>(obj);
  if (!pybind11::isinstance<pybind11::array_t<T, 0>>(obj))
    raise("DtypeError", std::string(what) + " has dtype " + std::string(pybind11::str(a.dtype())) + ", expected " +
                            dtype_name<T>());
  const bool shaped = a.ndim() == 3 && std::size_t(a.shape(0)) == shape.nz && std::size_t(a.shape(1)) == shape.ny &&
                      std::size_t(a.shape(2)) == shape.nx;
  if (!shaped)
    raise("InvalidArgumentError", std::string(what) + " has shape " + shape_text(a) + ", expected (" +
                                      std::to_string(shape.nz) + ", " + std::to_string(shape.ny) + ", " +
                                      std::to_string(shape.nx) + ")");
  const int flags = pybind11::detail::array_proxy(a.ptr())->flags;
  if (!(flags & pybind11::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_))
    raise("InvalidArgumentError", std::string(what) + " is not C-contiguous");
  if (!(flags & pybind11::detail::npy_api::NPY_ARRAY_ALIGNED_))
    raise("InvalidArgumentError", std::string(what) + " is not aligned for " + dtype_name<T>());
  if (written && !a.writeable()) raise("InvalidArgumentError", std::string(what) + " is read-only");
  return static_cast<T*>(const_cast<void*>(a.data()));
}

}  // namespace oocfft::python
