#include "kernels/trig_lines.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include <oocfft/error.hpp>

#include "kernels/host_executor.hpp"
#include "kernels/radix_schedule.hpp"
#include "kernels/roots_of_unity.hpp"

namespace oocfft::kernels {
namespace {

// A task's complex scratch (two lines per complex line) holds about this
// many bytes, so that it stays in a core's L2 cache from the gather to the
// scatter.
constexpr std::size_t task_scratch_bytes = std::size_t{256} << 10;

bool is_type_2(TrigKind kind) { return kind == TrigKind::dct2 || kind == TrigKind::dst2; }
bool is_sine(TrigKind kind) { return kind == TrigKind::dst2 || kind == TrigKind::dst3; }

// Makhoul's reordering (TASSP 28(1), 1980): v[j] = x[2j] and
// v[N-1-j] = x[2j+1], so point i of a line sits at v[slot(i)].
inline std::size_t makhoul_slot(std::size_t i, std::size_t n) { return i % 2 == 0 ? i / 2 : n - 1 - i / 2; }

// A task's buffers: each line's offset, the lines' values laid out
// [point][line] (an odd count padded with a line of zeros), and the complex
// lines laid out [point][pair].
template <class T>
struct TrigScratch {
  std::vector<std::ptrdiff_t> offsets;
  std::vector<T> values;
  std::vector<Complex<T>> pairs;
};

// Copies `count` lines into values [point][width]; the loop order follows
// the smaller stride so that reads stay sequential.
template <class T>
void gather(const T* data, const LineBatch& batch, const std::ptrdiff_t* offsets, std::size_t count, std::size_t width,
            T* values) {
  const std::size_t n = batch.length;
  if (std::abs(batch.lane_distance) <= std::abs(batch.point_stride)) {
    for (std::size_t i = 0; i < n; ++i) {
      const T* p = data + static_cast<std::ptrdiff_t>(i) * batch.point_stride;
      for (std::size_t l = 0; l < count; ++l) values[i * width + l] = p[offsets[l]];
    }
  } else {
    for (std::size_t l = 0; l < count; ++l) {
      const T* p = data + offsets[l];
      for (std::size_t i = 0; i < n; ++i)
        values[i * width + l] = p[static_cast<std::ptrdiff_t>(i) * batch.point_stride];
    }
  }
  for (std::size_t l = count; l < width; ++l)
    for (std::size_t i = 0; i < n; ++i) values[i * width + l] = T(0);
}

template <class T>
void scatter(T* data, const LineBatch& batch, const std::ptrdiff_t* offsets, std::size_t count, std::size_t width,
             const T* values) {
  const std::size_t n = batch.length;
  if (std::abs(batch.lane_distance) <= std::abs(batch.point_stride)) {
    for (std::size_t i = 0; i < n; ++i) {
      T* p = data + static_cast<std::ptrdiff_t>(i) * batch.point_stride;
      for (std::size_t l = 0; l < count; ++l) p[offsets[l]] = values[i * width + l];
    }
  } else {
    for (std::size_t l = 0; l < count; ++l) {
      T* p = data + offsets[l];
      for (std::size_t i = 0; i < n; ++i)
        p[static_cast<std::ptrdiff_t>(i) * batch.point_stride] = values[i * width + l];
    }
  }
}

// Type 2, before the FFT: z[slot(i)] = a[i] + i b[i] for each pair of lines.
// The DST-II is the DCT-II of (-1)^i x[i], read backwards:
//   DST-II(x)[k] = DCT-II((-1)^i x[i])[N-1-k]
// since cos(pi (N-1-k)(2i+1) / 2N) = (-1)^i sin(pi (k+1)(2i+1) / 2N)
// (pocketfft's T_dcst23 does the same).
template <class T>
void pack_type_2(const T* values, std::size_t n, std::size_t pairs, bool sine, Complex<T>* z) {
  const std::size_t width = 2 * pairs;
  for (std::size_t i = 0; i < n; ++i) {
    const T sign = sine && i % 2 == 1 ? T(-1) : T(1);
    Complex<T>* row = z + makhoul_slot(i, n) * pairs;
    for (std::size_t p = 0; p < pairs; ++p)
      row[p] = {sign * values[i * width + 2 * p], sign * values[i * width + 2 * p + 1]};
  }
}

// Type 2, after the FFT: with Z = FFT(a + i b), V_a = (Z[k] + conj Z[N-k])/2
// and V_b = (Z[k] - conj Z[N-k])/(2i) are the transforms of the reordered
// lines, and y[k] = 2 Re(w_4N^k V[k]) (Makhoul), times factor[k].
// The sine transform writes y[k] to point N-1-k.
template <class T>
void unpack_type_2(const Complex<T>* z, std::size_t n, std::size_t pairs, bool sine, const Complex<T>* w,
                   const T* factor, T* values) {
  const std::size_t width = 2 * pairs;
  for (std::size_t k = 0; k < n; ++k) {
    const Complex<T>* row = z + k * pairs;
    const Complex<T>* mirror = z + ((n - k) % n) * pairs;
    const std::size_t at = (sine ? n - 1 - k : k) * width;
    for (std::size_t p = 0; p < pairs; ++p) {
      const Complex<T> zk = row[p];
      const Complex<T> zc = conj(mirror[p]);
      const Complex<T> ya = w[k] * (zk + zc);
      const Complex<T> yb = w[k] * quarter_turn<false>(zk - zc);
      values[at + 2 * p] = factor[k] * ya.re;
      values[at + 2 * p + 1] = factor[k] * yb.re;
    }
  }
}

// Type 3, before the inverse FFT: the DCT-III is 2N times the inverse of the
// DCT-II, and Makhoul's inverse mapping rebuilds
//   V[k] = conj(w_4N^k) (c[k] - i c[N-k]),  c[N] = 0,
// whose unscaled inverse FFT is 2N v; two lines go as Z = V_a + i V_b (both
// V are Hermitian, so a and b come back as Re and Im). The DST-III is the
// inverse of the DST-II: the DCT-III of the reversed line, with the signs of
// alternate outputs flipped. c[0] (after the reversal) is times `first`.
template <class T>
void pack_type_3(const T* values, std::size_t n, std::size_t pairs, bool sine, const Complex<T>* w, T first,
                 Complex<T>* z) {
  const std::size_t width = 2 * pairs;
  const auto point = [&](std::size_t k) { return (sine ? n - 1 - k : k) * width; };
  for (std::size_t k = 0; k < n; ++k) {
    const T* here = values + point(k);
    const T* mirror = k == 0 ? nullptr : values + point(n - k);
    const T weight = k == 0 ? first : T(1);
    Complex<T>* row = z + k * pairs;
    for (std::size_t p = 0; p < pairs; ++p) {
      const Complex<T> ca = {weight * here[2 * p], mirror ? -mirror[2 * p] : T(0)};
      const Complex<T> cb = {weight * here[2 * p + 1], mirror ? -mirror[2 * p + 1] : T(0)};
      const Complex<T> va = twiddle<true>(ca, w[k]);
      const Complex<T> vb = twiddle<true>(cb, w[k]);
      row[p] = va + quarter_turn<true>(vb);
    }
  }
}

// Type 3, after the inverse FFT: point i of line a is Re z[slot(i)], of
// line b Im z[slot(i)], times `factor` (and (-1)^i for the sine transform).
template <class T>
void unpack_type_3(const Complex<T>* z, std::size_t n, std::size_t pairs, bool sine, T factor, T* values) {
  const std::size_t width = 2 * pairs;
  for (std::size_t i = 0; i < n; ++i) {
    const T f = sine && i % 2 == 1 ? -factor : factor;
    const Complex<T>* row = z + makhoul_slot(i, n) * pairs;
    for (std::size_t p = 0; p < pairs; ++p) {
      values[i * width + 2 * p] = f * row[p].re;
      values[i * width + 2 * p + 1] = f * row[p].im;
    }
  }
}

// Lines per task: even, about task_scratch_bytes of complex scratch, and at
// most a quarter of an even share per thread so that a short batch still
// spreads over the arena.
template <class T>
std::size_t lines_per_task(std::size_t n, std::size_t lines) {
  const std::size_t by_bytes = std::max<std::size_t>(1, task_scratch_bytes / (n * sizeof(Complex<T>)));
  const std::size_t threads = static_cast<std::size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
  const std::size_t by_share = std::max<std::size_t>(1, (lines + 8 * threads - 1) / (8 * threads));
  return 2 * std::min(by_bytes, by_share);
}

}  // namespace

const char* to_string(TrigKind kind) noexcept {
  switch (kind) {
    case TrigKind::dct2:
      return "dct2";
    case TrigKind::dct3:
      return "dct3";
    case TrigKind::dst2:
      return "dst2";
    case TrigKind::dst3:
      return "dst3";
  }
  return "?";
}

template <class T>
TrigLinePlan<T>::TrigLinePlan(std::size_t n, TrigKind kind, TrigNorm norm) : n_(n), kind_(kind), norm_(norm) {
  if (n == 0) throw Error(ErrorKind::invalid_argument, "TrigLinePlan: the length must be at least 1");
  complex_ = make_line_plan<T>(n, host_composite_radices);
  const RootsOfUnity roots(4 * static_cast<std::uint64_t>(n));
  twiddles_.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::complex<long double> w = roots(k);
    twiddles_[k] = {static_cast<T>(w.real()), static_cast<T>(w.imag())};
  }
}

template <class T>
std::string TrigLinePlan<T>::summary() const {
  return std::string(to_string(kind_)) + " " + std::to_string(n_) + " (norm " +
         (norm_ == TrigNorm::ortho ? "ortho" : "backward") + "): complex " + std::to_string(n_) + " (" +
         complex_->summary() + "), two lines per complex line + quarter-wave twiddle";
}

template <class T>
void execute_trig_lines_host(const TrigLinePlan<T>& plan, T* data, const LineBatch& batch, T scale) {
  const std::size_t n = plan.length();
  if (batch.length != n) {
    throw Error(ErrorKind::invalid_argument, "execute_trig_lines_host: batch length " + std::to_string(batch.length) +
                                                 " differs from the plan's " + std::to_string(n));
  }
  const std::size_t lines = batch.lines();
  if (lines == 0) return;
  const bool type_2 = is_type_2(plan.kind());
  const bool sine = is_sine(plan.kind());
  const bool ortho = plan.norm() == TrigNorm::ortho;
  // scipy's norm="ortho" with orthogonalize=True: every output times
  // 1/sqrt(2N); type 2's first DCT output (last DST output) also times
  // 1/sqrt(2), type 3's first DCT input (last DST input) times sqrt(2)
  // (pocketfft's T_dcst23; scipy PR #18613 moved the DST's to the last
  // point, which makes the matrix orthogonal).
  const long double root_2n = std::sqrt(2.0L * static_cast<long double>(n));
  const T overall = ortho ? static_cast<T>(1.0L / root_2n) * scale : scale;
  const T sqrt2 = static_cast<T>(std::sqrt(2.0L));
  std::vector<T> factor_2;  // type 2: factor of DCT output k
  if (type_2) {
    factor_2.assign(n, overall);
    if (ortho) factor_2[0] = static_cast<T>(1.0L / (root_2n * std::sqrt(2.0L))) * scale;
  }
  const T first_3 = ortho ? sqrt2 : T(1);

  const std::size_t per_task = lines_per_task<T>(n, lines);
  const std::size_t tasks = (lines + per_task - 1) / per_task;
  const Complex<T>* w = plan.quarter_wave_twiddles().data();
  tbb::enumerable_thread_specific<TrigScratch<T>> scratch;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, tasks), [&](const tbb::blocked_range<std::size_t>& range) {
    TrigScratch<T>& s = scratch.local();
    for (std::size_t task = range.begin(); task != range.end(); ++task) {
      const std::size_t first = task * per_task;
      const std::size_t count = std::min(per_task, lines - first);
      const std::size_t pairs = (count + 1) / 2;
      const std::size_t width = 2 * pairs;
      s.offsets.resize(count);
      for (std::size_t l = 0; l < count; ++l) {
        const std::size_t q = first + l;
        s.offsets[l] = static_cast<std::ptrdiff_t>(q % batch.lanes) * batch.lane_distance +
                       static_cast<std::ptrdiff_t>(q / batch.lanes) * batch.group_distance;
      }
      if (s.values.size() < n * width) s.values.resize(n * width);
      if (s.pairs.size() < n * pairs) s.pairs.resize(n * pairs);
      gather(data, batch, s.offsets.data(), count, width, s.values.data());
      if (type_2) {
        pack_type_2(s.values.data(), n, pairs, sine, s.pairs.data());
      } else {
        pack_type_3(s.values.data(), n, pairs, sine, w, first_3, s.pairs.data());
      }
      // The nested executor must not run another of this loop's tasks on
      // this thread while it waits: that task would take the same scratch.
      const LineBatch complex_lines{n, static_cast<std::ptrdiff_t>(pairs), pairs, 1, 1, 0};
      tbb::this_task_arena::isolate(
          [&] { execute_lines_host(plan.complex_plan(), s.pairs.data(), complex_lines, !type_2, T(1)); });
      if (type_2) {
        unpack_type_2(s.pairs.data(), n, pairs, sine, w, factor_2.data(), s.values.data());
      } else {
        unpack_type_3(s.pairs.data(), n, pairs, sine, overall, s.values.data());
      }
      scatter(data, batch, s.offsets.data(), count, width, s.values.data());
    }
  });
}

template class TrigLinePlan<float>;
template class TrigLinePlan<double>;
template void execute_trig_lines_host<float>(const TrigLinePlan<float>&, float*, const LineBatch&, float);
template void execute_trig_lines_host<double>(const TrigLinePlan<double>&, double*, const LineBatch&, double);

}  // namespace oocfft::kernels
