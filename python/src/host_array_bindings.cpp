// numpy arrays over HostArray memory (oocfft.empty / zeros): mapped with
// huge pages advised, first-touched from all cores and page-locked for the
// GPU, so a plan DMAs its bricks straight from them. The array's base is a
// capsule that owns the HostArray: the memory lives, locked, as long as any
// view of it does, and is unlocked and unmapped with the last one.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <oocfft/host_array.hpp>

#include <cstddef>
#include <vector>

#include "bindings.hpp"
#include "python_errors.hpp"

namespace py = pybind11;

namespace oocfft::python {

namespace {

using HostBytes = HostArray<std::byte>;
constexpr const char* capsule_name = "oocfft.HostArray";

py::array host_empty(const std::vector<py::ssize_t>& shape, const py::dtype& dtype, bool page_locked) {
  std::size_t count = 1;
  for (const py::ssize_t n : shape) {
    if (n < 0) raise("InvalidArgumentError", "empty(): negative dimension " + std::to_string(n));
    if (n != 0 && count > std::size_t(-1) / std::size_t(n))
      raise("InvalidArgumentError", "empty(): the shape's element count overflows");
    count *= std::size_t(n);
  }
  const std::size_t item = std::size_t(dtype.itemsize());
  if (count != 0 && count > std::size_t(-1) / item)
    raise("InvalidArgumentError", "empty(): the shape's byte count overflows");
  const std::size_t bytes = count * item;
  if (bytes == 0) return py::array(dtype, shape);  // nothing to lock
  HostBytes* memory = nullptr;
  {
    py::gil_scoped_release release;  // first touch of every page
    memory = new HostBytes(bytes, page_locked ? PageLocking::locked : PageLocking::pageable);
  }
  py::capsule owner(memory, capsule_name, [](PyObject* capsule) {
    delete static_cast<HostBytes*>(PyCapsule_GetPointer(capsule, capsule_name));
  });
  return py::array(dtype, shape, memory->data(), owner);
}

// The HostArray under `array` (through its chain of bases), or null.
const HostBytes* host_array_under(py::object array) {
  for (int depth = 0; depth < 64 && !array.is_none(); ++depth) {
    if (PyCapsule_CheckExact(array.ptr()) && PyCapsule_IsValid(array.ptr(), capsule_name))
      return static_cast<const HostBytes*>(PyCapsule_GetPointer(array.ptr(), capsule_name));
    if (!py::hasattr(array, "base")) return nullptr;
    array = array.attr("base");
  }
  return nullptr;
}

py::object host_memory_of(const py::object& array) {
  const HostBytes* memory = host_array_under(array);
  if (memory == nullptr) return py::none();
  py::dict d;
  d["page_locked"] = memory->page_locked();
  d["huge_pages_advised"] = memory->huge_pages_advised();
  d["lock_failure"] = memory->lock_failure();
  d["bytes"] = memory->size();
  return d;
}

}  // namespace

void bind_host_arrays(py::module_& m) {
  m.def("host_empty", &host_empty, py::arg("shape"), py::arg("dtype"), py::arg("page_locked"),
        "A numpy array over HostArray memory (zero-filled; page-locked where asked and a GPU allows it).");
  m.def("host_memory_of", &host_memory_of, py::arg("array"),
        "For an array over HostArray memory (or a view of one): a dict with page_locked, huge_pages_advised, "
        "lock_failure and bytes; None for any other array.");
}

}  // namespace oocfft::python
