// The hand-out of a stage's butterflies that puts each value's real
// partner (k -> M - k) in the same warp (kernels/cuda/warp_partners.hpp),
// which the even real tile's merge and split read by shuffles 16 warp
// lanes apart (host arithmetic, no GPU; CudaRealRows* runs the kernels).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "kernels/cuda/schedule_geometry.hpp"
#include "kernels/cuda/warp_partners.hpp"

namespace kc = oocfft::kernels::cuda;

namespace {

// Each lane's Q butterflies once each; in every warp the thread at t ^ 16
// holds the partner q - j, but for j = 0 and j = Q/2, their own partners,
// which face each other at warp lanes 0 and 16 of the lane's first warp.
template <int Q>
void check_hand_out() {
  const std::string what = "Q=" + std::to_string(Q);
  for (int lane = 0; lane < 3; ++lane) {
    std::set<int> seen;
    for (int i = 0; i < Q; ++i) {
      const int item = lane * Q + i;
      const kc::LaneAndButterfly mine = kc::mirrored_butterfly<Q>(item);
      ASSERT_EQ(mine.lane, lane) << what << " item " << item;
      ASSERT_GE(mine.j, 0) << what;
      ASSERT_LT(mine.j, Q) << what;
      seen.insert(mine.j);
      const kc::LaneAndButterfly other = kc::mirrored_butterfly<Q>(item ^ 16);  // warp lane t ^ 16
      ASSERT_EQ(other.lane, lane) << what << " item " << item;
      if (mine.j == 0 || mine.j == Q / 2) {
        EXPECT_TRUE(i == 0 || i == 16) << what << " j " << mine.j << " at lane position " << i;
        EXPECT_EQ(other.j, Q / 2 - mine.j) << what;
      } else {
        EXPECT_EQ(other.j, Q - mine.j) << what << " item " << item;
      }
    }
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(Q)) << what << ": a lane's butterflies, each once";
  }
}

// A butterfly's slot r holds point j + r q; its partner M - (j + r q) is
// slot R - 1 - r of butterfly q - j (the shuffle), slot R - 1 - r of
// butterfly q/2 itself, and for j = 0 slot (R - r) mod R or X[M] (r = 0).
TEST(WarpPartners, SlotsFaceTheirPartners) {
  for (const int R : {2, 4, 8, 16})
    for (const int q : {32, 64, 96, 128}) {
      const int M = R * q;
      for (int j = 1; j < q; ++j)
        for (int r = 0; r < R; ++r) EXPECT_EQ((q - j) + (R - 1 - r) * q, M - (j + r * q)) << R << " " << q;
      for (int r = 1; r < R; ++r) EXPECT_EQ(((R - r) % R) * q, M - r * q) << R << " " << q;
    }
}

TEST(WarpPartners, MirroredHandOut) {
  check_hand_out<32>();
  check_hand_out<64>();
  check_hand_out<96>();
  check_hand_out<128>();
  check_hand_out<256>();
}

// The tiles whose merge and split run in registers (bench/RESULTS.md,
// "Device kernels": the half lengths of f32 and f64 1024..4096), and one
// whose first stage leaves a lane 48 butterflies (complex<float> 768, the
// half of 1536): the copy through shared memory.
TEST(WarpPartners, MeasuredTilesQualify) {
  EXPECT_TRUE((kc::merge_in_first_stage<kc::ScheduleGeometry<float, 512, false>>()));
  EXPECT_TRUE((kc::merge_in_first_stage<kc::ScheduleGeometry<float, 1024, false>>()));
  EXPECT_TRUE((kc::merge_in_first_stage<kc::ScheduleGeometry<float, 2048, false>>()));
  EXPECT_TRUE((kc::merge_in_first_stage<kc::ScheduleGeometry<double, 1024, false>>()));
  EXPECT_TRUE((kc::split_in_last_stage<kc::ScheduleGeometry<float, 2048, false>>()));
  EXPECT_TRUE((kc::split_in_last_stage<kc::ScheduleGeometry<double, 2048, false>>()));
  EXPECT_FALSE((kc::merge_in_first_stage<kc::ScheduleGeometry<float, 768, false>>()));
}

}  // namespace
