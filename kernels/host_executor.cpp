#include "kernels/host_executor.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "kernels/butterfly.hpp"
#include "kernels/direct_prime.hpp"
#include "kernels/lane_pack.hpp"

namespace oocfft::kernels {
namespace {

// Lines in one LanePack: 32 bytes, a compile-time width that lets the
// butterflies run on whole vector registers (8 floats or 4 doubles; wider
// double packs spilled registers in radix-16 passes and ran c128 volumes
// at half the speed).
template <class T>
constexpr std::size_t pack_lanes = 32 / sizeof(T);
// A block holds up to this many packs side by side: longer contiguous runs
// for the gathers of strided axes, and one twiddle load serves every pack.
constexpr std::size_t max_packs = 4;
// Scratch of a block (two ping-pong buffers) is kept under this size so it
// stays in a core's L2 cache.
constexpr std::size_t block_scratch_bytes = std::size_t{256} << 10;

// Split real/imaginary scratch for a block of lines, laid out
// [point][width] with width = packs * pack_lanes; lanes past the real lines
// of a block are zero.
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

// One Stockham pass (see StockhamPass) over every pack of a block.
template <class T, int R, bool Inverse>
void radix_pass(const T* __restrict in_re, const T* __restrict in_im, T* __restrict out_re,
                T* __restrict out_im, std::size_t n, std::size_t width, const StockhamPass& pass,
                const Complex<T>* twiddles) {
  using Pack = LanePack<T, pack_lanes<T>>;
  const std::size_t quarter = n / R;  // distance between a butterfly's inputs
  const std::size_t span = pass.span;
  const Complex<T>* tw = twiddles + pass.twiddle_offset;
  for (std::size_t j0 = 0; j0 < quarter; j0 += span) {
    for (std::size_t k = 0; k < span; ++k) {
      const std::size_t j = j0 + k;
      const std::size_t dst = j0 * R + k;
      Complex<Pack> w[R];
      if (span > 1) {  // the first pass has span 1 and unit twiddles
        for (int r = 1; r < R; ++r) {
          const Complex<T> t = tw[k * (R - 1) + (r - 1)];
          w[r] = {Pack::broadcast(t.re), Pack::broadcast(t.im)};
        }
      }
      for (std::size_t lane = 0; lane < width; lane += pack_lanes<T>) {
        Complex<Pack> v[R];
        for (int r = 0; r < R; ++r) {
          const std::size_t at = (j + r * quarter) * width + lane;
          v[r] = {Pack::load(in_re + at), Pack::load(in_im + at)};
        }
        if (span > 1) {
          for (int r = 1; r < R; ++r) v[r] = twiddle<Inverse>(v[r], w[r]);
        }
        radix_butterfly<R, Inverse>(v);
        for (int r = 0; r < R; ++r) {
          const std::size_t at = (dst + r * span) * width + lane;
          v[r].re.store(out_re + at);
          v[r].im.store(out_im + at);
        }
      }
    }
  }
}

// A direct prime pass (direct_prime.hpp) over every pack of a block: the R
// inputs of a butterfly, twiddled, are gathered once per pack and each
// output pair is a sum over them, a pack of lanes at a time (one lane at a
// time it ran 1.2-2.7x slower than Bluestein for 23..89 on two cores).
template <class T, bool Inverse>
void direct_prime_pass(const T* in_re, const T* in_im, T* out_re, T* out_im, std::size_t n, std::size_t width,
                       const StockhamPass& pass, const Complex<T>* twiddles) {
  using Pack = LanePack<T, pack_lanes<T>>;
  const int radix = pass.radix;
  const std::size_t quarter = n / static_cast<std::size_t>(radix);
  const std::size_t span = pass.span;
  const Complex<T>* tw = twiddles + pass.twiddle_offset;
  const Complex<T>* roots = tw + span * static_cast<std::size_t>(radix - 1);
  std::vector<Complex<Pack>> y(static_cast<std::size_t>(radix));
  const auto value = [&y](int r) { return y[static_cast<std::size_t>(r)]; };
  const auto root = [roots](int k) {
    return Complex<Pack>{Pack::broadcast(roots[k].re), Pack::broadcast(roots[k].im)};
  };
  constexpr int pairs = direct_prime_pairs_per_call<Pack>;
  for (std::size_t j = 0; j < quarter; ++j) {
    const std::size_t k = j % span;
    const std::size_t first = (j - k) * static_cast<std::size_t>(radix) + k;
    for (std::size_t lane = 0; lane < width; lane += pack_lanes<T>) {
      for (int r = 0; r < radix; ++r) {
        const std::size_t at = (j + static_cast<std::size_t>(r) * quarter) * width + lane;
        Complex<Pack> v = {Pack::load(in_re + at), Pack::load(in_im + at)};
        if (span > 1 && r > 0) {
          const Complex<T> t = tw[k * static_cast<std::size_t>(radix - 1) + (r - 1)];
          v = twiddle<Inverse>(v, Complex<Pack>{Pack::broadcast(t.re), Pack::broadcast(t.im)});
        }
        y[static_cast<std::size_t>(r)] = v;
      }
      for (int m0 = 0; m0 <= (radix - 1) / 2; m0 += pairs) {
        Complex<Pack> low[pairs], high[pairs];
        direct_prime_pairs<Inverse>(radix, m0, value, root, low, high);
        for (int g = 0; g < pairs && m0 + g <= (radix - 1) / 2; ++g) {
          const std::size_t m = static_cast<std::size_t>(m0 + g);
          const std::size_t at = (first + m * span) * width + lane;
          low[g].re.store(out_re + at);
          low[g].im.store(out_im + at);
          if (m == 0) continue;
          const std::size_t mirror = (first + (static_cast<std::size_t>(radix) - m) * span) * width + lane;
          high[g].re.store(out_re + mirror);
          high[g].im.store(out_im + mirror);
        }
      }
    }
  }
}

template <class T, bool Inverse>
void dispatch_pass(int radix, const T* in_re, const T* in_im, T* out_re, T* out_im, std::size_t n,
                   std::size_t width, const StockhamPass& pass, const Complex<T>* tw) {
  switch (radix) {
    case 2: return radix_pass<T, 2, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 3: return radix_pass<T, 3, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 4: return radix_pass<T, 4, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 5: return radix_pass<T, 5, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 7: return radix_pass<T, 7, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 8: return radix_pass<T, 8, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 9: return radix_pass<T, 9, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 6: return radix_pass<T, 6, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 10: return radix_pass<T, 10, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 14: return radix_pass<T, 14, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 15: return radix_pass<T, 15, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 25: return radix_pass<T, 25, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 27: return radix_pass<T, 27, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 11: return radix_pass<T, 11, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 13: return radix_pass<T, 13, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    case 16: return radix_pass<T, 16, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
    default:
      // The factorisation emits only the radices above and direct primes.
      // The host runs every direct prime from memory: the in-register
      // butterflies the device takes for 17..31 (in_register_prime), over
      // the host's lane packs, took more than 20 minutes to compile with the
      // sanitizers.
      if (!is_direct_prime(radix)) std::abort();
      return direct_prime_pass<T, Inverse>(in_re, in_im, out_re, out_im, n, width, pass, tw);
  }
}

// Runs the Stockham passes starting from scratch buffer 0; returns which
// buffer holds the result (Stockham ping-pongs between the two).
template <class T>
int run_stockham(const LinePlan<T>& plan, LaneScratch<T>& s, std::size_t width, bool inverse) {
  int src = 0;
  const std::size_t n = plan.length();
  for (const StockhamPass& pass : plan.passes) {
    const int dst = 1 - src;
    if (inverse) {
      dispatch_pass<T, true>(pass.radix, s.re[src].data(), s.im[src].data(), s.re[dst].data(), s.im[dst].data(),
                             n, width, pass, plan.twiddles.data());
    } else {
      dispatch_pass<T, false>(pass.radix, s.re[src].data(), s.im[src].data(), s.re[dst].data(), s.im[dst].data(),
                              n, width, pass, plan.twiddles.data());
    }
    src = dst;
  }
  return src;
}

// Where a block's lines are: `lanes` real lines starting at `base`, held in
// scratch rows of `width` values.
template <class T>
struct BlockView {
  Complex<T>* base;
  std::size_t lanes;
  std::size_t width;
};

// Copies the block's lines into scratch [point][width], zero in the padding
// lanes. The loop order follows the smaller stride so reads stay sequential.
template <class T>
void gather(const BlockView<T>& block, const LineBatch& batch, T* re, T* im) {
  const std::size_t count = batch.length, w = block.width;
  if (block.lanes < w) {
    std::fill(re, re + count * w, T(0));
    std::fill(im, im + count * w, T(0));
  }
  if (std::abs(batch.lane_distance) <= std::abs(batch.point_stride)) {
    for (std::size_t i = 0; i < count; ++i) {
      const Complex<T>* p = block.base + static_cast<std::ptrdiff_t>(i) * batch.point_stride;
      for (std::size_t b = 0; b < block.lanes; ++b) {
        const Complex<T> z = p[static_cast<std::ptrdiff_t>(b) * batch.lane_distance];
        re[i * w + b] = z.re;
        im[i * w + b] = z.im;
      }
    }
  } else {
    for (std::size_t b = 0; b < block.lanes; ++b) {
      const Complex<T>* p = block.base + static_cast<std::ptrdiff_t>(b) * batch.lane_distance;
      for (std::size_t i = 0; i < count; ++i) {
        const Complex<T> z = p[static_cast<std::ptrdiff_t>(i) * batch.point_stride];
        re[i * w + b] = z.re;
        im[i * w + b] = z.im;
      }
    }
  }
}

template <class T>
void scatter(const BlockView<T>& block, const LineBatch& batch, const T* re, const T* im, T scale) {
  const std::size_t count = batch.length, w = block.width;
  if (std::abs(batch.lane_distance) <= std::abs(batch.point_stride)) {
    for (std::size_t i = 0; i < count; ++i) {
      Complex<T>* p = block.base + static_cast<std::ptrdiff_t>(i) * batch.point_stride;
      for (std::size_t b = 0; b < block.lanes; ++b)
        p[static_cast<std::ptrdiff_t>(b) * batch.lane_distance] = {scale * re[i * w + b], scale * im[i * w + b]};
    }
  } else {
    for (std::size_t b = 0; b < block.lanes; ++b) {
      Complex<T>* p = block.base + static_cast<std::ptrdiff_t>(b) * batch.lane_distance;
      for (std::size_t i = 0; i < count; ++i)
        p[static_cast<std::ptrdiff_t>(i) * batch.point_stride] = {scale * re[i * w + b], scale * im[i * w + b]};
    }
  }
}

// Multiplies point i of every lane by factor[i], conjugating the data first
// when `conjugate_input` (Bluestein's inverse: conj(forward(conj(x)))).
template <class T>
void pointwise_multiply(T* re, T* im, std::size_t count, std::size_t width, const Complex<T>* factor,
                        bool conjugate_input) {
  const T sign = conjugate_input ? T(-1) : T(1);
  for (std::size_t i = 0; i < count; ++i) {
    const Complex<T> f = factor[i];
    for (std::size_t b = 0; b < width; ++b) {
      const Complex<T> z = {re[i * width + b], sign * im[i * width + b]};
      const Complex<T> p = z * f;
      re[i * width + b] = p.re;
      im[i * width + b] = p.im;
    }
  }
}

template <class T>
void transform_block(const LinePlan<T>& plan, const BlockView<T>& block, const LineBatch& batch, bool inverse,
                     T scale, LaneScratch<T>& s) {
  const std::size_t n = plan.length(), w = block.width;
  if (plan.factorization.algorithm == LineAlgorithm::stockham) {
    s.reserve(n * w);
    gather(block, batch, s.re[0].data(), s.im[0].data());
    const int result = run_stockham(plan, s, w, inverse);
    scatter(block, batch, s.re[result].data(), s.im[result].data(), scale);
    return;
  }
  // Bluestein: the inverse transform is conj(forward(conj(x))), folded into
  // the two chirp multiplies.
  const LinePlan<T>& conv = *plan.convolution;
  const std::size_t m = conv.length();
  s.reserve(m * w);
  gather(block, batch, s.re[0].data(), s.im[0].data());
  pointwise_multiply(s.re[0].data(), s.im[0].data(), n, w, plan.chirp.data(), inverse);
  std::fill(s.re[0].data() + n * w, s.re[0].data() + m * w, T(0));
  std::fill(s.im[0].data() + n * w, s.im[0].data() + m * w, T(0));
  int at = run_stockham(conv, s, w, false);
  pointwise_multiply(s.re[at].data(), s.im[at].data(), m, w, plan.kernel_spectrum.data(), false);
  if (at != 0) {
    std::swap(s.re[0], s.re[1]);
    std::swap(s.im[0], s.im[1]);
  }
  at = run_stockham(conv, s, w, true);
  pointwise_multiply(s.re[at].data(), s.im[at].data(), n, w, plan.chirp.data(), false);
  if (inverse) {
    for (std::size_t i = 0; i < n * w; ++i) s.im[at][i] = -s.im[at][i];
  }
  scatter(block, batch, s.re[at].data(), s.im[at].data(), scale);
}

// Packs per block: as many as fit the scratch budget and the batch's lanes.
template <class T>
std::size_t packs_per_block(const LinePlan<T>& plan, std::size_t lanes) {
  const std::size_t work_length = plan.factorization.algorithm == LineAlgorithm::bluestein
                                      ? plan.factorization.convolution_length
                                      : plan.length();
  const std::size_t pack_bytes = 4 * sizeof(T) * pack_lanes<T> * std::max<std::size_t>(work_length, 1);
  const std::size_t fit = std::max<std::size_t>(1, block_scratch_bytes / pack_bytes);
  const std::size_t needed = (lanes + pack_lanes<T> - 1) / pack_lanes<T>;
  return std::min({fit, needed, max_packs});
}

}  // namespace

template <class T>
void execute_lines_host(const LinePlan<T>& plan, Complex<T>* data, const LineBatch& batch, bool inverse, T scale) {
  if (batch.lines() == 0) return;
  const std::size_t width = packs_per_block(plan, batch.lanes) * pack_lanes<T>;
  const std::size_t blocks_per_group = (batch.lanes + width - 1) / width;
  const std::size_t tasks = blocks_per_group * batch.groups;
  tbb::enumerable_thread_specific<LaneScratch<T>> scratch;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, tasks), [&](const tbb::blocked_range<std::size_t>& range) {
    LaneScratch<T>& s = scratch.local();
    for (std::size_t task = range.begin(); task != range.end(); ++task) {
      const std::size_t group = task / blocks_per_group;
      const std::size_t first_lane = (task % blocks_per_group) * width;
      const BlockView<T> block{data + static_cast<std::ptrdiff_t>(group) * batch.group_distance +
                                   static_cast<std::ptrdiff_t>(first_lane) * batch.lane_distance,
                               std::min(width, batch.lanes - first_lane), width};
      transform_block(plan, block, batch, inverse, scale, s);
    }
  });
}

template void execute_lines_host<float>(const LinePlan<float>&, Complex<float>*, const LineBatch&, bool, float);
template void execute_lines_host<double>(const LinePlan<double>&, Complex<double>*, const LineBatch&, bool, double);

}  // namespace oocfft::kernels
