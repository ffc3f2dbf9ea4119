// The launch bounds of the real row-pairs tile (kernels/cuda/
// real_pairs_blocks.hpp): the float inverse asks for one block more where
// ptxas's register cap for that many blocks still holds the tile's values
// (host arithmetic, no GPU; CudaRealRows* runs the kernels).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "kernels/cuda/real_pairs_blocks.hpp"

namespace kc = oocfft::kernels::cuda;

namespace {

template <class T, int N>
int registers_with_one_block_more() {
  using G = kc::ScheduleGeometry<T, N, false>;
  return kc::planned_registers(G::threads, G::min_blocks + 1, kc::RegisterPlan::ptxas_quarters);
}

// The float inverses that take one block more (their values fit the
// registers that leaves); no double.
// (81 runs the tuning table's 27 3 tile, whose 27 values do not fit.)
constexpr int one_block_more_float[] = {189, 225, 243, 315, 405, 441, 729, 945, 1323, 2025};

template <class T, int N>
void check_length() {
  using G = kc::ScheduleGeometry<T, N, false>;
  const std::string what = std::string(sizeof(T) == sizeof(float) ? "float " : "double ") + std::to_string(N);
  EXPECT_EQ((kc::real_pairs_min_blocks<T, N, false>()), G::min_blocks) << what;
  bool more = false;
  if constexpr (sizeof(T) == sizeof(float))
    for (const int n : one_block_more_float) more = more || n == N;
  EXPECT_EQ((kc::real_pairs_min_blocks<T, N, true>()), G::min_blocks + (more ? 1 : 0)) << what;
  if (more) EXPECT_LE(G::values, kc::values_within<T>(registers_with_one_block_more<T, N>())) << what;
}

template <class T, int... N>
void check_lengths(std::integer_sequence<int, N...>) {
  (check_length<T, N>(), ...);
}

// The odd 7-smooth lengths past the fused kernel's, up to 4096 (the row
// pairs' tile), and the even lengths that run in pairs (144, 200).
using PairLengths =
    std::integer_sequence<int, 75, 81, 105, 125, 135, 147, 175, 189, 225, 243, 245, 315, 343, 375, 405, 441, 525, 567,
                          625, 675, 729, 735, 875, 945, 1029, 1125, 1215, 1225, 1323, 1575, 1701, 1715, 1875, 2025,
                          2187, 2205, 2401, 2625, 2835, 3087, 3125, 3375, 3645, 3675, 3969, 144, 200>;

TEST(RealPairsBlocks, FloatInverseTakesOneBlockMoreWhereItsValuesFit) {
  check_lengths<float>(PairLengths{});
  check_lengths<double>(PairLengths{});
  // f32 729: five blocks of 192 threads -> six, its nine values in the
  // registers that leaves.
  using G729 = kc::ScheduleGeometry<float, 729, false>;
  EXPECT_EQ(G729::threads, 192);
  EXPECT_EQ(G729::values, 9);
  EXPECT_EQ(G729::min_blocks, 5);
  EXPECT_EQ((kc::real_pairs_min_blocks<float, 729, true>()), 6);
  // f32 1875: 15 values a thread; one block more would leave 48 registers,
  // room for 8 (ptxas spilled 92 bytes).
  using G1875 = kc::ScheduleGeometry<float, 1875, false>;
  EXPECT_EQ((kc::real_pairs_min_blocks<float, 1875, true>()), G1875::min_blocks);
}

}  // namespace
