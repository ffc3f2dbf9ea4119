// The planner on its own, for machines the tests do not run on: a 125 GiB
// host with an 80 GB device, a host with little memory left, and the PCIe
// floor it reports. No data moves; each case is a plan_passes() call.
#include <gtest/gtest.h>

#include <set>

#include "engine/planning/pass_planner.hpp"
#include "engine/planning/pcie_floor.hpp"
#include "oocfft/error.hpp"

namespace oocfft::engine {
namespace {

constexpr std::size_t GiB = std::size_t{1} << 30;

PlannerInput device_input(Shape volume, std::size_t device_budget, std::size_t host_available) {
  PlannerInput in;
  in.volume = volume;
  in.element_bytes = 8;
  in.device_budget = device_budget;
  in.streams = 4;
  in.workspace_ratio = 0;
  in.host_available = host_available;
  return in;
}

std::size_t device_bytes(const PassPlan& p) { return p.streams * p.brick_bytes + p.resident_bytes; }

// 16 GiB on an 80 GB device: resident, two passes, the whole volume kept.
TEST(PassPlanner, VolumeThatFitsTheDeviceStaysResident) {
  const PassPlan p = plan_passes(device_input({1024, 1024, 2048}, std::size_t(74.7 * GiB), 100 * GiB));
  EXPECT_EQ(p.strategy, Strategy::in_core);
  ASSERT_EQ(p.passes.size(), 2u);
  EXPECT_EQ(p.resident_planes, 1024u);
  EXPECT_EQ(p.resident_bytes, 16 * GiB);
  EXPECT_LE(p.brick_bytes, GiB);
  EXPECT_LE(device_bytes(p), std::size_t(74.7 * GiB));
  EXPECT_FALSE(p.host_in_place);
  EXPECT_NE(describe_passes(p).find("kept on the device"), std::string::npos) << describe_passes(p);
  // The host backend's stand-in says where it keeps the planes.
  EXPECT_NE(describe_passes(p, "in host memory").find("kept in host memory"), std::string::npos);
}

// The streams take bricks in rounds: a split axis that alone makes the
// bricks is cut into a multiple of the streams, never into more rounds.
// The half spectrum of 1024x1024x2048 real (planes of 1024 x 1025) fell
// one plane short of 8 slabs of 128 and made 9, three rounds on 4 streams.
TEST(PassPlanner, BricksOfASplitAxisComeInWholeRoundsOfTheStreams) {
  const PassPlan p = plan_passes(device_input({1024, 1024, 1025}, std::size_t(74.7 * GiB), 100 * GiB));
  ASSERT_EQ(p.passes.size(), 2u);
  for (const PassSpec& pass : p.passes) {
    EXPECT_EQ(pass.bricks % p.streams, 0u) << describe_passes(p);
    EXPECT_LE(pass.bricks, 12u) << describe_passes(p);  // ceil(9 / 4) = 3 rounds of 4
  }
}

// 96 GiB on the same device, 27 GiB of host memory left beside the array:
// bricks of at most 1 GiB, staging within a quarter of what is left, and
// what the budget holds beyond the bricks carried over in whole slabs.
TEST(PassPlanner, LargerVolumeCarriesOverWithinTheHostsMemory) {
  const std::size_t budget = std::size_t(74.7 * GiB), host = 27 * GiB;
  const PassPlan p = plan_passes(device_input({2048, 2048, 3072}, budget, host));
  EXPECT_EQ(p.strategy, Strategy::two_pass);
  EXPECT_LE(p.brick_bytes, GiB);
  EXPECT_GE(p.passes[0].bricks, 96u) << "bricks of 8.8 GiB left the pipeline empty at both ends";
  EXPECT_LE(p.streams * p.staging_bytes, host / 4);
  EXPECT_GT(p.resident_planes, 0u);
  EXPECT_EQ(p.resident_planes % p.passes[0].brick.nz, 0u);
  EXPECT_LT(p.resident_planes, 2048u);
  EXPECT_EQ(p.resident_bytes, p.resident_planes * 2048 * 3072 * 8);
  EXPECT_LE(device_bytes(p), budget);
  // Pass-2 bricks split into the resident planes and the rest.
  const Box y_slab = p.passes[1].box({2048, 2048, 3072}, 3);
  const Box rest = p.volume_part(y_slab);
  EXPECT_EQ(rest.z0, p.resident_planes);
  EXPECT_EQ(rest.extent.nz, 2048 - p.resident_planes);
  EXPECT_EQ(rest.y0, y_slab.y0);
  EXPECT_TRUE(p.keeps_resident(p.passes[0].box({2048, 2048, 3072}, 0)));
  EXPECT_FALSE(p.keeps_resident(p.passes[0].box({2048, 2048, 3072}, p.passes[0].bricks - 1)));
}

// A host with almost nothing left: the default staging shrinks with it
// (bricks follow), where it once asked for 35 GiB next to a 96 GiB array.
TEST(PassPlanner, DefaultStagingFitsASmallHost) {
  for (std::size_t host : {4 * GiB, GiB, std::size_t{256} << 20}) {
    const PassPlan p = plan_passes(device_input({1024, 1024, 2048}, 8 * GiB, host));
    EXPECT_LE(p.streams * p.staging_bytes, host / 4) << host;
    EXPECT_LE(p.brick_bytes, host / 4 / p.streams) << host;
  }
  // An explicit staging budget is the caller's: bricks follow it.
  PlannerInput in = device_input({1024, 1024, 2048}, 8 * GiB, GiB);
  in.staging_budget = 2 * GiB;
  const PassPlan p = plan_passes(in);
  EXPECT_EQ(p.streams * p.staging_bytes, p.streams * p.brick_bytes);
  EXPECT_LE(p.streams * p.staging_bytes, 2 * GiB);
}

// With no staging budget a device stages through a small ring; the line
// layouts, whose host transposes need the whole brick, do not.
TEST(PassPlanner, DeviceStagingIsARingExceptForLineLayouts) {
  const PassPlan two = plan_passes(device_input({1024, 1024, 2048}, 4 * GiB, 100 * GiB));
  EXPECT_EQ(two.strategy, Strategy::two_pass);
  EXPECT_EQ(two.staging_bytes, std::size_t{32} << 20);
  EXPECT_GT(two.brick_bytes, two.staging_bytes);
  EXPECT_EQ(two.staging_slot_bytes(), std::size_t{8} << 20);  // 4 slots a stream
  // A staging budget too small for two full slots still gets two.
  PlannerInput tight = device_input({1024, 1024, 2048}, 4 * GiB, 100 * GiB);
  tight.staging_budget = 4 * (std::size_t{6} << 20);
  const PassPlan small = plan_passes(tight);
  ASSERT_LT(small.staging_bytes, std::size_t{16} << 20);
  EXPECT_EQ(small.staging_bytes / small.staging_slot_bytes(), 2u);
  EXPECT_EQ(small.staging_slot_bytes() % small.element_bytes, 0u);
  PlannerInput in = device_input({1024, 1024, 2048}, 4 * GiB, 100 * GiB);
  in.requested = Strategy::line_transpose;
  const PassPlan line = plan_passes(in);
  EXPECT_EQ(line.staging_bytes, line.brick_bytes);
  EXPECT_EQ(line.staging_slot_bytes(), line.staging_bytes);  // line bricks move whole
  in.host_backend = true;
  in.requested = Strategy::two_pass;
  const PassPlan host = plan_passes(in);
  EXPECT_EQ(host.staging_bytes, host.brick_bytes);
}

// A volume with one pass (a single z plane) has nothing to carry; a
// resident request that cannot hold the volume and the bricks is refused.
TEST(PassPlanner, OnePassVolumesAndOversizedResidentRequests) {
  const PassPlan flat = plan_passes(device_input({1, 2048, 2048}, 8 * GiB, 100 * GiB));
  EXPECT_EQ(flat.strategy, Strategy::in_core);
  EXPECT_EQ(flat.passes.size(), 1u);
  EXPECT_EQ(flat.resident_bytes, 0u);
  PlannerInput in = device_input({512, 512, 512}, GiB, 100 * GiB);  // exactly the volume: no room for bricks
  in.requested = Strategy::in_core;
  EXPECT_THROW(plan_passes(in), Error);
}

// Angular-spectrum plane programs on an 80 GB device: a 64-plane stack of
// 4096^2 c64 runs whole planes in one pass, several planes a brick, on
// every stream; one 16384^2 plane padded 2x (8 GiB) runs in one residency
// on one stream; one 65536^2 plane (32 GiB) under a 16 GiB budget goes
// rows, columns, rows with the multiply in the column pass.
TEST(PassPlanner, PlaneProgramsRunWholePlanesOrRowsAndColumns) {
  const std::vector<Stage> propagate{Stage::forward, Stage::multiply, Stage::inverse};
  PlannerInput in = device_input({64, 4096, 4096}, std::size_t(74.7 * GiB), 100 * GiB);
  in.plane_program = propagate;
  PassPlan p = plan_passes(in);
  EXPECT_EQ(p.strategy, Strategy::in_core);
  ASSERT_EQ(p.passes.size(), 1u);
  EXPECT_EQ(p.passes[0].stages, propagate);
  EXPECT_TRUE(p.passes[0].axes.x && p.passes[0].axes.y && !p.passes[0].axes.z);
  EXPECT_EQ(p.passes[0].brick.ny, 4096u);
  EXPECT_EQ(p.passes[0].brick.nx, 4096u);
  EXPECT_GT(p.passes[0].brick.nz, 1u);
  EXPECT_EQ(p.streams, 4u);
  EXPECT_EQ(p.resident_bytes, 0u);
  EXPECT_LE(p.staging_bytes, std::size_t{32} << 20);  // the ring

  in.volume = {1, 32768, 32768};
  p = plan_passes(in);
  ASSERT_EQ(p.passes.size(), 1u);
  EXPECT_EQ(p.streams, 1u);
  EXPECT_EQ(p.passes[0].bricks, 1u);

  in.volume = {1, 65536, 65536};
  in.device_budget = 16 * GiB;
  p = plan_passes(in);
  EXPECT_EQ(p.strategy, Strategy::three_pass);
  ASSERT_EQ(p.passes.size(), 3u);
  EXPECT_EQ(p.passes[0].stages, std::vector<Stage>{Stage::forward});
  EXPECT_TRUE(p.passes[0].axes.x && !p.passes[0].axes.y);
  EXPECT_EQ(p.passes[1].stages, propagate);
  EXPECT_TRUE(p.passes[1].axes.y && !p.passes[1].axes.x);
  EXPECT_EQ(p.passes[2].stages, std::vector<Stage>{Stage::inverse});
  EXPECT_LE(p.streams * p.brick_bytes, 16 * GiB);

  // The refocus program (multiply, inverse) has no forward row pass.
  in.plane_program = {Stage::multiply, Stage::inverse};
  p = plan_passes(in);
  ASSERT_EQ(p.passes.size(), 2u);
  EXPECT_EQ(p.passes[0].stages, in.plane_program);
  EXPECT_EQ(p.passes[1].stages, std::vector<Stage>{Stage::inverse});
}

// The z lines alone (a distributed rank's y-slab): one pass along z whose
// bricks hold whole z lines and stay within a stream's share, spread over
// the devices; a z line larger than the share is refused.
TEST(PassPlanner, ZLinesAloneAreOnePassOfYSlabs) {
  PlannerInput in = device_input({2048, 512, 3072}, 4 * GiB, 100 * GiB);  // 24 GiB, a 4 GiB budget
  in.z_lines_only = true;
  in.requested = Strategy::in_core;  // not a strategy of the z lines: ignored
  PassPlan p = plan_passes(in);
  ASSERT_EQ(p.passes.size(), 1u);
  const PassSpec& z = p.passes[0];
  EXPECT_TRUE(z.axes.z && !z.axes.y && !z.axes.x);
  EXPECT_EQ(z.brick.nz, 2048u);
  EXPECT_EQ(z.stages, std::vector<Stage>{Stage::transform});
  EXPECT_GE(z.bricks, 2u * p.streams);
  EXPECT_LE(p.streams * p.brick_bytes, 4 * GiB);
  EXPECT_EQ(p.resident_bytes, 0u);
  std::size_t covered = 0;
  for (std::size_t i = 0; i < z.bricks; ++i) covered += z.box(in.volume, i).elements();
  EXPECT_EQ(covered, in.volume.elements());

  in.devices = {0, 1, 2};
  in.device_budgets = {4 * GiB, 4 * GiB, 4 * GiB};
  p = plan_passes(in);
  ASSERT_EQ(p.passes.size(), 1u);
  ASSERT_EQ(p.passes[0].owner.size(), p.passes[0].bricks);
  std::set<unsigned> owners(p.passes[0].owner.begin(), p.passes[0].owner.end());
  EXPECT_EQ(owners.size(), 3u);

  in.devices = {0};
  in.device_budgets.clear();
  in.volume = {std::size_t{1} << 28, 1, 4};  // a z line of 2 GiB, a stream's share of 1 GiB
  EXPECT_THROW(plan_passes(in), Error);
}

TEST(PassPlanner, PlaneProgramsRefuseWhatTheyCannotRun) {
  PlannerInput in = device_input({4, 64, 64}, GiB, 100 * GiB);
  in.plane_program = {Stage::inverse, Stage::forward};
  EXPECT_THROW(plan_passes(in), Error);
  // The lone transform is a stack of 2D transforms (Axes::planes); with
  // anything beside it, it is not a program.
  in.plane_program = {Stage::transform, Stage::multiply};
  EXPECT_THROW(plan_passes(in), Error);
  in.plane_program = {Stage::transform};
  EXPECT_EQ(plan_passes(in).passes.size(), 1u);
  in.plane_program = {Stage::forward, Stage::multiply, Stage::inverse};
  in.requested = Strategy::line_transpose;
  EXPECT_THROW(plan_passes(in), Error);
  in.requested = Strategy::three_pass;
  EXPECT_EQ(plan_passes(in).passes.size(), 3u);
  in.requested = Strategy::automatic;
  in.volume = {1, 4, std::size_t{1} << 26};  // a row of 512 MiB, a stream's share of 256 MiB
  try {
    plan_passes(in);
    ADD_FAILURE() << "planned";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::out_of_memory) << e.what();
  }
}

TEST(PcieFloor, ResidentAndCarryOverAndStreamed) {
  const LinkBandwidth link{50e9, 40e9, 25e9};
  const double v = 100e9;
  // Resident: all up at the one-way rate, then all down.
  EXPECT_DOUBLE_EQ(pcie_floor_seconds(2, std::size_t(v), std::size_t(v), link), v / 50e9 + v / 40e9);
  // Streamed: both directions at once, each pass.
  EXPECT_DOUBLE_EQ(pcie_floor_seconds(2, std::size_t(v), 0, link), 2 * v / 25e9);
  EXPECT_DOUBLE_EQ(pcie_floor_seconds(3, std::size_t(v), 0, link), 3 * v / 25e9);
  // Carry-over of 40%: pass 1 60 both ways + 40 up alone, pass 2 the mirror.
  EXPECT_NEAR(pcie_floor_seconds(2, std::size_t(v), std::size_t(0.4 * v), link),
              (60e9 / 25e9 + 40e9 / 50e9) + (60e9 / 25e9 + 40e9 / 40e9), 1e-9);
}

}  // namespace
}  // namespace oocfft::engine
