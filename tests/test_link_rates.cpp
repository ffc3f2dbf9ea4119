// The PCIe floor's rates: a device backend's own measured link, the
// reference figures only where there is no link to measure, and describe()
// naming which it used.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <string>

#include "engine/planning/pcie_floor.hpp"

namespace oocfft::test {
namespace {

const Shape shape{16, 16, 16};
const Shape device_shape{64, 64, 64};

TEST(LinkRates, HostFloorUsesTheReferenceFiguresAndSaysSo) {
  Options o;
  o.backend = Backend::host;
  o.device_memory_budget = shape.bytes(8) / 2;  // streamed, so the plan has a floor
  const std::string d = Plan(shape, Precision::single, o).describe();
  EXPECT_NE(d.find("PCIe floor: "), std::string::npos) << d;
  EXPECT_NE(d.find(engine::describe_link(engine::reference_link)), std::string::npos) << d;
  EXPECT_NE(d.find("reference H100 figures (emulated"), std::string::npos) << d;
}

TEST(LinkRates, DescribeLinkPrintsEachRate) {
  EXPECT_EQ(engine::describe_link({54.6e9, 55.2e9, 45.8e9}), "54.6 / 55.2 GB/s one way, 45.8 GB/s each way duplex");
}

TEST(LinkRatesCuda, DescribeUsesTheMeasuredLink) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device: the link is measured on a device";
  Options o;
  o.backend = Backend::cuda;
  o.device_memory_budget = device_shape.bytes(8) / 2;
  const std::string d = Plan(device_shape, Precision::single, o).describe();
  EXPECT_NE(d.find("PCIe floor: "), std::string::npos) << d;
  EXPECT_NE(d.find("measured on device"), std::string::npos) << d;
  EXPECT_EQ(d.find("reference H100"), std::string::npos) << d;
}

}  // namespace
}  // namespace oocfft::test
