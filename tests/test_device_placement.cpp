// The placement of a plan on several devices (device_placement.hpp), on its
// own: the even spread of bricks, the carry-over each device keeps within
// its own budget, the exchange, and the floor at the links' aggregate
// rates. No data moves; each case is a plan_passes() call, for a node of
// four 80 GB GPUs the tests do not run on.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "engine/planning/device_placement.hpp"
#include "engine/planning/pass_planner.hpp"
#include "engine/planning/pcie_floor.hpp"
#include "oocfft/error.hpp"

namespace oocfft::engine {
namespace {

constexpr std::size_t GiB = std::size_t{1} << 30;
constexpr std::size_t h100_budget = std::size_t(74.7 * GiB);

PlannerInput node_input(Shape volume, unsigned devices, std::size_t budget) {
  PlannerInput in;
  in.volume = volume;
  in.element_bytes = 8;
  in.device_budget = budget;
  in.streams = 4;
  in.workspace_ratio = 0;
  in.host_available = 500 * GiB;
  in.devices.resize(devices);
  std::iota(in.devices.begin(), in.devices.end(), 0);
  return in;
}

// How many bricks of `pass` each device runs.
std::vector<std::size_t> bricks_per_device(const PassPlan& p, unsigned pass) {
  std::vector<std::size_t> count(p.devices.size(), 0);
  for (std::size_t i = 0; i < p.passes[pass].bricks; ++i) ++count[p.device_of(pass, i)];
  return count;
}

std::size_t kept_bytes(const PassPlan& p, const DevicePlacement& d) {
  return d.resident_planes() * p.passes[0].brick.ny * p.passes[0].brick.nx * p.element_bytes;
}

// What each device holds: its lanes' bricks and the planes it keeps.
void expect_within_each_budget(const PassPlan& p) {
  for (const DevicePlacement& d : p.devices)
    EXPECT_LE(p.streams * p.brick_bytes + kept_bytes(p, d), d.budget) << "device " << d.ordinal;
}

// The kept planes are z 0..R-1, each device a run of them in device order,
// and a kept pass-1 slab runs on the device that keeps it.
void expect_carry_over_consistent(const PassPlan& p, const Shape& v) {
  std::size_t z = 0;
  for (const DevicePlacement& d : p.devices) {
    EXPECT_EQ(d.resident_z0, z);
    z = d.resident_z1;
  }
  EXPECT_EQ(z, p.resident_planes);
  if (p.resident_planes == 0) return;
  for (std::size_t i = 0; i < p.passes[0].bricks; ++i) {
    const Box box = p.passes[0].box(v, i);
    if (!p.keeps_resident(box)) continue;
    EXPECT_EQ(p.keeper_of(box.z0), p.device_of(0, i)) << "slab " << i;
    EXPECT_EQ(p.keeper_of(box.z0 + box.extent.nz - 1), p.device_of(0, i)) << "slab " << i;
  }
}

TEST(DevicePlacement, SpreadEvenlyGivesContiguousRunsOfEqualSize) {
  for (std::size_t bricks : {0, 1, 5, 12, 13}) {
    for (unsigned devices = 1; devices <= 5; ++devices) {
      const std::vector<unsigned> owner = spread_evenly(bricks, devices);
      ASSERT_EQ(owner.size(), bricks);
      EXPECT_TRUE(std::is_sorted(owner.begin(), owner.end()));
      for (unsigned d = 0; d < devices; ++d) {
        const auto n = std::size_t(std::count(owner.begin(), owner.end(), d));
        EXPECT_TRUE(n == bricks / devices || n == bricks / devices + 1) << bricks << " over " << devices;
      }
    }
  }
}

TEST(DevicePlacement, SharedSlabsRespectCapacityAndBalance) {
  EXPECT_EQ(share_slabs(10, {4, 4, 4}), (std::vector<std::size_t>{4, 3, 3}));
  EXPECT_EQ(share_slabs(10, {1, 20, 20}), (std::vector<std::size_t>{1, 5, 4}));
  EXPECT_EQ(share_slabs(10, {1, 2, 3}), (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(share_slabs(0, {1, 2}), (std::vector<std::size_t>{0, 0}));
}

TEST(DevicePlacement, SlabsNotKeptGoToTheDevicesWithFewest) {
  const std::vector<std::size_t> kept{3, 0, 1};
  const std::vector<unsigned> owner = place_slabs(10, kept);
  ASSERT_EQ(owner.size(), 10u);
  // Kept slabs first, each device's in one run in device order.
  EXPECT_EQ(std::vector<unsigned>(owner.begin(), owner.begin() + 4), (std::vector<unsigned>{0, 0, 0, 2}));
  std::vector<std::size_t> total(3, 0);
  for (unsigned d : owner) ++total[d];
  EXPECT_EQ(*std::max_element(total.begin(), total.end()) - *std::min_element(total.begin(), total.end()), 1u);
  // The slabs not kept: one contiguous run per device, in device order.
  EXPECT_TRUE(std::is_sorted(owner.begin() + 4, owner.end()));
}

// 96 GiB c64 does not fit one 80 GB device; it stays resident across four,
// each keeping a quarter, and the z pass takes three quarters of its
// planes from the other devices.
TEST(DevicePlacement, VolumeLargerThanOneDeviceStaysResidentAcrossFour) {
  const Shape v{1536, 2048, 4096};
  EXPECT_EQ(plan_passes(node_input(v, 1, h100_budget)).strategy, Strategy::two_pass);
  const PassPlan p = plan_passes(node_input(v, 4, h100_budget));
  EXPECT_EQ(p.strategy, Strategy::in_core);
  ASSERT_EQ(p.passes.size(), 2u);
  EXPECT_EQ(p.resident_planes, v.nz);
  EXPECT_EQ(p.resident_bytes, 96 * GiB);
  EXPECT_EQ(p.lanes(), 16u);
  for (const DevicePlacement& d : p.devices) EXPECT_EQ(d.resident_planes(), v.nz / 4) << d.ordinal;
  expect_within_each_budget(p);
  expect_carry_over_consistent(p, v);
  for (unsigned pass = 0; pass < 2; ++pass) {
    const std::vector<std::size_t> n = bricks_per_device(p, pass);
    EXPECT_LE(*std::max_element(n.begin(), n.end()) - *std::min_element(n.begin(), n.end()), 1u) << pass;
  }
  EXPECT_GT(p.exchange_bytes, std::size_t(0.70 * 96 * GiB));
  EXPECT_LT(p.exchange_bytes, std::size_t(0.80 * 96 * GiB));
  const std::string text = describe_passes(p);
  EXPECT_NE(text.find("device 3 (budget"), std::string::npos) << text;
  EXPECT_NE(text.find("exchange:"), std::string::npos) << text;
  // The floor: one trip up at 166.5 GB/s and one down at 132.5 GB/s in all.
  const double floor = pcie_floor_seconds(2, 96 * GiB, p.resident_bytes, aggregate_link(reference_link, 4));
  EXPECT_NEAR(floor, 96 * double(GiB) / 166.5e9 + 96 * double(GiB) / 132.5e9, 1e-9);
  EXPECT_NEAR(floor, 1.40, 0.01);
}

// 384 GiB does not fit four: two passes, each device keeping what its own
// budget holds beside its lanes, and the slabs it does not keep spread so
// that every device has about as many.
TEST(DevicePlacement, OutOfCoreAcrossDevicesCarriesOverOnEach) {
  const Shape v{3072, 4096, 4096};
  const PassPlan p = plan_passes(node_input(v, 4, h100_budget));
  EXPECT_EQ(p.strategy, Strategy::two_pass);
  EXPECT_GT(p.resident_planes, 0u);
  EXPECT_LT(p.resident_planes, v.nz);
  for (const DevicePlacement& d : p.devices) EXPECT_GT(d.resident_planes(), 0u) << d.ordinal;
  expect_within_each_budget(p);
  expect_carry_over_consistent(p, v);
  for (unsigned pass = 0; pass < 2; ++pass) {
    const std::vector<std::size_t> n = bricks_per_device(p, pass);
    EXPECT_LE(*std::max_element(n.begin(), n.end()) - *std::min_element(n.begin(), n.end()), 1u) << pass;
  }
}

// Each device keeps what its own budget holds: the larger budget keeps more.
TEST(DevicePlacement, EachDeviceCarriesOverWithinItsOwnBudget) {
  const Shape v{64, 64, 64};  // 2 MiB of c64, planes of 32 KiB
  PlannerInput in = node_input(v, 2, 0);
  in.devices = {3, 1};
  in.device_budgets = {std::size_t(1) << 20, std::size_t(3) << 19};
  in.requested = Strategy::two_pass;
  const PassPlan p = plan_passes(in);
  ASSERT_EQ(p.devices.size(), 2u);
  EXPECT_EQ(p.devices[0].ordinal, 3);
  EXPECT_EQ(p.devices[1].ordinal, 1);
  EXPECT_EQ(p.device_budget, std::size_t(1) << 20);  // bricks for the smaller
  EXPECT_GT(p.devices[1].resident_planes(), p.devices[0].resident_planes());
  expect_within_each_budget(p);
  expect_carry_over_consistent(p, v);
}

// One device plans as before devices were named, whatever its ordinal.
TEST(DevicePlacement, OneDevicePlansAsBefore) {
  for (const Shape v : {Shape{1024, 1024, 2048}, Shape{1536, 2048, 4096}, Shape{7, 11, 13}}) {
    PlannerInput in = node_input(v, 1, h100_budget);
    const PassPlan a = plan_passes(in);
    in.devices = {5};
    const PassPlan b = plan_passes(in);
    EXPECT_EQ(a.strategy, b.strategy);
    EXPECT_EQ(a.brick_bytes, b.brick_bytes);
    EXPECT_EQ(a.resident_planes, b.resident_planes);
    EXPECT_EQ(b.devices.front().ordinal, 5);
    EXPECT_EQ(b.exchange_bytes, 0u);
    for (const PassSpec& pass : b.passes) EXPECT_TRUE(pass.owner.empty());
  }
}

TEST(DevicePlacement, RefusesBudgetsThatDoNotMatchOrHoldTheTables) {
  PlannerInput in = node_input({16, 16, 16}, 2, 1 << 20);
  in.device_budgets = {1 << 20};
  EXPECT_THROW(plan_passes(in), Error);
  in.devices = {4, 7};
  in.device_budgets = {1 << 20, 1000};
  in.table_bytes = 4096;
  try {
    plan_passes(in);
    FAIL() << "a device whose budget does not hold the tables was planned";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::out_of_memory);
    EXPECT_NE(std::string(e.what()).find("device 7"), std::string::npos) << e.what();
  }
}

// in_core on several devices is the resident plan: refused, saying so,
// when the volume does not fit across them.
TEST(DevicePlacement, InCoreRequestedAcrossDevicesThatCannotHoldIt) {
  PlannerInput in = node_input({1536, 2048, 4096}, 4, 20 * GiB);
  in.requested = Strategy::in_core;
  try {
    plan_passes(in);
    FAIL() << "96 GiB planned resident on four 20 GiB devices";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("do not fit across the devices"), std::string::npos) << e.what();
  }
  in.device_budget = h100_budget;
  EXPECT_EQ(plan_passes(in).strategy, Strategy::in_core);
  // The host backend's one device transforms in place; several plan as a node's.
  in.host_backend = true;
  EXPECT_FALSE(plan_passes(in).host_in_place);
  in.devices = {0};
  EXPECT_TRUE(plan_passes(in).host_in_place);
}

TEST(DevicePlacement, AggregateLinkIsEachLinkWithinTheNodesCeiling) {
  const LinkBandwidth one = aggregate_link(reference_link, 1);
  EXPECT_EQ(one.h2d, reference_link.h2d);
  const LinkBandwidth two = aggregate_link(reference_link, 2);
  EXPECT_DOUBLE_EQ(two.h2d, 2 * reference_link.h2d);
  EXPECT_DOUBLE_EQ(two.duplex_each_way, reference_node_ceiling.duplex_each_way);
  const LinkBandwidth eight = aggregate_link(reference_link, 8);
  EXPECT_DOUBLE_EQ(eight.h2d, reference_node_ceiling.h2d);
  EXPECT_DOUBLE_EQ(eight.d2h, reference_node_ceiling.d2h);
}

}  // namespace
}  // namespace oocfft::engine
