// A real field (a recorded hologram's intensity) is taken wherever a
// complex one is (include/oocfft/asm.hpp): read real and widened a brick at
// a time. The result must be the complex operation's on the same values
// with zero imaginary parts, and the real input must stay as it was.
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <complex>
#include <cstring>
#include <limits>
#include <vector>

#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

AsmOptions options_for(Backend backend, std::size_t budget = 0) {
  AsmOptions o;
  o.wavelength = 633e-9;
  o.pitch_x = 4e-6;
  o.pitch_y = 5e-6;
  o.pad = 2;
  o.band_limit = true;
  o.fft.backend = backend;
  o.fft.device_memory_budget = budget;  // small: rows and columns, several bricks
  return o;
}

template <class T>
std::vector<T> intensity(std::size_t n, std::uint64_t seed) {
  std::vector<T> v;
  for (const long double x : random_real_signal(n, seed)) v.push_back(T(x + 0.5L));  // in [0, 1)
  return v;
}

template <class T>
std::vector<std::complex<T>> as_complex(const std::vector<T>& x) {
  return std::vector<std::complex<T>>(x.begin(), x.end());
}

template <class T>
void check_real_fields(const AsmOptions& o) {
  const Shape stack{3, 12, 20};
  const std::vector<double> distances{1e-4, -2e-4, 3e-4};
  const std::vector<T> real = intensity<T>(stack.elements(), 3);
  const std::vector<T> kept = real;
  const std::vector<std::complex<T>> widened = as_complex(real);
  const double tol = tolerance<T>(2.0, stack.ny * stack.nx);
  const std::complex<T> nan{std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::quiet_NaN()};

  // propagate_stack: out of place from the real stack.
  std::vector<std::complex<T>> want = widened, got(stack.elements(), nan);
  propagate_stack(want.data(), stack, distances, o);
  propagate_stack(real.data(), stack, distances, got.data(), o);
  EXPECT_LE(relative_l2(got, want), tol) << "propagate_stack";

  // refocus_stack of one real plane.
  std::vector<std::complex<T>> want_stack(stack.elements()), got_stack(stack.elements(), nan);
  refocus_stack(widened.data(), stack.ny, stack.nx, distances, want_stack.data(), o);
  refocus_stack(real.data(), stack.ny, stack.nx, distances, got_stack.data(), o);
  EXPECT_LE(relative_l2(got_stack, want_stack), tol) << "refocus_stack";

  // layer_sum of real layers.
  std::vector<std::complex<T>> want_holo(stack.ny * stack.nx), got_holo(stack.ny * stack.nx, nan);
  layer_sum(widened.data(), stack, distances, want_holo.data(), o);
  layer_sum(real.data(), stack, distances, got_holo.data(), o);
  EXPECT_LE(relative_l2(got_holo, want_holo), tol) << "layer_sum";

  EXPECT_EQ(0, std::memcmp(real.data(), kept.data(), real.size() * sizeof(T))) << "the real input was written";
}

TEST(AsmRealFields, RealInputsGiveTheComplexResult) {
  check_real_fields<float>(options_for(Backend::host));
  check_real_fields<double>(options_for(Backend::host));
  // A budget of a few rows: the split program, several bricks a pass.
  check_real_fields<float>(options_for(Backend::host, 40 * 24 * 8 * 4));
}

TEST(CudaAsmRealFields, RealInputsGiveTheComplexResult) {
  if (!cuda_available()) GTEST_SKIP() << "no usable CUDA device";
  check_real_fields<float>(options_for(Backend::cuda));
  check_real_fields<double>(options_for(Backend::cuda));
}

TEST(AsmRealFields, NullPointersAndOverlapsAreRefused) {
  std::vector<std::complex<float>> out(4);
  const std::vector<double> z{1e-4};
  EXPECT_THROW(propagate_stack(static_cast<const float*>(nullptr), Shape{1, 2, 2}, z, out.data(),
                               options_for(Backend::host)),
               Error);
  // The real input inside the complex output: later bricks would be read
  // after earlier ones were written over them.
  std::vector<std::complex<float>> one(2 * 4 * 4);
  const auto* real = reinterpret_cast<const float*>(one.data());
  try {
    propagate_stack(real, Shape{2, 4, 4}, z, one.data(), options_for(Backend::host));
    ADD_FAILURE() << "an overlapping output was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("overlap"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace oocfft::test
