#pragma once
// The one table of the public enums' names. Each enum has one row per value:
// the name describe(), the JSON reports and the file attributes write (and
// to_string() returns), and the spelling the command line takes, which is
// shorter where the command chose so ("auto", "layer-sum").
//
// The layer that owns an enum specialises EnumTable for it, so the arrows
// keep pointing down: this header names the enums of options.hpp and
// error.hpp, optics/asm_names.hpp the ASM ones, io/stored_element_names.hpp
// the stored element kinds. enum_name(), enum_from_name() and
// enum_from_cli() work for all of them.
#include <optional>
#include <string_view>

#include "oocfft/error.hpp"
#include "oocfft/options.hpp"

namespace oocfft {

template <class E>
struct EnumName {
  E value;
  std::string_view name;  // describe(), JSON, attributes; to_string()
  std::string_view cli;   // the command line's spelling
};

// Specialised next to each enum's owner with `static constexpr EnumName<E> rows[]`.
template <class E>
struct EnumTable;

// The name of `value`; "?" for a value outside the enum (a cast gone wrong).
template <class E>
constexpr std::string_view enum_name(E value) {
  for (const EnumName<E>& row : EnumTable<E>::rows)
    if (row.value == value) return row.name;
  return "?";
}

template <class E>
constexpr std::optional<E> enum_from_name(std::string_view name) {
  for (const EnumName<E>& row : EnumTable<E>::rows)
    if (row.name == name) return row.value;
  return std::nullopt;
}

template <class E>
constexpr std::optional<E> enum_from_cli(std::string_view spelling) {
  for (const EnumName<E>& row : EnumTable<E>::rows)
    if (row.cli == spelling) return row.value;
  return std::nullopt;
}

template <>
struct EnumTable<Direction> {
  static constexpr EnumName<Direction> rows[] = {
      {Direction::forward, "forward", "forward"},
      {Direction::inverse, "inverse", "inverse"},
  };
};

template <>
struct EnumTable<Norm> {
  static constexpr EnumName<Norm> rows[] = {
      {Norm::backward, "backward", "backward"},
      {Norm::ortho, "ortho", "ortho"},
      {Norm::forward, "forward", "forward"},
  };
};

template <>
struct EnumTable<Backend> {
  static constexpr EnumName<Backend> rows[] = {
      {Backend::automatic, "automatic", "auto"},
      {Backend::host, "host", "host"},
      {Backend::cuda, "cuda", "cuda"},
  };
};

template <>
struct EnumTable<Precision> {
  static constexpr EnumName<Precision> rows[] = {
      {Precision::single, "single", "single"},
      {Precision::double_precision, "double", "double"},
  };
};

template <>
struct EnumTable<Axes> {
  static constexpr EnumName<Axes> rows[] = {
      {Axes::all, "all", "all"},
      {Axes::planes, "planes", "planes"},
  };
};

template <>
struct EnumTable<Strategy> {
  static constexpr EnumName<Strategy> rows[] = {
      {Strategy::automatic, "automatic", "auto"},
      {Strategy::in_core, "in_core", "in_core"},
      {Strategy::two_pass, "two_pass", "two_pass"},
      {Strategy::three_pass, "three_pass", "three_pass"},
      {Strategy::line_transpose, "line_transpose", "line_transpose"},
  };
};

template <>
struct EnumTable<HostRegistration> {
  static constexpr EnumName<HostRegistration> rows[] = {
      {HostRegistration::automatic, "automatic", "auto"},
      {HostRegistration::on, "on", "on"},
      {HostRegistration::off, "off", "off"},
  };
};

template <>
struct EnumTable<ErrorKind> {
  static constexpr EnumName<ErrorKind> rows[] = {
      {ErrorKind::invalid_argument, "invalid_argument", "invalid_argument"},
      {ErrorKind::out_of_memory, "out_of_memory", "out_of_memory"},
      {ErrorKind::io, "io", "io"},
      {ErrorKind::cuda, "cuda", "cuda"},
      {ErrorKind::unsupported, "unsupported", "unsupported"},
      {ErrorKind::cancelled, "cancelled", "cancelled"},
  };
};

}  // namespace oocfft
