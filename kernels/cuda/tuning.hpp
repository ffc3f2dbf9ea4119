#pragma once
// Measured tuning, read by the rules of the tile shapes: the lookups below
// answer whether a tuning table names a line, and with what. The table is
// data (tuning_sm90.hpp: one line per entry with its reason); the rules it
// overrides are in stockham_tile.hpp, long_line_tiles.hpp,
// in_place_tiles.hpp and schedule_choice.hpp.
//
// Which table: the tile shapes are constant expressions that nvcc (the
// ahead-of-time kernels), NVRTC (the plan-time kernels) and the host (the
// plans that launch them) evaluate alike, and the three must agree, so the
// table is fixed when the library is built. sm_90 has the only table, and
// every device plans with it: its entries are overrides of rules that hold
// on any device, which a device without a table of its own would otherwise
// run unchanged. A second table needs its architecture in the key of
// compiled kernels (ScheduleKey) and the choice of table here, where the
// lookups below name it.
#include "kernels/cuda/tuning_entry.hpp"
#include "kernels/cuda/tuning_sm90.hpp"

namespace oocfft::kernels::cuda {

// The table the lookups read, entry by entry (for reports and tests).
inline constexpr const TuningEntry* tuning_entries = sm90::tuning_table;
inline constexpr int tuning_entry_count = static_cast<int>(sizeof(sm90::tuning_table) / sizeof(TuningEntry));

template <class T>
constexpr TunedType tuned_type() {
  return sizeof(T) == 8 ? TunedType::complex128 : TunedType::complex64;
}

// The first entry of the table that overrides `what` for the complex<T>
// line of length n; nullptr where none does.
template <class T>
constexpr const TuningEntry* tuned_entry(Tuned what, int n) {
  for (const TuningEntry& e : sm90::tuning_table)
    if (e.what == what && e.length == n && e.type == tuned_type<T>()) return &e;
  return nullptr;
}

// Whether the table overrides `what` for the complex<T> line of length n.
template <class T>
constexpr bool is_tuned(Tuned what, int n) {
  return tuned_entry<T>(what, n) != nullptr;
}

// Whether the table says the tile of `search` spills for the complex<T>
// line of length n.
template <class T>
constexpr bool tuned_spill(int n, TileSearch search) {
  for (const TuningEntry& e : sm90::tuning_table)
    if (e.what == Tuned::spilled_tile && e.length == n && e.type == tuned_type<T>() && e.search == search) return true;
  return false;
}

}  // namespace oocfft::kernels::cuda
