// Every GPU of a node: one complex64 volume, host to host, on 1..N devices
// (Options::devices), against cuFFTXt on the same devices in the same run
// (cufftXtMalloc, cufftXtMemcpy up, cufftXtExecDescriptorC2C,
// cufftXtMemcpy down: the peer a user of several GPUs picks, which needs
// the volume and its workspace in the GPUs' memory and the array
// page-locked).
//
//   oocfft_devices_bench [--cases=16g,96g,192g,384g] [--devices=1,2,4] [--memory=hostarray,pageable]
//                        [--no-xt] [--threads=N] [--repeat=N]
//
// Cases: 16g 1024x1024x2048, 96g 2048x2048x3072, 192g 2048x4096x3072,
// 384g 4096x4096x3072 (complex64). Memory: `hostarray` holds the volume in
// an oocfft::HostArray (page-locked: every brick DMAs from it), `pageable`
// in pageable memory (default options: staged through the pinned ring).
// Device counts above those present are skipped. Every timed forward
// transform is checked by the marginal self-test (apps/marginal_check.hpp)
// and followed by the inverse, which brings the input back (its round trip
// is checked once per case), so one copy of the volume suffices; the
// cuFFTXt result is checked the same way and against ours where a second
// copy fits (16g). The time is the median of `repeat` runs after a first
// (untimed for the ratio: it page-locks the staging buffers and loads the
// kernels).
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <cufftXt.h>
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <oocfft/oocfft.hpp>

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/marginal_check.hpp"
#include "apps/parallel_l2.hpp"
#include "apps/seeded_volume.hpp"
#include "bench/process_memory.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using c64 = std::complex<float>;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
double gib(double bytes) { return bytes / double(1ull << 30); }

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  for (std::size_t p = 0; p <= list.size();) {
    const std::size_t q = std::min(list.find(',', p), list.size());
    if (q > p) out.push_back(list.substr(p, q - p));
    p = q + 1;
  }
  return out;
}

struct Args {
  std::vector<std::string> cases{"16g"};
  std::vector<unsigned> devices{1, 2, 4};
  std::vector<std::string> memory{"hostarray", "pageable"};
  bool xt = true;
  unsigned threads = 0;  // 0: every core
  unsigned repeat = 3;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    auto value = [&](const char* key) { return s.substr(std::strlen(key)); };
    if (s.rfind("--cases=", 0) == 0) {
      a.cases = split(value("--cases="));
    } else if (s.rfind("--devices=", 0) == 0) {
      a.devices.clear();
      for (const std::string& d : split(value("--devices="))) a.devices.push_back(unsigned(std::stoul(d)));
    } else if (s.rfind("--memory=", 0) == 0) {
      a.memory = split(value("--memory="));
    } else if (s == "--no-xt") {
      a.xt = false;
    } else if (s.rfind("--threads=", 0) == 0) {
      a.threads = unsigned(std::stoul(value("--threads=")));
    } else if (s.rfind("--repeat=", 0) == 0) {
      a.repeat = std::max(1u, unsigned(std::stoul(value("--repeat="))));
    } else {
      std::fprintf(stderr, "unknown argument %s\n", s.c_str());
      std::exit(2);
    }
  }
  return a;
}

oocfft::Shape shape_of(const std::string& name) {
  if (name == "16g") return {1024, 1024, 2048};
  if (name == "96g") return {2048, 2048, 3072};
  if (name == "192g") return {2048, 4096, 3072};
  if (name == "384g") return {4096, 4096, 3072};
  throw std::runtime_error("unknown case " + name + " (16g, 96g, 192g, 384g)");
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

oocfft::Devices first_devices(unsigned count) {
  std::vector<int> ordinals(count);
  std::iota(ordinals.begin(), ordinals.end(), 0);
  return oocfft::Devices::list(ordinals);
}

void check_cufft(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS) throw std::runtime_error(std::string(what) + " failed: cufftResult " + std::to_string(int(r)));
}

// cuFFTXt over the first `count` devices, host to host from `data`
// (page-locked by the caller for its copies to run at the links' rate).
// Returns the median time, or a negative value with `why` set where it
// cannot run (cufftXtMalloc refused: the volume and the workspace do not
// fit the devices).
double cufft_xt(c64* data, const oocfft::Shape& shape, unsigned count, unsigned repeat, std::string& why) {
  cufftHandle plan = 0;
  check_cufft(cufftCreate(&plan), "cufftCreate");
  struct PlanGuard {
    cufftHandle p;
    ~PlanGuard() { cufftDestroy(p); }
  } guard{plan};
  std::vector<int> gpus(count);
  std::iota(gpus.begin(), gpus.end(), 0);
  if (count > 1) check_cufft(cufftXtSetGPUs(plan, int(count), gpus.data()), "cufftXtSetGPUs");
  std::vector<std::size_t> work(count);
  const cufftResult made = cufftMakePlan3d(plan, int(shape.nz), int(shape.ny), int(shape.nx), CUFFT_C2C, work.data());
  if (made != CUFFT_SUCCESS) {
    why = "cufftMakePlan3d failed (cufftResult " + std::to_string(int(made)) + ")";
    return -1;
  }
  std::size_t workspace = 0;
  for (std::size_t w : work) workspace += w;
  cudaLibXtDesc* desc = nullptr;
  const cufftResult allocated = cufftXtMalloc(plan, &desc, CUFFT_XT_FORMAT_INPLACE);
  if (allocated != CUFFT_SUCCESS) {
    why = "cufftXtMalloc failed (cufftResult " + std::to_string(int(allocated)) + "); workspace asked " +
          std::to_string(gib(double(workspace))) + " GiB beside the data";
    return -1;
  }
  struct DescGuard {
    cudaLibXtDesc* d;
    ~DescGuard() { cufftXtFree(d); }
  } desc_guard{desc};
  std::printf("  cuFFTXt on %u device(s): workspace %.2f GiB in all\n", count, gib(double(workspace)));
  std::vector<double> times;
  for (unsigned r = 0; r <= repeat; ++r) {
    for (int g : gpus) {
      cudaSetDevice(g);
      cudaDeviceSynchronize();
    }
    const auto t = Clock::now();
    check_cufft(cufftXtMemcpy(plan, desc, data, CUFFT_COPY_HOST_TO_DEVICE), "cufftXtMemcpy up");
    check_cufft(cufftXtExecDescriptorC2C(plan, desc, desc, CUFFT_FORWARD), "cufftXtExecDescriptorC2C");
    check_cufft(cufftXtMemcpy(plan, data, desc, CUFFT_COPY_DEVICE_TO_HOST), "cufftXtMemcpy down");
    for (int g : gpus) {
      cudaSetDevice(g);
      if (cudaDeviceSynchronize() != cudaSuccess) throw std::runtime_error("cuFFTXt: a device failed");
    }
    const double s = seconds_since(t);
    if (r > 0) times.push_back(s);  // the first loads cuFFT's kernels
    if (r < repeat) {
      // Back to the input for the next run: the inverse, unnormalised,
      // then the scale (cuFFT leaves it to the caller).
      check_cufft(cufftXtMemcpy(plan, desc, data, CUFFT_COPY_HOST_TO_DEVICE), "cufftXtMemcpy up");
      check_cufft(cufftXtExecDescriptorC2C(plan, desc, desc, CUFFT_INVERSE), "cufftXtExecDescriptorC2C");
      check_cufft(cufftXtMemcpy(plan, data, desc, CUFFT_COPY_DEVICE_TO_HOST), "cufftXtMemcpy down");
      const float scale = 1.0f / float(shape.elements());
      const std::size_t n = shape.elements();
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, std::size_t{1} << 20), [&](const auto& range) {
        for (std::size_t i = range.begin(); i < range.end(); ++i) data[i] *= scale;
      });
    }
  }
  cudaSetDevice(0);
  return median(times);
}

struct Line {
  std::string what;
  double seconds = 0;
};

void run_case(const Args& a, const std::string& name, const std::string& memory, int present) {
  const oocfft::Shape shape = shape_of(name);
  const std::size_t n = shape.elements();
  const bool host_array = memory == "hostarray";
  std::printf("\n== %s %s c64 (%.1f GiB), %s ==\n", name.c_str(), shape.to_string().c_str(),
              gib(double(shape.bytes(sizeof(c64)))), host_array ? "oocfft::HostArray" : "pageable, default options");
  auto t = Clock::now();
  // Page-locked by the library, or pageable with its pages prefaulted
  // (first touch by the fill takes far longer at hundreds of GiB; the
  // transform sees ordinary pageable memory either way).
  oocfft::HostArray<c64> v(n, host_array ? oocfft::PageLocking::locked : oocfft::PageLocking::pageable);
  oocfft::checks::fill_seeded(v.data(), n, 11);
  std::printf("  allocate%s and fill: %.2f s%s\n", host_array ? ", page-lock" : "", seconds_since(t),
              host_array && !v.page_locked() ? (" (not page-locked: " + v.lock_failure() + ")").c_str()
                                                    : "");
  t = Clock::now();
  const oocfft::checks::Marginals m = oocfft::checks::marginals(v.data(), shape);
  std::printf("  marginal sums: %.2f s\n", seconds_since(t));
  // Where a second copy fits (16g), ours is kept to compare cuFFTXt with.
  std::vector<c64> ours;
  std::vector<Line> lines;
  for (unsigned count : a.devices) {
    if (int(count) > present) {
      std::printf("  %u devices: skipped (%d present)\n", count, present);
      continue;
    }
    oocfft::Options o;
    o.backend = oocfft::Backend::cuda;
    o.threads = a.threads;
    o.devices = first_devices(count);
    const oocfft::Plan plan(shape, oocfft::Precision::single, o);
    std::printf("%s", plan.describe().c_str());
    std::vector<double> times;
    double check = 0, trip = -1;
    oocfft::RunReport report;
    for (unsigned r = 0; r <= a.repeat; ++r) {
      t = Clock::now();
      plan.execute(v.data(), oocfft::Direction::forward, &report);
      const double s = seconds_since(t);
      if (r > 0) times.push_back(s);
      if (r == a.repeat) {
        check = oocfft::checks::marginal_error(v.data(), shape, m);
        if (n <= (std::size_t{1} << 31) && ours.empty()) ours.assign(v.data(), v.data() + n);
      }
      plan.execute(v.data(), oocfft::Direction::inverse);
      if (r == 0) trip = oocfft::checks::round_trip_error(v.data(), n, 11);
    }
    const double s = median(times);
    std::printf("  oocfft %u device(s): %.3f s (runs", count, s);
    for (double x : times) std::printf(" %.3f", x);
    std::printf("; first %s), %zu bricks, %.1f GB/s over the links, exchanged %.2f GiB, marginal self-test %.2e, "
                "round trip %.2e, peak RSS %.1f GiB\n",
                "untimed", report.bricks, double(report.bytes_moved) / s / 1e9, gib(double(report.exchanged_bytes)),
                check, trip, gib(double(oocfft::bench::peak_rss())));
    if (check > 1e-4 || trip > 1e-4) throw std::runtime_error("oocfft's result failed its check");
    lines.push_back({"oocfft " + std::to_string(count) + " device(s)", s});
  }
  if (a.xt && host_array) {
    for (unsigned count : a.devices) {
      if (int(count) > present || count < 2) continue;
      std::string why;
      const double s = cufft_xt(v.data(), shape, count, a.repeat, why);
      if (s < 0) {
        std::printf("  cuFFTXt %u devices: cannot run: %s\n", count, why.c_str());
        continue;
      }
      const double check = oocfft::checks::marginal_error(v.data(), shape, m);
      const double against = ours.empty() ? -1 : oocfft::checks::parallel_relative_l2(v.data(), ours.data(), n);
      std::printf("  cuFFTXt %u devices: %.3f s, marginal self-test %.2e, against oocfft %.2e\n", count, s, check,
                  against);
      for (const Line& l : lines)
        std::printf("    %s / cuFFTXt %u devices: %.3f\n", l.what.c_str(), count, l.seconds / s);
    }
  }
  if (lines.size() > 1)
    for (const Line& l : lines) std::printf("  %s / %s: %.3f\n", l.what.c_str(), lines.front().what.c_str(),
                                            l.seconds / lines.front().seconds);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse(argc, argv);
  std::unique_ptr<tbb::global_control> threads;
  if (a.threads > 0)
    threads = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, a.threads);
  int present = 0;
  if (cudaGetDeviceCount(&present) != cudaSuccess || present == 0) {
    std::fprintf(stderr, "no CUDA device: this benchmark needs one or more\n");
    return 1;
  }
  std::printf("oocfft devices benchmark: %d CUDA device(s)\n", present);
  try {
    for (const std::string& c : a.cases)
      for (const std::string& memory : a.memory) run_case(a, c, memory, present);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
