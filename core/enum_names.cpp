// The public to_string()s of the enums in options.hpp and error.hpp, read
// from the one table (core/enum_names.hpp). Its names are string literals,
// so data() is a terminated C string.
#include "core/enum_names.hpp"

namespace oocfft {

const char* to_string(Direction d) noexcept { return enum_name(d).data(); }
const char* to_string(Norm n) noexcept { return enum_name(n).data(); }
const char* to_string(Backend b) noexcept { return enum_name(b).data(); }
const char* to_string(Precision p) noexcept { return enum_name(p).data(); }
const char* to_string(Axes a) noexcept { return enum_name(a).data(); }
const char* to_string(Strategy s) noexcept { return enum_name(s).data(); }
const char* to_string(HostRegistration r) noexcept { return enum_name(r).data(); }
const char* to_string(ErrorKind kind) noexcept { return enum_name(kind).data(); }

}  // namespace oocfft
