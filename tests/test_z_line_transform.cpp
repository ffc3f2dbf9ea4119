// The z lines alone (engine::ZLineTransform, the distributed plan's step
// 4): the engine's lone "z on y-slabs" pass against a long-double DFT of
// every z line, on the host backend (streamed through small budgets, one
// and several emulated devices) and on the CUDA backend where a device is
// present, both precisions, both directions, a scale.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "engine/api/z_line_transform.hpp"
#include "tests/engine_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

// Every z line of `x` (shape s) transformed, times `scale`, in long double.
std::vector<LongComplex> z_lines_reference(const std::vector<LongComplex>& x, const Shape& s, int sign,
                                           long double scale) {
  std::vector<LongComplex> out(x.size());
  const std::size_t columns = s.ny * s.nx;
  std::vector<LongComplex> line(s.nz);
  for (std::size_t c = 0; c < columns; ++c) {
    for (std::size_t z = 0; z < s.nz; ++z) line[z] = x[c + z * columns];
    const std::vector<LongComplex> f = naive_dft(line, sign);
    for (std::size_t z = 0; z < s.nz; ++z) out[c + z * columns] = f[z] * scale;
  }
  return out;
}

template <class T>
void check_z_lines(const Options& options, const std::string& what) {
  const Shape shapes[] = {{12, 5, 7}, {33, 4, 9}, {1, 3, 5}, {17, 1, 1}};
  for (const Shape& s : shapes) {
    const std::vector<LongComplex> x = random_signal(s.elements(), 41 + s.elements());
    for (const bool inverse : {false, true}) {
      const double scale = inverse ? 1.0 / double(s.nz) : 1.0;
      const engine::ZLineTransform<T> z_lines(s, options);
      auto y = to_precision<T>(x);
      z_lines.execute(y.data(), inverse, scale);
      const auto want = z_lines_reference(x, s, inverse ? +1 : -1, scale);
      double num = 0, den = 0;
      for (std::size_t i = 0; i < y.size(); ++i) {
        const LongComplex d = LongComplex(y[i].real(), y[i].imag()) - want[i];
        num += double(std::norm(d));
        den += double(std::norm(want[i]));
      }
      EXPECT_LE(std::sqrt(num / den), tolerance<T>(8.0, s.nz))
          << what << " " << s.to_string() << (inverse ? " inverse" : " forward") << "\n"
          << z_lines.describe();
    }
  }
}

TEST(ZLineTransform, HostBackendStreamsTheZLinesInBricks) {
  for (std::size_t budget : {std::size_t{0}, std::size_t{2} << 10, std::size_t{64} << 10}) {
    check_z_lines<float>(host_budget(budget), "host, budget " + std::to_string(budget));
    check_z_lines<double>(host_budget(budget), "host, budget " + std::to_string(budget));
  }
}

TEST(ZLineTransform, EmulatedDevicesShareTheBricks) {
  Options o = host_budget(std::size_t{4} << 10);
  o.devices = Devices::list({0, 1, 2});
  check_z_lines<float>(o, "three emulated devices");
  check_z_lines<double>(o, "three emulated devices");
}

TEST(ZLineTransform, CudaBackend) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device: the device's z pass is not exercised here";
  Options o;
  o.backend = Backend::cuda;
  check_z_lines<float>(o, "cuda, default budget");
  check_z_lines<double>(o, "cuda, default budget");
  o.device_memory_budget = std::size_t{1} << 20;
  check_z_lines<float>(o, "cuda, 1 MiB budget");
}

}  // namespace
}  // namespace oocfft::test
