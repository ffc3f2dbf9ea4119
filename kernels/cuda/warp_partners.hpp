#pragma once
// Real-transform partners in one warp: the butterflies of a stage handed
// out so that a value's partner under k -> M - k (the split and merge of an
// even real transform, M the half length) sits 16 warp lanes away, for the
// real tile kernels' first stage (PassIo::real_merge_in) and last stage
// (PassIo::real_split_out) in compiled_schedule_kernels.cuh. A stage of R
// points a butterfly and q = M / R butterflies a lane holds butterfly j's
// values at points j + r q; the partner of point j + r q is point
// (q - j) + (R - 1 - r) q, a value of butterfly q - j, or, for j = 0 and
// j = q/2, of the butterfly itself. Host-visible (no device code), so the
// host tests check the hand-out.
#include "kernels/complex.hpp"

namespace oocfft::kernels::cuda {

// Whether stage `stage` of a compiled schedule's geometry G can hand its
// butterflies out so: R even, the q butterflies of a lane filling whole
// warps (q a multiple of 32) and all the butterflies the threads' rounds,
// so that every thread of a warp takes part in its shuffles.
template <class G>
constexpr bool warps_hold_partners(int stage) {
  const int R = G::stage_points(stage);
  const int q = G::points / G::lanes / R;
  return R % 2 == 0 && q % 32 == 0 && (G::lanes * q) % G::threads == 0;
}

// real_merge_in's first stage reads global memory, real_split_out's last
// stage writes it: neither where the geometry stages that pass.
template <class G>
constexpr bool merge_in_first_stage() {
  if constexpr (G::staged_load || G::stages < 1) return false;
  else return warps_hold_partners<G>(0);
}

template <class G>
constexpr bool split_in_last_stage() {
  if constexpr (G::staged_store || G::stages < 1) return false;
  else return warps_hold_partners<G>(G::stages - 1);
}

struct LaneAndButterfly {
  int lane;
  int j;
};

// Butterfly `item` of such a stage (Q butterflies a lane, Q a multiple of
// 32): each warp takes 16 consecutive j and their partners Q - j, so that
// the partner of the thread at warp lane t is at t ^ 16. The warp of g = 0
// holds the two butterflies that are their own partners, j = 0 (warp lane
// 0) and j = Q/2 (warp lane 16).
template <int Q>
OOCFFT_HD constexpr LaneAndButterfly mirrored_butterfly(int item) {
  static_assert(Q % 32 == 0, "a lane's butterflies fill whole warps");
  // Unsigned: a division by a constant, without a signed fix-up.
  const int lane = static_cast<int>(static_cast<unsigned>(item) / static_cast<unsigned>(Q));
  const int i = item - lane * Q;
  const int g = i >> 5, t = i & 31;
  if (t < 16) return {lane, 16 * g + t};
  return {lane, g == 0 && t == 16 ? Q / 2 : Q - 16 * g - (t - 16)};
}

}  // namespace oocfft::kernels::cuda
