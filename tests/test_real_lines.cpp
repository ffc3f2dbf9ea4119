// Real rows in FFTW's padded layout (kernels/real_lines.hpp) against a
// long-double DFT of the real row (naive up to 1024 points, fftwl above):
// even lengths (half-length transform + split, Stockham and Bluestein
// inside) and odd ones (two rows per complex line), both precisions, row
// counts 1, 2, 3 and a thousand, a row pitch past the minimum. Padding and
// guards are NaN before the run, so a value the transform fails to write,
// reads where it should not, or writes past a row's spectrum shows.
#include <gtest/gtest.h>

#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include <oocfft/error.hpp>

#include "kernels/line_factorization.hpp"
#include "kernels/radix_schedule.hpp"
#include "kernels/real_lines.hpp"
#include "tests/reference.hpp"

namespace oocfft::test {
namespace {

using kernels::execute_real_rows_host;
using kernels::RealLinePlan;

const std::size_t lengths[] = {1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 30, 97, 100, 128, 210, 243, 1000, 1001, 4096, 4097};

// C of the tolerance C * eps * sqrt(log2 N), as tests/test_line_accuracy.cpp
// sets it for the complex transform inside (Stockham 2, Bluestein 4): the
// split or the two-for-one adds a few roundings per value. Measured on this
// suite's inputs (2026-11-27): under 0.7 eps sqrt(log2 N) one way, under
// 1.1 for a round trip (whose bound is 2C).
double c_for(std::size_t n) {
  const std::size_t inner = n % 2 == 0 ? n / 2 : n;
  return kernels::choose_line_algorithm(inner, kernels::host_composite_radices).algorithm ==
                 kernels::LineAlgorithm::bluestein
             ? 4.0
             : 2.0;
}

template <class T>
double unit(std::size_t n) {
  return tolerance<T>(1.0, n);
}

std::string case_name(std::size_t n, std::size_t rows, std::size_t bits) {
  return "n=" + std::to_string(n) + " rows=" + std::to_string(rows) + " " + std::to_string(bits) + "-bit";
}

std::vector<LongComplex> long_double_dft(const std::vector<LongComplex>& x, int sign) {
  return x.size() <= 1024 ? naive_dft(x, sign) : fftwl_dft(x, {static_cast<int>(x.size())}, sign);
}

// numpy's rfft of a real row: the first n/2 + 1 values of its DFT.
std::vector<LongComplex> half_spectrum(const std::vector<long double>& x) {
  std::vector<LongComplex> z(x.begin(), x.end());
  std::vector<LongComplex> y = long_double_dft(z, -1);
  y.resize(x.size() / 2 + 1);
  return y;
}

// numpy's irfft without its 1/n: the Hermitian extension of X, with Im X[0]
// and (even n) Im X[n/2] dropped, transformed with sign +.
std::vector<long double> hermitian_inverse(std::vector<LongComplex> half, std::size_t n) {
  half[0] = half[0].real();
  if (n % 2 == 0) half[n / 2] = half[n / 2].real();
  std::vector<LongComplex> full(n);
  for (std::size_t k = 0; k < n; ++k) full[k] = k < half.size() ? half[k] : std::conj(half[n - k]);
  const std::vector<LongComplex> z = long_double_dft(full, +1);
  std::vector<long double> x(n);
  for (std::size_t j = 0; j < n; ++j) x[j] = z[j].real();
  return x;
}

// Rows in the padded layout with two reals of extra pitch and a guard after
// the last row, all NaN until written.
template <class T>
struct PaddedRows {
  static constexpr std::size_t guard = 8;
  std::size_t n, rows, pitch;
  std::vector<T> data;
  PaddedRows(std::size_t n_, std::size_t rows_)
      : n(n_),
        rows(rows_),
        pitch(2 * (n_ / 2 + 1) + 2),
        data(rows_ * pitch + guard, std::numeric_limits<T>::quiet_NaN()) {}
  T* row(std::size_t r) { return data.data() + r * pitch; }
  void set_reals(std::size_t r, const std::vector<long double>& x) {
    for (std::size_t j = 0; j < n; ++j) row(r)[j] = static_cast<T>(x[j]);
  }
  void set_spectrum(std::size_t r, const std::vector<LongComplex>& x) {
    for (std::size_t k = 0; k < x.size(); ++k) {
      row(r)[2 * k] = static_cast<T>(x[k].real());
      row(r)[2 * k + 1] = static_cast<T>(x[k].imag());
    }
  }
  std::vector<std::complex<T>> spectrum(std::size_t r) {
    std::vector<std::complex<T>> y(n / 2 + 1);
    for (std::size_t k = 0; k < y.size(); ++k) y[k] = {row(r)[2 * k], row(r)[2 * k + 1]};
    return y;
  }
  std::vector<T> reals(std::size_t r) { return std::vector<T>(row(r), row(r) + n); }
  // Whether every real from `first` to the end of each row, and the guard,
  // is still NaN.
  bool untouched_from(std::size_t first) const {
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t j = first; j < pitch; ++j)
        if (!std::isnan(data[r * pitch + j])) return false;
    for (std::size_t j = rows * pitch; j < data.size(); ++j)
      if (!std::isnan(data[j])) return false;
    return true;
  }
};

template <class T>
void check_forward(std::size_t n, const std::vector<std::vector<long double>>& x,
                   const std::vector<std::vector<LongComplex>>& ref, WorstRatio& worst) {
  const std::size_t rows = x.size();
  const RealLinePlan<T> plan(n);
  PaddedRows<T> buf(n, rows);
  for (std::size_t r = 0; r < rows; ++r) buf.set_reals(r, x[r]);
  execute_real_rows_host(plan, buf.data.data(), rows, buf.pitch, false, T(1));
  const std::string name = case_name(n, rows, 8 * sizeof(T));
  for (std::size_t r = 0; r < rows; ++r) {
    const double err = relative_l2(buf.spectrum(r), ref[r]);
    EXPECT_LE(err, tolerance<T>(c_for(n), n)) << "forward " << name << " row " << r;
    worst.add(err, unit<T>(n), "forward " + name);
  }
  EXPECT_TRUE(buf.untouched_from(2 * plan.half_length())) << "forward wrote past the spectrum, " << name;
}

TEST(RealLines, ForwardMatchesLongDoubleDft) {
  WorstRatio worst;
  for (std::size_t n : lengths) {
    for (std::size_t rows : {1, 2, 3}) {
      std::vector<std::vector<long double>> x;
      std::vector<std::vector<LongComplex>> ref;
      for (std::size_t r = 0; r < rows; ++r) {
        x.push_back(random_real_signal(n, 7000 + 10 * n + r));
        ref.push_back(half_spectrum(x.back()));
      }
      check_forward<float>(n, x, ref, worst);
      check_forward<double>(n, x, ref, worst);
    }
  }
}

// The half spectra carry garbage in Im X[0] and (even n) Im X[n/2], which
// the reference drops: the output matching it shows they are ignored.
template <class T>
void check_inverse(std::size_t n, const std::vector<std::vector<LongComplex>>& spectra,
                   const std::vector<std::vector<long double>>& ref, WorstRatio& worst) {
  const std::size_t rows = spectra.size();
  const RealLinePlan<T> plan(n);
  PaddedRows<T> buf(n, rows);
  for (std::size_t r = 0; r < rows; ++r) buf.set_spectrum(r, spectra[r]);
  execute_real_rows_host(plan, buf.data.data(), rows, buf.pitch, true, T(1));
  const std::string name = case_name(n, rows, 8 * sizeof(T));
  for (std::size_t r = 0; r < rows; ++r) {
    const double err = relative_l2(buf.reals(r), ref[r]);
    EXPECT_LE(err, tolerance<T>(c_for(n), n)) << "inverse " << name << " row " << r;
    worst.add(err, unit<T>(n), "inverse " + name);
  }
  EXPECT_TRUE(buf.untouched_from(2 * plan.half_length())) << "inverse wrote past the spectrum, " << name;
}

TEST(RealLines, InverseMatchesLongDoubleDftAndIgnoresSelfConjugateImaginaryParts) {
  WorstRatio worst;
  for (std::size_t n : lengths) {
    for (std::size_t rows : {1, 2, 3}) {
      std::vector<std::vector<LongComplex>> spectra;
      std::vector<std::vector<long double>> ref;
      for (std::size_t r = 0; r < rows; ++r) {
        std::vector<LongComplex> s = random_signal(n / 2 + 1, 9000 + 10 * n + r);
        s[0] = {s[0].real(), 1234.5L};
        if (n % 2 == 0) s[n / 2] = {s[n / 2].real(), -987.25L};
        ref.push_back(hermitian_inverse(s, n));
        spectra.push_back(std::move(s));
      }
      check_inverse<float>(n, spectra, ref, worst);
      check_inverse<double>(n, spectra, ref, worst);
    }
  }
}

// Bit for bit: the garbage imaginary parts change nothing.
template <class T>
void check_ignored_bits(std::size_t n) {
  const RealLinePlan<T> plan(n);
  PaddedRows<T> clean(n, 3), dirty(n, 3);
  for (std::size_t r = 0; r < 3; ++r) {
    std::vector<LongComplex> s = random_signal(n / 2 + 1, 500 + n + r);
    s[0] = s[0].real();
    if (n % 2 == 0) s[n / 2] = s[n / 2].real();
    clean.set_spectrum(r, s);
    s[0] = {s[0].real(), 3.0e4L};
    if (n % 2 == 0) s[n / 2] = {s[n / 2].real(), -7.0e3L};
    dirty.set_spectrum(r, s);
  }
  execute_real_rows_host(plan, clean.data.data(), 3, clean.pitch, true, T(1));
  execute_real_rows_host(plan, dirty.data.data(), 3, dirty.pitch, true, T(1));
  for (std::size_t r = 0; r < 3; ++r) EXPECT_EQ(clean.reals(r), dirty.reals(r)) << "n=" << n << " row " << r;
}

TEST(RealLines, InverseIgnoresImaginaryPartsBitForBit) {
  for (std::size_t n : {1, 2, 7, 8, 97, 100, 1001}) {
    check_ignored_bits<float>(n);
    check_ignored_bits<double>(n);
  }
}

template <class T>
void check_round_trip(std::size_t n, std::size_t rows, WorstRatio& worst) {
  const RealLinePlan<T> plan(n);
  PaddedRows<T> buf(n, rows);
  std::vector<std::vector<long double>> x;
  for (std::size_t r = 0; r < rows; ++r) {
    x.push_back(random_real_signal(n, 3000 + n + r));
    buf.set_reals(r, x.back());
  }
  execute_real_rows_host(plan, buf.data.data(), rows, buf.pitch, false, T(1));
  execute_real_rows_host(plan, buf.data.data(), rows, buf.pitch, true, T(1) / static_cast<T>(n));
  const std::string name = case_name(n, rows, 8 * sizeof(T));
  for (std::size_t r = 0; r < rows; ++r) {
    const double err = relative_l2(buf.reals(r), x[r]);
    EXPECT_LE(err, 2 * tolerance<T>(c_for(n), n)) << "round trip " << name << " row " << r;
    worst.add(err, unit<T>(n), "round trip " + name);
  }
}

TEST(RealLines, ForwardThenScaledInverseGivesTheInput) {
  WorstRatio worst;
  for (std::size_t n : lengths) {
    for (std::size_t rows : {1, 2, 3}) {
      check_round_trip<float>(n, rows, worst);
      check_round_trip<double>(n, rows, worst);
    }
  }
}

// A thousand rows, even and odd counts, in an arena of two threads: many
// tasks, the last one short, rows of a pair split across no task.
template <class T>
void check_many_rows(std::size_t n, std::size_t rows) {
  const RealLinePlan<T> plan(n);
  PaddedRows<T> buf(n, rows);
  std::vector<std::vector<LongComplex>> ref;
  for (std::size_t r = 0; r < rows; ++r) {
    const auto x = random_real_signal(n, 40000 + r);
    buf.set_reals(r, x);
    ref.push_back(half_spectrum(x));
  }
  tbb::task_arena arena(2);
  arena.execute([&] { execute_real_rows_host(plan, buf.data.data(), rows, buf.pitch, false, T(0.5)); });
  double worst = 0;
  for (std::size_t r = 0; r < rows; ++r) worst = std::max(worst, relative_l2(buf.spectrum(r), ref[r], 0.5L));
  EXPECT_LE(worst, tolerance<T>(c_for(n), n)) << case_name(n, rows, 8 * sizeof(T));
  EXPECT_TRUE(buf.untouched_from(2 * plan.half_length()));
}

TEST(RealLines, ManyRowsInParallelWithScale) {
  for (std::size_t rows : {1000, 1001}) {
    for (std::size_t n : {15, 30, 97}) {
      check_many_rows<float>(n, rows);
      check_many_rows<double>(n, rows);
    }
  }
}

TEST(RealLines, PlanRefusesZeroLengthAndShortPitch) {
  try {
    RealLinePlan<float> plan(0);
    FAIL() << "a zero length was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
  }
  const RealLinePlan<double> plan(10);
  std::vector<double> data(64, 0.0);
  EXPECT_THROW(execute_real_rows_host(plan, data.data(), 2, 10, false, 1.0), Error);  // needs 12
  EXPECT_THROW(execute_real_rows_host(plan, data.data(), 2, 13, false, 1.0), Error);  // odd
  EXPECT_NO_THROW(execute_real_rows_host(plan, data.data(), 2, 12, false, 1.0));
}

TEST(RealLines, SummarySaysWhichPath) {
  const RealLinePlan<float> even(1000), odd(999), one(1);
  EXPECT_EQ(even.half_length(), 501u);
  EXPECT_EQ(odd.half_length(), 500u);
  EXPECT_NE(even.summary().find("real 1000: half-length complex 500 ("), std::string::npos) << even.summary();
  EXPECT_NE(even.summary().find(") + split twiddle"), std::string::npos) << even.summary();
  EXPECT_NE(odd.summary().find("real 999: two rows per complex line of 999 ("), std::string::npos) << odd.summary();
  EXPECT_EQ(one.half_length(), 1u);
}

}  // namespace
}  // namespace oocfft::test
