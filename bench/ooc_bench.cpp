// Out-of-core benchmark: host volumes streamed through a device budget.
// One line per case: shape, plan, time, effective GB/s over PCIe, fraction
// of the PCIe floor, GFLOP/s (5 N log2 N / t), host peak RSS, device peak
// and error; the ratios to FFTW3f (threads, in place) and to the
// line-transpose method measured in the same run; the ratio to the same
// pipeline with cuFFT in place of the library's kernels (bench only), which
// separates pipeline quality from kernel quality; a per-stream timeline
// (gather / H2D / kernel / D2H / scatter per brick) as CSV, and a JSON
// summary. bench/plot_timeline.py draws the timeline as a PNG.
//
//   oocfft_ooc_bench [--cases=quick,16g,16g-resident,96g,96g-hostarray] [--no-fftw] [--no-line]
//                    [--no-cufft] [--no-registered] [--threads=16]
//                    [--out=DIR] [--backend=host|cuda]
// --out: where the timeline CSVs and ooc_bench.json go (default bench/logs,
//        created if missing; raw output is not tracked).
// quick: 1 GiB (256x512x1024 c64), 256 MiB device budget.
// 16g:   16 GiB (1024x1024x2048 c64), 4 GiB device budget; FFTW3f peer,
//        line-transpose peer, cuFFT-pipeline peer, registered variants;
//        error against FFTW.
// 16g-resident: the same volume with the default budgets (it fits the
//        device: the resident in-core plan), first and warm executions,
//        pageable and caller page-locked, against the cuFFT user path
//        (cudaMemcpy, cufftExecC2C, cudaMemcpy) on pageable and pinned
//        memory; quick-resident is the same on 1 GiB.
// 96g:   96 GiB (2048x2048x3072 c64), larger than any single GPU's memory
//        here, default options (carry-over keeps what the device holds
//        between the passes); checked by a marginal self-test (the DFT of
//        the volume's sums over two axes equals the transform's lines
//        through the origin, for all three axes) and by the round trip.
// 96g-hostarray: the same with the array in an oocfft::HostArray (one
//        copy of the volume on the host).
#include <fftw3.h>
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <oocfft/oocfft.hpp>

#include "apps/marginal_check.hpp"
#include "engine/planning/pcie_floor.hpp"
#include "apps/seeded_volume.hpp"
#include "bench/process_memory.hpp"
#include "apps/parallel_l2.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#if OOCFFT_HAVE_CUDA
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <tbb/task_arena.h>

#include <map>
#include <mutex>
#include <tuple>

#include "engine/backends/cuda/brick_kernels.hpp"
#include "engine/pipeline/streaming_engine.hpp"
#include "volume/host_volume.hpp"
#endif

namespace {

using Clock = std::chrono::steady_clock;
using oocfft::bench::peak_rss;
using oocfft::checks::parallel_relative_l2;
using c64 = std::complex<float>;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Args {
  std::vector<std::string> cases{"16g"};
  bool fftw = true;
  bool line = true;
  bool cufft = true;
  bool registered = true;
  unsigned threads = 16;
  std::string out = "bench/logs";
  oocfft::Backend backend = oocfft::Backend::automatic;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    auto value = [&](const char* key) { return s.substr(std::strlen(key)); };
    if (s.rfind("--cases=", 0) == 0) {
      a.cases.clear();
      std::string list = value("--cases=");
      for (std::size_t p = 0; p <= list.size();) {
        const std::size_t q = std::min(list.find(',', p), list.size());
        if (q > p) a.cases.push_back(list.substr(p, q - p));
        p = q + 1;
      }
    } else if (s == "--no-fftw") {
      a.fftw = false;
    } else if (s == "--no-line") {
      a.line = false;
    } else if (s == "--no-cufft") {
      a.cufft = false;
    } else if (s == "--no-registered") {
      a.registered = false;
    } else if (s.rfind("--threads=", 0) == 0) {
      a.threads = static_cast<unsigned>(std::stoul(value("--threads=")));
    } else if (s.rfind("--out=", 0) == 0) {
      a.out = value("--out=");
    } else if (s == "--backend=host") {
      a.backend = oocfft::Backend::host;
    } else if (s == "--backend=cuda") {
      a.backend = oocfft::Backend::cuda;
    } else {
      std::fprintf(stderr, "unknown argument %s\n", s.c_str());
      std::exit(2);
    }
  }
  return a;
}

double gib(double bytes) { return bytes / double(1ull << 30); }

// The input of every case: the seeded volume (apps/seeded_volume.hpp), so
// no stored copy of a 96 GiB input is needed to check its round trip.
void fill(c64* v, std::size_t n, std::uint64_t seed) { oocfft::checks::fill_seeded(v, n, seed); }

void copy_volume(c64* to, const c64* from, std::size_t n) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 20), [&](const auto& r) {
    std::memcpy(to + r.begin(), from + r.begin(), (r.end() - r.begin()) * sizeof(c64));
  });
}

using oocfft::checks::marginal_error;
using oocfft::checks::marginals;
using oocfft::checks::Marginals;
using oocfft::checks::round_trip_error;

struct PcieFigures {
  double h2d = 0, d2h = 0, duplex = 0;  // GB/s; duplex is each way
};

PcieFigures measure_pcie() {
  PcieFigures f;
#if OOCFFT_HAVE_CUDA
  const std::size_t bytes = std::size_t{1} << 30;
  void *h_up = nullptr, *h_down = nullptr, *d_up = nullptr, *d_down = nullptr;
  cudaStream_t s1 = nullptr, s2 = nullptr;
  if (cudaHostAlloc(&h_up, bytes, 0) != cudaSuccess || cudaHostAlloc(&h_down, bytes, 0) != cudaSuccess ||
      cudaMalloc(&d_up, bytes) != cudaSuccess || cudaMalloc(&d_down, bytes) != cudaSuccess ||
      cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking) != cudaSuccess ||
      cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking) != cudaSuccess) {
    std::fprintf(stderr, "PCIe measurement: allocation failed\n");
    return f;
  }
  std::memset(h_up, 1, bytes);
  std::memset(h_down, 2, bytes);
  auto timed = [&](bool up, bool down) {
    double best = 1e30;
    for (int rep = 0; rep < 3; ++rep) {
      cudaDeviceSynchronize();
      const auto t = Clock::now();
      if (up) cudaMemcpyAsync(d_up, h_up, bytes, cudaMemcpyHostToDevice, s1);
      if (down) cudaMemcpyAsync(h_down, d_down, bytes, cudaMemcpyDeviceToHost, s2);
      cudaStreamSynchronize(s1);
      cudaStreamSynchronize(s2);
      best = std::min(best, seconds_since(t));
    }
    return double(bytes) / best / 1e9;
  };
  f.h2d = timed(true, false);
  f.d2h = timed(false, true);
  f.duplex = timed(true, true);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  cudaFree(d_up);
  cudaFree(d_down);
  cudaFreeHost(h_up);
  cudaFreeHost(h_down);
#endif
  return f;
}

std::size_t device_free() {
#if OOCFFT_HAVE_CUDA
  std::size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo(&free_bytes, &total) == cudaSuccess) return free_bytes;
#endif
  return 0;
}

struct Result {
  std::string name;
  oocfft::Shape shape;
  oocfft::RunReport report;
  double seconds = 0;
  double error = -1;
  std::string error_kind;
  std::size_t device_peak = 0;
  std::size_t rss = 0;
  double floor = 0;
};

std::vector<Result> results;
std::string summary_notes;

// Lowest free device memory seen between bricks: the plan's progress
// callback samples it, so the device peak includes what the kernels and the
// CUDA runtime take beside the engine's own buffers.
struct DevicePeak {
  std::size_t free_before = 0;
  std::atomic<std::size_t> min_free{0};
  void reset() {
    free_before = device_free();
    min_free = free_before;
  }
  void sample() {
    if (free_before == 0) return;
    const std::size_t f = device_free();
    std::size_t m = min_free.load();
    while (f < m && !min_free.compare_exchange_weak(m, f)) {
    }
  }
  std::size_t used() const { return free_before - std::min(free_before, min_free.load()); }
};

// A plan whose progress callback feeds `peak`. Plans are built once and
// executed several times, as the API intends: the first execution
// page-locks the staging buffers, later ones reuse them.
std::unique_ptr<oocfft::Plan> make_plan(const oocfft::Shape& shape, oocfft::Options o, DevicePeak& peak) {
  o.progress = [&peak](const oocfft::Progress&) { peak.sample(); };
  return std::make_unique<oocfft::Plan>(shape, oocfft::Precision::single, o);
}

// Runs one streamed transform and prints its line. `Executor` is an
// oocfft::Plan or the cuFFT pipeline below (same execute signature).
template <class Executor>
Result run_case(const std::string& name, c64* data, const oocfft::Shape& shape, oocfft::Direction dir,
                const Executor& plan, DevicePeak& peak, bool timeline, const PcieFigures& pcie) {
  peak.reset();
  Result r;
  r.name = name;
  r.shape = shape;
  r.report.record_timeline = timeline;
  const auto t = Clock::now();
  plan.execute(data, dir, &r.report);
  r.seconds = seconds_since(t);
  r.device_peak = peak.used();
  r.rss = peak_rss();
  const oocfft::engine::LinkBandwidth link =
      pcie.duplex > 0 ? oocfft::engine::LinkBandwidth{pcie.h2d * 1e9, pcie.d2h * 1e9, pcie.duplex * 1e9}
                      : oocfft::engine::reference_link;
  r.floor = oocfft::engine::pcie_floor_seconds(r.report.passes, shape.bytes(sizeof(c64)), r.report.resident_bytes, link);
  const double n = double(shape.elements());
  std::printf(
      "%-28s %5zux%5zux%5zu c64 %-14s direct %5zu streams %u bricks %5zu  %8.3f s  %6.1f GB/s  floor %.3f s (%.0f%%)  "
      "%6.1f GFLOP/s  RSS %.1f GiB  staging %.2f GiB  device %.2f GiB (engine %.2f GiB, resident %.2f GiB)%s\n",
      name.c_str(), shape.nz, shape.ny, shape.nx, oocfft::to_string(r.report.strategy),
      r.report.direct_bricks, r.report.streams, r.report.bricks, r.seconds,
      double(r.report.bytes_moved) / r.seconds / 1e9, r.floor, 100.0 * r.floor / r.seconds,
      5.0 * n * std::log2(n) / r.seconds / 1e9, gib(double(r.rss)), gib(double(r.report.staging_bytes)),
      gib(double(r.device_peak)), gib(double(r.report.device_bytes)), gib(double(r.report.resident_bytes)),
      r.report.register_seconds > 0
          ? (" register+unregister " + std::to_string(r.report.register_seconds) + " s").c_str()
          : "");
  std::fflush(stdout);
  return r;
}

#if OOCFFT_HAVE_CUDA
// The cuFFT peer: the engine's pipeline (same passes, bricks, streams,
// staging and copies) with cuFFT transforming each brick instead of the
// library's kernels, through the engine-internal seam (brick_kernels.hpp).
// Single precision, any direction, scale 1 only (the forward transform with
// the default normalisation never scales).
namespace ek = oocfft::engine;
namespace kn = oocfft::kernels;

void check_cufft(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS) throw std::runtime_error(std::string(what) + " failed: cufftResult " + std::to_string(int(r)));
}

class CufftBrickKernels final : public ek::DeviceBrickKernels<float> {
 public:
  CufftBrickKernels(oocfft::Shape max_shape, oocfft::AxisSet axes) : axes_(axes) {
    // The work area comes from the engine's per-stream workspace, so that
    // cuFFT's memory counts against the same device budget as ours would.
    cufftHandle probe = 0;
    check_cufft(cufftCreate(&probe), "cufftCreate");
    check_cufft(cufftSetAutoAllocation(probe, 0), "cufftSetAutoAllocation");
    std::size_t bytes = 0;
    const cufftResult r = make(probe, max_shape, &bytes);
    cufftDestroy(probe);
    check_cufft(r, "cufftMakePlanMany64");
    workspace_ = bytes;
  }
  ~CufftBrickKernels() override {
    for (auto& [key, plan] : plans_) cufftDestroy(plan);
  }

  std::size_t workspace_bytes() const override { return workspace_; }
  std::size_t table_bytes() const override { return 0; }

  void execute(kn::Complex<float>* data, oocfft::Shape shape, void* workspace, bool inverse, float scale,
               cudaStream_t stream) const override {
    if (scale != 1.0f) throw std::runtime_error("the cuFFT peer supports only scale 1");
    const cufftHandle plan = plan_for(shape, stream);
    check_cufft(cufftSetWorkArea(plan, workspace), "cufftSetWorkArea");
    auto* d = reinterpret_cast<cufftComplex*>(data);
    const int dir = inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
    if (y_only()) {  // one batched call per z plane: two batch dimensions do not fit one plan
      for (std::size_t z = 0; z < shape.nz; ++z)
        check_cufft(cufftExecC2C(plan, d + z * shape.ny * shape.nx, d + z * shape.ny * shape.nx, dir),
                    "cufftExecC2C");
    } else {
      check_cufft(cufftExecC2C(plan, d, d, dir), "cufftExecC2C");
    }
  }

  std::string describe() const override {
    std::string s = "    cuFFT C2C along";
    if (axes_.z) s += " z";
    if (axes_.y) s += " y";
    if (axes_.x) s += " x";
    return s + ", work area " + std::to_string(workspace_ >> 20) + " MiB per stream\n";
  }

 private:
  bool y_only() const { return axes_.y && !axes_.x && !axes_.z; }

  // The plan of one brick shape, in place, C order.
  cufftResult make(cufftHandle plan, oocfft::Shape b, std::size_t* bytes) const {
    using ll = long long;
    const ll nz = ll(b.nz), ny = ll(b.ny), nx = ll(b.nx);
    const oocfft::AxisSet a = axes_;
    if (a.z && a.y && a.x) {
      ll n[3] = {nz, ny, nx};
      return cufftMakePlanMany64(plan, 3, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, 1, bytes);
    }
    if (!a.z && a.y && a.x) {  // z-slabs: a batch of nz planes
      ll n[2] = {ny, nx};
      return cufftMakePlanMany64(plan, 2, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, nz, bytes);
    }
    if (a.x && !a.y && !a.z) {
      ll n[1] = {nx};
      return cufftMakePlanMany64(plan, 1, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, nz * ny, bytes);
    }
    if (a.z && !a.y && !a.x) {  // y-slabs: z lines, stride one plane, neighbours adjacent
      ll n[1] = {nz}, embed[1] = {nz};
      return cufftMakePlanMany64(plan, 1, n, embed, ny * nx, 1, embed, ny * nx, 1, CUFFT_C2C, ny * nx, bytes);
    }
    if (y_only()) {  // one z plane's y lines (execute loops over z)
      ll n[1] = {ny}, embed[1] = {ny};
      return cufftMakePlanMany64(plan, 1, n, embed, nx, 1, embed, nx, 1, CUFFT_C2C, nx, bytes);
    }
    throw std::runtime_error("the cuFFT peer does not support this axis set");
  }

  // Plans per (stream, shape): a cuFFT plan is bound to one stream and one
  // work area, and the last brick of a pass is smaller. Built on the first
  // execution (the benchmark's warm-up), then reused.
  cufftHandle plan_for(oocfft::Shape b, cudaStream_t stream) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto key = std::make_tuple(stream, b.nz, b.ny, b.nx);
    if (auto it = plans_.find(key); it != plans_.end()) return it->second;
    cufftHandle plan = 0;
    check_cufft(cufftCreate(&plan), "cufftCreate");
    check_cufft(cufftSetAutoAllocation(plan, 0), "cufftSetAutoAllocation");
    std::size_t bytes = 0;
    const cufftResult r = make(plan, b, &bytes);
    if (r != CUFFT_SUCCESS || bytes > workspace_) {
      cufftDestroy(plan);
      check_cufft(r, "cufftMakePlanMany64");
      throw std::runtime_error("cuFFT needs more work area for a smaller brick than for the largest");
    }
    check_cufft(cufftSetStream(plan, stream), "cufftSetStream");
    plans_.emplace(key, plan);
    return plan;
  }

  oocfft::AxisSet axes_;
  std::size_t workspace_ = 0;
  mutable std::mutex mutex_;
  mutable std::map<std::tuple<cudaStream_t, std::size_t, std::size_t, std::size_t>, cufftHandle> plans_;
};

// The engine with the cuFFT kernels, driven like a Plan (forward, no scale).
class CufftPipeline {
 public:
  CufftPipeline(const oocfft::Shape& shape, const oocfft::Options& o)
      : shape_(shape), arena_(o.threads == 0 ? tbb::task_arena::automatic : int(o.threads)) {
    ek::BrickKernelFactory factory;
    factory.single = [](oocfft::Shape max_shape, oocfft::AxisSet axes) -> std::unique_ptr<ek::DeviceBrickKernels<float>> {
      return std::make_unique<CufftBrickKernels>(max_shape, axes);
    };
    engine_ = std::make_unique<ek::StreamingEngine>(shape, oocfft::Precision::single, o, oocfft::Backend::cuda,
                                                    factory);
  }
  void execute(c64* data, oocfft::Direction dir, oocfft::RunReport* report) const {
    if (dir != oocfft::Direction::forward) throw std::runtime_error("the cuFFT peer runs forward only");
    oocfft::volume::HostVolume store(reinterpret_cast<std::byte*>(data), {shape_.nz, shape_.ny, shape_.nx},
                                     sizeof(c64));
    engine_->execute(store, false, 1.0, arena_, report);
  }
  std::string describe() const { return engine_->describe(); }

 private:
  oocfft::Shape shape_;
  mutable tbb::task_arena arena_;
  std::unique_ptr<ek::StreamingEngine> engine_;
};
#endif

void write_timeline(const std::string& path, const oocfft::RunReport& report) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return;
  std::fprintf(f, "pass,brick,stream,bytes,gather_start,gather_end,h2d_start,h2d_end,kernel_start,kernel_end,"
                  "d2h_start,d2h_end,scatter_start,scatter_end\n");
  for (const oocfft::BrickTiming& t : report.timeline)
    std::fprintf(f, "%u,%zu,%u,%zu,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n", t.pass, t.brick, t.stream,
                 t.bytes, t.gather_start, t.gather_end, t.h2d_start, t.h2d_end, t.kernel_start, t.kernel_end,
                 t.d2h_start, t.d2h_end, t.scatter_start, t.scatter_end);
  std::fclose(f);
  std::printf("timeline: %s (%zu bricks)\n", path.c_str(), report.timeline.size());
}

double fftw_in_place(c64* data, const oocfft::Shape& s, unsigned threads) {
  fftwf_plan_with_nthreads(static_cast<int>(threads));
  fftwf_plan p = fftwf_plan_dft_3d(static_cast<int>(s.nz), static_cast<int>(s.ny), static_cast<int>(s.nx),
                                   reinterpret_cast<fftwf_complex*>(data), reinterpret_cast<fftwf_complex*>(data),
                                   FFTW_FORWARD, FFTW_ESTIMATE);
  const auto t = Clock::now();
  fftwf_execute(p);
  const double seconds = seconds_since(t);
  fftwf_destroy_plan(p);
  return seconds;
}

// A volume in ordinary pageable memory, or in a HostArray (page-locked
// by the library where a device is usable).
struct Volume {
  std::unique_ptr<c64[]> plain;
  oocfft::HostArray<c64> pinned;
  double allocate_seconds = 0;  // mapping, first touch and page-locking of a HostArray
  explicit Volume(std::size_t n, bool host_array = false) {
    const auto t = Clock::now();
    if (host_array)
      pinned = oocfft::HostArray<c64>(n);
    else
      plain.reset(new c64[n]);
    allocate_seconds = seconds_since(t);
  }
  c64* get() { return plain != nullptr ? plain.get() : pinned.data(); }
};

void case_gpu_sized(const Args& a, const std::string& label, const oocfft::Shape& shape, std::size_t budget,
                    const PcieFigures& pcie) {
  const std::size_t n = shape.elements();
  std::printf("\n== %s: %s c64, %.1f GiB, device budget %.2f GiB ==\n", label.c_str(), shape.to_string().c_str(),
              gib(double(shape.bytes(sizeof(c64)))), gib(double(budget)));
  Volume x(n), y(n);
  fill(x.get(), n, 1);
  oocfft::Options o;
  o.backend = a.backend;
  o.threads = a.threads;
  o.device_memory_budget = budget;
  DevicePeak peak;
  const auto plan = make_plan(shape, o, peak);
  std::printf("%s", plan->describe().c_str());
  // Warm-up on the same plan: page-locks its staging buffers, loads the kernels.
  copy_volume(y.get(), x.get(), n);
  run_case(label + " warm-up", y.get(), shape, oocfft::Direction::forward, *plan, peak, false, pcie);
  copy_volume(y.get(), x.get(), n);
  Result main = run_case(label + " two_pass", y.get(), shape, oocfft::Direction::forward, *plan, peak, true, pcie);
  write_timeline(a.out + "/timeline_" + label + ".csv", main.report);
  std::vector<c64> main_result(y.get(), y.get() + n);

  double reference_error = -1, fftw_seconds = 0;
  if (a.fftw) {
    Volume z(n);
    copy_volume(z.get(), x.get(), n);
    fftw_seconds = fftw_in_place(z.get(), shape, a.threads);
    reference_error = parallel_relative_l2(y.get(), z.get(), n);
    main.error = reference_error;
    main.error_kind = "vs FFTW3f";
    std::printf("%-28s FFTW3f %u threads in place (FFTW_ESTIMATE): %.3f s; oocfft / FFTW time ratio %.3f "
                "(speed-up %.2fx); oocfft error vs FFTW3f %.2e\n",
                label.c_str(), a.threads, fftw_seconds, main.seconds / fftw_seconds, fftw_seconds / main.seconds,
                reference_error);
  }
  results.push_back(main);

#if OOCFFT_HAVE_CUDA
  // The same pipeline with cuFFT kernels: same strategy, budget, streams and
  // staging (a plan of its own, warmed up the same way).
  if (a.cufft && oocfft::cuda_available() && a.backend != oocfft::Backend::host) {
    oocfft::Options co = o;
    co.progress = [&peak](const oocfft::Progress&) { peak.sample(); };
    const CufftPipeline peer(shape, co);
    std::printf("cuFFT-pipeline peer:\n%s", peer.describe().c_str());
    copy_volume(y.get(), x.get(), n);
    run_case(label + " cuFFT-pipeline warm-up", y.get(), shape, oocfft::Direction::forward, peer, peak, false, pcie);
    copy_volume(y.get(), x.get(), n);
    Result cu = run_case(label + " two_pass cuFFT kernels", y.get(), shape, oocfft::Direction::forward, peer, peak,
                         true, pcie);
    cu.error = parallel_relative_l2(y.get(), main_result.data(), n);
    cu.error_kind = "vs two_pass";
    write_timeline(a.out + "/timeline_" + label + "_cufft.csv", cu.report);
    std::printf("%-28s oocfft pipeline / cuFFT-kernel pipeline time ratio %.3f (%s); results differ by %.2e\n",
                label.c_str(), main.seconds / cu.seconds,
                main.seconds <= cu.seconds ? "ours as fast or faster" : "cuFFT kernels faster", cu.error);
    results.push_back(cu);
  }
#endif

  // The registration policies, each on a plan of its own warmed up the same
  // way: staged only (off; what the default does with an unlocked array),
  // chunks page-locked ahead of the bricks (on), and the array page-locked
  // once by the caller (then every policy but off DMAs directly). The main
  // run above used the default (automatic).
  if (a.registered) {
    for (const auto policy : {oocfft::HostRegistration::off, oocfft::HostRegistration::on}) {
      oocfft::Options reg = o;
      reg.register_host_memory = policy;
      const auto reg_plan = make_plan(shape, reg, peak);
      const std::string name = label + " two_pass register " + oocfft::to_string(policy);
      copy_volume(y.get(), x.get(), n);
      run_case(name + " warm-up", y.get(), shape, oocfft::Direction::forward, *reg_plan, peak, false, pcie);
      copy_volume(y.get(), x.get(), n);
      Result r = run_case(name, y.get(), shape, oocfft::Direction::forward, *reg_plan, peak, true, pcie);
      r.error = parallel_relative_l2(y.get(), main_result.data(), n);
      r.error_kind = "vs two_pass";
      write_timeline(a.out + "/timeline_" + label + "_register_" + oocfft::to_string(policy) + ".csv", r.report);
      std::printf("%-28s default (automatic) / register %s time ratio %.3f; %zu of %zu bricks direct\n",
                  label.c_str(), oocfft::to_string(policy), main.seconds / r.seconds, r.report.direct_bricks,
                  r.report.bricks);
      results.push_back(r);
    }
  }
#if OOCFFT_HAVE_CUDA
  if (a.registered && oocfft::cuda_available()) {
    copy_volume(y.get(), x.get(), n);
    const auto t = Clock::now();
    const bool ok = cudaHostRegister(y.get(), shape.bytes(sizeof(c64)), cudaHostRegisterDefault) == cudaSuccess;
    const double register_seconds = seconds_since(t);
    if (ok) {
      Result pre = run_case(label + " two_pass caller-registered", y.get(), shape, oocfft::Direction::forward, *plan,
                            peak, true, pcie);
      pre.error = parallel_relative_l2(y.get(), main_result.data(), n);
      pre.error_kind = "vs two_pass";
      write_timeline(a.out + "/timeline_" + label + "_caller_registered.csv", pre.report);
      results.push_back(pre);
      // The cuFFT-kernel pipeline on the same page-locked array.
      if (a.cufft && a.backend != oocfft::Backend::host) {
        oocfft::Options co = o;
        co.progress = [&peak](const oocfft::Progress&) { peak.sample(); };
        const CufftPipeline peer(shape, co);
        copy_volume(y.get(), x.get(), n);
        run_case(label + " cuFFT-pipeline caller-registered warm-up", y.get(), shape, oocfft::Direction::forward, peer,
                 peak, false, pcie);
        copy_volume(y.get(), x.get(), n);
        Result cu = run_case(label + " two_pass caller-registered cuFFT kernels", y.get(), shape,
                             oocfft::Direction::forward, peer, peak, false, pcie);
        cu.error = parallel_relative_l2(y.get(), main_result.data(), n);
        cu.error_kind = "vs two_pass";
        std::printf("%-28s caller-registered: oocfft pipeline / cuFFT-kernel pipeline time ratio %.3f; results differ "
                    "by %.2e\n",
                    label.c_str(), pre.seconds / cu.seconds, cu.error);
        results.push_back(cu);
      }
      const auto u = Clock::now();
      cudaHostUnregister(y.get());
      std::printf("%-28s cudaHostRegister of %.1f GiB by the caller: %.3f s (%.3f s/GiB), cudaHostUnregister %.3f s\n",
                  label.c_str(), gib(double(shape.bytes(sizeof(c64)))), register_seconds,
                  register_seconds / gib(double(shape.bytes(sizeof(c64)))), seconds_since(u));
    } else {
      cudaGetLastError();
      std::printf("cudaHostRegister failed\n");
    }
  }
#endif

  if (a.line) {
    oocfft::Options lt = o;
    lt.strategy = oocfft::Strategy::line_transpose;
    const auto lt_plan = make_plan(shape, lt, peak);
    copy_volume(y.get(), x.get(), n);
    run_case(label + " line_transpose warm-up", y.get(), shape, oocfft::Direction::forward, *lt_plan, peak, false,
             pcie);
    copy_volume(y.get(), x.get(), n);
    Result line = run_case(label + " line_transpose", y.get(), shape, oocfft::Direction::forward, *lt_plan, peak,
                           true, pcie);
    line.error = parallel_relative_l2(y.get(), main_result.data(), n);
    line.error_kind = "vs two_pass";
    write_timeline(a.out + "/timeline_" + label + "_line_transpose.csv", line.report);
    std::printf("%-28s two_pass / line_transpose time ratio %.3f (speed-up %.2fx)\n", label.c_str(),
                main.seconds / line.seconds, line.seconds / main.seconds);
    results.push_back(line);
  }
}

#if OOCFFT_HAVE_CUDA
// The cuFFT user path for a volume that fits the GPU: cudaMemcpy up,
// cufftExecC2C in place on the whole volume, cudaMemcpy down, as a careful
// (pinned array) or a naive (pageable array) program writes it.
struct CufftUserPath {
  oocfft::Shape shape;
  void execute(c64* data, oocfft::Direction dir, oocfft::RunReport* report) const {
    const std::size_t bytes = shape.bytes(sizeof(c64));
    void* device = nullptr;
    if (cudaMalloc(&device, bytes) != cudaSuccess) throw std::runtime_error("cudaMalloc of the volume failed");
    cufftHandle plan = 0;
    check_cufft(cufftPlan3d(&plan, int(shape.nz), int(shape.ny), int(shape.nx), CUFFT_C2C), "cufftPlan3d");
    const auto t = Clock::now();
    cudaMemcpy(device, data, bytes, cudaMemcpyHostToDevice);
    auto* d = static_cast<cufftComplex*>(device);
    check_cufft(cufftExecC2C(plan, d, d, dir == oocfft::Direction::forward ? CUFFT_FORWARD : CUFFT_INVERSE),
                "cufftExecC2C");
    cudaMemcpy(data, device, bytes, cudaMemcpyDeviceToHost);
    const cudaError_t status = cudaDeviceSynchronize();
    const double seconds = seconds_since(t);
    cufftDestroy(plan);
    cudaFree(device);
    if (status != cudaSuccess) throw std::runtime_error(std::string("cuFFT user path: ") + cudaGetErrorString(status));
    if (report != nullptr) {
      *report = oocfft::RunReport{};
      report->backend = oocfft::Backend::cuda;
      report->passes = 1;
      report->streams = 1;
      report->bytes_moved = 2 * bytes;
      report->seconds = seconds;  // without planning and cudaMalloc, which a reused program pays once
    }
  }
};
#endif

// A volume that fits the device, with the default budget: the resident
// in-core plan (one trip up, one down), its first execution against a warm
// one, pageable and page-locked by the caller, against the cuFFT user path
// (pageable and pinned) in the same run; every result checked by the
// marginal self-test and against cuFFT.
void case_resident(const Args& a, const std::string& label, const oocfft::Shape& shape, const PcieFigures& pcie) {
  const std::size_t n = shape.elements();
  std::printf("\n== %s: %s c64, %.1f GiB, default budgets ==\n", label.c_str(), shape.to_string().c_str(),
              gib(double(shape.bytes(sizeof(c64)))));
  Volume x(n), y(n);
  fill(x.get(), n, 3);
  const Marginals m = marginals(x.get(), shape);
  oocfft::Options o;
  o.backend = a.backend;
  o.threads = a.threads;
  DevicePeak peak;
  const auto plan = make_plan(shape, o, peak);
  std::printf("%s", plan->describe().c_str());
  auto checked = [&](const std::string& name, const auto& executor, bool timeline) {
    copy_volume(y.get(), x.get(), n);
    Result r = run_case(name, y.get(), shape, oocfft::Direction::forward, executor, peak, timeline, pcie);
    r.error = marginal_error(y.get(), shape, m);
    r.error_kind = "marginal self-test";
    std::printf("%-28s marginal self-test error %.2e\n", name.c_str(), r.error);
    results.push_back(r);
    return r;
  };
  const Result first = checked(label + " pageable (first)", *plan, false);
  const Result warm = checked(label + " pageable", *plan, true);
  write_timeline(a.out + "/timeline_" + label + ".csv", warm.report);
  std::vector<c64> ours(y.get(), y.get() + n);
  std::printf("%-28s first execution / warm time ratio %.3f\n", label.c_str(), first.seconds / warm.seconds);
#if OOCFFT_HAVE_CUDA
  if (!oocfft::cuda_available() || a.backend == oocfft::Backend::host) return;
  {
    Volume h(n, true);
    std::printf("%-28s HostArray of %.1f GiB: %.3f s to map, first-touch and page-lock (page-locked: %s)\n",
                label.c_str(), gib(double(shape.bytes(sizeof(c64)))), h.allocate_seconds,
                h.pinned.page_locked() ? "yes" : h.pinned.lock_failure().c_str());
    copy_volume(h.get(), x.get(), n);
    Result r = run_case(label + " HostArray", h.get(), shape, oocfft::Direction::forward, *plan, peak, false, pcie);
    r.error = marginal_error(h.get(), shape, m);
    r.error_kind = "marginal self-test";
    std::printf("%-28s marginal self-test error %.2e\n", (label + " HostArray").c_str(), r.error);
    results.push_back(r);
  }
  Result pinned_ours;
  const bool locked = cudaHostRegister(y.get(), shape.bytes(sizeof(c64)), cudaHostRegisterDefault) == cudaSuccess;
  if (locked) pinned_ours = checked(label + " caller-registered", *plan, true);
  if (a.cufft) {
    const CufftUserPath cufft{shape};
    // Once unmeasured: cuFFT loads its kernels on the first call.
    copy_volume(y.get(), x.get(), n);
    cufft.execute(y.get(), oocfft::Direction::forward, nullptr);
    Result cu_pinned;
    if (locked) {
      cu_pinned = checked(label + " cuFFT user path pinned", cufft, false);
      cu_pinned.error = parallel_relative_l2(y.get(), ours.data(), n);
      std::printf("%-28s cuFFT pinned vs oocfft: results differ by %.2e\n", label.c_str(), cu_pinned.error);
    }
    cudaHostUnregister(y.get());
    const Result cu_pageable = checked(label + " cuFFT user path pageable", cufft, false);
    std::printf("%-28s oocfft pageable / cuFFT pageable time ratio %.3f (%.2fx faster)\n", label.c_str(),
                warm.seconds / cu_pageable.seconds, cu_pageable.seconds / warm.seconds);
    if (locked)
      std::printf("%-28s oocfft pageable / cuFFT pinned %.3f; oocfft caller-registered / cuFFT pinned %.3f\n",
                  label.c_str(), warm.seconds / cu_pinned.seconds, pinned_ours.seconds / cu_pinned.seconds);
  } else if (locked) {
    cudaHostUnregister(y.get());
  }
#else
  (void)pcie;
#endif
}

void case_beyond_gpu(const Args& a, const PcieFigures& pcie, bool host_array) {
  const oocfft::Shape shape{2048, 2048, 3072};
  const std::size_t n = shape.elements();
  std::printf("\n== 96g: %s c64, %.1f GiB (larger than the GPU), default budgets, array in %s ==\n",
              shape.to_string().c_str(), gib(double(shape.bytes(sizeof(c64)))),
              host_array ? "a HostArray" : "pageable memory");
  Volume x(n, host_array);
  if (host_array)
    std::printf("HostArray of %.1f GiB: %.3f s to map, first-touch and page-lock; page-locked %s%s\n",
                gib(double(shape.bytes(sizeof(c64)))), x.allocate_seconds, x.pinned.page_locked() ? "yes" : "no: ",
                x.pinned.lock_failure().c_str());
  fill(x.get(), n, 5);
  const auto t = Clock::now();
  const Marginals m = marginals(x.get(), shape);
  std::printf("marginal sums: %.2f s\n", seconds_since(t));
  oocfft::Options o;
  o.backend = a.backend;
  o.threads = a.threads;
  DevicePeak peak;
  const auto plan = make_plan(shape, o, peak);
  std::printf("%s", plan->describe().c_str());
  // The forward run includes page-locking the staging buffers; the inverse
  // run reuses them. Every forward transform below is checked by the
  // marginal self-test, and the automatic plan's inverse brings the input
  // back between them (no room for a second 96 GiB copy).
  auto forward_checked = [&](const std::string& name, const auto& executor, const std::string& timeline) {
    Result r = run_case(name, x.get(), shape, oocfft::Direction::forward, executor, peak, !timeline.empty(), pcie);
    if (!timeline.empty()) write_timeline(a.out + "/" + timeline, r.report);
    r.error = marginal_error(x.get(), shape, m);
    r.error_kind = "marginal self-test";
    std::printf("%-28s marginal self-test (lines through the origin along z, y, x vs DFT of sums): error %.2e\n",
                name.c_str(), r.error);
    results.push_back(r);
    return r;
  };
  auto back_to_input = [&](const std::string& name, bool check) {
    Result inv = run_case(name, x.get(), shape, oocfft::Direction::inverse, *plan, peak, false, pcie);
    if (!check) return;
    inv.error = round_trip_error(x.get(), n, 5);
    inv.error_kind = "round trip";
    std::printf("96g round trip error %.2e\n", inv.error);
    results.push_back(inv);
  };
  forward_checked("96g two_pass forward (first)", *plan, "");
  back_to_input("96g two_pass inverse", true);
  const Result fwd = forward_checked("96g two_pass forward", *plan, "timeline_96g.csv");
  back_to_input("96g inverse", false);

  if (a.registered) {  // the array page-locked in chunks during each call
    oocfft::Options on = o;
    on.register_host_memory = oocfft::HostRegistration::on;
    auto locking = make_plan(shape, on, peak);
    forward_checked("96g two_pass register on (first)", *locking, "");
    back_to_input("96g inverse", false);
    const Result r2 = forward_checked("96g two_pass register on", *locking, "timeline_96g_register_on.csv");
    back_to_input("96g inverse", false);
    std::printf("96g default (staged) / register on time ratio %.3f\n", fwd.seconds / r2.seconds);
  }
#if OOCFFT_HAVE_CUDA
  // The array page-locked once by the caller (what a library-owned
  // page-locked array gives): every brick DMAs straight from it, and only
  // what the device cannot keep between the passes crosses twice.
  if (!host_array && oocfft::cuda_available() && a.backend != oocfft::Backend::host) {
    const auto t = Clock::now();
    if (cudaHostRegister(x.get(), shape.bytes(sizeof(c64)), cudaHostRegisterDefault) == cudaSuccess) {
      std::printf("96g cudaHostRegister of the array by the caller: %.3f s\n", seconds_since(t));
      const Result r = forward_checked("96g caller-registered", *plan, "timeline_96g_caller_registered.csv");
      back_to_input("96g inverse", false);
      std::printf("96g default (staged) / caller-registered time ratio %.3f\n", fwd.seconds / r.seconds);
      cudaHostUnregister(x.get());
    } else {
      (void)cudaGetLastError();
      std::printf("96g cudaHostRegister of the array failed\n");
    }
  }
#endif
  if (a.line) {
    oocfft::Options lt = o;
    lt.strategy = oocfft::Strategy::line_transpose;
    auto line = make_plan(shape, lt, peak);
    const Result r = forward_checked("96g line_transpose (first)", *line, "");
    back_to_input("96g inverse", false);
    std::printf("96g two_pass / line_transpose time ratio %.3f (speed-up %.2fx; line_transpose time includes "
                "page-locking its staging)\n",
                fwd.seconds / r.seconds, r.seconds / fwd.seconds);
  }
#if OOCFFT_HAVE_CUDA
  if (a.cufft && oocfft::cuda_available() && a.backend != oocfft::Backend::host) {
    oocfft::Options co = o;
    co.progress = [&peak](const oocfft::Progress&) { peak.sample(); };
    const CufftPipeline peer(shape, co);
    forward_checked("96g cuFFT-pipeline (first)", peer, "");
    back_to_input("96g inverse", false);
    const Result r = forward_checked("96g two_pass cuFFT kernels", peer, "");
    back_to_input("96g inverse", false);
    std::printf("96g oocfft pipeline / cuFFT-kernel pipeline time ratio %.3f\n", fwd.seconds / r.seconds);
  }
#endif
  if (a.fftw) {
    const double seconds = fftw_in_place(x.get(), shape, a.threads);
    const double err = marginal_error(x.get(), shape, m);
    std::printf("96g FFTW3f %u threads in place (FFTW_ESTIMATE): %.3f s, marginal self-test %.2e; oocfft / FFTW "
                "time ratio %.3f (speed-up %.2fx)\n",
                a.threads, seconds, err, fwd.seconds / seconds, seconds / fwd.seconds);
  }
}

void write_json(const std::string& path, const PcieFigures& pcie) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return;
  std::fprintf(f, "{\n  \"pcie_gbps\": {\"h2d\": %.2f, \"d2h\": %.2f, \"duplex_each_way\": %.2f},\n  \"cases\": [\n",
               pcie.h2d, pcie.d2h, pcie.duplex);
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Result& r = results[i];
    std::fprintf(f,
                 "    {\"name\": \"%s\", \"shape\": [%zu, %zu, %zu], \"strategy\": \"%s\", \"registered\": %s, \"direct_bricks\": %zu, "
                 "\"streams\": %u, \"bricks\": %zu, \"seconds\": %.4f, \"bytes_moved\": %zu, \"pcie_floor_s\": %.4f, "
                 "\"peak_rss_bytes\": %zu, \"staging_bytes\": %zu, \"device_peak_bytes\": %zu, "
                 "\"engine_device_bytes\": %zu, \"register_seconds\": %.4f, \"error\": %.3e, \"error_kind\": \"%s\"}%s\n",
                 r.name.c_str(), r.shape.nz, r.shape.ny, r.shape.nx, oocfft::to_string(r.report.strategy),
                 r.report.registered ? "true" : "false", r.report.direct_bricks, r.report.streams, r.report.bricks, r.seconds,
                 r.report.bytes_moved, r.floor, r.rss, r.report.staging_bytes, r.device_peak, r.report.device_bytes,
                 r.report.register_seconds, r.error, r.error_kind.c_str(), i + 1 < results.size() ? "," : "");
  }
  std::fprintf(f, "  ]\n}\n");
  std::fclose(f);
  std::printf("summary: %s\n", path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse(argc, argv);
  std::filesystem::create_directories(a.out);
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, a.threads);
  fftwf_init_threads();
  std::printf("oocfft out-of-core benchmark: CUDA %s, host threads %u\n", oocfft::cuda_available() ? "yes" : "no",
              a.threads);
  const PcieFigures pcie = measure_pcie();
  std::printf("PCIe (pinned, 1 GiB, best of 3): H2D %.1f GB/s, D2H %.1f GB/s, both at once %.1f GB/s each way\n",
              pcie.h2d, pcie.d2h, pcie.duplex);
  try {
    for (const std::string& c : a.cases) {
      if (c == "quick") {
        case_gpu_sized(a, "quick", {256, 512, 1024}, std::size_t{256} << 20, pcie);
      } else if (c == "16g") {
        case_gpu_sized(a, "16g", {1024, 1024, 2048}, std::size_t{4} << 30, pcie);
      } else if (c == "16g-resident") {
        case_resident(a, "16g-resident", {1024, 1024, 2048}, pcie);
      } else if (c == "quick-resident") {
        case_resident(a, "quick-resident", {256, 512, 1024}, pcie);
      } else if (c == "96g") {
        case_beyond_gpu(a, pcie, false);
      } else if (c == "96g-hostarray") {
        case_beyond_gpu(a, pcie, true);
      } else {
        std::fprintf(stderr, "unknown case %s\n", c.c_str());
        return 2;
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    write_json(a.out + "/ooc_bench.json", pcie);
    return 1;
  }
  write_json(a.out + "/ooc_bench.json", pcie);
  return 0;
}
