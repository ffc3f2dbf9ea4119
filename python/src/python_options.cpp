#include "python_options.hpp"

#include <algorithm>
#include <exception>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "python_errors.hpp"

namespace py = pybind11;

namespace oocfft::python {
namespace {

// The value named `text` among `values`, by the library's own names
// (to_string), "auto" also naming `automatic` values.
template <class E>
E enum_value(const std::string& key, const std::string& text, std::initializer_list<E> values) {
  std::string known;
  for (const E v : values) {
    const std::string name = to_string(v);
    const std::string spelled = name == "automatic" ? "auto" : name;
    if (text == name || text == spelled) return v;
    known += (known.empty() ? "" : ", ") + ("\"" + spelled + "\"");
  }
  raise("InvalidArgumentError", key + "=\"" + text + "\" is not one of " + known);
}

// The integer of `key`, or `fallback` when absent or None; refuses
// negative values and what is not an integer.
std::size_t unsigned_value(const py::dict& d, const char* key, std::size_t fallback) {
  if (!d.contains(key) || d[key].is_none()) return fallback;
  const py::object v = d[key];
  if (!py::isinstance<py::int_>(v) || py::isinstance<py::bool_>(v))
    raise("InvalidArgumentError", std::string(key) + " must be an integer, not " +
                                      std::string(py::str(v.get_type().attr("__name__"))));
  if (v < py::int_(0)) raise("InvalidArgumentError", std::string(key) + "=" + std::string(py::str(v)) + " is negative");
  try {
    return v.cast<std::size_t>();
  } catch (const py::cast_error&) {
    raise("InvalidArgumentError", std::string(key) + "=" + std::string(py::str(v)) + " is too large");
  }
}

double real_value(const py::dict& d, const char* key, double fallback) {
  if (!d.contains(key) || d[key].is_none()) return fallback;
  try {
    return d[key].cast<double>();
  } catch (const py::cast_error&) {
    raise("InvalidArgumentError", std::string(key) + " must be a number");
  }
}

std::string text_value(const py::dict& d, const char* key) {
  if (!d.contains(key) || d[key].is_none()) return {};
  if (!py::isinstance<py::str>(d[key])) raise("InvalidArgumentError", std::string(key) + " must be a string");
  std::string text = d[key].cast<std::string>();
  // None asks for the default; an empty string is a mistake, not a default.
  if (text.empty())
    raise("InvalidArgumentError", std::string(key) + "=\"\" is empty: leave it out (None) for the default");
  return text;
}

void refuse_unknown_keys(const py::dict& d, const std::set<std::string>& known) {
  for (const auto& item : d) {
    const std::string key = py::str(item.first);
    if (!known.count(key)) raise("InvalidArgumentError", "unknown option \"" + key + "\"");
  }
}

const std::set<std::string> fft_keys = {"backend",  "norm",     "threads",      "device_memory", "host_memory",
                                        "streams",  "strategy", "register",     "kernel_cache",  "devices"};

// "current", "all" or ordinals separated by commas ("0,1"), as --devices.
Devices devices_from(const std::string& text) {
  if (text == "current") return Devices();
  if (text == "all") return Devices::all();
  std::vector<int> ordinals;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    std::size_t used = 0;
    int ordinal = -1;
    try {
      ordinal = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size())
      raise("InvalidArgumentError", "devices=\"" + text + "\" is not 'current', 'all' or ordinals such as \"0,1\"");
    ordinals.push_back(ordinal);
    start = comma + 1;
  }
  return Devices::list(std::move(ordinals));
}

Options fft_options(const py::dict& d) {
  Options o;
  if (const std::string s = text_value(d, "backend"); !s.empty())
    o.backend = enum_value("backend", s, {Backend::automatic, Backend::host, Backend::cuda});
  if (const std::string s = text_value(d, "norm"); !s.empty())
    o.norm = enum_value("norm", s, {Norm::backward, Norm::ortho, Norm::forward});
  o.threads = static_cast<unsigned>(unsigned_value(d, "threads", 0));
  o.device_memory_budget = unsigned_value(d, "device_memory", 0);
  o.host_staging_budget = unsigned_value(d, "host_memory", 0);
  o.streams = static_cast<unsigned>(unsigned_value(d, "streams", o.streams));
  if (const std::string s = text_value(d, "strategy"); !s.empty())
    o.strategy = enum_value("strategy", s,
                            {Strategy::automatic, Strategy::in_core, Strategy::two_pass, Strategy::three_pass,
                             Strategy::line_transpose});
  if (const std::string s = text_value(d, "register"); !s.empty())
    o.register_host_memory =
        enum_value("register", s, {HostRegistration::automatic, HostRegistration::on, HostRegistration::off});
  if (const std::string s = text_value(d, "kernel_cache"); !s.empty()) o.kernel_cache_directory = s;
  if (const std::string s = text_value(d, "devices"); !s.empty()) o.devices = devices_from(s);
  return o;
}

}  // namespace

Options options_from(const py::dict& d) {
  refuse_unknown_keys(d, fft_keys);
  return fft_options(d);
}

AsmOptions asm_options_from(const py::dict& d) {
  std::set<std::string> known = fft_keys;
  known.insert({"wavelength", "pitch_x", "pitch_y", "index", "band_limit", "evanescent", "pad"});
  refuse_unknown_keys(d, known);
  py::dict fft;
  for (const auto& item : d)
    if (fft_keys.count(py::str(item.first))) fft[item.first] = item.second;
  AsmOptions a;
  a.fft = fft_options(fft);
  a.wavelength = real_value(d, "wavelength", 0);
  a.pitch_x = real_value(d, "pitch_x", 0);
  a.pitch_y = real_value(d, "pitch_y", 0);
  a.index = real_value(d, "index", 1.0);
  if (d.contains("band_limit") && !d["band_limit"].is_none()) a.band_limit = d["band_limit"].cast<bool>();
  if (const std::string s = text_value(d, "evanescent"); !s.empty()) {
    if (s == "decay") a.evanescent = Evanescent::decay;
    else if (s == "zero") a.evanescent = Evanescent::zero;
    else raise("InvalidArgumentError", "evanescent=\"" + s + "\" is not one of \"decay\", \"zero\"");
  }
  a.pad = static_cast<unsigned>(unsigned_value(d, "pad", a.pad));
  return a;
}

TrigTransform trig_transform(const std::string& kind, int type) {
  if (kind != "dct" && kind != "dst")
    raise("InvalidArgumentError", "transform \"" + kind + "\" is not \"dct\" or \"dst\"");
  if (type != 2 && type != 3)
    raise("UnsupportedError", "type=" + std::to_string(type) + ": oocfft computes the DCT and DST of types 2 and 3");
  if (kind == "dct") return type == 2 ? TrigTransform::dct2 : TrigTransform::dct3;
  return type == 2 ? TrigTransform::dst2 : TrigTransform::dst3;
}

}  // namespace oocfft::python
