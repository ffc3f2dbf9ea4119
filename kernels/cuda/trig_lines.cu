// The elementwise kernels of DeviceTrigLines (trig_lines_kernels.hpp says
// what each does). DCT-II by one complex FFT of the same length (Makhoul,
// "A fast cosine transform in one and multidimensional spaces", IEEE Trans.
// ASSP 28(1), 1980, eq. 20 and 23-25), DCT-III as its inverse, the DSTs
// through them: DST-II(x)[k] = DCT-II((-1)^n x[n])[N-1-k] and
// DST-III(x)[k] = (-1)^k DCT-III(x[N-1-n])[k]. Two real lines ride one
// complex line (z = a + i b); their spectra part by Hermitian symmetry.
// One thread per (group, pair, point), a grid-stride loop over the
// workspace's flat index, so each thread owns one workspace value.
#include <algorithm>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/trig_lines_kernels.hpp"

namespace oocfft::kernels::cuda {

namespace {

constexpr unsigned threads_per_block = 256;

unsigned blocks_for(std::int64_t total) {
  const std::int64_t blocks = (total + threads_per_block - 1) / threads_per_block;
  return static_cast<unsigned>(std::clamp<std::int64_t>(blocks, 1, std::int64_t{1} << 20));
}

// The workspace's flat index i as (group, pair, point) and back.
struct Place {
  std::int64_t g, q, j;
};
__device__ __forceinline__ Place place_of(std::int64_t i, const TrigLayout& L) {
  Place p;
  if (L.pairs_fast) {
    p.q = i % L.pairs;
    const std::int64_t t = i / L.pairs;
    p.j = t % L.n;
    p.g = t / L.n;
  } else {
    p.j = i % L.n;
    const std::int64_t t = i / L.n;
    p.q = t % L.pairs;
    p.g = t / L.pairs;
  }
  return p;
}
__device__ __forceinline__ std::int64_t work_index(std::int64_t g, std::int64_t q, std::int64_t j,
                                                   const TrigLayout& L) {
  return L.pairs_fast ? (g * L.n + j) * L.pairs + q : (g * L.pairs + q) * L.n + j;
}
// Element `point` of real line (group g, lane).
__device__ __forceinline__ std::int64_t line_index(std::int64_t g, std::int64_t lane, std::int64_t point,
                                                   const TrigLayout& L) {
  return g * L.group_distance + lane * L.lane_distance + point * L.point_stride;
}
// Makhoul's order: v[j] = x[perm(j)], the even samples ascending, then the
// odd ones descending.
__device__ __forceinline__ std::int64_t makhoul_source(std::int64_t j, std::int64_t n) {
  return j < (n + 1) / 2 ? 2 * j : 2 * n - 1 - 2 * j;
}

template <class T>
__global__ void trig2_pack(const T* data, TrigLayout L, bool sine, Complex<T>* work) {
  const std::int64_t total = L.groups * L.pairs * L.n;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const Place p = place_of(i, L);
    const std::int64_t src = makhoul_source(p.j, L.n);
    const std::int64_t lane = 2 * p.q;
    T a = data[line_index(p.g, lane, src, L)];
    T b = lane + 1 < L.lanes ? data[line_index(p.g, lane + 1, src, L)] : T(0);
    if (sine && (src & 1)) {
      a = -a;
      b = -b;
    }
    work[i] = {a, b};
  }
}

// V_a[k] = (Z[k] + conj Z[n-k]) / 2, V_b[k] = (Z[k] - conj Z[n-k]) / (2i);
// y[k] = 2 Re(w^k V[k]), so with 2 V_a = (zr + yr, zi - yi) and
// 2 V_b = (zi + yi, yr - zr) (y = Z[n-k]) no halving is needed.
template <class T>
__global__ void trig2_unpack(const Complex<T>* work, TrigLayout L, const Complex<T>* w, TrigFactors<T> f, T* data) {
  const std::int64_t total = L.groups * L.pairs * L.n;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const Place p = place_of(i, L);
    const std::int64_t k = p.j;
    const Complex<T> z = work[i];
    const Complex<T> y = work[work_index(p.g, p.q, k == 0 ? 0 : L.n - k, L)];
    const Complex<T> wk = w[k];
    const T weight = k == 0 ? f.first : f.rest;
    const T ya = wk.re * (z.re + y.re) - wk.im * (z.im - y.im);
    const T yb = wk.re * (z.im + y.im) - wk.im * (y.re - z.re);
    const std::int64_t out = f.sine ? L.n - 1 - k : k;
    const std::int64_t lane = 2 * p.q;
    data[line_index(p.g, lane, out, L)] = weight * ya;
    if (lane + 1 < L.lanes) data[line_index(p.g, lane + 1, out, L)] = weight * yb;
  }
}

// Makhoul's inverse (eq. 25): V[k] = conj(w^k) (X[k] - i X[n-k]) / 2 gives
// the v of the DCT-II X; without the 1/2 the unnormalised inverse FFT of V
// gives 2n v, which is the DCT-III of X in scipy's backward convention.
template <class T>
__global__ void trig3_pack(const T* data, TrigLayout L, const Complex<T>* w, TrigFactors<T> f, Complex<T>* work) {
  const std::int64_t total = L.groups * L.pairs * L.n;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const Place p = place_of(i, L);
    const std::int64_t k = p.j;
    // X[k] and X[n-k] of the DCT domain: the DST reads its input reversed.
    const std::int64_t at = f.sine ? L.n - 1 - k : k;
    const std::int64_t mirror = f.sine ? k - 1 : L.n - k;  // only read for k > 0
    const std::int64_t lane = 2 * p.q;
    const bool has_b = lane + 1 < L.lanes;
    const T weight = k == 0 ? f.first : f.rest;
    const T a0 = weight * data[line_index(p.g, lane, at, L)];
    const T b0 = has_b ? weight * data[line_index(p.g, lane + 1, at, L)] : T(0);
    const T a1 = k == 0 ? T(0) : f.rest * data[line_index(p.g, lane, mirror, L)];
    const T b1 = k == 0 || !has_b ? T(0) : f.rest * data[line_index(p.g, lane + 1, mirror, L)];
    const Complex<T> wc = conj(w[k]);
    const Complex<T> va = wc * Complex<T>{a0, -a1};
    const Complex<T> vb = wc * Complex<T>{b0, -b1};
    work[i] = {va.re - vb.im, va.im + vb.re};  // va + i vb
  }
}

template <class T>
__global__ void trig3_unpack(const Complex<T>* work, TrigLayout L, bool sine, T* data) {
  const std::int64_t total = L.groups * L.pairs * L.n;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const Place p = place_of(i, L);
    const std::int64_t out = makhoul_source(p.j, L.n);
    const T sign = sine && (out & 1) ? T(-1) : T(1);
    const Complex<T> z = work[i];
    const std::int64_t lane = 2 * p.q;
    data[line_index(p.g, lane, out, L)] = sign * z.re;
    if (lane + 1 < L.lanes) data[line_index(p.g, lane + 1, out, L)] = sign * z.im;
  }
}

template <class T>
__global__ void scale_real(T* data, std::int64_t count, T scale) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x)
    data[i] *= scale;
}

std::int64_t total_of(const TrigLayout& L) { return L.groups * L.pairs * L.n; }

}  // namespace

template <class T>
void launch_trig2_pack(const T* data, const TrigLayout& layout, bool sine, Complex<T>* work, cudaStream_t stream) {
  if (total_of(layout) == 0) return;
  trig2_pack<T><<<blocks_for(total_of(layout)), threads_per_block, 0, stream>>>(data, layout, sine, work);
  check_launch("trig2_pack (DCT/DST type 2)");
}

template <class T>
void launch_trig2_unpack(const Complex<T>* work, const TrigLayout& layout, const Complex<T>* w,
                         const TrigFactors<T>& factors, T* data, cudaStream_t stream) {
  if (total_of(layout) == 0) return;
  trig2_unpack<T><<<blocks_for(total_of(layout)), threads_per_block, 0, stream>>>(work, layout, w, factors, data);
  check_launch("trig2_unpack (DCT/DST type 2)");
}

template <class T>
void launch_trig3_pack(const T* data, const TrigLayout& layout, const Complex<T>* w, const TrigFactors<T>& factors,
                       Complex<T>* work, cudaStream_t stream) {
  if (total_of(layout) == 0) return;
  trig3_pack<T><<<blocks_for(total_of(layout)), threads_per_block, 0, stream>>>(data, layout, w, factors, work);
  check_launch("trig3_pack (DCT/DST type 3)");
}

template <class T>
void launch_trig3_unpack(const Complex<T>* work, const TrigLayout& layout, bool sine, T* data, cudaStream_t stream) {
  if (total_of(layout) == 0) return;
  trig3_unpack<T><<<blocks_for(total_of(layout)), threads_per_block, 0, stream>>>(work, layout, sine, data);
  check_launch("trig3_unpack (DCT/DST type 3)");
}

template <class T>
void launch_scale_real(T* data, std::int64_t count, T scale, cudaStream_t stream) {
  if (count <= 0) return;
  scale_real<T><<<blocks_for(count), threads_per_block, 0, stream>>>(data, count, scale);
  check_launch("scale_real");
}

#define OOCFFT_TRIG_INSTANCES(T)                                                                                  \
  template void launch_trig2_pack<T>(const T*, const TrigLayout&, bool, Complex<T>*, cudaStream_t);             \
  template void launch_trig2_unpack<T>(const Complex<T>*, const TrigLayout&, const Complex<T>*,                 \
                                       const TrigFactors<T>&, T*, cudaStream_t);                                \
  template void launch_trig3_pack<T>(const T*, const TrigLayout&, const Complex<T>*, const TrigFactors<T>&,     \
                                     Complex<T>*, cudaStream_t);                                                \
  template void launch_trig3_unpack<T>(const Complex<T>*, const TrigLayout&, bool, T*, cudaStream_t);       \
  template void launch_scale_real<T>(T*, std::int64_t, T, cudaStream_t);
OOCFFT_TRIG_INSTANCES(float)
OOCFFT_TRIG_INSTANCES(double)
#undef OOCFFT_TRIG_INSTANCES

}  // namespace oocfft::kernels::cuda
