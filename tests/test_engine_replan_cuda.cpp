// The re-plan path on a real device: with most of its memory held by
// someone else, a plan made for a budget the device no longer has fails to
// allocate its buffers at execution, runs a smaller plan, and the report
// and describe() say which plan ran. Skips without a CUDA device; the host
// suite (test_engine_replan.cpp) covers the same logic in CI.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <complex>
#include <cstddef>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "kernels/cuda/device_buffer.hpp"
#include "tests/engine_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

TEST(EngineReplanCuda, ADeviceShortOfMemoryRunsASmallerPlanAndSaysSo) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device (or a build without the CUDA backend)";
  const Shape shape{64, 512, 1024};  // 256 MiB of complex<float>
  const std::size_t volume_bytes = shape.bytes(sizeof(std::complex<float>));
  // What stays free: less than the volume, so the resident plan the budget
  // allows cannot have its buffers; enough for a two-pass plan's bricks.
  const std::size_t left = std::size_t{160} << 20;
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  if (free_bytes < left + 2 * volume_bytes) GTEST_SKIP() << "the device has too little free memory to hold back";

  const std::vector<LongComplex> signal = random_signal(shape.elements(), 23);
  std::vector<std::complex<float>> x(signal.size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = {float(signal[i].real()), float(signal[i].imag())};
  const std::vector<std::complex<float>> expected = in_core_result(x, shape, Direction::forward);

  Options o;
  o.backend = Backend::cuda;
  o.device_memory_budget = 2 * volume_bytes;  // room for the resident plan, on paper
  const Plan plan(shape, Precision::single, o);
  const std::string first = plan.describe();

  std::vector<std::complex<float>> y = x;
  RunReport report;
  {
    const kernels::cuda::DeviceBuffer held(free_bytes - left, "the memory another user holds");
    plan.execute(y.data(), Direction::forward, &report);
  }
  EXPECT_LT(relative_l2(y, widen(expected)), tolerance<float>(4, shape.elements()));
  EXPECT_GE(report.replans, 1u);
  EXPECT_LT(report.device_budget, o.device_memory_budget);
  EXPECT_LE(report.device_bytes, left);
  const std::string d = plan.describe();
  EXPECT_NE(d, first);
  EXPECT_NE(d.find("re-planned at execution"), std::string::npos) << d;
  EXPECT_NE(d.find(std::string("strategy: ") + to_string(report.strategy)), std::string::npos) << d;
}

}  // namespace
}  // namespace oocfft::test
