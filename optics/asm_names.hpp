#pragma once
// The names of the ASM enums (include/oocfft/asm_options.hpp) in the one table of
// enum names (core/enum_names.hpp). They live with the ASM layer so that
// core names nothing above it.
#include "core/enum_names.hpp"
#include "oocfft/asm_options.hpp"

namespace oocfft {

template <>
struct EnumTable<AsmMode> {
  static constexpr EnumName<AsmMode> rows[] = {
      {AsmMode::propagate, "propagate", "propagate"},
      {AsmMode::refocus, "refocus", "refocus"},
      {AsmMode::layer_sum, "layer_sum", "layer-sum"},
  };
};

template <>
struct EnumTable<Evanescent> {
  static constexpr EnumName<Evanescent> rows[] = {
      {Evanescent::decay, "decay", "decay"},
      {Evanescent::zero, "zero", "zero"},
  };
};

}  // namespace oocfft
