#pragma once
// The elementwise kernels of DeviceTrigLines (trig_lines.cu): Makhoul's
// pack and unpack of DCT/DST types 2 and 3, two real lines per complex
// line. Internal to device_trig_lines.cpp; every launch is asynchronous on
// `stream` and checked.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/complex.hpp"

namespace oocfft::kernels::cuda {

// Where the real lines lie (a LineBatch over T, as signed integers) and how
// the complex lines of the workspace are laid out: lanes (2q, 2q+1) of a
// group make pair q; the workspace holds, per group, n points of `pairs`
// pairs, as [group][point][pair] when `pairs_fast` (the lanes are the
// real lines' fast dimension, as for the y and z lines of a brick) and
// [group][pair][point] otherwise, so that the kernels read and write
// neighbouring values in both buffers.
struct TrigLayout {
  std::int64_t n = 1;
  std::int64_t lanes = 1;
  std::int64_t groups = 1;
  std::int64_t pairs = 1;  // (lanes + 1) / 2
  std::int64_t point_stride = 1;
  std::int64_t lane_distance = 0;
  std::int64_t group_distance = 0;
  bool pairs_fast = false;
};

// The factors of one transform: `first` multiplies the term of index 0 in
// the DCT domain (output 0 of type 2, input 0 of type 3), `rest` every
// other; scipy's ortho weighting and the caller's scale folded together.
// `sine`: the DST, by sign alternation and reversal around the DCT.
template <class T>
struct TrigFactors {
  T first = T(1);
  T rest = T(1);
  bool sine = false;
};

// Type 2: real lines -> workspace, v[j] = x[2j] (j < (n+1)/2), x[2n-1-2j]
// (the rest); z = v_a + i v_b. DST: x[i] times (-1)^i.
template <class T>
void launch_trig2_pack(const T* data, const TrigLayout& layout, bool sine, Complex<T>* work, cudaStream_t stream);
// Type 2: the FFTs Z -> y[k] = 2 Re(w_4n^k V[k]) times the factor, V the
// spectrum of one line (Z[k] +- conj Z[n-k]); DST writes y to n-1-k.
// `w` holds w_4n^k = exp(-i pi k / (2n)), k < n.
template <class T>
void launch_trig2_unpack(const Complex<T>* work, const TrigLayout& layout, const Complex<T>* w,
                         const TrigFactors<T>& factors, T* data, cudaStream_t stream);
// Type 3: real lines -> workspace, V[k] = conj(w_4n^k) (X[k] - i X[n-k])
// (X[n] = 0) for each line of the pair, Z = V_a + i V_b; DST reads X[k] as
// x[n-1-k]. The factors multiply X.
template <class T>
void launch_trig3_pack(const T* data, const TrigLayout& layout, const Complex<T>* w, const TrigFactors<T>& factors,
                       Complex<T>* work, cudaStream_t stream);
// Type 3: the inverse FFTs z -> y[perm(j)] = Re z[j] (line a), Im z[j] (b),
// perm the type-2 order; DST times (-1)^perm(j).
template <class T>
void launch_trig3_unpack(const Complex<T>* work, const TrigLayout& layout, bool sine, T* data, cudaStream_t stream);

// data[i] *= scale, i < count: a brick of real values none of whose axes
// is transformed.
template <class T>
void launch_scale_real(T* data, std::int64_t count, T scale, cudaStream_t stream);

}  // namespace oocfft::kernels::cuda
