#include "engine/backends/cuda/link_probe.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/current_device.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/stream.hpp"
#include "oocfft/error.hpp"

namespace oocfft::engine {
namespace {

namespace kc = kernels::cuda;

// Large enough that a copy's launch latency is lost in it (about 1.2 ms at
// 55 GB/s), small enough to take from any budget; the best of a few runs
// after a warm-up, as a bandwidth test reports.
constexpr std::size_t probe_bytes = std::size_t{64} << 20;
constexpr int probe_runs = 3;

LinkBandwidth measure(int device) {
  const kc::CurrentDevice current(device);
  const kc::PinnedHostBuffer up(probe_bytes, "link probe"), down(probe_bytes, "link probe");
  const kc::DeviceBuffer to(probe_bytes, "link probe"), from(probe_bytes, "link probe");
  const kc::Stream h2d_stream, d2h_stream;
  const kc::Event start, h2d_done, d2h_done;
  auto h2d = [&] {
    kc::check_cuda(cudaMemcpyAsync(to.get(), up.get(), probe_bytes, cudaMemcpyHostToDevice, h2d_stream.get()),
                   "cudaMemcpyAsync (link probe, up)");
  };
  auto d2h = [&] {
    kc::check_cuda(cudaMemcpyAsync(down.get(), from.get(), probe_bytes, cudaMemcpyDeviceToHost, d2h_stream.get()),
                   "cudaMemcpyAsync (link probe, down)");
  };
  // Seconds of one direction alone, on its stream.
  auto one_way = [&](auto copy, const kc::Stream& stream, const kc::Event& done) {
    start.record(stream.get());
    copy();
    done.record(stream.get());
    done.synchronize();
    return double(done.elapsed_ms_since(start)) * 1e-3;
  };
  // Seconds until both directions, started together, have ended.
  auto duplex = [&] {
    start.record(h2d_stream.get());
    start.wait_on(d2h_stream.get());
    h2d();
    d2h();
    d2h_done.record(d2h_stream.get());
    d2h_done.wait_on(h2d_stream.get());
    h2d_done.record(h2d_stream.get());
    h2d_done.synchronize();
    return double(h2d_done.elapsed_ms_since(start)) * 1e-3;
  };
  (void)one_way(h2d, h2d_stream, h2d_done);  // warm-up: first-touch and power state
  (void)one_way(d2h, d2h_stream, d2h_done);
  double up_s = 1e30, down_s = 1e30, both_s = 1e30;
  for (int run = 0; run < probe_runs; ++run) {
    up_s = std::min(up_s, one_way(h2d, h2d_stream, h2d_done));
    down_s = std::min(down_s, one_way(d2h, d2h_stream, d2h_done));
    both_s = std::min(both_s, duplex());
  }
  const double bytes = double(probe_bytes);
  return {bytes / up_s, bytes / down_s, bytes / both_s};
}

// One device's entry of the process-wide cache (see link_probe.hpp).
struct DeviceLink {
  std::mutex mutex;                // held through a probe, and to count executions
  std::optional<LinkRates> rates;  // set once, by the first probe that ran
  unsigned executions = 0;         // transforms in flight on the device
};

// The entry of `device`. A std::map's nodes never move, so a reference
// stays valid after the table's lock is released; the entries live until
// the process ends, as the figures do.
DeviceLink& device_link(int device) {
  static std::mutex table_mutex;
  static std::map<int, DeviceLink> table;
  const std::lock_guard<std::mutex> lock(table_mutex);
  return table[device];
}

LinkRates probe(int device) {
  try {
    return {measure(device), "measured on device " + std::to_string(device) + " with pinned copies of 64 MiB"};
  } catch (const Error& error) {
    return {reference_link,
            std::string("the reference H100 figures: the link could not be measured (") + error.what() + ")"};
  }
}

}  // namespace

LinkRates device_link_rates(int device) {
  DeviceLink& link = device_link(device);
  const std::lock_guard<std::mutex> lock(link.mutex);
  if (!link.rates) {
    if (link.executions > 0)
      return {reference_link, "the reference H100 figures: device " + std::to_string(device) +
                                  "'s link is measured only while no transform runs on it, and one was running"};
    link.rates = probe(device);
  }
  return *link.rates;
}

DeviceExecution::DeviceExecution(int device) : device_(device) {
  DeviceLink& link = device_link(device);
  const std::lock_guard<std::mutex> lock(link.mutex);
  ++link.executions;
}

DeviceExecution::~DeviceExecution() {
  DeviceLink& link = device_link(device_);
  const std::lock_guard<std::mutex> lock(link.mutex);
  --link.executions;
}

}  // namespace oocfft::engine
