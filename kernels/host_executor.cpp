#include "kernels/host_executor.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "kernels/butterfly.hpp"
#include "kernels/lane_pack.hpp"

namespace oocfft::kernels {
namespace {

// Split real/imaginary scratch for a block of lanes, [point][lane].
template <class T>
struct LaneScratch {
  std::vector<T> re[2];
  std::vector<T> im[2];
  void reserve(std::size_t count) {
    for (int i = 0; i < 2; ++i) {
      if (re[i].size() < count) re[i].resize(count);
      if (im[i].size() < count) im[i].resize(count);
    }
  }
};

// Lines transformed together, as one LanePack: a compile-time width lets
// the butterflies run on whole vector registers; blocks with fewer real
// lines are padded with zero lanes.
constexpr std::size_t block_lanes = 8;

// One Stockham pass over block_lanes lines at once (see StockhamPass).
template <class T, int R, bool Inverse>
void radix_pass(const T* __restrict in_re, const T* __restrict in_im, T* __restrict out_re,
                T* __restrict out_im, std::size_t n, const StockhamPass& pass, const Complex<T>* twiddles) {
  using Pack = LanePack<T, block_lanes>;
  constexpr std::size_t lanes = block_lanes;
  const std::size_t quarter = n / R;  // distance between a butterfly's inputs
  const std::size_t span = pass.span;
  const Complex<T>* tw = twiddles + pass.twiddle_offset;
  for (std::size_t j0 = 0; j0 < quarter; j0 += span) {
    for (std::size_t k = 0; k < span; ++k) {
      const std::size_t j = j0 + k;
      const std::size_t dst = j0 * R + k;
      Complex<Pack> v[R];
      for (int r = 0; r < R; ++r) {
        const std::size_t at = (j + r * quarter) * lanes;
        v[r] = {Pack::load(in_re + at), Pack::load(in_im + at)};
      }
      if (span > 1) {  // the first pass has span 1 and unit twiddles
        for (int r = 1; r < R; ++r) {
          const Complex<T> w = tw[k * (R - 1) + (r - 1)];
          v[r] = twiddle<Inverse>(v[r], Complex<Pack>{Pack::broadcast(w.re), Pack::broadcast(w.im)});
        }
      }
      radix_butterfly<R, Inverse>(v);
      for (int r = 0; r < R; ++r) {
        const std::size_t at = (dst + r * span) * lanes;
        v[r].re.store(out_re + at);
        v[r].im.store(out_im + at);
      }
    }
  }
}

template <class T, bool Inverse>
void dispatch_pass(int radix, const T* in_re, const T* in_im, T* out_re, T* out_im, std::size_t n,
                   const StockhamPass& pass, const Complex<T>* tw) {
  switch (radix) {
    case 2: return radix_pass<T, 2, Inverse>(in_re, in_im, out_re, out_im, n, pass, tw);
    case 3: return radix_pass<T, 3, Inverse>(in_re, in_im, out_re, out_im, n, pass, tw);
    case 4: return radix_pass<T, 4, Inverse>(in_re, in_im, out_re, out_im, n, pass, tw);
    case 5: return radix_pass<T, 5, Inverse>(in_re, in_im, out_re, out_im, n, pass, tw);
    case 7: return radix_pass<T, 7, Inverse>(in_re, in_im, out_re, out_im, n, pass, tw);
    case 8: return radix_pass<T, 8, Inverse>(in_re, in_im, out_re, out_im, n, pass, tw);
    case 11: return radix_pass<T, 11, Inverse>(in_re, in_im, out_re, out_im, n, pass, tw);
    case 13: return radix_pass<T, 13, Inverse>(in_re, in_im, out_re, out_im, n, pass, tw);
    case 16: return radix_pass<T, 16, Inverse>(in_re, in_im, out_re, out_im, n, pass, tw);
    default: std::abort();  // the factorisation only emits supported radices
  }
}

// Runs the Stockham passes on scratch buffer 0; returns which buffer holds
// the result (Stockham ping-pongs between the two).
template <class T>
int run_stockham(const LinePlan<T>& plan, LaneScratch<T>& s, bool inverse) {
  int src = 0;
  const std::size_t n = plan.length();
  for (const StockhamPass& pass : plan.passes) {
    const int dst = 1 - src;
    if (inverse) {
      dispatch_pass<T, true>(pass.radix, s.re[src].data(), s.im[src].data(), s.re[dst].data(), s.im[dst].data(),
                             n, pass, plan.twiddles.data());
    } else {
      dispatch_pass<T, false>(pass.radix, s.re[src].data(), s.im[src].data(), s.re[dst].data(), s.im[dst].data(),
                              n, pass, plan.twiddles.data());
    }
    src = dst;
  }
  return src;
}

// Copies `count` points of `lanes` lines into scratch [point][block_lanes],
// zero in the padding lanes. The loop order follows the smaller stride so
// reads stay sequential.
template <class T>
void gather(const Complex<T>* base, const LineBatch& batch, std::size_t count, std::size_t lanes, T* re, T* im) {
  if (lanes < block_lanes) {
    std::fill(re, re + count * block_lanes, T(0));
    std::fill(im, im + count * block_lanes, T(0));
  }
  if (std::abs(batch.lane_distance) <= std::abs(batch.point_stride)) {
    for (std::size_t i = 0; i < count; ++i) {
      const Complex<T>* p = base + static_cast<std::ptrdiff_t>(i) * batch.point_stride;
      for (std::size_t b = 0; b < lanes; ++b) {
        const Complex<T> z = p[static_cast<std::ptrdiff_t>(b) * batch.lane_distance];
        re[i * block_lanes + b] = z.re;
        im[i * block_lanes + b] = z.im;
      }
    }
  } else {
    for (std::size_t b = 0; b < lanes; ++b) {
      const Complex<T>* p = base + static_cast<std::ptrdiff_t>(b) * batch.lane_distance;
      for (std::size_t i = 0; i < count; ++i) {
        const Complex<T> z = p[static_cast<std::ptrdiff_t>(i) * batch.point_stride];
        re[i * block_lanes + b] = z.re;
        im[i * block_lanes + b] = z.im;
      }
    }
  }
}

template <class T>
void scatter(Complex<T>* base, const LineBatch& batch, std::size_t lanes, const T* re, const T* im, T scale) {
  const std::size_t count = batch.length;
  if (std::abs(batch.lane_distance) <= std::abs(batch.point_stride)) {
    for (std::size_t i = 0; i < count; ++i) {
      Complex<T>* p = base + static_cast<std::ptrdiff_t>(i) * batch.point_stride;
      for (std::size_t b = 0; b < lanes; ++b)
        p[static_cast<std::ptrdiff_t>(b) * batch.lane_distance] = {scale * re[i * block_lanes + b],
                                                                   scale * im[i * block_lanes + b]};
    }
  } else {
    for (std::size_t b = 0; b < lanes; ++b) {
      Complex<T>* p = base + static_cast<std::ptrdiff_t>(b) * batch.lane_distance;
      for (std::size_t i = 0; i < count; ++i)
        p[static_cast<std::ptrdiff_t>(i) * batch.point_stride] = {scale * re[i * block_lanes + b],
                                                                  scale * im[i * block_lanes + b]};
    }
  }
}

// Multiplies point i of every lane by factor[i], conjugating the data first
// when `conjugate_input` (Bluestein's inverse: conj(forward(conj(x)))).
template <class T>
void chirp_multiply(T* re, T* im, std::size_t count, const Complex<T>* factor,
                    bool conjugate_input) {
  const T sign = conjugate_input ? T(-1) : T(1);
  for (std::size_t i = 0; i < count; ++i) {
    const Complex<T> f = factor[i];
    for (std::size_t b = 0; b < block_lanes; ++b) {
      const Complex<T> z = {re[i * block_lanes + b], sign * im[i * block_lanes + b]};
      const Complex<T> p = z * f;
      re[i * block_lanes + b] = p.re;
      im[i * block_lanes + b] = p.im;
    }
  }
}

template <class T>
void transform_block(const LinePlan<T>& plan, Complex<T>* base, const LineBatch& batch, std::size_t lanes,
                     bool inverse, T scale, LaneScratch<T>& s) {
  const std::size_t n = plan.length();
  if (plan.factorization.algorithm == LineAlgorithm::stockham) {
    s.reserve(n * block_lanes);
    gather(base, batch, n, lanes, s.re[0].data(), s.im[0].data());
    const int result = run_stockham(plan, s, inverse);
    scatter(base, batch, lanes, s.re[result].data(), s.im[result].data(), scale);
    return;
  }
  // Bluestein: the inverse transform is conj(forward(conj(x))), folded into
  // the two chirp multiplies.
  const LinePlan<T>& conv = *plan.convolution;
  const std::size_t m = conv.length();
  s.reserve(m * block_lanes);
  gather(base, batch, n, lanes, s.re[0].data(), s.im[0].data());
  chirp_multiply(s.re[0].data(), s.im[0].data(), n, plan.chirp.data(), inverse);
  std::fill(s.re[0].data() + n * block_lanes, s.re[0].data() + m * block_lanes, T(0));
  std::fill(s.im[0].data() + n * block_lanes, s.im[0].data() + m * block_lanes, T(0));
  int at = run_stockham(conv, s, false);
  chirp_multiply(s.re[at].data(), s.im[at].data(), m, plan.kernel_spectrum.data(), false);
  if (at != 0) {
    std::swap(s.re[0], s.re[1]);
    std::swap(s.im[0], s.im[1]);
  }
  at = run_stockham(conv, s, true);
  chirp_multiply(s.re[at].data(), s.im[at].data(), n, plan.chirp.data(), false);
  if (inverse) {
    for (std::size_t i = 0; i < n * block_lanes; ++i) s.im[at][i] = -s.im[at][i];
  }
  scatter(base, batch, lanes, s.re[at].data(), s.im[at].data(), scale);
}

}  // namespace

template <class T>
void execute_lines_host(const LinePlan<T>& plan, Complex<T>* data, const LineBatch& batch, bool inverse, T scale) {
  if (batch.lines() == 0) return;
  const std::size_t block = block_lanes;
  const std::size_t blocks_per_group = (batch.lanes + block - 1) / block;
  const std::size_t tasks = blocks_per_group * batch.groups;
  tbb::enumerable_thread_specific<LaneScratch<T>> scratch;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, tasks), [&](const tbb::blocked_range<std::size_t>& range) {
    LaneScratch<T>& s = scratch.local();
    for (std::size_t task = range.begin(); task != range.end(); ++task) {
      const std::size_t group = task / blocks_per_group;
      const std::size_t first_lane = (task % blocks_per_group) * block;
      const std::size_t lanes = std::min(block, batch.lanes - first_lane);
      Complex<T>* base = data + static_cast<std::ptrdiff_t>(group) * batch.group_distance +
                         static_cast<std::ptrdiff_t>(first_lane) * batch.lane_distance;
      transform_block(plan, base, batch, lanes, inverse, scale, s);
    }
  });
}

template void execute_lines_host<float>(const LinePlan<float>&, Complex<float>*, const LineBatch&, bool, float);
template void execute_lines_host<double>(const LinePlan<double>&, Complex<double>*, const LineBatch&, bool, double);

}  // namespace oocfft::kernels
