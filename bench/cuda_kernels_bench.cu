// oocfft_cuda_bench: the in-house CUDA kernels against cuFFT, in-core on one
// GPU, one line per case. cuFFT is a peer measured in the same run; the
// library never links it.
//
// Per case: our time and cuFFT's (CUDA events around one in-place
// transform, after a warm-up; median of several repetitions), the ratio
// cuFFT time / our time (>= 1 means we are faster), our bandwidth counting
// one read and one write of the data, and that as a fraction of the measured
// device-to-device copy bandwidth (read + write), and both relative L2
// errors against a reference in higher precision: FFTW long double on a
// sample of lines for 1D cases, cuFFT double (Z2Z on the same input) for 3D
// complex<float>; none for 3D complex<double>.
//
// The column `tiles` says which tile kernel each axis ran on (x, y, z):
// S a schedule compiled ahead of time, P one compiled at plan time by NVRTC,
// G the general kernel (four-step and Bluestein included), - not
// transformed; F (real rows) the half-length FFT with its split or merge
// folded into one plan-time tile (real_schedule_kernels.cuh), R (real
// rows) one short-row kernel, the direct DFT or the fused kernel, for the
// whole transform.
//
//   oocfft_cuda_bench [--quick] [--pow2] [--general-tiles | --ahead-of-time-only]
//                     [--lengths N,... [--z-lines]] [--smooth | --long | --longer] [--plan-time-costs]
//                     [--real [--real-range LO,HI]] [--real-kernels] [--real-3d]
// --quick: a subset, fewer repetitions; --pow2: only powers of two up to
// 4096, 256^3, 512^3; --general-tiles: the device plans use the general tile
// kernel everywhere (TileKernels::general_only), for a before/after
// comparison; --ahead-of-time-only: no plan-time (NVRTC) schedules, the
// general kernel where the build has no schedule; --lengths: only the
// batched 1D cases of those lengths (for a profiler), as z lines of a
// [n][1][lanes] brick with --z-lines (the strided layout); --smooth: every
// 7-smooth length 9..4096, batched, with a summary per type (the targets:
// 0.9x cuFFT in complex64, 0.85x in complex128); --long: every 7-smooth
// length 4097..16384 that is not a power of two, batched, with a summary
// per type (the target: 0.8x); --longer: the same for 16385..65536 (the
// rest of the target's range 8192..65536); --plan-time-costs: first,
// for each length, the plan of its x lines and of its z lines built over an
// empty kernel cache (cold: NVRTC compiles) and again over the filled one
// (warm: the cubins are loaded), with the seconds of each. The plan-time
// schedules of the whole run are then cached in that temporary directory,
// not in the user's cache.
// --real: batched 1D R2C and C2R of real rows (1 GiB of reals a case) in
// FFTW's padded in-place layout, DeviceRealRows against cufftPlanMany on the
// same layout, every 7-smooth length 2..4096 (or --lengths, or those in
// --real-range), float and double (--types), both errors against fftwl on
// four sampled rows and their ratio, and a summary per type and direction
// (targets: time ratio >= 0.9, error ratio <= 1.5), the input restored
// before every timed call; --real-kernels: the even-length split and merge
// alone, old and new, repeated in place and restored; --real-3d: rfftn of
// float volumes in device memory (DeviceBrickPlan's real mode, all axes,
// against cufftPlan3d R2C in place), errors against cuFFT D2Z.
#include <cuda_runtime.h>
#include <cufft.h>
#include <CLI/CLI.hpp>
#include <fftw3.h>

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <complex>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "core/relative_l2.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_brick_plan.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/device_limits.hpp"
#include "kernels/cuda/device_real_rows.hpp"
#include "kernels/cuda/real_rows_kernels.hpp"
#include "kernels/cuda/plan_time_schedules.hpp"
#include "kernels/cuda/schedule_registry.hpp"
#include "kernels/cuda/stream.hpp"
#include "kernels/volume_transform.hpp"

namespace {

namespace kc = oocfft::kernels::cuda;
using oocfft::l2_sums;
using oocfft::L2Sums;
using oocfft::AxisSet;
using oocfft::Shape;
using oocfft::kernels::Complex;

void check_cufft(cufftResult r, const char* call) {
  if (r != CUFFT_SUCCESS) throw std::runtime_error(std::string(call) + " failed with cufftResult " + std::to_string(r));
}

// Uniform values in [-0.5, 0.5) from a hash of the index: the same float
// values in both precisions, never zeros.
template <class T>
__global__ void fill_random(Complex<T>* x, std::int64_t n, std::uint32_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    std::uint64_t h = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull + seed;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    const float re = static_cast<float>(h & 0xffffff) / 16777216.0f - 0.5f;
    const float im = static_cast<float>((h >> 24) & 0xffffff) / 16777216.0f - 0.5f;
    x[i] = {static_cast<T>(re), static_cast<T>(im)};
  }
}

template <class T>
__global__ void widen(const Complex<T>* x, Complex<double>* y, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    y[i] = {static_cast<double>(x[i].re), static_cast<double>(x[i].im)};
}

// sums[0] += |y - ref|^2, sums[1] += |ref|^2
template <class T>
__global__ void error_sums(const Complex<T>* y, const Complex<double>* ref, std::int64_t n, double* sums) {
  double num = 0, den = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const double dr = static_cast<double>(y[i].re) - ref[i].re, di = static_cast<double>(y[i].im) - ref[i].im;
    num += dr * dr + di * di;
    den += ref[i].re * ref[i].re + ref[i].im * ref[i].im;
  }
  for (int o = 16; o > 0; o /= 2) {
    num += __shfl_down_sync(0xffffffffu, num, o);
    den += __shfl_down_sync(0xffffffffu, den, o);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(sums, num);
    atomicAdd(sums + 1, den);
  }
}

constexpr unsigned grid_of(std::int64_t n) { return static_cast<unsigned>(std::min<std::int64_t>((n + 255) / 256, 65536)); }

template <class T>
double device_error(const Complex<T>* y, const Complex<double>* ref, std::int64_t n) {
  kc::DeviceBuffer sums(2 * sizeof(double), "error sums");
  kc::check_cuda(cudaMemset(sums.get(), 0, sums.bytes()), "cudaMemset");
  error_sums<T><<<grid_of(n), 256>>>(y, ref, n, sums.as<double>());
  kc::check_launch("error_sums");
  double h[2];
  kc::check_cuda(cudaMemcpy(h, sums.get(), sizeof h, cudaMemcpyDeviceToHost), "cudaMemcpy");
  return std::sqrt(h[0] / h[1]);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Milliseconds of one call of `f` on `stream`: warm-up, then the median of
// `reps` timed calls.
double time_ms(const std::function<void()>& f, cudaStream_t stream, int reps) {
  const kc::Event start, stop;
  f();
  f();
  kc::check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    start.record(stream);
    f();
    stop.record(stream);
    stop.synchronize();
    t.push_back(stop.elapsed_ms_since(start));
  }
  return median(t);
}

// The same, for an in-place `f` that must not see its own output: `restore`
// (untimed, on the same stream) puts the input back before every call, so
// each timed call transforms bounded data.
double time_ms_restored(const std::function<void()>& f, const std::function<void()>& restore, cudaStream_t stream,
                        int reps) {
  const kc::Event start, stop;
  restore();
  f();
  kc::check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    restore();
    start.record(stream);
    f();
    stop.record(stream);
    stop.synchronize();
    t.push_back(stop.elapsed_ms_since(start));
  }
  return median(t);
}

double copy_bandwidth_gbs() {
  const std::size_t bytes = std::size_t{1} << 30;
  const kc::DeviceBuffer a(bytes), b(bytes);
  const kc::Stream s;
  kc::check_cuda(cudaMemsetAsync(a.get(), 1, bytes, s.get()), "cudaMemsetAsync");
  const double ms = time_ms(
      [&] { kc::check_cuda(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, s.get()), "cudaMemcpyAsync"); },
      s.get(), 10);
  return 2.0 * bytes / (ms * 1e6);
}

// Where the lines of a case lie, for sampling: line i starts at start(i),
// points `stride` apart.
struct LineSample {
  std::size_t length = 0;
  std::size_t stride = 1;
  std::vector<std::size_t> starts;
};

// Relative L2 error of the sampled lines of `y` against fftwl of the same
// lines of `x` (both device arrays).
template <class T>
double sampled_error(const Complex<T>* x_dev, const Complex<T>* y_dev, const LineSample& s) {
  const std::size_t n = s.length;
  L2Sums sums;
  std::vector<Complex<T>> x(n), y(n);
  std::vector<std::complex<long double>> in(n), out(n);
  fftwl_plan p = fftwl_plan_dft_1d(static_cast<int>(n), reinterpret_cast<fftwl_complex*>(in.data()),
                                   reinterpret_cast<fftwl_complex*>(out.data()), FFTW_FORWARD, FFTW_ESTIMATE);
  for (std::size_t start : s.starts) {
    const std::size_t e = sizeof(Complex<T>);
    kc::check_cuda(cudaMemcpy2D(x.data(), e, x_dev + start, s.stride * e, e, n, cudaMemcpyDeviceToHost), "cudaMemcpy2D");
    kc::check_cuda(cudaMemcpy2D(y.data(), e, y_dev + start, s.stride * e, e, n, cudaMemcpyDeviceToHost), "cudaMemcpy2D");
    for (std::size_t i = 0; i < n; ++i) in[i] = {x[i].re, x[i].im};
    fftwl_execute(p);
    sums += l2_sums(y.data(), out.data(), n);
  }
  fftwl_destroy_plan(p);
  return sums.relative();
}

// The element types a run measures (--types): a sweep over one type takes
// half the device time.
enum class BenchTypes { both, c64, c128 };

struct Options {
  bool quick = false;
  BenchTypes types = BenchTypes::both;
  bool single() const { return types != BenchTypes::c128; }
  bool twice() const { return types != BenchTypes::c64; }
  bool pow2 = false;  // only powers of two
  int reps = 10;
  kc::TileKernels tile_kernels = kc::TileKernels::compiled_where_available;
  // Shared by every plan of the run; null: each plan caches in the default
  // directory.
  std::shared_ptr<kc::PlanTimeSchedules> plan_time;
};

template <class T>
constexpr const char* type_name() {
  return std::is_same_v<T, float> ? "c64" : "c128";
}

// One case: `shape` transformed along `axes` by us, and by the cuFFT plan
// that `make_cufft` builds. Returns the ratio cuFFT time / our time.
template <class T>
double run_case(const std::string& name, Shape shape, AxisSet axes, const std::function<cufftHandle()>& make_cufft,
              const LineSample* sample, bool device_reference, double copy_gbs, const Options& opt) {
  using CT = Complex<T>;
  const std::int64_t n = static_cast<std::int64_t>(shape.elements());
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(CT);
  const kc::Stream stream;
  const kc::DeviceBuffer input(bytes, "bench input"), data(bytes, "bench data");
  fill_random<T><<<grid_of(n), 256, 0, stream.get()>>>(input.as<CT>(), n, 12345u);
  kc::check_launch("fill_random");

  const kc::DeviceBrickPlan<T> ours(shape, axes, opt.tile_kernels, opt.plan_time);
  const kc::DeviceBuffer work(ours.workspace_bytes(), "bench workspace");
  cufftHandle handle = make_cufft();
  check_cufft(cufftSetStream(handle, stream.get()), "cufftSetStream");
  auto run_ours = [&] { ours.execute(data.as<CT>(), shape, work.get(), false, T(1), stream.get()); };
  auto run_cufft = [&] {
    if constexpr (std::is_same_v<T, float>) {
      check_cufft(cufftExecC2C(handle, data.as<cufftComplex>(), data.as<cufftComplex>(), CUFFT_FORWARD), "cufftExecC2C");
    } else {
      check_cufft(cufftExecZ2Z(handle, data.as<cufftDoubleComplex>(), data.as<cufftDoubleComplex>(), CUFFT_FORWARD),
                  "cufftExecZ2Z");
    }
  };
  auto restore = [&] {
    kc::check_cuda(cudaMemcpyAsync(data.get(), input.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()),
                   "cudaMemcpyAsync");
  };

  // Accuracy on a fresh copy of the input.
  double err_ours = NAN, err_cufft = NAN;
  if (sample != nullptr) {
    restore();
    run_ours();
    stream.synchronize();
    err_ours = sampled_error<T>(input.as<CT>(), data.as<CT>(), *sample);
    restore();
    run_cufft();
    stream.synchronize();
    err_cufft = sampled_error<T>(input.as<CT>(), data.as<CT>(), *sample);
  } else if (device_reference && std::is_same_v<T, float>) {
    const kc::DeviceBuffer ref(static_cast<std::size_t>(n) * sizeof(Complex<double>), "bench reference");
    widen<T><<<grid_of(n), 256, 0, stream.get()>>>(input.as<CT>(), ref.as<Complex<double>>(), n);
    kc::check_launch("widen");
    cufftHandle z;
    check_cufft(cufftPlan3d(&z, static_cast<int>(shape.nz), static_cast<int>(shape.ny), static_cast<int>(shape.nx), CUFFT_Z2Z),
                "cufftPlan3d");
    check_cufft(cufftSetStream(z, stream.get()), "cufftSetStream");
    check_cufft(cufftExecZ2Z(z, ref.as<cufftDoubleComplex>(), ref.as<cufftDoubleComplex>(), CUFFT_FORWARD), "cufftExecZ2Z");
    stream.synchronize();
    cufftDestroy(z);
    restore();
    run_ours();
    stream.synchronize();
    err_ours = device_error<T>(data.as<CT>(), ref.as<Complex<double>>(), n);
    restore();
    run_cufft();
    stream.synchronize();
    err_cufft = device_error<T>(data.as<CT>(), ref.as<Complex<double>>(), n);
  }

  // Timing: repeated in-place forward transforms of the same buffer.
  restore();
  const double t_ours = time_ms(run_ours, stream.get(), opt.reps);
  restore();
  const double t_cufft = time_ms(run_cufft, stream.get(), opt.reps);
  cufftDestroy(handle);
  const double gbs = 2.0 * bytes / (t_ours * 1e6);
  std::printf("%-22s %-5s %-5s %9.4f %9.4f %6.2f %8.0f %5.2f  %9.2e %9.2e\n", name.c_str(), type_name<T>(),
              ours.tile_kernels_used().c_str(), t_ours, t_cufft, t_cufft / t_ours, gbs, gbs / copy_gbs, err_ours,
              err_cufft);
  std::fflush(stdout);
  return t_cufft / t_ours;
}

template <class T>
constexpr cufftType c2c() {
  return std::is_same_v<T, float> ? CUFFT_C2C : CUFFT_Z2Z;
}

template <class T>
double batched_1d(std::size_t len, double copy_gbs, const Options& opt) {
  const std::size_t total = (std::size_t{1} << 30) / sizeof(Complex<T>);
  const std::size_t lines = total / len;
  LineSample s;
  s.length = len;
  s.stride = 1;
  for (std::size_t l : {std::size_t{0}, lines / 3, 2 * lines / 3, lines - 1}) s.starts.push_back(l * len);
  return run_case<T>("1d n=" + std::to_string(len), Shape{1, lines, len}, AxisSet{false, false, true},
              [&] {
                cufftHandle h;
                int n[1] = {static_cast<int>(len)};
                check_cufft(cufftPlanMany(&h, 1, n, nullptr, 1, static_cast<int>(len), nullptr, 1, static_cast<int>(len),
                                          c2c<T>(), static_cast<int>(lines)),
                            "cufftPlanMany");
                return h;
              },
              &s, false, copy_gbs, opt);
}

// The z lines of `shape` (strided: the x-y plane's points are the lanes,
// contiguous), against cuFFT's strided batch over the same lanes.
template <class T>
void z_lines(const std::string& name, Shape shape, double copy_gbs, const Options& opt) {
  const std::size_t plane = shape.ny * shape.nx;
  LineSample s;
  s.length = shape.nz;
  s.stride = plane;
  for (std::size_t p : {std::size_t{0}, plane / 3 + 7, plane - 1}) s.starts.push_back(p);
  run_case<T>(name, shape, AxisSet::only_z(),
              [&] {
                cufftHandle h;
                int n[1] = {static_cast<int>(shape.nz)};
                int embed[1] = {static_cast<int>(shape.nz)};
                check_cufft(cufftPlanMany(&h, 1, n, embed, static_cast<int>(plane), 1, embed, static_cast<int>(plane), 1,
                                          c2c<T>(), static_cast<int>(plane)),
                            "cufftPlanMany");
                return h;
              },
              &s, false, copy_gbs, opt);
}

// Batched z lines of length `len`: a [len][1][lanes] brick of about 1 GiB
// (the layout of a volume's y and z axes).
template <class T>
void batched_z_lines(std::size_t len, double copy_gbs, const Options& opt) {
  const std::size_t lanes = (std::size_t{1} << 30) / sizeof(Complex<T>) / len;
  z_lines<T>("z n=" + std::to_string(len), Shape{len, 1, lanes}, copy_gbs, opt);
}

template <class T>
void strided_z(std::size_t edge, double copy_gbs, const Options& opt) {
  z_lines<T>("z lines " + std::to_string(edge) + "^3", Shape{edge, edge, edge}, copy_gbs, opt);
}

template <class T>
void volume_3d(Shape shape, double copy_gbs, const Options& opt) {
  const std::string name = "3d " + std::to_string(shape.nz) + "x" + std::to_string(shape.ny) + "x" + std::to_string(shape.nx);
  run_case<T>(name, shape, AxisSet::all(),
              [&] {
                cufftHandle h;
                check_cufft(cufftPlan3d(&h, static_cast<int>(shape.nz), static_cast<int>(shape.ny), static_cast<int>(shape.nx),
                                        c2c<T>()),
                            "cufftPlan3d");
                return h;
              },
              nullptr, true, copy_gbs, opt);
}

// Every 7-smooth length in [low, high], ascending.
std::vector<std::size_t> smooth_lengths(std::size_t low, std::size_t high) {
  std::vector<std::size_t> v;
  for (std::size_t n = low; n <= high; ++n) {
    std::size_t m = n;
    for (std::size_t p : {2, 3, 5, 7})
      while (m % p == 0) m /= p;
    if (m == 1) v.push_back(n);
  }
  return v;
}

// One line per type: how many cases, the smallest and the median ratio, and
// the lengths below `target`.
void summarise(const char* type, std::vector<std::pair<double, std::size_t>> ratios, double target) {
  if (ratios.empty()) return;
  std::sort(ratios.begin(), ratios.end());
  std::string below;
  for (const auto& [r, n] : ratios)
    if (r < target) below += " " + std::to_string(n) + "(" + std::to_string(r).substr(0, 4) + ")";
  std::printf("summary %s: %zu lengths, ratio min %.2f, median %.2f, max %.2f; below %.2f:%s\n", type, ratios.size(),
              ratios.front().first, ratios[ratios.size() / 2].first, ratios.back().first, target,
              below.empty() ? " none" : below.c_str());
}

std::vector<std::size_t> powers(std::size_t base, std::size_t limit) {
  std::vector<std::size_t> v;
  for (std::size_t p = base * base; p <= limit; p *= base) v.push_back(p);
  return v;
}

// The plan of x lines (contiguous) and of z lines (strided, up to 1024) of
// each length, built over the empty cache directory `dir` (cold: NVRTC
// compiles) and again by a second cache object over the same directory
// (warm: the cubins come from disk), one line each: plan seconds, and the
// NVRTC and load seconds of its plan-time schedules.
template <class T>
void plan_time_costs(const std::vector<std::size_t>& lengths, const std::filesystem::path& dir) {
  for (std::size_t n : lengths) {
    for (bool z : {false, true}) {
      if (z && n > 1024) continue;
      const Shape shape = z ? Shape{n, 1, 256} : Shape{1, 256, n};
      const AxisSet axes = z ? AxisSet::only_z() : AxisSet{false, false, true};
      std::string line;
      for (const char* pass : {"cold", "warm"}) {
        auto plan_time = std::make_shared<kc::PlanTimeSchedules>(kc::CubinCache(dir));
        const auto start = std::chrono::steady_clock::now();
        const kc::DeviceBrickPlan<T> plan(shape, axes, kc::TileKernels::compiled_where_available, plan_time);
        const double plan_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        double compile_s = 0, load_s = 0;
        for (const kc::PlanTimeOutcome& o : plan_time->outcomes()) {
          compile_s += o.compile_seconds;
          load_s += o.load_seconds;
        }
        char part[160];
        std::snprintf(part, sizeof part, "  %s: plan %.4f s (NVRTC %.4f s, load %.4f s, %zu schedules)", pass, plan_s,
                      compile_s, load_s, plan_time->outcomes().size());
        line += part;
        if (std::string(pass) == "warm") line = std::string(" tiles ") + plan.tile_kernels_used() + line;
      }
      std::printf("plan-time %-5s n=%-5zu %s%s\n", type_name<T>(), n, z ? "z" : "x", line.c_str());
      std::fflush(stdout);
    }
  }
}


// ------------------------------------------------------------------ real data
// Batched 1D R2C / C2R (DeviceRealRows) and 3D R2C (DeviceBrickPlan's real
// mode) against cuFFT on the same device buffer, both in FFTW's padded
// in-place layout (rows of 2 (n/2+1) reals). The 1D rows are restored from
// the input before every timed call (untimed), for both sides: a forward
// applied to its own output grows by up to sqrt(n) a call and reaches inf
// and NaN within the warm-up for short rows (n = 2: twice a call), and
// --real-kernels shows what that did to the timings. The 3D volumes are
// transformed repeatedly in place and overflow to inf after a few calls,
// as the complex 3D cases do.

template <class T>
constexpr const char* real_type_name() {
  return std::is_same_v<T, float> ? "f32" : "f64";
}

// A half spectrum a real row can have: Im X[0] and, for even n, Im X[n/2]
// zero (numpy and FFTW ignore them; cuFFT's C2R does not promise to).
template <class T>
__global__ void hermitian_ends(T* d, std::int64_t rows, std::int64_t pitch, std::int64_t n) {
  for (std::int64_t r = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; r < rows;
       r += std::int64_t{gridDim.x} * blockDim.x) {
    d[r * pitch + 1] = T(0);
    if (n % 2 == 0) d[r * pitch + n + 1] = T(0);
  }
}

struct RealRowFigures {
  double time_ratio = 0;   // cuFFT time / ours
  double error_ratio = 0;  // our error / cuFFT's
};

// Relative L2 of sampled rows of `y` against fftwl's r2c (forward) or c2r
// (inverse, unnormalised) of the same rows of `x` (device, padded layout).
template <class T>
double sampled_real_error(const T* x_dev, const T* y_dev, std::size_t n, std::size_t pitch,
                          const std::vector<std::size_t>& rows, bool inverse) {
  const std::size_t half = n / 2 + 1;
  std::vector<T> x(pitch), y(pitch);
  std::vector<long double> reals(n);
  std::vector<std::complex<long double>> spectrum(half);
  L2Sums sums;
  for (std::size_t r : rows) {
    kc::check_cuda(cudaMemcpy(x.data(), x_dev + r * pitch, pitch * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    kc::check_cuda(cudaMemcpy(y.data(), y_dev + r * pitch, pitch * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (!inverse) {
      for (std::size_t j = 0; j < n; ++j) reals[j] = x[j];
      fftwl_plan p = fftwl_plan_dft_r2c_1d(static_cast<int>(n), reals.data(),
                                           reinterpret_cast<fftwl_complex*>(spectrum.data()), FFTW_ESTIMATE);
      fftwl_execute(p);
      fftwl_destroy_plan(p);
      for (std::size_t k = 0; k < half; ++k) sums.add(std::complex<T>(y[2 * k], y[2 * k + 1]), spectrum[k]);
    } else {
      for (std::size_t k = 0; k < half; ++k) spectrum[k] = {x[2 * k], x[2 * k + 1]};
      fftwl_plan p = fftwl_plan_dft_c2r_1d(static_cast<int>(n), reinterpret_cast<fftwl_complex*>(spectrum.data()),
                                           reals.data(), FFTW_ESTIMATE);
      fftwl_execute(p);
      fftwl_destroy_plan(p);
      for (std::size_t j = 0; j < n; ++j) sums.add(y[j], reals[j]);
    }
  }
  return sums.relative();
}

// One batched case: 1 GiB of reals in rows of n (padded), R2C or C2R, ours
// (DeviceRealRows, its plan-time schedules from `plan_time`) against
// cufftPlanMany on the same layout.
template <class T>
RealRowFigures real_rows_case(std::size_t n, bool inverse, double copy_gbs, const Options& opt,
                              const std::shared_ptr<kc::PlanTimeSchedules>& plan_time) {
  const std::size_t half = n / 2 + 1, pitch = 2 * half;
  const std::size_t rows = (std::size_t{1} << 30) / sizeof(T) / n;
  const std::size_t elements = rows * pitch;
  const std::size_t bytes = elements * sizeof(T);
  const kc::Stream stream;
  const kc::DeviceBuffer input(bytes, "bench input"), data(bytes, "bench data");
  fill_random<T><<<grid_of(std::int64_t(elements / 2)), 256, 0, stream.get()>>>(input.as<Complex<T>>(),
                                                                                std::int64_t(elements / 2), 777u + n);
  kc::check_launch("fill_random");
  if (inverse) {
    hermitian_ends<T><<<grid_of(std::int64_t(rows)), 256, 0, stream.get()>>>(input.as<T>(), std::int64_t(rows),
                                                                            std::int64_t(pitch), std::int64_t(n));
    kc::check_launch("hermitian_ends");
  }

  kc::DeviceRealRows<T> ours(n, kc::DeviceLimits::current(), opt.tile_kernels);
  if (opt.tile_kernels == kc::TileKernels::compiled_where_available) {
    const std::vector<kc::ScheduleKey> keys = ours.plan_time_keys(rows, pitch);
    if (std::any_of(keys.begin(), keys.end(), [](const kc::ScheduleKey& k) { return !kc::outside_plan_time_family(k); })) {
      for (const kc::ScheduleKey& key : keys) plan_time->prepare(key);
      ours.use_plan_time(plan_time);
    }
  }
  char tile = '-';
  if (const auto* line = ours.line_plan()) {
    switch (line->tile_kernel(ours.complex_lines(rows, pitch))) {
      case kc::TileKernel::ahead_of_time: tile = 'S'; break;
      case kc::TileKernel::plan_time: tile = 'P'; break;
      case kc::TileKernel::general: tile = 'G'; break;
    }
  }
  if (ours.ends_kernel(rows, pitch, inverse) == kc::TileKernel::plan_time) tile = 'F';
  if (ours.short_row_kernel(inverse)) tile = 'R';
  const kc::DeviceBuffer work(ours.workspace_bytes(rows, pitch), "bench workspace");

  cufftHandle handle;
  {
    int len[1] = {static_cast<int>(n)}, real_embed[1] = {static_cast<int>(pitch)}, half_embed[1] = {static_cast<int>(half)};
    const cufftType type = std::is_same_v<T, float> ? (inverse ? CUFFT_C2R : CUFFT_R2C) : (inverse ? CUFFT_Z2D : CUFFT_D2Z);
    if (inverse)
      check_cufft(cufftPlanMany(&handle, 1, len, half_embed, 1, static_cast<int>(half), real_embed, 1,
                                static_cast<int>(pitch), type, static_cast<int>(rows)),
                  "cufftPlanMany (C2R, padded in place)");
    else
      check_cufft(cufftPlanMany(&handle, 1, len, real_embed, 1, static_cast<int>(pitch), half_embed, 1,
                                static_cast<int>(half), type, static_cast<int>(rows)),
                  "cufftPlanMany (R2C, padded in place)");
  }
  check_cufft(cufftSetStream(handle, stream.get()), "cufftSetStream");
  auto run_ours = [&] { ours.execute(data.as<T>(), rows, pitch, work.get(), inverse, T(1), stream.get()); };
  auto run_cufft = [&] {
    if constexpr (std::is_same_v<T, float>) {
      if (inverse)
        check_cufft(cufftExecC2R(handle, data.as<cufftComplex>(), data.as<cufftReal>()), "cufftExecC2R");
      else
        check_cufft(cufftExecR2C(handle, data.as<cufftReal>(), data.as<cufftComplex>()), "cufftExecR2C");
    } else {
      if (inverse)
        check_cufft(cufftExecZ2D(handle, data.as<cufftDoubleComplex>(), data.as<cufftDoubleReal>()), "cufftExecZ2D");
      else
        check_cufft(cufftExecD2Z(handle, data.as<cufftDoubleReal>(), data.as<cufftDoubleComplex>()), "cufftExecD2Z");
    }
  };
  auto restore = [&] {
    kc::check_cuda(cudaMemcpyAsync(data.get(), input.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()),
                   "cudaMemcpyAsync");
  };
  const std::vector<std::size_t> sample = {0, rows / 3, 2 * rows / 3, rows - 1};
  restore();
  run_ours();
  stream.synchronize();
  const double err_ours = sampled_real_error<T>(input.as<T>(), data.as<T>(), n, pitch, sample, inverse);
  restore();
  run_cufft();
  stream.synchronize();
  const double err_cufft = sampled_real_error<T>(input.as<T>(), data.as<T>(), n, pitch, sample, inverse);

  const double t_ours = time_ms_restored(run_ours, restore, stream.get(), opt.reps);
  const double t_cufft = time_ms_restored(run_cufft, restore, stream.get(), opt.reps);
  cufftDestroy(handle);
  const double gbs = 2.0 * bytes / (t_ours * 1e6);
  const std::string name = std::string(inverse ? "c2r" : "r2c") + " n=" + std::to_string(n);
  std::printf("%-22s %-5s %-5c %9.4f %9.4f %6.2f %8.0f %5.2f  %9.2e %9.2e %6.2f\n", name.c_str(), real_type_name<T>(),
              tile, t_ours, t_cufft, t_cufft / t_ours, gbs, gbs / copy_gbs, err_ours, err_cufft, err_ours / err_cufft);
  std::fflush(stdout);
  return {t_cufft / t_ours, err_ours / err_cufft};
}

// One line per type and direction: the time ratios (target: at least
// `time_target`) and the error ratios (target: at most `error_target`).
void summarise_real(const std::string& what, const std::vector<std::pair<RealRowFigures, std::size_t>>& figures,
                    double time_target, double error_target) {
  if (figures.empty()) return;
  std::vector<std::pair<double, std::size_t>> times;
  std::vector<double> errors;
  std::string worse;
  for (const auto& [f, n] : figures) {
    times.emplace_back(f.time_ratio, n);
    errors.push_back(f.error_ratio);
    if (!(f.error_ratio <= error_target)) worse += " " + std::to_string(n) + "(" + std::to_string(f.error_ratio).substr(0, 4) + ")";
  }
  summarise(what.c_str(), times, time_target);
  std::sort(errors.begin(), errors.end());
  std::printf("summary %s error ratio (ours / cuFFT): median %.2f, max %.2f; above %.2f:%s\n", what.c_str(),
              errors[errors.size() / 2], errors.back(), error_target, worse.empty() ? " none" : worse.c_str());
}


// --real-kernels: the even-length split and merge of DeviceRealRows alone,
// the kernels as they were before the 2D-block rewrite (one thread per
// pair of a flat index, a 64-bit division each, 4-byte accesses) beside the
// current ones, each timed twice on 1 GiB of float rows: applied
// repeatedly to its own output, as the --real cases once were (the values
// grow to inf and NaN), and with the input restored before every call.
// Then the whole DeviceRealRows both ways (restored). The last column
// counts the non-finite values the repeated calls left.
template <class T>
__global__ void legacy_real_split(Complex<T>* rows, std::int64_t count, std::int64_t pitch, std::int64_t m,
                                  const Complex<T>* w, T scale) {
  const std::int64_t pairs = m / 2 + 1;
  const std::int64_t total = count * pairs;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t r = i / pairs;
    const std::int64_t k = i - r * pairs;
    Complex<T>* row = rows + r * pitch;
    if (k == 0) {
      const Complex<T> z = row[0];
      row[0] = {scale * (z.re + z.im), T(0)};
      row[m] = {scale * (z.re - z.im), T(0)};
      continue;
    }
    const std::int64_t j = m - k;
    const Complex<T> a = row[k];
    const Complex<T> b = row[j];
    const Complex<T> e = {T(0.5) * (a.re + b.re), T(0.5) * (a.im - b.im)};
    const Complex<T> o = {T(0.5) * (a.im + b.im), T(0.5) * (b.re - a.re)};
    const Complex<T> wo = w[k] * o;
    const Complex<T> p = e + wo, q = conj(e - wo);
    row[k] = {scale * p.re, scale * p.im};
    if (j != k) row[j] = {scale * q.re, scale * q.im};
  }
}

template <class T>
__global__ void legacy_real_merge(Complex<T>* rows, std::int64_t count, std::int64_t pitch, std::int64_t m,
                                  const Complex<T>* w, T scale) {
  const std::int64_t pairs = m / 2 + 1;
  const std::int64_t total = count * pairs;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t r = i / pairs;
    const std::int64_t k = i - r * pairs;
    Complex<T>* row = rows + r * pitch;
    if (k == 0) {
      const T x0 = row[0].re;
      const T xm = row[m].re;
      row[0] = {scale * (x0 + xm), scale * (x0 - xm)};
      continue;
    }
    const std::int64_t j = m - k;
    const Complex<T> a = row[k];
    const Complex<T> b = row[j];
    const Complex<T> e = {a.re + b.re, a.im - b.im};
    const Complex<T> d = {a.re - b.re, a.im + b.im};
    const Complex<T> o = conj(w[k]) * d;
    row[k] = {scale * (e.re - o.im), scale * (e.im + o.re)};
    if (j != k) row[j] = {scale * (e.re + o.im), scale * (o.re - e.im)};
  }
}

template <class T>
__global__ void count_non_finite(const T* x, std::int64_t n, unsigned long long* count) {
  unsigned long long c = 0;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    c += isfinite(x[i]) ? 0 : 1;
  atomicAdd(count, c);
}

void real_kernels_diagnosis(const std::vector<std::size_t>& lengths, const Options& opt) {
  using T = float;
  std::printf("real-kernels (f32, 1 GiB of reals a case): ms per call; rep = repeated on its own output, rst = input "
              "restored before each call\n");
  std::printf("%-8s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %12s\n", "n", "oldsp rep", "oldsp rst", "oldmg rep",
              "oldmg rst", "split rep", "split rst", "merge rep", "merge rst", "r2c rst", "c2r rst", "nonfinite");
  for (std::size_t n : lengths) {
    if (n % 2 != 0) continue;
    const std::size_t half = n / 2 + 1, pitch = 2 * half, m = n / 2;
    const std::size_t rows = (std::size_t{1} << 30) / sizeof(T) / n;
    const std::size_t elements = rows * pitch, bytes = elements * sizeof(T);
    const kc::Stream stream;
    const kc::DeviceBuffer input(bytes, "bench input"), data(bytes, "bench data"), counter(8, "bench counter");
    fill_random<T><<<grid_of(std::int64_t(elements / 2)), 256, 0, stream.get()>>>(input.as<Complex<T>>(),
                                                                                  std::int64_t(elements / 2), 99u + n);
    kc::check_launch("fill_random");
    std::vector<Complex<T>> w(half);
    for (std::size_t k = 0; k < half; ++k) {
      const long double a = -2.0L * 3.14159265358979323846264338327950288L * k / n;
      w[k] = {static_cast<T>(std::cos(a)), static_cast<T>(std::sin(a))};
    }
    const kc::DeviceBuffer table(half * sizeof(Complex<T>), "bench twiddles");
    kc::check_cuda(cudaMemcpy(table.get(), w.data(), table.bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
    auto* z = data.as<Complex<T>>();
    const auto* tw = table.as<const Complex<T>>();
    const auto c = std::int64_t(rows), p = std::int64_t(pitch / 2), mm = std::int64_t(m);
    const unsigned legacy_blocks = static_cast<unsigned>(std::min<std::int64_t>((c * (mm / 2 + 1) + 255) / 256, 1 << 20));
    auto restore = [&] {
      kc::check_cuda(cudaMemcpyAsync(data.get(), input.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()),
                     "cudaMemcpyAsync");
    };
    unsigned long long non_finite = 0;
    auto both = [&](const std::function<void()>& f, double& rep, double& rst) {
      restore();
      rep = time_ms(f, stream.get(), opt.reps);
      kc::check_cuda(cudaMemsetAsync(counter.get(), 0, 8, stream.get()), "cudaMemsetAsync");
      count_non_finite<T><<<1024, 256, 0, stream.get()>>>(data.as<T>(), std::int64_t(elements), counter.as<unsigned long long>());
      unsigned long long h = 0;
      kc::check_cuda(cudaMemcpy(&h, counter.get(), 8, cudaMemcpyDeviceToHost), "cudaMemcpy");
      non_finite = std::max(non_finite, h);
      rst = time_ms_restored(f, restore, stream.get(), opt.reps);
    };
    double t[10] = {};
    both([&] { legacy_real_split<T><<<legacy_blocks, 256, 0, stream.get()>>>(z, c, p, mm, tw, T(1)); }, t[0], t[1]);
    both([&] { legacy_real_merge<T><<<legacy_blocks, 256, 0, stream.get()>>>(z, c, p, mm, tw, T(1)); }, t[2], t[3]);
    both([&] { kc::launch_real_split<T>(z, c, p, mm, tw, T(1), stream.get()); }, t[4], t[5]);
    both([&] { kc::launch_real_merge<T>(z, c, p, mm, tw, T(1), stream.get()); }, t[6], t[7]);
    kc::DeviceRealRows<T> ours(n, kc::DeviceLimits::current(), opt.tile_kernels);
    const kc::DeviceBuffer work(ours.workspace_bytes(rows, pitch), "bench workspace");
    t[8] = time_ms_restored([&] { ours.execute(data.as<T>(), rows, pitch, work.get(), false, T(1), stream.get()); },
                            restore, stream.get(), opt.reps);
    t[9] = time_ms_restored([&] { ours.execute(data.as<T>(), rows, pitch, work.get(), true, T(1), stream.get()); },
                            restore, stream.get(), opt.reps);
    std::printf("%-8zu %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %12llu\n", n, t[0], t[1], t[2], t[3],
                t[4], t[5], t[6], t[7], t[8], t[9], non_finite);
    std::fflush(stdout);
  }
}

template <class T>
void real_rows_sweep(const std::vector<std::size_t>& lengths, double copy_gbs, const Options& opt) {
  const std::shared_ptr<kc::PlanTimeSchedules> plan_time =
      opt.plan_time ? opt.plan_time : std::make_shared<kc::PlanTimeSchedules>(kc::CubinCache(kc::default_kernel_cache_directory()));
  std::vector<std::pair<RealRowFigures, std::size_t>> forward, inverse;
  for (std::size_t n : lengths) {
    forward.emplace_back(real_rows_case<T>(n, false, copy_gbs, opt, plan_time), n);
    inverse.emplace_back(real_rows_case<T>(n, true, copy_gbs, opt, plan_time), n);
  }
  summarise_real(std::string("r2c ") + real_type_name<T>(), forward, 0.9, 1.5);
  summarise_real(std::string("c2r ") + real_type_name<T>(), inverse, 0.9, 1.5);
}

// rfftn of a real volume in device memory (padded layout, in place): ours
// (DeviceBrickPlan, real mode, all axes) against cufftPlan3d R2C in place;
// both errors against cuFFT D2Z on the widened input.
void real_volume_3d(Shape real_shape, double copy_gbs, const Options& opt) {
  using T = float;
  const std::size_t half = real_shape.nx / 2 + 1;
  const Shape brick{real_shape.nz, real_shape.ny, half};
  const std::int64_t complex_count = static_cast<std::int64_t>(brick.elements());
  const std::size_t bytes = static_cast<std::size_t>(complex_count) * sizeof(Complex<T>);
  const kc::Stream stream;
  const kc::DeviceBuffer input(bytes, "bench input"), data(bytes, "bench data");
  fill_random<T><<<grid_of(complex_count), 256, 0, stream.get()>>>(input.as<Complex<T>>(), complex_count, 4242u);
  kc::check_launch("fill_random");
  oocfft::kernels::VolumeTransform transform;
  transform.kind = oocfft::kernels::TransformKind::real;
  transform.real_length = real_shape.nx;
  const kc::DeviceBrickPlan<T> ours(brick, AxisSet::all(), transform, opt.tile_kernels, opt.plan_time);
  const kc::DeviceBuffer work(ours.workspace_bytes(), "bench workspace");
  cufftHandle handle;
  check_cufft(cufftPlan3d(&handle, static_cast<int>(real_shape.nz), static_cast<int>(real_shape.ny),
                          static_cast<int>(real_shape.nx), CUFFT_R2C),
              "cufftPlan3d (R2C)");
  check_cufft(cufftSetStream(handle, stream.get()), "cufftSetStream");
  auto run_ours = [&] { ours.execute(data.as<Complex<T>>(), brick, work.get(), false, T(1), stream.get()); };
  auto run_cufft = [&] {
    check_cufft(cufftExecR2C(handle, data.as<cufftReal>(), data.as<cufftComplex>()), "cufftExecR2C");
  };
  auto restore = [&] {
    kc::check_cuda(cudaMemcpyAsync(data.get(), input.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()),
                   "cudaMemcpyAsync");
  };
  double err_ours = NAN, err_cufft = NAN;
  {
    const kc::DeviceBuffer ref(static_cast<std::size_t>(complex_count) * sizeof(Complex<double>), "bench reference");
    widen<T><<<grid_of(complex_count), 256, 0, stream.get()>>>(input.as<Complex<T>>(), ref.as<Complex<double>>(),
                                                             complex_count);
    kc::check_launch("widen");
    cufftHandle z;
    check_cufft(cufftPlan3d(&z, static_cast<int>(real_shape.nz), static_cast<int>(real_shape.ny),
                            static_cast<int>(real_shape.nx), CUFFT_D2Z),
                "cufftPlan3d (D2Z)");
    check_cufft(cufftSetStream(z, stream.get()), "cufftSetStream");
    check_cufft(cufftExecD2Z(z, ref.as<cufftDoubleReal>(), ref.as<cufftDoubleComplex>()), "cufftExecD2Z");
    stream.synchronize();
    cufftDestroy(z);
    restore();
    run_ours();
    stream.synchronize();
    err_ours = device_error<T>(data.as<Complex<T>>(), ref.as<Complex<double>>(), complex_count);
    restore();
    run_cufft();
    stream.synchronize();
    err_cufft = device_error<T>(data.as<Complex<T>>(), ref.as<Complex<double>>(), complex_count);
  }
  restore();
  const double t_ours = time_ms(run_ours, stream.get(), opt.reps);
  restore();
  const double t_cufft = time_ms(run_cufft, stream.get(), opt.reps);
  cufftDestroy(handle);
  const double gbs = 2.0 * bytes / (t_ours * 1e6);
  const std::string name = "r2c 3d " + std::to_string(real_shape.nz) + "x" + std::to_string(real_shape.ny) + "x" +
                           std::to_string(real_shape.nx);
  std::printf("%-22s %-5s %-5s %9.4f %9.4f %6.2f %8.0f %5.2f  %9.2e %9.2e %6.2f\n", name.c_str(), "f32",
              ours.tile_kernels_used().c_str(), t_ours, t_cufft, t_cufft / t_ours, gbs, gbs / copy_gbs, err_ours,
              err_cufft, err_ours / err_cufft);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  bool general_tiles = false;
  std::vector<std::size_t> only_lengths;
  CLI::App app{"oocfft_cuda_bench: the in-house CUDA kernels against cuFFT, in-core on one GPU"};
  app.add_flag("--quick", opt.quick, "a subset of the cases, 5 repetitions");
  app.add_flag("--pow2", opt.pow2, "only powers of two up to 4096, 256^3 and 512^3");
  app.add_flag("--general-tiles", general_tiles, "the general tile kernel everywhere (before/after comparisons)");
  app.add_option("--lengths", only_lengths, "only batched 1D cases of these lengths (for profiling)")->delimiter(',');
  bool z_lines = false;
  app.add_flag("--z-lines", z_lines, "with --lengths: the lines as z lines of a [n][1][lanes] brick (strided)")
      ->needs("--lengths");
  bool smooth = false;
  app.add_flag("--smooth", smooth, "every 7-smooth length 9..4096 as batched 1D, then a summary per type");
  bool long_lines = false;
  app.add_flag("--long", long_lines,
               "every 7-smooth length 4097..16384 but the powers of two as batched 1D, then a summary per type")
      ->excludes("--smooth");
  bool longer_lines = false;
  app.add_flag("--longer", longer_lines,
               "every 7-smooth length 16385..65536 but the powers of two as batched 1D, then a summary per type")
      ->excludes("--smooth")
      ->excludes("--long");
  bool ahead_of_time_only = false;
  app.add_flag("--ahead-of-time-only", ahead_of_time_only,
               "no plan-time (NVRTC) schedules: the general kernel where the build has no schedule");
  app.add_option("--types", opt.types, "element types: both (the default), c64 or c128")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, BenchTypes>{{"both", BenchTypes::both}, {"c64", BenchTypes::c64}, {"c128", BenchTypes::c128}},
          CLI::ignore_case));
  bool plan_time_timings = false;
  app.add_flag("--plan-time-costs", plan_time_timings,
               "first, cold and warm plan-time compile costs of each --lengths length (x and z lines)");
  bool real_rows = false;
  app.add_flag("--real", real_rows,
               "batched 1D R2C and C2R in the padded in-place layout (DeviceRealRows vs cufftPlanMany), every "
               "7-smooth length 2..4096 or --lengths, then a summary per type and direction");
  std::vector<std::size_t> real_range;
  app.add_option("--real-range", real_range, "with --real: only the lengths LO..HI (LO,HI)")
      ->delimiter(',')
      ->expected(2)
      ->needs("--real");
  bool real_kernels = false;
  app.add_flag("--real-kernels", real_kernels,
               "the even-length split and merge alone, old and new, repeated in place and restored (f32, 1 GiB; "
               "--lengths or 2,8,16,64,1024)");
  bool real_3d = false;
  app.add_flag("--real-3d", real_3d,
               "3D R2C of float volumes in device memory (DeviceBrickPlan real mode vs cufftPlan3d R2C): 1024^3, "
               "300x320x343, 360^3");
  CLI11_PARSE(app, argc, argv);
  if (opt.quick) opt.reps = 5;
  if (general_tiles) opt.tile_kernels = kc::TileKernels::general_only;
  if (ahead_of_time_only) opt.tile_kernels = kc::TileKernels::ahead_of_time_only;
  // A temporary cache directory for --plan-time-costs, removed at the end.
  struct TemporaryDirectory {
    std::filesystem::path path;
    ~TemporaryDirectory() {
      std::error_code ec;
      if (!path.empty()) std::filesystem::remove_all(path, ec);
    }
  } cache_dir;
  try {
    if (plan_time_timings) {
      std::string name = (std::filesystem::temp_directory_path() / "oocfft_bench_kernels_XXXXXX").string();
      if (::mkdtemp(name.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + name);
      cache_dir.path = name;
    }
    cudaDeviceProp prop{};
    kc::check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    const double copy_gbs = copy_bandwidth_gbs();
    std::printf("device: %s, %d SMs; device copy (read + write): %.0f GB/s; compiled schedules: set %s\n", prop.name,
                prop.multiProcessorCount, copy_gbs, kc::kernel_set());
    std::printf("ratio = cuFFT time / our time; GB/s counts one read + one write; errors: relative L2 vs a higher-precision reference\n");
    std::printf("%-22s %-5s %-5s %9s %9s %6s %8s %5s  %9s %9s\n", "case", "type", "tiles", "ours ms", "cuFFT ms", "ratio",
                "GB/s", "copy", "err ours", "err cuFFT");
    if (plan_time_timings) {
      std::printf("plan-time kernels: plans of 256 lines, cache in a fresh temporary directory\n");
      if (opt.single()) plan_time_costs<float>(only_lengths, cache_dir.path);
      if (opt.twice()) plan_time_costs<double>(only_lengths, cache_dir.path);
      opt.plan_time = std::make_shared<kc::PlanTimeSchedules>(kc::CubinCache(cache_dir.path));
    }
    if (real_kernels)
      real_kernels_diagnosis(only_lengths.empty() ? std::vector<std::size_t>{2, 8, 16, 64, 1024} : only_lengths, opt);
    if (real_rows || real_3d) {
      std::printf("real cases: padded in-place layout on both sides; ratio = cuFFT time / ours (target 0.9); GB/s "
                  "one read + one write of the padded buffer; last column: our error / cuFFT's (target <= 1.5)\n");
      if (real_rows) {
        std::vector<std::size_t> sweep = only_lengths.empty() ? smooth_lengths(2, 4096) : only_lengths;
        if (real_range.size() == 2)
          sweep.erase(std::remove_if(sweep.begin(), sweep.end(),
                                     [&](std::size_t n) { return n < real_range[0] || n > real_range[1]; }),
                      sweep.end());
        if (opt.single()) real_rows_sweep<float>(sweep, copy_gbs, opt);
        if (opt.twice()) real_rows_sweep<double>(sweep, copy_gbs, opt);
      }
      if (real_3d)
        for (const Shape& s : {Shape{1024, 1024, 1024}, Shape{300, 320, 343}, Shape{360, 360, 360}})
          real_volume_3d(s, copy_gbs, opt);
      return 0;
    }
    std::vector<std::size_t> lengths;
    if (!only_lengths.empty()) {
      lengths = only_lengths;
    } else if (opt.pow2) {
      lengths = {16, 64, 256, 1024, 4096};
    } else if (opt.quick) {
      lengths = {16, 64, 256, 1024, 4096, 65536, 6561, 15625, 46656, 16807, 127, 1009, 4099};
    } else {
      for (std::size_t p = 16; p <= 65536; p *= 2) lengths.push_back(p);
      for (std::size_t b : {3, 5, 6, 7})
        for (std::size_t p : powers(b, 65536)) lengths.push_back(p);
      for (std::size_t p : {127, 1009, 4099}) lengths.push_back(p);
    }
    if (smooth || long_lines || longer_lines) {
      std::vector<std::size_t> sweep = smooth       ? smooth_lengths(9, 4096)
                                       : long_lines ? smooth_lengths(4097, 16384)
                                                    : smooth_lengths(16385, 65536);
      if (!smooth)
        sweep.erase(std::remove_if(sweep.begin(), sweep.end(), [](std::size_t n) { return (n & (n - 1)) == 0; }),
                    sweep.end());
      std::vector<std::pair<double, std::size_t>> single, twice;
      for (std::size_t len : sweep) {
        if (opt.single()) single.emplace_back(batched_1d<float>(len, copy_gbs, opt), len);
        if (opt.twice()) twice.emplace_back(batched_1d<double>(len, copy_gbs, opt), len);
      }
      summarise("c64", single, smooth ? 0.9 : 0.8);
      summarise("c128", twice, smooth ? 0.85 : 0.8);
      return 0;
    }
    for (std::size_t len : lengths) {
      if (z_lines) {
        if (opt.single()) batched_z_lines<float>(len, copy_gbs, opt);
        if (opt.twice()) batched_z_lines<double>(len, copy_gbs, opt);
        continue;
      }
      if (opt.single()) batched_1d<float>(len, copy_gbs, opt);
      if (opt.twice()) batched_1d<double>(len, copy_gbs, opt);
    }
    if (!only_lengths.empty()) return 0;
    if (opt.single()) strided_z<float>(512, copy_gbs, opt);
    if (opt.twice()) strided_z<double>(512, copy_gbs, opt);
    std::vector<Shape> shapes = {{256, 256, 256}, {512, 512, 512}};
    if (!opt.pow2) {
      // 7-smooth shapes with odd radices on every axis.
      shapes.push_back({300, 320, 343});
      shapes.push_back({360, 360, 360});
      shapes.push_back({243, 250, 256});
    }
    if (!opt.quick && !opt.pow2) shapes.push_back({1024, 1024, 1024});
    for (const Shape& s : shapes) {
      if (opt.single()) volume_3d<float>(s, copy_gbs, opt);
      if (opt.twice()) volume_3d<double>(s, copy_gbs, opt);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "oocfft_cuda_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
