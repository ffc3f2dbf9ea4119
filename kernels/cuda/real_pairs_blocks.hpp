#pragma once
// The launch bounds of the real row-pairs tile (real_pairs_kernel in
// real_schedule_kernels.cuh): the blocks an SM is asked to hold, which set
// the registers ptxas leaves each thread. Host-visible (no device code), so
// the host tests check the rule.
#include "kernels/cuda/schedule_geometry.hpp"

namespace oocfft::kernels::cuda {

// The complex tile's blocks (ScheduleGeometry::min_blocks), and for the
// float inverse one more where the registers ptxas then leaves a thread
// (RegisterPlan::ptxas_quarters) still hold the tile's values
// (values_within). The inverse held more registers than the forward (ncu,
// f32 81 in the 9 9 tile it ran before its tuning-table entry: 64 against
// 55, so three blocks of 288 threads an SM against four) and waited on its
// copy-in's loads and barrier. Where the values do not fit, ptxas spilled
// (f32 1875: 92 bytes); in double, where the cap falls to 40-96 registers,
// up to 824 bytes, and f64 243 and 2187 ran slower. Measured:
// bench/RESULTS.md, "Device kernels".
template <class T, int N, bool Inverse>
constexpr int real_pairs_min_blocks() {
  using G = ScheduleGeometry<T, N, false>;
  constexpr int more = G::min_blocks + 1;
  constexpr bool fits =
      G::values <= values_within<T>(planned_registers(G::threads, more, RegisterPlan::ptxas_quarters));
  return Inverse && sizeof(T) == sizeof(float) && fits ? more : G::min_blocks;
}

}  // namespace oocfft::kernels::cuda
