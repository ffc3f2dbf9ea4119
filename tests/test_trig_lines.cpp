// DCT/DST of types 2 and 3 (kernels/trig_lines.hpp) against scipy.fft's
// definitions as long-double direct sums (fftwl's r2r kinds above 1024
// points, checked against the sums first): all four kinds, norms "backward"
// and "ortho", both precisions, odd line counts, strided lines of a brick
// (y and z lines, lanes and groups), round trips, and the orthogonality of
// the "ortho" matrices. Gaps between lines are NaN before the run, so a
// write outside the lines shows.
#include <gtest/gtest.h>

#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <oocfft/error.hpp>

#include "kernels/line_factorization.hpp"
#include "kernels/radix_schedule.hpp"
#include "kernels/trig_lines.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

using kernels::execute_trig_lines_host;
using kernels::LineBatch;
using kernels::TrigKind;
using kernels::TrigLinePlan;
using kernels::TrigNorm;

const std::size_t lengths[] = {1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 30, 97, 100, 128, 210, 243, 1000, 1001, 4096, 4097};
const TrigKind kinds[] = {TrigKind::dct2, TrigKind::dct3, TrigKind::dst2, TrigKind::dst3};
const TrigNorm norms[] = {TrigNorm::none, TrigNorm::ortho};

bool is_type_2(TrigKind kind) { return kind == TrigKind::dct2 || kind == TrigKind::dst2; }
bool is_sine(TrigKind kind) { return kind == TrigKind::dst2 || kind == TrigKind::dst3; }

// C of the tolerance C * eps * sqrt(log2 N): the complex transform's
// (Stockham 2, Bluestein 4; tests/test_line_accuracy.cpp), doubled for the
// two-for-one split and the quarter-wave twiddle. Measured on this suite's
// inputs (2026-11-27): under 1.0 eps sqrt(log2 N) one way, under 1.4 for a
// round trip (whose bound is 2C).
double c_for(std::size_t n) {
  return kernels::choose_line_algorithm(n, kernels::host_composite_radices).algorithm ==
                 kernels::LineAlgorithm::bluestein
             ? 8.0
             : 4.0;
}

// scipy's transform of x with the given norm, in long double.
std::vector<long double> reference(std::vector<long double> x, TrigKind kind, TrigNorm norm) {
  const std::size_t n = x.size();
  const auto kind_ref = static_cast<TrigReference>(static_cast<int>(kind));
  // orthogonalize=True: type 3 weights its first DCT input (last DST input)
  // by sqrt 2 before, type 2 its first DCT output (last DST output) by
  // 1/sqrt 2 after; both scale by 1/sqrt(2N).
  const std::size_t special = is_sine(kind) ? n - 1 : 0;
  if (norm == TrigNorm::ortho && !is_type_2(kind)) x[special] *= std::sqrt(2.0L);
  std::vector<long double> y = n <= 1024 ? naive_trig(x, kind_ref) : fftwl_trig(x, kind_ref);
  if (norm == TrigNorm::ortho) {
    for (auto& v : y) v /= std::sqrt(2.0L * static_cast<long double>(n));
    if (is_type_2(kind)) y[special] /= std::sqrt(2.0L);
  }
  return y;
}

std::string case_name(std::size_t n, TrigKind kind, TrigNorm norm, std::size_t bits) {
  return std::string(kernels::to_string(kind)) + (norm == TrigNorm::ortho ? " ortho" : " backward") +
         " n=" + std::to_string(n) + " " + std::to_string(bits) + "-bit";
}

// Lines of a batch read out of (or written into) a buffer.
std::ptrdiff_t line_start(const LineBatch& b, std::size_t q) {
  return static_cast<std::ptrdiff_t>(q % b.lanes) * b.lane_distance +
         static_cast<std::ptrdiff_t>(q / b.lanes) * b.group_distance;
}

template <class T>
std::vector<T> read_line(const std::vector<T>& data, const LineBatch& b, std::size_t q) {
  std::vector<T> y(b.length);
  for (std::size_t i = 0; i < b.length; ++i)
    y[i] = data[static_cast<std::size_t>(line_start(b, q) + static_cast<std::ptrdiff_t>(i) * b.point_stride)];
  return y;
}

template <class T>
void write_line(std::vector<T>& data, const LineBatch& b, std::size_t q, const std::vector<long double>& x) {
  for (std::size_t i = 0; i < b.length; ++i)
    data[static_cast<std::size_t>(line_start(b, q) + static_cast<std::ptrdiff_t>(i) * b.point_stride)] =
        static_cast<T>(x[i]);
}

// Runs one plan over `inputs` laid out as `batch` in a buffer of `size`
// values, NaN outside the lines; checks each line against its reference
// and that nothing outside the lines changed.
template <class T>
void check_batch(TrigKind kind, TrigNorm norm, const LineBatch& batch, std::size_t size,
                 const std::vector<std::vector<long double>>& inputs, const std::vector<std::vector<long double>>& refs,
                 long double scale, WorstRatio& worst) {
  const std::size_t n = batch.length;
  std::vector<T> data(size, std::numeric_limits<T>::quiet_NaN());
  for (std::size_t q = 0; q < batch.lines(); ++q) write_line(data, batch, q, inputs[q]);
  const TrigLinePlan<T> plan(n, kind, norm);
  execute_trig_lines_host(plan, data.data(), batch, static_cast<T>(scale));
  const std::string name = case_name(n, kind, norm, 8 * sizeof(T));
  const double tol = tolerance<T>(c_for(n), n);
  for (std::size_t q = 0; q < batch.lines(); ++q) {
    const double err = relative_l2(read_line(data, batch, q), refs[q], scale);
    EXPECT_LE(err, tol) << name << " line " << q;
    worst.add(err, tolerance<T>(1.0, n), name);
    write_line(data, batch, q, std::vector<long double>(n, std::numeric_limits<long double>::quiet_NaN()));
  }
  EXPECT_TRUE(std::all_of(data.begin(), data.end(), [](T v) { return std::isnan(v); }))
      << name << ": a value outside the lines changed";
}

TEST(TrigLines, ReferenceSumsMatchFftwLongDouble) {
  for (std::size_t n : {1, 2, 5, 16, 17, 64}) {
    const auto x = random_real_signal(n, 11 + n);
    for (TrigKind kind : kinds) {
      const auto kind_ref = static_cast<TrigReference>(static_cast<int>(kind));
      EXPECT_LE(relative_l2(naive_trig(x, kind_ref), fftwl_trig(x, kind_ref)), 1e-15)
          << kernels::to_string(kind) << " n=" << n;
    }
  }
}

// Three lines one after another with a gap of three values between them.
TEST(TrigLines, MatchScipyDefinitionsOnContiguousLines) {
  WorstRatio worst;
  for (std::size_t n : lengths) {
    const std::size_t lines = 3, pitch = n + 3;
    const LineBatch batch{n, 1, lines, static_cast<std::ptrdiff_t>(pitch), 1, 0};
    std::vector<std::vector<long double>> x;
    for (std::size_t q = 0; q < lines; ++q) x.push_back(random_real_signal(n, 20000 + 10 * n + q));
    for (TrigKind kind : kinds) {
      for (TrigNorm norm : norms) {
        std::vector<std::vector<long double>> refs;
        for (const auto& line : x) refs.push_back(reference(line, kind, norm));
        check_batch<float>(kind, norm, batch, lines * pitch, x, refs, 1.0L, worst);
        check_batch<double>(kind, norm, batch, lines * pitch, x, refs, 1.0L, worst);
      }
    }
  }
}

// y and z lines of a [nz][ny][nx] brick whose rows are padded by one value:
// point strides past 1, lanes the x positions, groups the z planes; odd
// line counts; a uniform scale.
TEST(TrigLines, StridedLinesOfABrick) {
  WorstRatio worst;
  const std::size_t nx = 5, row = 6;  // one NaN column that no line touches
  for (std::size_t n : {4, 16, 17, 97, 100}) {
    const std::size_t nz_y = 3;  // y lines: nz_y planes of n x row
    const LineBatch y_lines{n, static_cast<std::ptrdiff_t>(row), nx, 1, nz_y, static_cast<std::ptrdiff_t>(n * row)};
    const std::size_t ny_z = 3;  // z lines: n planes of ny_z x row
    const LineBatch z_lines{n, static_cast<std::ptrdiff_t>(ny_z * row), nx, 1, ny_z, static_cast<std::ptrdiff_t>(row)};
    for (const auto& [batch, size] : {std::pair{y_lines, nz_y * n * row}, std::pair{z_lines, n * ny_z * row}}) {
      std::vector<std::vector<long double>> x;
      for (std::size_t q = 0; q < batch.lines(); ++q) x.push_back(random_real_signal(n, 30000 + 100 * n + q));
      for (TrigKind kind : kinds) {
        for (TrigNorm norm : norms) {
          std::vector<std::vector<long double>> refs;
          for (const auto& line : x) refs.push_back(reference(line, kind, norm));
          check_batch<float>(kind, norm, batch, size, x, refs, 0.25L, worst);
          check_batch<double>(kind, norm, batch, size, x, refs, 0.25L, worst);
        }
      }
    }
  }
}

// Type 2 then type 3 is 2N times the identity (norm backward) and the
// identity (ortho), both ways round for ortho.
template <class T>
void check_round_trip(std::size_t n, TrigKind first, TrigKind second, TrigNorm norm, WorstRatio& worst) {
  const std::size_t lines = 5;
  const LineBatch batch{n, 1, lines, static_cast<std::ptrdiff_t>(n), 1, 0};
  std::vector<std::vector<long double>> x;
  std::vector<T> data(lines * n);
  for (std::size_t q = 0; q < lines; ++q) {
    x.push_back(random_real_signal(n, 50000 + 10 * n + q));
    write_line(data, batch, q, x.back());
  }
  const T scale = norm == TrigNorm::ortho ? T(1) : T(1) / static_cast<T>(2 * n);
  execute_trig_lines_host(TrigLinePlan<T>(n, first, norm), data.data(), batch, T(1));
  if (norm == TrigNorm::ortho) {  // an orthogonal matrix keeps the norm
    for (std::size_t q = 0; q < lines; ++q) {
      long double in = 0, out = 0;
      for (std::size_t i = 0; i < n; ++i) {
        in += x[q][i] * x[q][i];
        out += static_cast<long double>(data[q * n + i]) * data[q * n + i];
      }
      EXPECT_LE(std::abs(std::sqrt(out / in) - 1), tolerance<T>(c_for(n), n))
          << kernels::to_string(first) << " n=" << n;
    }
  }
  execute_trig_lines_host(TrigLinePlan<T>(n, second, norm), data.data(), batch, scale);
  const std::string name =
      std::string(kernels::to_string(first)) + " then " + case_name(n, second, norm, 8 * sizeof(T));
  for (std::size_t q = 0; q < lines; ++q) {
    const double err = relative_l2(read_line(data, batch, q), x[q]);
    EXPECT_LE(err, 2 * tolerance<T>(c_for(n), n)) << name;
    worst.add(err, tolerance<T>(1.0, n), name);
  }
}

TEST(TrigLines, TypeTwoThenTypeThreeIsTheIdentity) {
  WorstRatio worst;
  for (std::size_t n : lengths) {
    for (TrigNorm norm : norms) {
      check_round_trip<float>(n, TrigKind::dct2, TrigKind::dct3, norm, worst);
      check_round_trip<double>(n, TrigKind::dct2, TrigKind::dct3, norm, worst);
      check_round_trip<float>(n, TrigKind::dst2, TrigKind::dst3, norm, worst);
      check_round_trip<double>(n, TrigKind::dst2, TrigKind::dst3, norm, worst);
    }
    check_round_trip<double>(n, TrigKind::dct3, TrigKind::dct2, TrigNorm::ortho, worst);
    check_round_trip<double>(n, TrigKind::dst3, TrigKind::dst2, TrigNorm::ortho, worst);
  }
}

// The "ortho" matrices, built column by column from unit vectors (one line
// each), are orthogonal, and type 3's is type 2's transpose. This is what
// fixes which DST point carries the 1/sqrt 2 (the last; scipy PR #18613).
TEST(TrigLines, OrthoMatricesAreOrthogonal) {
  for (std::size_t n : {1, 2, 3, 4, 5, 8, 16, 17}) {
    for (auto [type2, type3] : {std::pair{TrigKind::dct2, TrigKind::dct3}, std::pair{TrigKind::dst2, TrigKind::dst3}}) {
      const LineBatch batch{n, 1, n, static_cast<std::ptrdiff_t>(n), 1, 0};
      std::vector<double> m2(n * n, 0.0), m3(n * n, 0.0);
      for (std::size_t j = 0; j < n; ++j) m2[j * n + j] = m3[j * n + j] = 1.0;  // line j is e_j
      execute_trig_lines_host(TrigLinePlan<double>(n, type2, TrigNorm::ortho), m2.data(), batch, 1.0);
      execute_trig_lines_host(TrigLinePlan<double>(n, type3, TrigNorm::ortho), m3.data(), batch, 1.0);
      // m2[j * n + k] = M2[k][j]: line j holds column j.
      const double tol = 64 * std::numeric_limits<double>::epsilon();
      for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = 0; b < n; ++b) {
          double dot = 0;
          for (std::size_t k = 0; k < n; ++k) dot += m2[a * n + k] * m2[b * n + k];
          EXPECT_NEAR(dot, a == b ? 1.0 : 0.0, tol)
              << kernels::to_string(type2) << " n=" << n << " columns " << a << "," << b;
          EXPECT_NEAR(m3[a * n + b], m2[b * n + a], tol) << kernels::to_string(type3) << " n=" << n;
        }
      }
    }
  }
}

// A thousand and one strided lines in an arena of two threads.
TEST(TrigLines, ManyLinesInParallel) {
  const std::size_t n = 16, nx = 7, groups = 143;  // 1001 lines
  const LineBatch batch{n, static_cast<std::ptrdiff_t>(nx), nx, 1, groups, static_cast<std::ptrdiff_t>(n * nx)};
  std::vector<std::vector<long double>> x;
  for (std::size_t q = 0; q < batch.lines(); ++q) x.push_back(random_real_signal(n, 60000 + q));
  for (TrigKind kind : kinds) {
    std::vector<double> data(groups * n * nx);
    for (std::size_t q = 0; q < batch.lines(); ++q) write_line(data, batch, q, x[q]);
    tbb::task_arena arena(2);
    arena.execute(
        [&] { execute_trig_lines_host(TrigLinePlan<double>(n, kind, TrigNorm::ortho), data.data(), batch, 2.0); });
    double worst = 0;
    for (std::size_t q = 0; q < batch.lines(); ++q)
      worst = std::max(worst, relative_l2(read_line(data, batch, q), reference(x[q], kind, TrigNorm::ortho), 2.0L));
    EXPECT_LE(worst, tolerance<double>(c_for(n), n)) << kernels::to_string(kind);
  }
}

TEST(TrigLines, PlanRefusesZeroLengthAndAMismatchedBatch) {
  try {
    TrigLinePlan<double> plan(0, TrigKind::dct2, TrigNorm::none);
    FAIL() << "a zero length was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
  }
  const TrigLinePlan<float> plan(8, TrigKind::dst3, TrigNorm::ortho);
  std::vector<float> data(16, 0.0f);
  EXPECT_THROW(execute_trig_lines_host(plan, data.data(), LineBatch{4, 1, 1, 4, 1, 0}, 1.0f), Error);
  EXPECT_EQ(plan.length(), 8u);
  EXPECT_EQ(plan.kind(), TrigKind::dst3);
  EXPECT_EQ(plan.norm(), TrigNorm::ortho);
  EXPECT_NE(plan.summary().find("dst3 8 (norm ortho): complex 8 ("), std::string::npos) << plan.summary();
}

}  // namespace
}  // namespace oocfft::test
