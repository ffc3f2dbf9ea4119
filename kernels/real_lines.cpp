#include "kernels/real_lines.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <string>

#include <oocfft/error.hpp>

#include "kernels/host_executor.hpp"
#include "kernels/line_batch.hpp"
#include "kernels/radix_schedule.hpp"
#include "kernels/roots_of_unity.hpp"

namespace oocfft::kernels {
namespace {

// A task's rows hold about this many bytes: large enough that the complex
// executor's own blocks fill their lanes, small enough to stay in a core's
// L2 cache between the transform and the split that follows it.
constexpr std::size_t task_bytes = std::size_t{512} << 10;

// Rows per task: about task_bytes of rows, a multiple of `multiple` (the odd
// path pairs rows), and at most a quarter of an even share per thread so
// that a short batch still spreads over the arena.
std::size_t rows_per_task(std::size_t rows, std::size_t row_bytes, std::size_t multiple) {
  const std::size_t by_bytes = std::max<std::size_t>(1, task_bytes / std::max<std::size_t>(row_bytes, 1));
  const std::size_t threads = static_cast<std::size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
  const std::size_t by_share = std::max<std::size_t>(1, (rows + 4 * threads - 1) / (4 * threads));
  const std::size_t count = std::min(by_bytes, by_share);
  return (count + multiple - 1) / multiple * multiple;
}

// Even n, forward: the half-length transform Z of z[j] = x[2j] + i x[2j+1]
// (m = n/2 values in z[0..m)) becomes the half spectrum X[0..m] in place,
// times `scale`:
//   X[k] = (Z[k] + conj Z[m-k]) / 2 - (i/2) w_n^k (Z[k] - conj Z[m-k]),
// Z's index taken mod m (Numerical Recipes, 3rd ed., section 12.3.2;
// Sorensen et al., IEEE TASSP 35(6), 1987).
// Pairs k and m-k read and write the same two slots, so one sweep suffices.
template <class T>
void split_half_spectrum(Complex<T>* z, std::size_t m, const Complex<T>* w, T scale) {
  const T half = scale / 2;
  const Complex<T> z0 = z[0];
  z[0] = {scale * (z0.re + z0.im), T(0)};
  z[m] = {scale * (z0.re - z0.im), T(0)};
  for (std::size_t k = 1; 2 * k <= m; ++k) {
    const std::size_t kc = m - k;
    const Complex<T> a = z[k];
    const Complex<T> b = z[kc];
    z[k] = half * ((a + conj(b)) + quarter_turn<false>(w[k] * (a - conj(b))));
    if (kc != k) z[kc] = half * ((b + conj(a)) + quarter_turn<false>(w[kc] * (b - conj(a))));
  }
}

// Even n, inverse: the merge that undoes the split. With E = DFT_m(x[2j]),
// O = DFT_m(x[2j+1]) and X[k] = E[k] + w_n^k O[k], X[k+m] = conj X[m-k]:
//   2 E[k] = X[k] + conj X[m-k],  2 O[k] = conj(w_n^k) (X[k] - conj X[m-k]),
// and Z = 2 (E + i O), whose unscaled inverse of length m is n z: the
// unscaled inverse of length n the caller asked for. Im X[0] and Im X[m]
// are dropped first (numpy's irfft ignores them).
template <class T>
void merge_half_spectrum(Complex<T>* z, std::size_t m, const Complex<T>* w) {
  const T x0 = z[0].re;
  const T xm = z[m].re;
  z[0] = {x0 + xm, x0 - xm};
  for (std::size_t k = 1; 2 * k <= m; ++k) {
    const std::size_t kc = m - k;
    const Complex<T> a = z[k];
    const Complex<T> b = z[kc];
    z[k] = (a + conj(b)) + quarter_turn<true>(twiddle<true>(a - conj(b), w[k]));
    if (kc != k) z[kc] = (b + conj(a)) + quarter_turn<true>(twiddle<true>(b - conj(a), w[kc]));
  }
}

template <class T>
void run_half_length_rows(const RealLinePlan<T>& plan, T* data, std::size_t rows, std::size_t row_pitch, bool inverse,
                          T scale) {
  const std::size_t m = plan.length() / 2;
  const std::size_t pitch = row_pitch / 2;  // in complex values
  const Complex<T>* w = plan.split_twiddles().data();
  const std::size_t per_task = rows_per_task(rows, row_pitch * sizeof(T), 1);
  const std::size_t tasks = (rows + per_task - 1) / per_task;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, tasks), [&](const tbb::blocked_range<std::size_t>& range) {
    for (std::size_t task = range.begin(); task != range.end(); ++task) {
      const std::size_t first = task * per_task;
      const std::size_t count = std::min(per_task, rows - first);
      // The row's reals, read as complex values (Complex<T> has the layout
      // of two T; row_pitch is even).
      Complex<T>* z = reinterpret_cast<Complex<T>*>(data + first * row_pitch);
      const LineBatch batch{m, 1, count, static_cast<std::ptrdiff_t>(pitch), 1, 0};
      if (!inverse) {
        execute_lines_host(plan.complex_plan(), z, batch, false, T(1));
        for (std::size_t r = 0; r < count; ++r) split_half_spectrum(z + r * pitch, m, w, scale);
      } else {
        for (std::size_t r = 0; r < count; ++r) merge_half_spectrum(z + r * pitch, m, w);
        execute_lines_host(plan.complex_plan(), z, batch, true, scale);
      }
    }
  });
}

// Odd n (and n = 1): rows a and b of a pair travel as one complex line
// z = a + i b of length n, in scratch laid out [point][pair]. Forward
// (Numerical Recipes, 3rd ed., section 12.3.1):
//   A[k] = (Z[k] + conj Z[n-k]) / 2,  B[k] = (Z[k] - conj Z[n-k]) / (2i),
// inverse: Z = A + i B over the whole Hermitian spectra, then a = Re z,
// b = Im z. A batch with an odd row count pairs its last row with zeros.
template <class T>
void run_paired_rows(const RealLinePlan<T>& plan, T* data, std::size_t rows, std::size_t row_pitch, bool inverse,
                     T scale) {
  const std::size_t n = plan.length();
  const std::size_t h = plan.half_length();
  const std::size_t per_task = rows_per_task(rows, row_pitch * sizeof(T), 2);
  const std::size_t tasks = (rows + per_task - 1) / per_task;
  tbb::enumerable_thread_specific<std::vector<Complex<T>>> scratch;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, tasks), [&](const tbb::blocked_range<std::size_t>& range) {
    std::vector<Complex<T>>& z = scratch.local();
    for (std::size_t task = range.begin(); task != range.end(); ++task) {
      const std::size_t first = task * per_task;
      const std::size_t count = std::min(per_task, rows - first);
      const std::size_t pairs = (count + 1) / 2;
      if (z.size() < n * pairs) z.resize(n * pairs);
      const auto row = [&](std::size_t r) { return data + (first + r) * row_pitch; };
      const auto spectrum = [&](std::size_t r) { return reinterpret_cast<Complex<T>*>(row(r)); };
      if (!inverse) {
        for (std::size_t p = 0; p < pairs; ++p) {
          const T* a = row(2 * p);
          const T* b = 2 * p + 1 < count ? row(2 * p + 1) : nullptr;
          for (std::size_t j = 0; j < n; ++j) z[j * pairs + p] = {a[j], b ? b[j] : T(0)};
        }
      } else {
        for (std::size_t p = 0; p < pairs; ++p) {
          const Complex<T>* a = spectrum(2 * p);
          const Complex<T>* b = 2 * p + 1 < count ? spectrum(2 * p + 1) : nullptr;
          for (std::size_t k = 0; k < h; ++k) {
            Complex<T> ak = a[k];
            Complex<T> bk = b ? b[k] : Complex<T>{T(0), T(0)};
            if (k == 0) ak.im = bk.im = T(0);  // numpy's irfft ignores Im X[0]
            z[k * pairs + p] = {ak.re - bk.im, ak.im + bk.re};
            if (k > 0) z[(n - k) * pairs + p] = {ak.re + bk.im, bk.re - ak.im};
          }
        }
      }
      // The nested executor must not run another of this loop's tasks on
      // this thread while it waits: that task would take the same scratch.
      const LineBatch batch{n, static_cast<std::ptrdiff_t>(pairs), pairs, 1, 1, 0};
      tbb::this_task_arena::isolate(
          [&] { execute_lines_host(plan.complex_plan(), z.data(), batch, inverse, inverse ? scale : T(1)); });
      if (!inverse) {
        const T half = scale / 2;
        for (std::size_t p = 0; p < pairs; ++p) {
          Complex<T>* a = spectrum(2 * p);
          Complex<T>* b = 2 * p + 1 < count ? spectrum(2 * p + 1) : nullptr;
          for (std::size_t k = 0; k < h; ++k) {
            const Complex<T> zk = z[k * pairs + p];
            const Complex<T> zc = conj(z[((n - k) % n) * pairs + p]);
            a[k] = half * (zk + zc);
            if (b) b[k] = half * quarter_turn<false>(zk - zc);
          }
        }
      } else {
        for (std::size_t p = 0; p < pairs; ++p) {
          T* a = row(2 * p);
          T* b = 2 * p + 1 < count ? row(2 * p + 1) : nullptr;
          for (std::size_t j = 0; j < n; ++j) {
            a[j] = z[j * pairs + p].re;
            if (b) b[j] = z[j * pairs + p].im;
          }
        }
      }
    }
  });
}

}  // namespace

template <class T>
RealLinePlan<T>::RealLinePlan(std::size_t n) : n_(n) {
  if (n == 0) throw Error(ErrorKind::invalid_argument, "RealLinePlan: the real length must be at least 1");
  if (n % 2 == 0) {
    const std::size_t m = n / 2;
    complex_ = make_line_plan<T>(m, host_composite_radices);
    const RootsOfUnity roots(n);
    split_.resize(m + 1);
    for (std::size_t k = 0; k <= m; ++k) {
      const std::complex<long double> w = roots(k);
      split_[k] = {static_cast<T>(w.real()), static_cast<T>(w.imag())};
    }
  } else {
    complex_ = make_line_plan<T>(n, host_composite_radices);
  }
}

template <class T>
std::string RealLinePlan<T>::summary() const {
  const std::string head = "real " + std::to_string(n_) + ": ";
  if (half_length_path()) {
    return head + "half-length complex " + std::to_string(n_ / 2) + " (" + complex_->summary() + ") + split twiddle";
  }
  return head + "two rows per complex line of " + std::to_string(n_) + " (" + complex_->summary() + ")";
}

template <class T>
void execute_real_rows_host(const RealLinePlan<T>& plan, T* data, std::size_t rows, std::size_t row_pitch, bool inverse,
                            T scale) {
  if (row_pitch % 2 != 0 || row_pitch < 2 * plan.half_length()) {
    throw Error(ErrorKind::invalid_argument, "execute_real_rows_host: row pitch " + std::to_string(row_pitch) +
                                                 " for real length " + std::to_string(plan.length()) +
                                                 " must be even and at least " +
                                                 std::to_string(2 * plan.half_length()));
  }
  if (rows == 0) return;
  if (plan.half_length_path()) {
    run_half_length_rows(plan, data, rows, row_pitch, inverse, scale);
  } else {
    run_paired_rows(plan, data, rows, row_pitch, inverse, scale);
  }
}

template class RealLinePlan<float>;
template class RealLinePlan<double>;
template void execute_real_rows_host<float>(const RealLinePlan<float>&, float*, std::size_t, std::size_t, bool, float);
template void execute_real_rows_host<double>(const RealLinePlan<double>&, double*, std::size_t, std::size_t, bool,
                                             double);

}  // namespace oocfft::kernels
