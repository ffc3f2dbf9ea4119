#pragma once
// The CUDA vector type of two T, for one 8- or 16-byte access per complex
// value (Complex<T> itself is aligned to T only). Used by the tile kernels
// (general_tile_kernels.cuh, also compiled by NVRTC) and the real rows'
// kernels (real_rows.cu, real_rows_staging.cuh). float2 and double2 come
// from the CUDA headers, or NVRTC's built-in types.
namespace oocfft::kernels::cuda {

template <class T>
struct Vec2;
template <>
struct Vec2<float> {
  using type = float2;
};
template <>
struct Vec2<double> {
  using type = double2;
};

}  // namespace oocfft::kernels::cuda
