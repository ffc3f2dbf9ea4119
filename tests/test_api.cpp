// The public API: round trips, numpy's norm modes, plans reused on new
// arrays, strided line batches of the executor, and the documented errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <oocfft/oocfft.hpp>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <limits>

#include "kernels/host_executor.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

template <class T>
class ApiTyped : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(ApiTyped, Precisions);

Options host_options(Norm norm = Norm::backward) {
  Options o;
  o.backend = Backend::host;
  o.norm = norm;
  return o;
}

TYPED_TEST(ApiTyped, RoundTripRestoresInput) {
  using T = TypeParam;
  for (const Shape& s : {Shape{16, 24, 30}, Shape{7, 13, 17}, Shape{1, 1, 1000}, Shape{1, 97, 1}}) {
    const auto x = to_precision<T>(random_signal(s.elements(), 3));
    auto y = x;
    fft3d(y.data(), s, Direction::forward, host_options());
    fft3d(y.data(), s, Direction::inverse, host_options());
    std::vector<LongComplex> ref(x.begin(), x.end());
    EXPECT_LE(relative_l2(y, ref), tolerance<T>(8.0, s.elements())) << s.to_string();
  }
}

// numpy: backward = (1, 1/N), ortho = (1/sqrt N, 1/sqrt N), forward = (1/N, 1).
TYPED_TEST(ApiTyped, NormModesScaleLikeNumpy) {
  using T = TypeParam;
  const Shape s{6, 10, 9};
  const std::size_t n = s.elements();
  const auto x = random_signal(n, 9);
  const std::vector<int> dims = {6, 10, 9};
  const auto fwd = fftwl_dft(x, dims, FFTW_FORWARD);
  const auto inv = fftwl_dft(x, dims, FFTW_BACKWARD);
  const long double ln = static_cast<long double>(n);
  struct Expect {
    Norm norm;
    long double forward_scale, inverse_scale;
  };
  for (const Expect& e : {Expect{Norm::backward, 1.0L, 1.0L / ln}, Expect{Norm::ortho, 1.0L / std::sqrt(ln), 1.0L / std::sqrt(ln)},
                          Expect{Norm::forward, 1.0L / ln, 1.0L}}) {
    auto y = to_precision<T>(x);
    fft3d(y.data(), s, Direction::forward, host_options(e.norm));
    EXPECT_LE(relative_l2(y, fwd, e.forward_scale), tolerance<T>(6.0, n)) << to_string(e.norm);
    y = to_precision<T>(x);
    fft3d(y.data(), s, Direction::inverse, host_options(e.norm));
    EXPECT_LE(relative_l2(y, inv, e.inverse_scale), tolerance<T>(6.0, n)) << to_string(e.norm);
  }
}

TYPED_TEST(ApiTyped, PlanIsReusableAndMatchesOneShot) {
  using T = TypeParam;
  const Shape s{12, 5, 262};  // 262 = 2 x 131: Bluestein on x
  const Precision p = std::is_same_v<T, float> ? Precision::single : Precision::double_precision;
  const Plan plan(s, p, host_options());
  EXPECT_EQ(plan.backend(), Backend::host);
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const auto x = to_precision<T>(random_signal(s.elements(), seed));
    auto a = x, b = x;
    plan.execute(a.data(), Direction::forward);
    fft3d(b.data(), s, Direction::forward, host_options());
    EXPECT_EQ(a, b) << "seed " << seed;  // same plan, same arithmetic: bit-identical
  }
  EXPECT_NE(plan.describe().find("12 x 5 x 262"), std::string::npos);
  EXPECT_NE(plan.describe().find("bluestein"), std::string::npos);
}

// Executor on an interleaved batch: lines with point stride 3 and lanes 2
// apart, some elements between lines untouched.
TEST(HostExecutor, StridedBatchLeavesOtherElementsAlone) {
  using T = double;
  const std::size_t n = 45, lanes = 2, groups = 4;
  const std::ptrdiff_t point_stride = 3, lane_distance = 1, group_distance = static_cast<std::ptrdiff_t>(3 * n + 5);
  const std::size_t total = static_cast<std::size_t>(group_distance) * groups;
  const auto data = random_signal(total, 17);
  auto y = to_precision<T>(data);
  const auto plan = kernels::make_line_plan<T>(n, kernels::host_composite_radices);
  const kernels::LineBatch batch{n, point_stride, lanes, lane_distance, groups, group_distance};
  kernels::execute_lines_host(*plan, reinterpret_cast<kernels::Complex<T>*>(y.data()), batch, false, T(1));
  std::vector<bool> touched(total, false);
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t l = 0; l < lanes; ++l) {
      std::vector<LongComplex> line(n);
      std::vector<std::complex<T>> got(n);
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t at = g * group_distance + l * lane_distance + i * point_stride;
        line[i] = data[at];
        got[i] = y[at];
        touched[at] = true;
      }
      EXPECT_LE(relative_l2(got, naive_dft(line, -1)), tolerance<T>(4.0, n));
    }
  for (std::size_t i = 0; i < total; ++i)
    if (!touched[i]) {
      EXPECT_EQ(y[i], std::complex<T>(static_cast<T>(data[i].real()), static_cast<T>(data[i].imag())));
    }
}

void expect_error(ErrorKind kind, const std::string& fragment, const std::function<void()>& call) {
  try {
    call();
    ADD_FAILURE() << "no oocfft::Error thrown; expected " << to_string(kind);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

// what() carries the kind; message() is the text as given, so that an
// Error made again from another (a distributed job's ranks, a cancelled
// commit) does not repeat the prefix.
TEST(ApiErrors, MessageIsTheTextWithoutTheKind) {
  const Error e(ErrorKind::io, "cannot open in.h5: no such file");
  EXPECT_STREQ(e.what(), "oocfft: io: cannot open in.h5: no such file");
  EXPECT_EQ(e.message(), "cannot open in.h5: no such file");
  const Error again(e.kind(), e.message());
  EXPECT_STREQ(again.what(), e.what());
  EXPECT_EQ(Error(ErrorKind::cancelled, "").message(), "");
}

TEST(ApiErrors, BadInputsGiveTheDocumentedError) {
  std::vector<std::complex<float>> data(8, {1.0f, 2.0f});
  const auto before = data;
  expect_error(ErrorKind::invalid_argument, "axis of length 0",
               [&] { fft3d(data.data(), Shape{2, 0, 4}, Direction::forward); });
  expect_error(ErrorKind::invalid_argument, "null pointer",
               [&] { fft3d(static_cast<std::complex<float>*>(nullptr), Shape{2, 2, 2}, Direction::forward); });
  const std::size_t huge = std::size_t{1} << 40;
  expect_error(ErrorKind::invalid_argument, "overflows",
               [&] { fft3d(data.data(), Shape{huge, huge, 2}, Direction::forward); });
  expect_error(ErrorKind::invalid_argument, "overflows",
               [&] { fft3d(data.data(), Shape{huge, 1u << 20, 2}, Direction::forward); });
  expect_error(ErrorKind::invalid_argument, "complex<double>", [&] {
    std::vector<std::complex<double>> d(8);
    Plan(Shape{2, 2, 2}, Precision::single, host_options()).execute(d.data(), Direction::forward);
  });
  EXPECT_EQ(data, before);  // refused before anything was written
  if (!cuda_available()) {
    Options cuda;
    cuda.backend = Backend::cuda;
    expect_error(ErrorKind::unsupported, "Backend::cuda", [&] { fft3d(data.data(), Shape{2, 2, 2}, Direction::forward, cuda); });
  }
}

// A pointer that is not aligned for its element type, and enum values
// outside their enumerations, are refused before anything is touched
// (both were undefined behaviour).
TEST(ApiErrors, MisalignedArraysAndOutOfRangeEnumsAreRefused) {
  alignas(16) std::byte raw[8 * sizeof(std::complex<float>) + 16];
  for (std::size_t i = 0; i < sizeof raw; ++i) raw[i] = std::byte(i);
  std::vector<std::byte> before(raw, raw + sizeof raw);
  auto* misaligned = reinterpret_cast<std::complex<float>*>(raw + 1);
  expect_error(ErrorKind::invalid_argument, "aligned",
               [&] { fft3d(misaligned, Shape{2, 2, 2}, Direction::forward, host_options()); });
  EXPECT_TRUE(std::equal(before.begin(), before.end(), raw)) << "the bytes changed";

  std::vector<std::complex<float>> data(8, {1.0f, 2.0f});
  const auto values = data;
  Options o = host_options();
  o.norm = static_cast<Norm>(9);
  expect_error(ErrorKind::invalid_argument, "norm", [&] { fft3d(data.data(), Shape{2, 2, 2}, Direction::forward, o); });
  o = host_options();
  o.strategy = static_cast<Strategy>(17);
  expect_error(ErrorKind::invalid_argument, "strategy", [&] { fft3d(data.data(), Shape{2, 2, 2}, Direction::forward, o); });
  o = host_options();
  o.backend = static_cast<Backend>(-1);
  expect_error(ErrorKind::invalid_argument, "backend", [&] { fft3d(data.data(), Shape{2, 2, 2}, Direction::forward, o); });
  o = host_options();
  o.register_host_memory = static_cast<HostRegistration>(3);
  expect_error(ErrorKind::invalid_argument, "register_host_memory",
               [&] { fft3d(data.data(), Shape{2, 2, 2}, Direction::forward, o); });
  expect_error(ErrorKind::invalid_argument, "direction",
               [&] { fft3d(data.data(), Shape{2, 2, 2}, static_cast<Direction>(2), host_options()); });
  EXPECT_EQ(data, values);
}

// An axis no host could plan is refused at once, naming the axis (it grew
// until the kernel ended the process).
TEST(ApiErrors, AxesTooLongToPlanAreRefused) {
  for (const Shape& s : {Shape{1, 1, std::size_t{1} << 59}, Shape{std::size_t{1} << 58, 1, 1}}) {
    const char* axis = s.nx > 1 ? "axis x" : "axis z";
    expect_error(ErrorKind::out_of_memory, axis, [&] { Plan(s, Precision::single, host_options()); });
  }
}

// Resident memory a process holds now, from /proc/self/statm.
std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGE_SIZE));
}

// A loop of one-shot calls keeps resident memory flat: each call used to
// make a TBB arena that oneTBB kept memory for (20 MiB over 2900 calls).
TEST(ApiMemory, OneShotCallsInALoopStayFlat) {
  auto x = to_precision<float>(random_signal(8 * 8 * 8, 12));
  for (int i = 0; i < 100; ++i) fft3d(x.data(), Shape{8, 8, 8}, Direction::forward, host_options());
  const std::size_t before = resident_bytes();
  for (int i = 0; i < 3000; ++i) fft3d(x.data(), Shape{8, 8, 8}, Direction::forward, host_options());
  const std::size_t after = resident_bytes();
  EXPECT_LT(after, before + (std::size_t{4} << 20)) << "grew by " << (after - before) / 1024 << " KiB";
}

// With a thread count the loop stays flat only through threads the calls
// share: each call used to make an arena of its own (about 7 KiB a call).
TEST(ApiMemory, SharedHostThreadsKeepALoopFlat) {
  Options o = host_options();
  o.host_threads = HostThreads(2);
  auto x = to_precision<float>(random_signal(8 * 8 * 8, 13));
  auto y = x;
  Options separate = host_options();
  separate.threads = 2;
  fft3d(x.data(), Shape{8, 8, 8}, Direction::forward, o);
  fft3d(y.data(), Shape{8, 8, 8}, Direction::forward, separate);
  EXPECT_EQ(x, y) << "shared threads changed the result";
  for (int i = 0; i < 100; ++i) fft3d(x.data(), Shape{8, 8, 8}, Direction::forward, o);
  const std::size_t before = resident_bytes();
  for (int i = 0; i < 3000; ++i) fft3d(x.data(), Shape{8, 8, 8}, Direction::forward, o);
  const std::size_t after = resident_bytes();
  EXPECT_LT(after, before + (std::size_t{4} << 20)) << "grew by " << (after - before) / 1024 << " KiB";
}

TEST(ApiErrors, HostThreadsAndAThreadCountMustAgree) {
  EXPECT_THROW(HostThreads(0), Error);
  Options o = host_options();
  o.host_threads = HostThreads(3);
  EXPECT_EQ(o.host_threads.threads(), 3u);
  o.threads = 3;
  EXPECT_NO_THROW(Plan(Shape{4, 4, 4}, Precision::single, o));
  o.threads = 2;
  try {
    Plan(Shape{4, 4, 4}, Precision::single, o);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("host_threads"), std::string::npos) << e.what();
  }
  // A plan keeps the threads alive after the caller's copy is gone.
  Options shared = host_options();
  shared.host_threads = HostThreads(2);
  const Plan plan(Shape{6, 5, 4}, Precision::double_precision, shared);
  shared.host_threads = HostThreads();
  auto x = to_precision<double>(random_signal(120, 5));
  auto y = x;
  plan.execute(x.data(), Direction::forward);
  fft3d(y.data(), Shape{6, 5, 4}, Direction::forward, host_options());
  EXPECT_EQ(x, y);
}

TEST(ApiErrors, AutomaticBackendFallsBackToHostWithoutCuda) {
  if (cuda_available()) GTEST_SKIP() << "a CUDA device is present; this checks the no-GPU fallback";
  const Plan plan(Shape{4, 4, 4}, Precision::single);
  EXPECT_EQ(plan.backend(), Backend::host);
}

}  // namespace
}  // namespace oocfft::test

namespace oocfft {
namespace {

// A moved-from plan holds nothing: calling it is refused by name, never a
// null dereference (it ended the process).
TEST(ApiErrors, MovedFromPlansRefuseEveryCall) {
  Options o;
  o.backend = Backend::host;
  Plan plan({2, 2, 2}, Precision::single, o);
  Plan taken = std::move(plan);
  std::vector<std::complex<float>> data(8, {1.0f, 0.0f});
  auto expect_refused = [](auto&& call) {
    try {
      call();
      ADD_FAILURE() << "a moved-from plan was called";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
      EXPECT_NE(std::string(e.what()).find("moved from"), std::string::npos) << e.what();
    }
  };
  expect_refused([&] { plan.execute(data.data(), Direction::forward); });  // NOLINT(bugprone-use-after-move)
  expect_refused([&] { (void)plan.describe(); });
  expect_refused([&] { (void)plan.shape(); });
  taken.execute(data.data(), Direction::forward);  // the plan moved on works
  EXPECT_FLOAT_EQ(data[0].real(), 8.0f);

  RealPlan real({2, 2, 4}, Precision::single, o);
  RealPlan real_taken = std::move(real);
  expect_refused([&] { (void)real.describe(); });  // NOLINT(bugprone-use-after-move)
  TrigPlan trig({2, 2, 2}, Precision::single, TrigTransform::dct2, o);
  TrigPlan trig_taken = std::move(trig);
  expect_refused([&] { (void)trig.describe(); });  // NOLINT(bugprone-use-after-move)
}

}  // namespace
}  // namespace oocfft
