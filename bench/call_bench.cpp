// The one-shot C++ call, timed: fft3d (plan and execute) of a seeded volume
// in ordinary pageable memory, forward then inverse, `repeats` times after
// one warm-up pair. The Python benchmark (python_bench.py) runs it in the
// same job for the same shape, as the C++ side of "what Python costs".
//
//   oocfft_call_bench --shape 512x512x512 [--precision single|double]
//                     [--repeats 5] [--backend auto|host|cuda]
//
// Prints the forward and inverse medians and minima, and the round trip's
// error against the seeded input (a check that the runs transformed).
#include <oocfft/oocfft.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdio>
#include <string>
#include <vector>

#include "apps/seeded_volume.hpp"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class T>
int run(const oocfft::Shape& shape, unsigned repeats, const oocfft::Options& options) {
  const std::size_t n = shape.elements();
  oocfft::checks::VolumeBuffer<T> volume(n);  // pageable, as a numpy array's memory
  oocfft::checks::fill_seeded(volume.data(), n, 7);
  std::vector<double> forward, inverse;
  for (unsigned r = 0; r <= repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    oocfft::fft3d(volume.data(), shape, oocfft::Direction::forward, options);
    const auto t1 = std::chrono::steady_clock::now();
    oocfft::fft3d(volume.data(), shape, oocfft::Direction::inverse, options);
    const auto t2 = std::chrono::steady_clock::now();
    if (r == 0) continue;  // warm-up: first page-touch, kernel loading
    forward.push_back(std::chrono::duration<double>(t1 - t0).count());
    inverse.push_back(std::chrono::duration<double>(t2 - t1).count());
  }
  const double error = oocfft::checks::round_trip_error(volume.data(), n, 7);
  std::string times;
  for (const double t : forward) times += (times.empty() ? "" : ",") + std::to_string(t);
  std::printf("cpp fft3d %s %s: forward median %.4f s min %.4f s, inverse median %.4f s min %.4f s (%u runs), "
              "round-trip error %.2e; forward times %s s\n",
              shape.to_string().c_str(), sizeof(T) == 4 ? "complex64" : "complex128", median(forward),
              *std::min_element(forward.begin(), forward.end()), median(inverse),
              *std::min_element(inverse.begin(), inverse.end()), repeats, error, times.c_str());
  return error < (sizeof(T) == 4 ? 1e-4 : 1e-12) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"oocfft_call_bench: the one-shot fft3d call on pageable memory, timed"};
  std::string shape_text = "512x512x512", precision = "single", backend = "auto";
  unsigned repeats = 5;
  app.add_option("--shape", shape_text, "NZxNYxNX");
  app.add_option("--precision", precision)->check(CLI::IsMember({"single", "double"}));
  app.add_option("--repeats", repeats)->check(CLI::Range(1u, 1000u));
  app.add_option("--backend", backend)->check(CLI::IsMember({"auto", "host", "cuda"}));
  CLI11_PARSE(app, argc, argv);
  oocfft::Shape shape;
  if (std::sscanf(shape_text.c_str(), "%zux%zux%zu", &shape.nz, &shape.ny, &shape.nx) != 3) {
    std::fprintf(stderr, "--shape %s is not NZxNYxNX\n", shape_text.c_str());
    return 2;
  }
  oocfft::Options options;
  options.backend = backend == "host" ? oocfft::Backend::host
                    : backend == "cuda" ? oocfft::Backend::cuda
                                        : oocfft::Backend::automatic;
  try {
    return precision == "single" ? run<float>(shape, repeats, options) : run<double>(shape, repeats, options);
  } catch (const oocfft::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
