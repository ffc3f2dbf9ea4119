// The PCIe floor's rates: a device backend's own measured link, the
// reference figures only where there is no link to measure, and describe()
// naming which it used.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "engine/pipeline/execution_backend.hpp"
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

// The figures themselves, not only their label: finite, within what any
// PCIe or NVLink-C2C host link gives (1 to 200 GB/s one way), and a duplex
// rate no faster than a direction alone (10% for the timing's noise).
TEST(LinkRatesCuda, MeasuredRatesArePlausible) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device: the link is measured on a device";
  const std::unique_ptr<engine::ExecutionBackend> backend =
      engine::make_execution_backend(Backend::cuda, device_shape, Precision::single, nullptr, {});
  const engine::LinkRates rates = backend->link_rates();
  ASSERT_NE(rates.source.find("measured on device"), std::string::npos) << rates.source;
  const engine::LinkBandwidth& b = rates.bandwidth;
  for (const double one_way : {b.h2d, b.d2h}) {
    EXPECT_TRUE(std::isfinite(one_way)) << engine::describe_link(b);
    EXPECT_GE(one_way, 1e9) << engine::describe_link(b);
    EXPECT_LE(one_way, 200e9) << engine::describe_link(b);
  }
  EXPECT_TRUE(std::isfinite(b.duplex_each_way)) << engine::describe_link(b);
  EXPECT_GT(b.duplex_each_way, 0.0) << engine::describe_link(b);
  EXPECT_LE(b.duplex_each_way, std::min(b.h2d, b.d2h) * 1.1) << engine::describe_link(b);
  // The figures are the device's, kept for the process: a second backend
  // reads the same ones and does not measure again.
  const engine::LinkRates again =
      engine::make_execution_backend(Backend::cuda, device_shape, Precision::single, nullptr, {})->link_rates();
  EXPECT_EQ(again.bandwidth.h2d, b.h2d);
  EXPECT_EQ(again.bandwidth.d2h, b.d2h);
  EXPECT_EQ(again.bandwidth.duplex_each_way, b.duplex_each_way);
}

}  // namespace
}  // namespace oocfft::test
