#include "kernels/cuda/centring.hpp"

#include <algorithm>

#include "kernels/cuda/cuda_check.hpp"

namespace oocfft::kernels::cuda {

DeviceCentringTables::DeviceCentringTables(const CentringTables& tables) {
  std::size_t total = 0;
  for (int a = 0; a < 3; ++a) total += tables.input[a].size() + tables.output[a].size();
  buffer_ = DeviceBuffer(total * sizeof(Complex<double>), "the centring phases");
  auto* base = static_cast<Complex<double>*>(buffer_.get());
  std::size_t at = 0;
  auto upload = [&](const std::vector<Complex<double>>& t) {
    check_cuda(cudaMemcpy(base + at, t.data(), t.size() * sizeof(Complex<double>), cudaMemcpyHostToDevice),
               "cudaMemcpy (centring phases)");
    const Complex<double>* p = base + at;
    at += t.size();
    return p;
  };
  for (int a = 0; a < 3; ++a) {
    view_.input[a] = upload(tables.input[a]);
    view_.output[a] = upload(tables.output[a]);
  }
}

namespace {

constexpr unsigned threads_per_block = 256;

// One thread per element of a staged row, rows strided over the grid's y.
template <class T>
__global__ void centre_rows(Complex<T>* brick, std::size_t rows, std::size_t middle, std::size_t inner,
                            const Complex<double>* outer_phase, const Complex<double>* middle_phase,
                            const Complex<double>* inner_phase) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= inner) return;
  const Complex<double> wi = inner_phase[i];
  for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
    const Complex<double> w = outer_phase[row / middle] * middle_phase[row % middle] * wi;
    Complex<T>& v = brick[row * inner + i];
    const Complex<double> p = Complex<double>{double(v.re), double(v.im)} * w;
    v = {T(p.re), T(p.im)};
  }
}

}  // namespace

template <class T>
void centre_brick(Complex<T>* brick, const Shape& staged, const BrickOrigin& origin, const StagedAxes& axes,
                  const CentringView& tables, CentringSide side, cudaStream_t stream) {
  const std::size_t at[3] = {origin.z0, origin.y0, origin.x0};
  auto table = [&](int d) {
    const int a = axes.axis[d];
    return (side == CentringSide::input ? tables.input[a] : tables.output[a]) + at[a];
  };
  const std::size_t rows = staged.nz * staged.ny;
  const dim3 grid(static_cast<unsigned>((staged.nx + threads_per_block - 1) / threads_per_block),
                  static_cast<unsigned>(std::min<std::size_t>(rows, 65535)));
  centre_rows<T><<<grid, threads_per_block, 0, stream>>>(brick, rows, staged.ny, staged.nx, table(0), table(1),
                                                         table(2));
  check_launch("centre_rows (centring phases)");
}

template void centre_brick<float>(Complex<float>*, const Shape&, const BrickOrigin&, const StagedAxes&,
                                  const CentringView&, CentringSide, cudaStream_t);
template void centre_brick<double>(Complex<double>*, const Shape&, const BrickOrigin&, const StagedAxes&,
                                   const CentringView&, CentringSide, cudaStream_t);

}  // namespace oocfft::kernels::cuda
