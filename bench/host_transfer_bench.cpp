// Host-side transfer measurements behind the out-of-core engine's choices:
//  1. brick copies (256 KiB pieces over a TBB arena, as transpose/run_copy
//     does) with memcpy and with streaming stores, gather and scatter;
//  2. cudaHostRegister / cudaHostUnregister of a large, touched, malloc'd
//     array: one call, and page-aligned chunks registered from T threads at
//     once;
//  3. with the array registered as chunks: whether a DMA whose source spans
//     two registrations succeeds, and at what speed, against one inside a
//     single registration.
//   oocfft_transfer_bench [--gib=16] [--threads=16]
#include <cuda_runtime_api.h>
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "transpose/streaming_copy.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
constexpr std::size_t GiB = std::size_t{1} << 30, MiB = std::size_t{1} << 20, page = 4096;

bool ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::printf("  %s: %s\n", what, cudaGetErrorString(e));
  (void)cudaGetLastError();
  return false;
}

// Copies `bytes` between a large array and a brick-sized buffer in 256 KiB
// pieces, to (gather) or from (scatter) the buffer, `rounds` bricks.
double brick_copy(std::byte* volume, std::byte* brick, std::size_t volume_bytes, std::size_t brick_bytes,
                  bool gather, bool streaming) {
  constexpr std::size_t piece = 256 << 10;
  const auto t = Clock::now();
  for (std::size_t at = 0; at + brick_bytes <= volume_bytes; at += brick_bytes) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, brick_bytes / piece), [&](const auto& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        std::byte* v = volume + at + i * piece;
        std::byte* b = brick + i * piece;
        std::byte* to = gather ? b : v;
        const std::byte* from = gather ? v : b;
        if (streaming) {
          oocfft::transpose::copy_streaming(to, from, piece);
        } else {
          std::memcpy(to, from, piece);
        }
      }
      if (streaming) oocfft::transpose::store_fence();
    });
  }
  return double(volume_bytes / brick_bytes * brick_bytes) / seconds_since(t) / 1e9;
}

// Page-aligned chunk boundaries covering [base, base + bytes).
std::vector<std::pair<std::byte*, std::size_t>> chunks_of(std::byte* base, std::size_t bytes, std::size_t chunk) {
  std::vector<std::pair<std::byte*, std::size_t>> out;
  std::byte* end = base + bytes;
  std::byte* at = base;
  while (at < end) {
    const auto next_aligned = (reinterpret_cast<std::uintptr_t>(at) + chunk) / page * page;
    std::byte* next = std::min(end, reinterpret_cast<std::byte*>(next_aligned));
    out.emplace_back(at, std::size_t(next - at));
    at = next;
  }
  return out;
}

template <class F>
double parallel_over(std::size_t n, unsigned threads, F f) {
  const auto t = Clock::now();
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < threads; ++k)
    pool.emplace_back([&, k] {
      for (std::size_t i = k; i < n; i += threads) f(i);
    });
  for (auto& th : pool) th.join();
  return seconds_since(t);
}

double dma_gbps(void* device, const void* host, std::size_t bytes, cudaStream_t s, bool* success) {
  cudaDeviceSynchronize();
  const auto t = Clock::now();
  *success = ok(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync") &&
             ok(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  return double(bytes) / seconds_since(t) / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t gib = 16;
  unsigned threads = 16;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--gib=", 0) == 0) gib = std::stoul(a.substr(6));
    if (a.rfind("--threads=", 0) == 0) threads = unsigned(std::stoul(a.substr(10)));
  }
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  const std::size_t bytes = gib * GiB;
  // malloc'd like a caller's array (not page-aligned: glibc puts a header first).
  auto* array = static_cast<std::byte*>(std::malloc(bytes));
  if (array == nullptr) return 1;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, bytes / 8), [&](const auto& r) {
    auto* w = reinterpret_cast<std::uint64_t*>(array);
    for (std::size_t i = r.begin(); i != r.end(); ++i) w[i] = i * 0x9E3779B97F4A7C15ull;
  });
  std::printf("array %zu GiB at page offset %zu, %u threads\n", gib, reinterpret_cast<std::uintptr_t>(array) % page,
              threads);

  // 1. Brick copies.
  const std::size_t brick = 512 * MiB;
  auto* staging = static_cast<std::byte*>(std::aligned_alloc(page, brick));
  std::memset(staging, 1, brick);
  const std::size_t span = std::min(bytes, 8 * GiB);
  for (int rep = 0; rep < 2; ++rep)
    std::printf("brick copy (512 MiB bricks, 256 KiB pieces), GB/s copied: gather memcpy %.1f streaming %.1f | "
                "scatter memcpy %.1f streaming %.1f\n",
                brick_copy(array, staging, span, brick, true, false), brick_copy(array, staging, span, brick, true, true),
                brick_copy(array, staging, span, brick, false, false),
                brick_copy(array, staging, span, brick, false, true));

  // 2. Registration.
  ok(cudaFree(nullptr), "context");
  {
    const auto t = Clock::now();
    if (ok(cudaHostRegister(array, bytes, cudaHostRegisterDefault), "cudaHostRegister whole")) {
      const double r = seconds_since(t);
      const auto u = Clock::now();
      ok(cudaHostUnregister(array), "cudaHostUnregister");
      std::printf("register whole array in one call: %.3f s (%.3f s/GiB), unregister %.3f s\n", r, r / double(gib),
                  seconds_since(u));
    }
  }
  for (std::size_t chunk : {256 * MiB, 1 * GiB}) {
    const auto parts = chunks_of(array, bytes, chunk);
    for (unsigned t : {1u, 2u, 4u, 8u, 16u}) {
      if (t > threads) continue;
      std::vector<char> done(parts.size(), 0);
      const double r = parallel_over(parts.size(), t, [&](std::size_t i) {
        done[i] = cudaHostRegister(parts[i].first, parts[i].second, cudaHostRegisterDefault) == cudaSuccess;
      });
      const std::size_t failed = std::count(done.begin(), done.end(), 0);
      if (failed) (void)cudaGetLastError();
      if (t == threads && failed == 0) {
        // 3. DMA across a registration boundary, against one inside a chunk.
        void* device = nullptr;
        cudaStream_t s = nullptr;
        if (ok(cudaMalloc(&device, GiB), "cudaMalloc") && ok(cudaStreamCreate(&s), "cudaStreamCreate")) {
          bool inside = false, across = false;
          const std::size_t len = std::min(chunk, 256 * MiB);
          std::byte* mid = parts[1].first;  // a boundary between two registrations
          for (int rep = 0; rep < 2; ++rep) {
            const double g_in = dma_gbps(device, parts[2].first, len, s, &inside);
            const double g_across = dma_gbps(device, mid - len / 2, len, s, &across);
            std::printf("  H2D %zu MiB inside one registration: %s %.1f GB/s; across two: %s %.1f GB/s\n",
                        len / MiB, inside ? "ok" : "FAILED", g_in, across ? "ok" : "FAILED", g_across);
          }
          cudaStreamDestroy(s);
          cudaFree(device);
        }
      }
      const double u = parallel_over(parts.size(), t, [&](std::size_t i) {
        if (done[i]) (void)cudaHostUnregister(parts[i].first);
      });
      std::printf("register %zu chunks of %zu MiB from %2u threads: %.3f s (%.4f s/GiB)%s, unregister %.3f s\n",
                  parts.size(), chunk / MiB, t, r, r / double(gib),
                  failed ? (" " + std::to_string(failed) + " FAILED").c_str() : "", u);
    }
  }
  std::free(staging);
  std::free(array);
  return 0;
}
