#pragma once
// The keyword options of the Python functions as the library's Options:
// the Python layer (python/oocfft/_options.py) gathers them into a dict
// whose keys are the documented keyword names, and this turns the dict into
// oocfft::Options / AsmOptions, refusing an unknown key or value with
// oocfft.InvalidArgumentError that names it. Progress and cancel are not
// here: interruptible_run.hpp wires them per call.
#include <pybind11/pybind11.h>

#include <oocfft/asm_options.hpp>
#include <oocfft/options.hpp>
#include <oocfft/trig.hpp>

#include <string>

namespace oocfft::python {

// Keys: backend ("auto", "host", "cuda"), norm ("backward", "ortho",
// "forward"), threads (0 = all cores), device_memory and host_memory
// (bytes, 0 = the library's default), streams, strategy ("auto",
// "in_core", "two_pass", "three_pass", "line_transpose"), register
// ("auto", "on", "off"), kernel_cache (a directory), devices ("current",
// "all" or ordinals "0,1", as the command's --devices). A value of None
// keeps the default.
Options options_from(const pybind11::dict& options);

// The ASM keys (wavelength, pitch_x, pitch_y, index, band_limit,
// evanescent "decay" or "zero", pad) beside the FFT keys above.
AsmOptions asm_options_from(const pybind11::dict& options);

// scipy's (kind, type): "dct" or "dst", of type 2 or 3; other types are
// refused with oocfft.UnsupportedError.
TrigTransform trig_transform(const std::string& kind, int type);

}  // namespace oocfft::python
