// Host benchmark: oocfft's host backend against FFTW (FFTW_ESTIMATE, same
// thread count) in the same run. One line per case: time, GFLOP/s
// (5 N log2 N / t, the convention of FFTW's benchFFT) and the ratio
// t_fftw / t_oocfft (above 1 means oocfft is faster).
//
//   oocfft_host_bench [--quick] [--threads N] [--lengths N,N,...]
//
// --lengths: only batched 1D lines of those lengths (no volumes), complex<float>
// and complex<double>.
#include <fftw3.h>
#include <tbb/task_arena.h>

#include <oocfft/oocfft.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "kernels/host_executor.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// Median of `reps` timed runs after one warm-up; `reset` restores the input
// outside the timed region.
double median_seconds(int reps, const std::function<void()>& reset, const std::function<void()>& run) {
  reset();
  run();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    reset();
    const auto a = Clock::now();
    run();
    t.push_back(std::chrono::duration<double>(Clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class T>
std::vector<std::complex<T>> random_data(std::size_t n) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<T> u(-0.5, 0.5);
  std::vector<std::complex<T>> v(n);
  for (auto& z : v) z = {u(rng), u(rng)};
  return v;
}

double gflops(std::size_t points_per_transform, std::size_t transforms, double seconds) {
  const double n = static_cast<double>(points_per_transform);
  return 5.0 * n * std::log2(std::max(n, 2.0)) * static_cast<double>(transforms) / seconds * 1e-9;
}

void print_line(const char* kind, const std::string& size, const char* type, double ours, double fftw,
                std::size_t points, std::size_t transforms) {
  std::printf("%-8s %-16s %-5s oocfft %9.3f ms %7.2f GFLOP/s | fftw %9.3f ms %7.2f GFLOP/s | ratio %5.2f\n", kind,
              size.c_str(), type, ours * 1e3, gflops(points, transforms, ours), fftw * 1e3,
              gflops(points, transforms, fftw), fftw / ours);
  std::fflush(stdout);
}

// Batched 1D: `lines` contiguous lines of length n, complex<T>.
template <class T>
void bench_lines(std::size_t n, std::size_t total_points, int reps, tbb::task_arena& arena) {
  const std::size_t lines = std::max<std::size_t>(1, total_points / n);
  const auto input = random_data<T>(n * lines);
  std::vector<std::complex<T>> work(input.size());
  const auto plan = oocfft::kernels::make_line_plan<T>(n, oocfft::kernels::host_composite_radices);
  const oocfft::kernels::LineBatch batch{n, 1, lines, static_cast<std::ptrdiff_t>(n), 1, 0};
  auto reset = [&] { std::memcpy(work.data(), input.data(), input.size() * sizeof(input[0])); };
  const double ours = median_seconds(reps, reset, [&] {
    arena.execute([&] {
      oocfft::kernels::execute_lines_host(*plan, reinterpret_cast<oocfft::kernels::Complex<T>*>(work.data()),
                                          batch, false, T(1));
    });
  });
  const int len = static_cast<int>(n);
  double fftw = 0;
  if constexpr (std::is_same_v<T, float>) {
    fftwf_plan p = fftwf_plan_many_dft(1, &len, static_cast<int>(lines), reinterpret_cast<fftwf_complex*>(work.data()),
                                       nullptr, 1, len, reinterpret_cast<fftwf_complex*>(work.data()), nullptr, 1, len,
                                       FFTW_FORWARD, FFTW_ESTIMATE);
    fftw = median_seconds(reps, reset, [&] { fftwf_execute(p); });
    fftwf_destroy_plan(p);
  } else {
    fftw_plan p = fftw_plan_many_dft(1, &len, static_cast<int>(lines), reinterpret_cast<fftw_complex*>(work.data()),
                                     nullptr, 1, len, reinterpret_cast<fftw_complex*>(work.data()), nullptr, 1, len,
                                     FFTW_FORWARD, FFTW_ESTIMATE);
    fftw = median_seconds(reps, reset, [&] { fftw_execute(p); });
    fftw_destroy_plan(p);
  }
  print_line("lines", std::to_string(n) + " x" + std::to_string(lines), std::is_same_v<T, float> ? "c64" : "c128",
             ours, fftw, n, lines);
}

template <class T>
void bench_volume(const oocfft::Shape& s, int reps, unsigned threads) {
  const auto input = random_data<T>(s.elements());
  std::vector<std::complex<T>> work(input.size());
  oocfft::Options o;
  o.backend = oocfft::Backend::host;
  o.threads = threads;
  const oocfft::Plan plan(s, std::is_same_v<T, float> ? oocfft::Precision::single : oocfft::Precision::double_precision, o);
  auto reset = [&] { std::memcpy(work.data(), input.data(), input.size() * sizeof(input[0])); };
  const double ours = median_seconds(reps, reset, [&] { plan.execute(work.data(), oocfft::Direction::forward); });
  const int dims[3] = {static_cast<int>(s.nz), static_cast<int>(s.ny), static_cast<int>(s.nx)};
  double fftw = 0;
  if constexpr (std::is_same_v<T, float>) {
    fftwf_plan p = fftwf_plan_dft(3, dims, reinterpret_cast<fftwf_complex*>(work.data()),
                                  reinterpret_cast<fftwf_complex*>(work.data()), FFTW_FORWARD, FFTW_ESTIMATE);
    fftw = median_seconds(reps, reset, [&] { fftwf_execute(p); });
    fftwf_destroy_plan(p);
  } else {
    fftw_plan p = fftw_plan_dft(3, dims, reinterpret_cast<fftw_complex*>(work.data()),
                                reinterpret_cast<fftw_complex*>(work.data()), FFTW_FORWARD, FFTW_ESTIMATE);
    fftw = median_seconds(reps, reset, [&] { fftw_execute(p); });
    fftw_destroy_plan(p);
  }
  const std::string size = std::to_string(s.nz) + "x" + std::to_string(s.ny) + "x" + std::to_string(s.nx);
  print_line("volume", size, std::is_same_v<T, float> ? "c64" : "c128", ours, fftw, s.elements(), 1);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  unsigned threads = std::thread::hardware_concurrency();
  std::vector<std::size_t> only_lengths;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      threads = static_cast<unsigned>(std::stoul(argv[++i]));
    } else if (std::strcmp(argv[i], "--lengths") == 0 && i + 1 < argc) {
      std::stringstream list(argv[++i]);
      for (std::string item; std::getline(list, item, ',');) only_lengths.push_back(std::stoul(item));
    } else {
      std::fprintf(stderr, "usage: %s [--quick] [--threads N] [--lengths N,N,...]\n", argv[0]);
      return 2;
    }
  }
  fftwf_init_threads();
  fftw_init_threads();
  fftwf_plan_with_nthreads(static_cast<int>(threads));
  fftw_plan_with_nthreads(static_cast<int>(threads));
  tbb::task_arena arena(static_cast<int>(threads));
  const int reps = quick ? 3 : 5;
  const std::size_t total_points = quick ? (std::size_t{1} << 20) : (std::size_t{1} << 23);
  std::printf("oocfft host benchmark: %u threads, FFTW_ESTIMATE, median of %d runs\n", threads, reps);
  if (!only_lengths.empty()) {
    for (std::size_t n : only_lengths) {
      bench_lines<float>(n, total_points, reps, arena);
      bench_lines<double>(n, total_points, reps, arena);
    }
    return 0;
  }
  std::vector<std::size_t> lengths;
  for (std::size_t n = 16; n <= 65536; n *= 2) lengths.push_back(n);
  for (std::size_t n : {243, 625, 1000, 2401, 6561, 15625, 46656}) lengths.push_back(n);  // smooth
  for (std::size_t n : {17, 127, 1009, 4099, 65537}) lengths.push_back(n);  // primes: direct passes, then Bluestein
  for (std::size_t n : lengths) bench_lines<float>(n, total_points, reps, arena);
  std::vector<oocfft::Shape> shapes = {{128, 128, 128}, {96, 100, 105}};
  if (!quick) shapes.push_back({256, 256, 256});
  for (const auto& s : shapes) bench_volume<float>(s, reps, threads);
  for (const auto& s : shapes) bench_volume<double>(s, reps, threads);
  return 0;
}
