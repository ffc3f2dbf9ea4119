// oocfft_real_bench: the real-data transforms (RealPlan, TrigPlan) from host
// memory, one line per case: ours, the peer measured in the same process on
// the same input, the ratio (its direction and target named on the line),
// and the error against a reference. Times are host to host (the call, as a
// user sees it), the median of --reps runs after one warm-up.
//
// Cases (--case=a,b,...; default resident):
//   resident       rfftn of 1024x1024x2048 float32 from pageable memory
//                  (RealPlan::forward, default options) against the complex
//                  fftn of the same shape (oocfft::Plan, complex64) in the
//                  same run: rfft/fft ratio (target <= 0.55); irfftn time;
//                  the cuFFT R2C user path (cudaMemcpy, cufftExecR2C,
//                  cudaMemcpy) on the same pageable arrays as a peer.
//                  Errors: the marginal self-test (below), the difference
//                  from cuFFT's R2C over the whole half spectrum, the round
//                  trip.
//   hostarray      the same rfftn from a HostArray<float> into a
//                  HostArray<complex<float>> (page-locked) against the cuFFT
//                  R2C user path on the same page-locked input: ours/cuFFT
//                  (target <= 1.05).
//   large          2048x2048x3072 float32 (48 GiB, out of core) from pageable
//                  memory, default options; the PCIe floor from describe();
//                  --large-complex adds the complex fftn of the same shape
//                  (96 GiB, after the real arrays are freed) for the ratio.
//                  The inverse runs in place on the spectrum (an
//                  out-of-place inverse would need another 48 GiB).
//   in_place_huge  2048x2048x6144 float32 in FFTW's padded layout (96 GiB),
//                  forward_in_place and inverse_in_place: time only (no peer
//                  holds it); skipped when MemAvailable is too small.
//   dct            TrigPlan dct2 of 1024^3 float32 in place against FFTW's
//                  REDFT10 in 3D (fftwf_plan_r2r_3d, FFTW_ESTIMATE,
//                  --fftw-threads) on the same data: FFTW/ours (target >= 15)
//                  and our dct/our rfftn of the same shape (target <= 1.3);
//                  error against FFTW (unnormalised, as scipy's backward).
//
// The marginal self-test needs no reference transform: the lines of the
// spectrum through the origin along z, y and x equal the DFTs of the input's
// sums over the two other axes (long double DFTs of double sums).
// --shape=NZxNYxNX replaces every selected case's shape (smoke tests);
// --backend=host runs ours on the host backend and skips the cuFFT peers,
// saying so.
#include <fftw3.h>
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <oocfft/oocfft.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/marginal_check.hpp"
#include "apps/parallel_l2.hpp"
#include "apps/seeded_volume.hpp"
#include "bench/process_memory.hpp"
#include "bench/run_phases.hpp"

#if OOCFFT_HAVE_CUDA
#include <cuda_runtime_api.h>
#include <cufft.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;
using c64 = std::complex<float>;
using oocfft::Shape;
using oocfft::checks::parallel_l2_sums;
using oocfft::checks::parallel_relative_l2;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
double gib(double bytes) { return bytes / double(1ull << 30); }

const char* const case_names[] = {"resident", "hostarray", "large", "in_place_huge", "dct"};

struct Args {
  std::vector<std::string> cases{"resident"};
  std::optional<Shape> shape;  // replaces every case's own
  int reps = 3;
  unsigned threads = 0;        // Options::threads; 0 = all cores (the default options)
  int fftw_threads = 16;
  bool cufft = true;
  bool fftw = true;
  bool large_complex = false;
  bool timeline = false;  // print the traced run's bricks
  // Options::device_memory_budget of our plans; 0 = the default (the free
  // memory less a margin). A smaller device's budget on a larger one runs
  // the plan the smaller device would (an H100's 74.7 GiB on an H200).
  std::size_t device_budget = 0;
  oocfft::Backend backend = oocfft::Backend::automatic;
};

void print_help() {
  std::printf(
      "oocfft_real_bench: rfftn / irfftn / dctn from host memory against their peers, one line per case\n"
      "  --case=LIST         comma-separated, or all:\n"
      "      resident        1024x1024x2048 f32 (8 GiB) rfftn vs the complex fftn of the same shape and cuFFT R2C\n"
      "                      (pageable); host memory about 32 GiB, device about 25 GiB\n"
      "      hostarray       1024x1024x2048 f32 rfftn HostArray -> HostArray vs cuFFT R2C on page-locked memory;\n"
      "                      24 GiB page-locked\n"
      "      large           2048x2048x3072 f32 (48 GiB) rfftn, out of core; about 97 GiB of host memory\n"
      "                      (--large-complex: then the complex fftn of the same shape, 96 GiB)\n"
      "      in_place_huge   2048x2048x6144 f32 padded in place (96 GiB); skipped unless MemAvailable holds it\n"
      "      dct             1024^3 f32 dct2 in place vs FFTW REDFT10 and vs our rfftn; about 20 GiB\n"
      "  --shape=NZxNYxNX    replace the shape of every selected case (smoke tests)\n"
      "  --reps=N            timed runs after one warm-up, median reported (default 3)\n"
      "  --threads=N         Options::threads of our plans (default 0: all cores, the default options)\n"
      "  --fftw-threads=N    FFTW's threads (default 16)\n"
      "  --device-budget=GIB Options::device_memory_budget of our plans, in GiB (default: the free memory\n"
      "                      less a margin); a smaller device's budget runs the plan that device would\n"
      "  --backend=host|cuda|automatic   our backend (host: cuFFT peers skipped)\n"
      "  --no-cufft, --no-fftw           leave a peer out\n"
      "  --large-complex     large: also the complex fftn of the same shape (the rfft/fft ratio)\n"
      "  --timeline          print each brick of the traced rfftn run (stream, copy and kernel spans)\n");
}

Shape parse_shape(const std::string& s) {
  Shape shape;
  if (std::sscanf(s.c_str(), "%zux%zux%zu", &shape.nz, &shape.ny, &shape.nx) != 3 || shape.elements() == 0)
    throw std::invalid_argument("--shape wants NZxNYxNX, got " + s);
  return shape;
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    auto value = [&](const char* key) { return s.substr(std::strlen(key)); };
    auto starts = [&](const char* key) { return s.rfind(key, 0) == 0; };
    if (s == "--help" || s == "-h") {
      print_help();
      std::exit(0);
    } else if (starts("--case=") || starts("--cases=")) {
      a.cases.clear();
      const std::string list = s.substr(s.find('=') + 1);
      for (std::size_t p = 0; p <= list.size();) {
        const std::size_t q = std::min(list.find(',', p), list.size());
        if (q > p) a.cases.push_back(list.substr(p, q - p));
        p = q + 1;
      }
      if (a.cases.size() == 1 && a.cases[0] == "all") a.cases.assign(std::begin(case_names), std::end(case_names));
      for (const std::string& c : a.cases)
        if (std::find(std::begin(case_names), std::end(case_names), c) == std::end(case_names))
          throw std::invalid_argument("unknown case " + c + " (--help lists them)");
    } else if (starts("--shape=")) {
      a.shape = parse_shape(value("--shape="));
    } else if (starts("--reps=")) {
      a.reps = std::max(1, std::stoi(value("--reps=")));
    } else if (starts("--threads=")) {
      a.threads = static_cast<unsigned>(std::stoul(value("--threads=")));
    } else if (starts("--fftw-threads=")) {
      a.fftw_threads = std::max(1, std::stoi(value("--fftw-threads=")));
    } else if (starts("--device-budget=")) {
      const double g = std::stod(value("--device-budget="));
      if (!(g > 0)) throw std::invalid_argument("--device-budget wants a positive number of GiB, got " + s);
      a.device_budget = static_cast<std::size_t>(g * double(1ull << 30));
    } else if (s == "--timeline") {
      a.timeline = true;
    } else if (s == "--no-cufft") {
      a.cufft = false;
    } else if (s == "--no-fftw") {
      a.fftw = false;
    } else if (s == "--large-complex") {
      a.large_complex = true;
    } else if (s == "--backend=host") {
      a.backend = oocfft::Backend::host;
    } else if (s == "--backend=cuda") {
      a.backend = oocfft::Backend::cuda;
    } else if (s == "--backend=automatic") {
      a.backend = oocfft::Backend::automatic;
    } else {
      throw std::invalid_argument("unknown argument " + s + " (--help lists them)");
    }
  }
  return a;
}

oocfft::Options options_of(const Args& a) {
  oocfft::Options o;
  o.backend = a.backend;
  o.threads = a.threads;
  o.device_memory_budget = a.device_budget;
  return o;
}

// The case headers' "default options", or what differs from them.
std::string options_text(const Args& a) {
  std::string t;
  if (a.device_budget != 0) {
    char budget[48];
    std::snprintf(budget, sizeof budget, ", device budget %.1f GiB", gib(double(a.device_budget)));
    t += budget;
  }
  if (a.threads != 0) t += ", " + std::to_string(a.threads) + " threads";
  return t.empty() ? "default options" : "default options but" + t.substr(1);
}

bool gpu_peers(const Args& a) {
  return a.cufft && a.backend != oocfft::Backend::host && oocfft::cuda_available();
}

const char* why_no_gpu_peer(const Args& a) {
  if (!a.cufft) return "--no-cufft";
  if (a.backend == oocfft::Backend::host) return "--backend=host";
#if OOCFFT_HAVE_CUDA
  return "no usable CUDA device";
#else
  return "a build without CUDA";
#endif
}

// An uninitialised host array (the first touch comes from the parallel fill).
template <class T>
class Buffer {
 public:
  explicit Buffer(std::size_t n) : n_(n) {
    data_ = static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{64}));
  }
  ~Buffer() { ::operator delete(data_, std::align_val_t{64}); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  T* data() const { return data_; }
  std::size_t size() const { return n_; }

 private:
  T* data_ = nullptr;
  std::size_t n_ = 0;
};

// The real input: element (row r, column j) is the real part of the seeded
// value of logical index r * nx + j, so a check can regenerate it.
float seeded_real(std::size_t i, std::uint64_t seed) { return oocfft::checks::seeded_value<float>(i, seed).real(); }

// Rows of nx seeded reals at `pitch` floats apart (pitch > nx: FFTW's padded
// layout, the padding zeroed).
void fill_real(float* v, std::size_t rows, std::size_t nx, std::size_t pitch, std::uint64_t seed) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows, 64), [&](const auto& r) {
    for (std::size_t row = r.begin(); row < r.end(); ++row) {
      float* p = v + row * pitch;
      for (std::size_t j = 0; j < nx; ++j) p[j] = seeded_real(row * nx + j, seed);
      for (std::size_t j = nx; j < pitch; ++j) p[j] = 0.0f;
    }
  });
}

template <class T>
void parallel_copy(T* to, const T* from, std::size_t n) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, std::size_t{1} << 20), [&](const auto& r) {
    std::memcpy(to + r.begin(), from + r.begin(), (r.end() - r.begin()) * sizeof(T));
  });
}

// ||a - x|| / ||x|| over the nx values of each row at `pitch` apart, x the
// seeded input times `scale`.
double real_round_trip_error(const float* a, std::size_t rows, std::size_t nx, std::size_t pitch, std::uint64_t seed) {
  return parallel_l2_sums(rows, 16, [&](std::size_t begin, std::size_t end, oocfft::L2Sums& acc) {
           for (std::size_t row = begin; row < end; ++row)
             for (std::size_t j = 0; j < nx; ++j) acc.add(a[row * pitch + j], seeded_real(row * nx + j, seed));
         }).relative();
}

// The sums of a real volume over two of its axes (the marginal self-test).
struct RealMarginals {
  std::vector<double> z, y, x;
};

RealMarginals real_marginals(const float* v, const Shape& s, std::size_t pitch) {
  struct Partial {
    std::vector<double> y, x;
  };
  RealMarginals m;
  m.z.assign(s.nz, 0.0);
  const Partial total = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, s.nz), Partial{std::vector<double>(s.ny), std::vector<double>(s.nx)},
      [&](const tbb::blocked_range<std::size_t>& r, Partial acc) {
        for (std::size_t z = r.begin(); z < r.end(); ++z) {
          double plane = 0;
          for (std::size_t y = 0; y < s.ny; ++y) {
            const float* row = v + (z * s.ny + y) * pitch;
            double line = 0;
            for (std::size_t x = 0; x < s.nx; ++x) {
              line += row[x];
              acc.x[x] += row[x];
            }
            acc.y[y] += line;
            plane += line;
          }
          m.z[z] = plane;  // each z written by one task
        }
        return acc;
      },
      [](Partial a, const Partial& b) {
        for (std::size_t i = 0; i < a.y.size(); ++i) a.y[i] += b.y[i];
        for (std::size_t i = 0; i < a.x.size(); ++i) a.x[i] += b.x[i];
        return a;
      });
  m.y = total.y;
  m.x = total.x;
  return m;
}

// The first `count` values of the forward DFT of `v`, in long double.
std::vector<std::complex<long double>> dft(const std::vector<double>& v, std::size_t count) {
  const std::size_t n = v.size();
  const long double two_pi = 6.283185307179586476925286766559L;
  std::vector<std::complex<long double>> roots(n), out(count);
  for (std::size_t k = 0; k < n; ++k)
    roots[k] = {std::cos(two_pi * k / n), -std::sin(two_pi * k / n)};
  tbb::parallel_for(std::size_t{0}, count, [&](std::size_t k) {
    std::complex<long double> acc = 0;
    for (std::size_t j = 0; j < n; ++j) acc += static_cast<long double>(v[j]) * roots[(j * k) % n];
    out[k] = acc;
  });
  return out;
}

// The half spectrum's lines through the origin (rows of `h` complex values
// at `row_pitch` complex values apart) against the DFTs of the marginals.
double real_marginal_error(const c64* spectrum, const Shape& s, std::size_t row_pitch, const RealMarginals& m) {
  const std::size_t h = s.nx / 2 + 1;
  oocfft::L2Sums sums;
  const auto z = dft(m.z, s.nz), y = dft(m.y, s.ny), x = dft(m.x, h);
  for (std::size_t k = 0; k < s.nz; ++k) sums.add(spectrum[k * s.ny * row_pitch], z[k]);
  for (std::size_t k = 0; k < s.ny; ++k) sums.add(spectrum[k * row_pitch], y[k]);
  for (std::size_t k = 0; k < h; ++k) sums.add(spectrum[k], x[k]);
  return sums.relative();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Seconds of `run` (host to host): one warm-up, then the median of `reps`;
// `prepare` (untimed) runs before each, warm-up included.
struct Timing {
  double median = 0;
  double first = 0;  // the warm-up
  std::vector<double> all;
};

Timing time_runs(int reps, const std::function<void()>& run, const std::function<void()>& prepare = {}) {
  Timing t;
  for (int i = 0; i <= reps; ++i) {
    if (prepare) prepare();
    const auto start = Clock::now();
    run();
    const double s = seconds_since(start);
    if (i == 0)
      t.first = s;
    else
      t.all.push_back(s);
  }
  t.median = median(t.all);
  return t;
}

std::string runs_of(const Timing& t) {
  std::string s = "runs";
  char buf[32];
  for (double v : t.all) {
    std::snprintf(buf, sizeof buf, " %.4f", v);
    s += buf;
  }
  std::snprintf(buf, sizeof buf, ", warm-up %.4f", t.first);
  return s + buf;
}

std::string met(bool ok) { return ok ? "met" : "NOT met"; }

// "PCIe floor X s (P% of `seconds`)" from the "PCIe floor: X s" of a plan's
// describe(); the host backend's in-core plan has none.
std::string floor_text(const std::string& describe, double seconds) {
  const std::size_t p = describe.find("PCIe floor: ");
  if (p == std::string::npos) return "PCIe floor n/a (no streamed passes)";
  const double floor = std::strtod(describe.c_str() + p + 12, nullptr);
  char buf[96];
  std::snprintf(buf, sizeof buf, "PCIe floor %.3f s (%.0f%% of the time)", floor, 100.0 * floor / seconds);
  return buf;
}

std::string memory_line(const oocfft::RunReport& r) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%s, %u passes, %zu bricks (%zu direct), %u streams, %.1f GB moved, staging %.2f GiB, device %.2f "
                "GiB, resident %.2f GiB, peak RSS %.1f GiB",
                oocfft::to_string(r.strategy), r.passes, r.bricks, r.direct_bricks, r.streams,
                double(r.bytes_moved) / 1e9, gib(double(r.staging_bytes)), gib(double(r.device_bytes)),
                gib(double(r.resident_bytes)), gib(double(oocfft::bench::peak_rss())));
  return buf;
}

// Whether `bytes` of host memory (plus headroom for staging and the
// process) fit MemAvailable; prints the skip line when not.
bool fits_host(const std::string& label, double bytes) {
  const double available = double(oocfft::bench::mem_available());
  const double headroom = double(std::size_t{4} << 30);
  if (available > 0 && bytes + headroom > available) {
    std::printf("%-16s SKIPPED: needs %.1f GiB of host memory (+4 GiB headroom), MemAvailable %.1f GiB\n",
                label.c_str(), gib(bytes), gib(available));
    return false;
  }
  std::printf("%-16s host memory: %.1f GiB of arrays, MemAvailable %.1f GiB\n", label.c_str(), gib(bytes),
              gib(available));
  return true;
}

#if OOCFFT_HAVE_CUDA
void check_cuda(cudaError_t e, const char* call) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(call) + " failed: " + cudaGetErrorString(e));
}
void check_cufft(cufftResult r, const char* call) {
  if (r != CUFFT_SUCCESS) throw std::runtime_error(std::string(call) + " failed: cufftResult " + std::to_string(int(r)));
}

struct DeviceMemory {
  void* p = nullptr;
  DeviceMemory() = default;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  bool allocate(std::size_t bytes) {
    if (cudaMalloc(&p, bytes) == cudaSuccess) return true;
    (void)cudaGetLastError();
    p = nullptr;
    return false;
  }
  void release() {
    if (p != nullptr) cudaFree(p);
    p = nullptr;
  }
  ~DeviceMemory() { release(); }
};

// The cuFFT user path of an rfftn: cudaMemcpy of the real volume up,
// cufftExecR2C, cudaMemcpy of the half spectrum down, as a program that has
// both arrays in host memory writes it. Out of place on the device where it
// fits (real + half spectrum), else in FFTW's padded layout in place (the
// real rows copied up at the padded pitch). The plan and the device arrays
// are made once, outside the timing.
class CufftR2CUserPath {
 public:
  explicit CufftR2CUserPath(const Shape& s) : shape_(s), half_(s.nx / 2 + 1) {
    const std::size_t rows = s.nz * s.ny;
    spectrum_bytes_ = rows * half_ * sizeof(cufftComplex);
    // Out of place where both arrays fit the device, else the padded layout.
    in_place_ = !(real_.allocate(rows * s.nx * sizeof(float)) && spectrum_.allocate(spectrum_bytes_));
    if (in_place_) {
      real_.release();
      if (spectrum_.p == nullptr && !spectrum_.allocate(spectrum_bytes_))
        throw std::runtime_error("cuFFT R2C peer: cudaMalloc of the half spectrum (" +
                                 std::to_string(spectrum_bytes_ >> 20) + " MiB) failed");
    }
    long long n[3] = {(long long)s.nz, (long long)s.ny, (long long)s.nx};
    long long in_embed[3] = {(long long)s.nz, (long long)s.ny, (long long)(2 * half_)};
    long long out_embed[3] = {(long long)s.nz, (long long)s.ny, (long long)half_};
    check_cufft(cufftCreate(&plan_), "cufftCreate");
    std::size_t work = 0;
    if (in_place_)
      check_cufft(cufftMakePlanMany64(plan_, 3, n, in_embed, 1, 0, out_embed, 1, 0, CUFFT_R2C, 1, &work),
                  "cufftMakePlanMany64 (R2C, in place padded)");
    else
      check_cufft(cufftMakePlanMany64(plan_, 3, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_R2C, 1, &work),
                  "cufftMakePlanMany64 (R2C, out of place)");
    work_bytes_ = work;
  }
  ~CufftR2CUserPath() {
    if (plan_ != 0) cufftDestroy(plan_);
  }
  CufftR2CUserPath(const CufftR2CUserPath&) = delete;
  CufftR2CUserPath& operator=(const CufftR2CUserPath&) = delete;

  void run(const float* real, c64* spectrum) const {
    const std::size_t rows = shape_.nz * shape_.ny;
    auto* out = static_cast<cufftComplex*>(spectrum_.p);
    if (in_place_) {
      check_cuda(cudaMemcpy2D(spectrum_.p, 2 * half_ * sizeof(float), real, shape_.nx * sizeof(float),
                              shape_.nx * sizeof(float), rows, cudaMemcpyHostToDevice),
                 "cudaMemcpy2D (real rows up)");
      check_cufft(cufftExecR2C(plan_, static_cast<cufftReal*>(spectrum_.p), out), "cufftExecR2C");
    } else {
      check_cuda(cudaMemcpy(real_.p, real, rows * shape_.nx * sizeof(float), cudaMemcpyHostToDevice),
                 "cudaMemcpy (real volume up)");
      check_cufft(cufftExecR2C(plan_, static_cast<cufftReal*>(real_.p), out), "cufftExecR2C");
    }
    check_cuda(cudaMemcpy(spectrum, spectrum_.p, spectrum_bytes_, cudaMemcpyDeviceToHost),
               "cudaMemcpy (half spectrum down)");
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }
  std::string describe() const {
    return std::string("cuFFT R2C (cufftMakePlanMany64, ") + (in_place_ ? "in place, padded" : "out of place") +
           "), work area " + std::to_string(work_bytes_ >> 20) + " MiB";
  }

 private:
  Shape shape_;
  std::size_t half_;
  std::size_t spectrum_bytes_ = 0;
  std::size_t work_bytes_ = 0;
  bool in_place_ = false;
  DeviceMemory real_, spectrum_;
  cufftHandle plan_ = 0;
};
#endif

// The complex fftn of `shape` (complex64, in place) through oocfft::Plan:
// forward and inverse alternate (the inverse scales by 1/N, so the values
// stay those of one transform), both timed; the first forward is checked by
// the marginal self-test, the last inverse by the round trip.
struct ComplexFigures {
  Timing forward, inverse;
  double marginal = -1, round_trip = -1;
};

ComplexFigures complex_fftn(const Args& a, const std::string& label, const Shape& shape) {
  const std::size_t n = shape.elements();
  Buffer<c64> v(n);
  oocfft::checks::fill_seeded(v.data(), n, 11);
  const auto m = oocfft::checks::marginals(v.data(), shape);
  const oocfft::Plan plan(shape, oocfft::Precision::single, options_of(a));
  std::printf("%s", plan.describe().c_str());
  ComplexFigures f;
  oocfft::RunReport report;
  bool first = true;
  for (int i = 0; i <= a.reps; ++i) {
    auto t = Clock::now();
    plan.execute(v.data(), oocfft::Direction::forward, &report);
    const double fs = seconds_since(t);
    if (first) f.marginal = oocfft::checks::marginal_error(v.data(), shape, m);
    t = Clock::now();
    plan.execute(v.data(), oocfft::Direction::inverse);
    const double is = seconds_since(t);
    if (first) {
      f.forward.first = fs;
      f.inverse.first = is;
    } else {
      f.forward.all.push_back(fs);
      f.inverse.all.push_back(is);
    }
    first = false;
  }
  f.forward.median = median(f.forward.all);
  f.inverse.median = median(f.inverse.all);
  f.round_trip = oocfft::checks::round_trip_error(v.data(), n, 11);
  std::printf("%-16s fftn  c64 %s: forward %.3f s (%s), inverse %.3f s; marginal self-test %.2e, round trip %.2e; %s\n",
              label.c_str(), shape.to_string().c_str(), f.forward.median, runs_of(f.forward).c_str(),
              f.inverse.median, f.marginal, f.round_trip, memory_line(report).c_str());
  std::fflush(stdout);
  return f;
}

// rfftn out of place of the seeded input `x` into `spectrum`: the timing,
// the marginal self-test of the result and the report of the last run.
struct RealFigures {
  Timing forward;
  double marginal = -1;
  oocfft::RunReport report;
};

RealFigures rfftn(const Args& a, const oocfft::RealPlan& plan, const float* x, c64* spectrum,
                  const RealMarginals& m) {
  RealFigures f;
  f.forward = time_runs(a.reps, [&] { plan.forward(x, spectrum, &f.report); });
  f.marginal = real_marginal_error(spectrum, plan.shape(), plan.spectrum_shape().nx, m);
  // One more run, untimed, with its timeline: where the time goes.
  oocfft::RunReport traced;
  traced.record_timeline = true;
  plan.forward(x, spectrum, &traced);
  std::printf("  rfftn phases (one more run, traced): %s\n", oocfft::bench::run_phases(traced).c_str());
  if (a.timeline)
    for (const oocfft::BrickTiming& b : traced.timeline)
      std::printf("    pass %u brick %3zu stream %u: gather %.4f-%.4f up %.4f-%.4f kernels -%.4f down %.4f-%.4f "
                  "scatter %.4f-%.4f\n",
                  b.pass + 1, b.brick, b.stream, b.gather_start, b.gather_end, b.h2d_start, b.h2d_end,
                  b.kernel_end, b.d2h_start, b.d2h_end, b.scatter_start, b.scatter_end);
  return f;
}

// ---------------------------------------------------------------- cases

void case_resident(const Args& a) {
  const Shape shape = a.shape.value_or(Shape{1024, 1024, 2048});
  const std::string label = "resident";
  const std::size_t n = shape.elements(), half = shape.nz * shape.ny * (shape.nx / 2 + 1);
  std::printf("\n== resident: rfftn of %s float32 from pageable memory, %s ==\n",
              shape.to_string().c_str(), options_text(a).c_str());
  // x, spectrum, inverse, cuFFT's spectrum; the complex volume before them.
  if (!fits_host(label, double(n) * 4 * 2 + double(half) * 8 * 2)) return;
  const ComplexFigures complex = complex_fftn(a, label, shape);

  Buffer<float> x(n), back(n);
  Buffer<c64> spectrum(half);
  fill_real(x.data(), shape.nz * shape.ny, shape.nx, shape.nx, 7);
  const RealMarginals m = real_marginals(x.data(), shape, shape.nx);
  const oocfft::RealPlan plan(shape, oocfft::Precision::single, options_of(a));
  std::printf("%s", plan.describe().c_str());
  const RealFigures fwd = rfftn(a, plan, x.data(), spectrum.data(), m);
  const Timing inv = time_runs(a.reps, [&] { plan.inverse(spectrum.data(), back.data()); });
  const double trip = real_round_trip_error(back.data(), shape.nz * shape.ny, shape.nx, shape.nx, 7);
  std::printf("%-16s rfftn f32 %s: forward %.3f s (%s); marginal self-test %.2e; %s\n", label.c_str(),
              shape.to_string().c_str(), fwd.forward.median, runs_of(fwd.forward).c_str(), fwd.marginal,
              memory_line(fwd.report).c_str());
  std::printf("%-16s irfftn f32 %s: %.3f s (%s); round trip (irfftn(rfftn(x)) vs x) %.2e\n", label.c_str(),
              shape.to_string().c_str(), inv.median, runs_of(inv).c_str(), trip);
  const double ratio = fwd.forward.median / complex.forward.median;
  std::printf("%-16s RESULT rfftn %.3f s | complex fftn %.3f s | rfft/fft %.3f (target <= 0.55: %s) | irfftn %.3f s "
              "| errors: marginal %.2e, round trip %.2e\n",
              label.c_str(), fwd.forward.median, complex.forward.median, ratio, met(ratio <= 0.55).c_str(),
              inv.median, fwd.marginal, trip);
#if OOCFFT_HAVE_CUDA
  if (gpu_peers(a)) {
    Buffer<c64> theirs(half);
    const CufftR2CUserPath peer(shape);
    std::printf("%-16s peer: %s, pageable arrays\n", label.c_str(), peer.describe().c_str());
    const Timing t = time_runs(a.reps, [&] { peer.run(x.data(), theirs.data()); });
    const double diff = parallel_relative_l2(spectrum.data(), theirs.data(), half);
    const double peer_marginal = real_marginal_error(theirs.data(), shape, shape.nx / 2 + 1, m);
    std::printf("%-16s RESULT rfftn ours %.3f s | cuFFT R2C user path pageable %.3f s (%s) | ours/cuFFT %.3f | "
                "ours vs cuFFT relative L2 %.2e; marginal self-test ours %.2e, cuFFT %.2e\n",
                label.c_str(), fwd.forward.median, t.median, runs_of(t).c_str(), fwd.forward.median / t.median, diff,
                fwd.marginal, peer_marginal);
    return;
  }
#endif
  std::printf("%-16s cuFFT R2C peer skipped (%s)\n", label.c_str(), why_no_gpu_peer(a));
}

void case_hostarray(const Args& a) {
  const Shape shape = a.shape.value_or(Shape{1024, 1024, 2048});
  const std::string label = "hostarray";
  const std::size_t n = shape.elements(), half = shape.nz * shape.ny * (shape.nx / 2 + 1);
  std::printf("\n== hostarray: rfftn of %s float32, HostArray<float> -> HostArray<complex<float>> ==\n",
              shape.to_string().c_str());
  if (!fits_host(label, double(n) * 4 + double(half) * 8 * 2)) return;
  auto t = Clock::now();
  oocfft::HostArray<float> x(n);
  oocfft::HostArray<c64> spectrum(half);
  std::printf("%-16s HostArrays of %.1f + %.1f GiB: %.3f s to map, first-touch and page-lock; page-locked: %s\n",
              label.c_str(), gib(double(n) * 4), gib(double(half) * 8), seconds_since(t),
              x.page_locked() && spectrum.page_locked() ? "yes" : ("no (" + x.lock_failure() + ")").c_str());
  fill_real(x.data(), shape.nz * shape.ny, shape.nx, shape.nx, 7);
  const RealMarginals m = real_marginals(x.data(), shape, shape.nx);
  const oocfft::RealPlan plan(shape, oocfft::Precision::single, options_of(a));
  std::printf("%s", plan.describe().c_str());
  const RealFigures fwd = rfftn(a, plan, x.data(), spectrum.data(), m);
  std::printf("%-16s rfftn f32 %s HostArray: %.3f s (%s); marginal self-test %.2e; %s\n", label.c_str(),
              shape.to_string().c_str(), fwd.forward.median, runs_of(fwd.forward).c_str(), fwd.marginal,
              memory_line(fwd.report).c_str());
#if OOCFFT_HAVE_CUDA
  if (gpu_peers(a)) {
    oocfft::HostArray<c64> theirs(half);
    const CufftR2CUserPath peer(shape);
    std::printf("%-16s peer: %s, the same page-locked input, page-locked output\n", label.c_str(),
                peer.describe().c_str());
    const Timing tc = time_runs(a.reps, [&] { peer.run(x.data(), theirs.data()); });
    const double diff = parallel_relative_l2(spectrum.data(), theirs.data(), half);
    const double ratio = fwd.forward.median / tc.median;
    std::printf("%-16s RESULT rfftn HostArray %.3f s | cuFFT R2C user path pinned %.3f s (%s) | ours/cuFFT %.3f "
                "(target <= 1.05: %s) | ours vs cuFFT relative L2 %.2e, marginal self-test %.2e\n",
                label.c_str(), fwd.forward.median, tc.median, runs_of(tc).c_str(), ratio, met(ratio <= 1.05).c_str(),
                diff, fwd.marginal);
    return;
  }
#endif
  std::printf("%-16s RESULT rfftn HostArray %.3f s | cuFFT R2C peer skipped (%s) | marginal self-test %.2e\n",
              label.c_str(), fwd.forward.median, why_no_gpu_peer(a), fwd.marginal);
}

void case_large(const Args& a) {
  const Shape shape = a.shape.value_or(Shape{2048, 2048, 3072});
  const std::string label = "large";
  const std::size_t n = shape.elements(), h = shape.nx / 2 + 1, half = shape.nz * shape.ny * h;
  std::printf("\n== large: rfftn of %s float32 (%.1f GiB) from pageable memory, %s ==\n",
              shape.to_string().c_str(), gib(double(n) * 4), options_text(a).c_str());
  double real_seconds = -1;
  if (fits_host(label, double(n) * 4 + double(half) * 8)) {
    Buffer<float> x(n);
    Buffer<c64> spectrum(half);
    fill_real(x.data(), shape.nz * shape.ny, shape.nx, shape.nx, 13);
    const RealMarginals m = real_marginals(x.data(), shape, shape.nx);
    const oocfft::RealPlan plan(shape, oocfft::Precision::single, options_of(a));
    const std::string d = plan.describe();
    std::printf("%s", d.c_str());
    const RealFigures fwd = rfftn(a, plan, x.data(), spectrum.data(), m);
    real_seconds = fwd.forward.median;
    const std::string floor = floor_text(d, fwd.forward.median);
    std::printf("%-16s rfftn f32 %s: %.3f s (%s); %s; marginal self-test %.2e; %s\n", label.c_str(),
                shape.to_string().c_str(), fwd.forward.median, runs_of(fwd.forward).c_str(), floor.c_str(),
                fwd.marginal, memory_line(fwd.report).c_str());
    // The inverse in place on the spectrum (the padded layout, byte for
    // byte): an out-of-place inverse would hold another half spectrum.
    const auto t = Clock::now();
    oocfft::RunReport inverse_report;
    plan.inverse_in_place(reinterpret_cast<float*>(spectrum.data()), &inverse_report);
    const double inverse_seconds = seconds_since(t);
    const double trip = real_round_trip_error(reinterpret_cast<const float*>(spectrum.data()), shape.nz * shape.ny,
                                              shape.nx, 2 * h, 13);
    std::printf("%-16s irfftn in place (one run) %.3f s; round trip %.2e\n", label.c_str(), inverse_seconds, trip);
    std::printf("%-16s RESULT rfftn %.3f s | no peer | %s | irfftn in place %.3f s | errors: marginal %.2e, round "
                "trip %.2e\n",
                label.c_str(), fwd.forward.median, floor.c_str(), inverse_seconds, fwd.marginal, trip);
  }
  if (!a.large_complex) {
    std::printf("%-16s complex fftn of the same shape left out (--large-complex adds it)\n", label.c_str());
    return;
  }
  if (!fits_host(label + " c64", double(n) * 8)) return;
  const ComplexFigures complex = complex_fftn(a, label, shape);
  if (real_seconds > 0)
    std::printf("%-16s RESULT rfftn %.3f s | complex fftn %.3f s | rfft/fft %.3f (target <= 0.55: %s)\n",
                label.c_str(), real_seconds, complex.forward.median, real_seconds / complex.forward.median,
                met(real_seconds / complex.forward.median <= 0.55).c_str());
}

void case_in_place_huge(const Args& a) {
  const Shape shape = a.shape.value_or(Shape{2048, 2048, 6144});
  const std::string label = "in_place_huge";
  const std::size_t h = shape.nx / 2 + 1, pitch = 2 * h, rows = shape.nz * shape.ny;
  const double bytes = double(rows) * pitch * sizeof(float);
  std::printf("\n== in_place_huge: rfftn of %s float32 in FFTW's padded layout (%.1f GiB), %s ==\n",
              shape.to_string().c_str(), gib(bytes), options_text(a).c_str());
  if (!fits_host(label, bytes)) return;
  Buffer<float> v(rows * pitch);
  fill_real(v.data(), rows, shape.nx, pitch, 17);
  const RealMarginals m = real_marginals(v.data(), shape, pitch);
  const oocfft::RealPlan plan(shape, oocfft::Precision::single, options_of(a));
  const std::string d = plan.describe();
  std::printf("%s", d.c_str());
  // Forward and inverse alternate (the inverse scales by 1/N: every
  // forward sees the input again, up to rounding); both timed.
  Timing fwd, inv;
  double marginal = -1;
  oocfft::RunReport report;
  for (int i = 0; i <= a.reps; ++i) {
    auto t = Clock::now();
    plan.forward_in_place(v.data(), &report);
    const double fs = seconds_since(t);
    if (i == 0) marginal = real_marginal_error(reinterpret_cast<const c64*>(v.data()), shape, h, m);
    t = Clock::now();
    plan.inverse_in_place(v.data());
    const double is = seconds_since(t);
    if (i == 0) {
      fwd.first = fs;
      inv.first = is;
    } else {
      fwd.all.push_back(fs);
      inv.all.push_back(is);
    }
  }
  fwd.median = median(fwd.all);
  inv.median = median(inv.all);
  const double trip = real_round_trip_error(v.data(), rows, shape.nx, pitch, 17);
  const std::string floor = floor_text(d, fwd.median);
  std::printf("%-16s forward_in_place %.3f s (%s); inverse_in_place %.3f s (%s); %s\n", label.c_str(), fwd.median,
              runs_of(fwd).c_str(), inv.median, runs_of(inv).c_str(), memory_line(report).c_str());
  std::printf("%-16s RESULT forward in place %.3f s | no peer | %s | inverse in place %.3f s | errors: marginal "
              "%.2e, round trip after %d pairs %.2e\n",
              label.c_str(), fwd.median, floor.c_str(), inv.median, marginal, a.reps + 1, trip);
}

void case_dct(const Args& a) {
  const Shape shape = a.shape.value_or(Shape{1024, 1024, 1024});
  const std::string label = "dct";
  const std::size_t n = shape.elements(), half = shape.nz * shape.ny * (shape.nx / 2 + 1);
  std::printf("\n== dct: dctn type 2 of %s float32 in place, %s ==\n", shape.to_string().c_str(),
              options_text(a).c_str());
  if (!fits_host(label, double(n) * 4 * 3 + double(half) * 8)) return;
  Buffer<float> x(n), ours(n);
  fill_real(x.data(), shape.nz * shape.ny, shape.nx, shape.nx, 19);
  const oocfft::TrigPlan plan(shape, oocfft::Precision::single, oocfft::TrigTransform::dct2, options_of(a));
  std::printf("%s", plan.describe().c_str());
  oocfft::RunReport report;
  const Timing t_dct = time_runs(
      a.reps, [&] { plan.execute(ours.data(), oocfft::Direction::forward, &report); },
      [&] { parallel_copy(ours.data(), x.data(), n); });
  std::printf("%-16s dctn f32 %s: %.3f s (%s); %s\n", label.c_str(), shape.to_string().c_str(), t_dct.median,
              runs_of(t_dct).c_str(), memory_line(report).c_str());

  double t_rfft = -1;
  {
    Buffer<c64> spectrum(half);
    const oocfft::RealPlan rplan(shape, oocfft::Precision::single, options_of(a));
    const RealMarginals m = real_marginals(x.data(), shape, shape.nx);
    const RealFigures r = rfftn(a, rplan, x.data(), spectrum.data(), m);
    t_rfft = r.forward.median;
    std::printf("%-16s rfftn f32 %s: %.3f s (%s); marginal self-test %.2e\n", label.c_str(),
                shape.to_string().c_str(), t_rfft, runs_of(r.forward).c_str(), r.marginal);
  }
  const double dct_rfft = t_dct.median / t_rfft;

  double t_fftw = -1, err = -1;
  if (a.fftw) {
    Buffer<float> theirs(n);
    fftwf_plan_with_nthreads(a.fftw_threads);
    const auto t0 = Clock::now();
    fftwf_plan p = fftwf_plan_r2r_3d(int(shape.nz), int(shape.ny), int(shape.nx), theirs.data(), theirs.data(),
                                     FFTW_REDFT10, FFTW_REDFT10, FFTW_REDFT10, FFTW_ESTIMATE);
    if (p == nullptr) throw std::runtime_error("fftwf_plan_r2r_3d returned no plan");
    std::printf("%-16s FFTW REDFT10 3D plan (FFTW_ESTIMATE, %d threads): %.3f s\n", label.c_str(), a.fftw_threads,
                seconds_since(t0));
    const Timing tf =
        time_runs(a.reps, [&] { fftwf_execute(p); }, [&] { parallel_copy(theirs.data(), x.data(), n); });
    fftwf_destroy_plan(p);
    t_fftw = tf.median;
    // `ours` holds our last run's dctn of x, `theirs` FFTW's.
    err = parallel_relative_l2(ours.data(), theirs.data(), n);
    std::printf("%-16s FFTW REDFT10 3D: %.3f s (%s)\n", label.c_str(), t_fftw, runs_of(tf).c_str());
    std::printf("%-16s RESULT dctn %.3f s | FFTW REDFT10 %d threads %.3f s | FFTW/ours %.2f (target >= 15: %s) | "
                "rfftn %.3f s, dct/rfft %.3f (target <= 1.3: %s) | ours vs FFTW relative L2 %.2e\n",
                label.c_str(), t_dct.median, a.fftw_threads, t_fftw, t_fftw / t_dct.median,
                met(t_fftw / t_dct.median >= 15).c_str(), t_rfft, dct_rfft, met(dct_rfft <= 1.3).c_str(), err);
  } else {
    std::printf("%-16s RESULT dctn %.3f s | FFTW skipped (--no-fftw) | rfftn %.3f s, dct/rfft %.3f (target <= 1.3: "
                "%s)\n",
                label.c_str(), t_dct.median, t_rfft, dct_rfft, met(dct_rfft <= 1.3).c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args a = parse(argc, argv);
    fftwf_init_threads();
    std::printf("oocfft real-data benchmark: CUDA %s, backend %s, %d timed runs after one warm-up (median), "
                "Options::threads %u, FFTW threads %d\n",
                oocfft::cuda_available() ? "yes" : "no", oocfft::to_string(a.backend), a.reps, a.threads,
                a.fftw_threads);
    if (!gpu_peers(a)) std::printf("cuFFT peers skipped: %s\n", why_no_gpu_peer(a));
    for (const std::string& c : a.cases) {
      const auto t = Clock::now();
      if (c == "resident") case_resident(a);
      else if (c == "hostarray") case_hostarray(a);
      else if (c == "large") case_large(a);
      else if (c == "in_place_huge") case_in_place_huge(a);
      else if (c == "dct") case_dct(a);
      std::printf("%-16s case wall time %.1f s\n", c.c_str(), seconds_since(t));
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "oocfft_real_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
