// The DCT and DST of types 2 and 3 through the whole engine
// (include/oocfft/trig.hpp), as scipy.fft's dctn/idctn/dstn/idstn, every
// strategy through small budgets on the host backend, against FFTW's
// long-double r2r transforms (whose unnormalised kinds are scipy's).
#include <gtest/gtest.h>

#include <oocfft/oocfft.hpp>

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "tests/engine_test_support.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

const fftwl_r2r_kind fftw_kind[] = {FFTW_REDFT10, FFTW_REDFT01, FFTW_RODFT10, FFTW_RODFT01};

// scipy's unnormalised dctn/dstn of a 3D array.
std::vector<long double> reference_trig(const std::vector<long double>& x, const Shape& s, TrigTransform t) {
  std::vector<long double> in = x, y(x.size());
  const fftwl_r2r_kind k = fftw_kind[static_cast<int>(t)];
  fftwl_plan p = fftwl_plan_r2r_3d(int(s.nz), int(s.ny), int(s.nx), in.data(), y.data(), k, k, k, FFTW_ESTIMATE);
  fftwl_execute(p);
  fftwl_destroy_plan(p);
  return y;
}

template <class T>
std::vector<LongComplex> widened(const std::vector<T>& x) {
  return std::vector<LongComplex>(x.begin(), x.end());
}

struct TrigCase {
  Shape shape;
  Strategy strategy;
  unsigned streams;
  std::size_t multiple;
  Backend backend = Backend::host;
};

std::vector<TrigCase> trig_cases() {
  const Shape shapes[] = {{4, 6, 8}, {3, 5, 9}, {7, 1, 13}, {1, 6, 10}, {2, 3, 1}};
  std::vector<TrigCase> cases;
  for (const Shape& s : shapes) {
    cases.push_back({s, Strategy::in_core, 4, 1});
    cases.push_back({s, Strategy::two_pass, 3, 1});
    cases.push_back({s, Strategy::two_pass, 2, 4});
    cases.push_back({s, Strategy::three_pass, 4, 1});
    cases.push_back({s, Strategy::line_transpose, 2, 1});
  }
  return cases;
}

Options options_for(const TrigCase& c, Precision p) {
  // Budgets in elements of the real volume: half a complex element.
  EngineCase e{.shape = c.shape, .strategy = c.strategy, .streams = c.streams, .multiple = c.multiple,
               .backend = c.backend};
  Options o = e.options(p);
  if (o.device_memory_budget != 0) o.device_memory_budget /= 2;
  // On a device, room for the kernels' tables and workspace beside the bricks.
  if (o.device_memory_budget != 0 && c.backend == Backend::cuda) o.device_memory_budget += std::size_t{64} << 20;
  return o;
}

template <class T>
void check(const TrigCase& c, TrigTransform t) {
  const Shape& s = c.shape;
  const std::vector<long double> x = random_real_signal(s.elements(), 5 + s.nx + static_cast<int>(t));
  const std::vector<long double> want = reference_trig(x, s, t);
  const TrigPlan plan(s, sizeof(T) == 4 ? Precision::single : Precision::double_precision, t,
                      options_for(c, sizeof(T) == 4 ? Precision::single : Precision::double_precision));
  const std::string what = std::string(to_string(t)) + " " + s.to_string() + " " + to_string(c.strategy) + " x" +
                           std::to_string(c.multiple);
  std::vector<T> data(x.begin(), x.end());
  plan.execute(data.data(), Direction::forward);
  EXPECT_LE(relative_l2(widened(data), widened(want)), tolerance<T>(6.0, s.elements())) << what << "\n"
                                                                                           << plan.describe();
  plan.execute(data.data(), Direction::inverse);
  EXPECT_LE(relative_l2(widened(data), widened(x)), tolerance<T>(8.0, s.elements())) << what << " round trip";
}

TEST(TrigTransform, EveryKindAndStrategyMatchesScipy) {
  for (const TrigCase& c : trig_cases())
    for (const TrigTransform t : {TrigTransform::dct2, TrigTransform::dct3, TrigTransform::dst2, TrigTransform::dst3}) {
      check<float>(c, t);
      check<double>(c, t);
    }
}

TEST(CudaTrigTransform, EveryKindAndStrategyMatchesScipy) {
  if (!cuda_available()) GTEST_SKIP() << "no usable CUDA device";
  for (TrigCase c : trig_cases()) {
    c.backend = Backend::cuda;
    for (const TrigTransform t : {TrigTransform::dct2, TrigTransform::dct3, TrigTransform::dst2, TrigTransform::dst3}) {
      check<float>(c, t);
      check<double>(c, t);
    }
  }
}

// norm="ortho": type 2's output weighted so the matrix is orthogonal
// (scipy.fft.dct, "Notes"): the first DCT output, the last DST output, by
// sqrt(1/(4N)), the others by sqrt(1/(2N)); the energy is kept and the
// inverse needs no scale.
TEST(TrigTransform, OrthoIsOrthogonalAndMatchesScipysWeights) {
  const Shape s{3, 4, 5};
  for (const TrigTransform t : {TrigTransform::dct2, TrigTransform::dst2}) {
    const std::vector<long double> x = random_real_signal(s.elements(), 17);
    std::vector<long double> want = reference_trig(x, s, t);
    auto weight = [&](std::size_t k, std::size_t n) {
      const bool first = t == TrigTransform::dct2 ? k == 0 : k == n - 1;
      return std::sqrt(1.0L / ((first ? 4.0L : 2.0L) * n));
    };
    for (std::size_t z = 0; z < s.nz; ++z)
      for (std::size_t y = 0; y < s.ny; ++y)
        for (std::size_t k = 0; k < s.nx; ++k)
          want[(z * s.ny + y) * s.nx + k] *= weight(z, s.nz) * weight(y, s.ny) * weight(k, s.nx);
    Options o;
    o.backend = Backend::host;
    o.norm = Norm::ortho;
    std::vector<double> data(x.begin(), x.end());
    dctn(data.data(), s, 2, o);  // replaced below for the DST
    if (t == TrigTransform::dst2) {
      data.assign(x.begin(), x.end());
      dstn(data.data(), s, 2, o);
    }
    EXPECT_LE(relative_l2(widened(data), widened(want)), tolerance<double>(6.0, s.elements())) << to_string(t);
    t == TrigTransform::dct2 ? idctn(data.data(), s, 2, o) : idstn(data.data(), s, 2, o);
    EXPECT_LE(relative_l2(widened(data), widened(x)), tolerance<double>(8.0, s.elements())) << to_string(t);
  }
}

// norm="forward" puts scipy's 1/prod(2n) on the forward transform.
TEST(TrigTransform, ForwardNormScalesTheForwardTransform) {
  const Shape s{2, 3, 4};
  const std::vector<long double> x = random_real_signal(s.elements(), 23);
  const std::vector<long double> want = reference_trig(x, s, TrigTransform::dct2);
  Options o;
  o.backend = Backend::host;
  o.norm = Norm::forward;
  std::vector<double> data(x.begin(), x.end());
  dctn(data.data(), s, 2, o);
  EXPECT_LE(relative_l2(widened(data), widened(want), 1.0L / (8.0L * s.elements())),
            tolerance<double>(6.0, s.elements()));
  idctn(data.data(), s, 2, o);
  EXPECT_LE(relative_l2(widened(data), widened(x)), tolerance<double>(8.0, s.elements()));
}

// scipy's dctn of a 1D or 2D array: the leading axes of length 1 stand for
// no axis, so a rank-r plan equals the 1D line transforms' reference
// (fftwl's REDFT10 of the line) with no factor for them, where the volume's
// own plan doubles the type 2 run once per one-point axis.
TEST(TrigTransform, RankLeavesTheLeadingAxesOut) {
  const Shape line{1, 1, 12};
  const std::vector<long double> x = random_real_signal(line.elements(), 29);
  const std::vector<long double> want = fftwl_trig(x, TrigReference::dct2);
  Options o;
  o.backend = Backend::host;
  std::vector<double> volume(x.begin(), x.end()), array = volume;
  TrigPlan(line, Precision::double_precision, TrigTransform::dct2, o).execute(volume.data(), Direction::forward);
  TrigPlan(line, Precision::double_precision, TrigTransform::dct2, 1, o).execute(array.data(), Direction::forward);
  EXPECT_LE(relative_l2(widened(array), widened(want)), tolerance<double>(6.0, line.elements()));
  EXPECT_LE(relative_l2(widened(volume), widened(want), 4.0L), tolerance<double>(6.0, line.elements()));
  // The inverse of the rank-1 plan undoes it.
  TrigPlan(line, Precision::double_precision, TrigTransform::dct2, 1, o).execute(array.data(), Direction::inverse);
  EXPECT_LE(relative_l2(widened(array), widened(x)), tolerance<double>(8.0, line.elements()));
  EXPECT_THROW(TrigPlan(Shape{2, 3, 4}, Precision::single, TrigTransform::dct2, 2, o), Error);
  EXPECT_THROW(TrigPlan(Shape{1, 3, 4}, Precision::single, TrigTransform::dct2, 0, o), Error);
}

// A volume of one point runs the scale alone on both backends (a type 2
// run of one point doubles it, in the scale): the device result equals the
// host's for every kind, norm and rank.
TEST(CudaTrigTransform, OnePointVolumesEqualTheHost) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device: the CUDA backend's trigonometric transforms cannot run";
  for (const TrigTransform t : {TrigTransform::dct2, TrigTransform::dct3, TrigTransform::dst2, TrigTransform::dst3})
    for (const Norm norm : {Norm::backward, Norm::ortho, Norm::forward})
      for (const unsigned rank : {1u, 3u})
        for (const Direction d : {Direction::forward, Direction::inverse}) {
          double host = 0.75, device = 0.75;
          TrigPlan(Shape{1, 1, 1}, Precision::double_precision, t, rank, Options{.backend = Backend::host, .norm = norm})
              .execute(&host, d);
          TrigPlan(Shape{1, 1, 1}, Precision::double_precision, t, rank, Options{.backend = Backend::cuda, .norm = norm})
              .execute(&device, d);
          EXPECT_EQ(device, host) << to_string(t) << " norm " << to_string(norm) << " rank " << rank << " "
                                  << to_string(d);
        }
}

TEST(TrigTransform, UnsupportedTypesAndShiftAreRefused) {
  std::vector<float> data(8, 1.0f);
  Options o;
  o.backend = Backend::host;
  EXPECT_THROW(dctn(data.data(), {2, 2, 2}, 1, o), Error);
  EXPECT_THROW(dstn(data.data(), {2, 2, 2}, 4, o), Error);
  o.shift = true;
  try {
    dctn(data.data(), {2, 2, 2}, 2, o);
    ADD_FAILURE() << "shift was taken for a DCT";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::unsupported);
  }
}

}  // namespace
}  // namespace oocfft::test
