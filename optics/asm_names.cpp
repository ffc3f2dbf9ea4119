// The public to_string() of the ASM enums, read from the table.
#include "optics/asm_names.hpp"

namespace oocfft {

const char* to_string(AsmMode m) noexcept { return enum_name(m).data(); }

}  // namespace oocfft
