#include "distributed/node_device_steps.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/format_bytes.hpp"
#include "distributed/box_partition.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/mpi_communicator.hpp"
#include "distributed/rank_device.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/current_device.hpp"
#include "kernels/cuda/device_brick_plan.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/free_device_memory.hpp"
#include "kernels/cuda/stream.hpp"
#include "kernels/cuda/unique_handle.hpp"

namespace oocfft::distributed {
namespace {

namespace kc = kernels::cuda;

// As many streams as the single-node engine's lanes: copies one way, kernels
// and copies the other way overlap.
constexpr std::size_t stream_count = 4;
// A chunk of planes (steps 1 and 4) or of y rows (steps 2 and 3): small
// enough that the first upload's kernels start early and the streams take
// turns, large enough that each copy and launch is long beside its start.
constexpr std::size_t chunk_bytes = std::size_t{256} << 20;

// A peer's buffer mapped into this process (cudaIpcOpenMemHandle), closed
// when it goes.
using IpcMapping = kc::UniqueHandle<void*, cudaIpcCloseMemHandle>;

// Collective: `mine`, this rank's reason not to run the steps (empty:
// none), becomes every rank's verdict: empty when no rank has a reason,
// else the lowest such rank's, named, so that every rank takes the same
// path and says the same (failure_agreement.hpp carries it).
std::string agreed_reason(MPI_Comm comm, int rank, const std::string& mine) {
  try {
    throw_if_any_failed(comm, mine.empty() ? std::nullopt
                                           : std::optional<Error>(Error(ErrorKind::unsupported,
                                                                        "rank " + std::to_string(rank) + ": " + mine)));
  } catch (const Error& agreed) {
    return agreed.message();
  }
  return {};
}

// This rank's one CUDA device under `local`, or the reason it has none.
std::optional<int> single_device(const Options& local, std::string& why_not) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
    (void)cudaGetLastError();
    why_not = "no CUDA device";
    return std::nullopt;
  }
  switch (local.devices.choice()) {
    case DeviceChoice::current: {
      int device = 0;
      kc::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
      return device;
    }
    case DeviceChoice::all:
      if (count == 1) return 0;
      break;
    case DeviceChoice::listed:
      if (local.devices.ordinals().size() == 1) return local.devices.ordinals().front();
      break;
  }
  why_not = "its transforms use several devices (" + local.devices.to_string() + ")";
  return std::nullopt;
}

}  // namespace

class NodeDeviceSteps::Impl {
 public:
  Impl(Shape shape, Precision precision, int rank, int ranks, int device, const Options& local)
      : shape_(shape), rank_(rank), ranks_(ranks), device_(device),
        element_(precision == Precision::single ? 8 : 16),
        z_slabs_(slab_boxes(shape, 0, ranks)),
        y_slabs_(slab_boxes(shape, 1, ranks)) {
    const std::size_t plane = std::size_t(shape.ny) * shape.nx * element_;
    const std::size_t y_row = std::size_t(shape.nz) * shape.nx * element_;
    planes_per_chunk_ = std::clamp<std::size_t>(chunk_bytes / plane, 1, z_slab().extent().nz);
    rows_per_chunk_ = std::max<std::size_t>(chunk_bytes / y_row, 1);
    const kc::CurrentDevice current(device_);
    const Shape planes{planes_per_chunk_, shape.ny, shape.nx};
    const Shape rows{shape.nz, std::min<std::size_t>(rows_per_chunk_, y_slab().extent().ny), shape.nx};
    if (precision == Precision::single)
      build(single_, planes, rows, local);
    else
      build(double_, planes, rows, local);
  }

  // What the buffers take on the device: the z-slab, the y-slab and a
  // workspace per stream.
  std::size_t device_bytes() const {
    return z_slab().count() * element_ + y_slab().count() * element_ + stream_count * workspace_bytes();
  }

  // Allocates the buffers and the streams, on this rank.
  void allocate() {
    const kc::CurrentDevice current(device_);
    z_buffer_ = kc::DeviceBuffer(std::max<std::size_t>(z_slab().count() * element_, 1), "z-slab");
    y_buffer_ = kc::DeviceBuffer(std::max<std::size_t>(y_slab().count() * element_, 1), "y-slab");
    for (std::size_t s = 0; s < stream_count; ++s) {
      streams_.emplace_back();
      workspaces_.emplace_back(workspace_bytes(), "workspace");
    }
  }

  // Collective over `comm`: every rank's buffers mapped into this process.
  void map_peers(MPI_Comm comm) {
    const kc::CurrentDevice current(device_);
    std::array<cudaIpcMemHandle_t, 2> mine{};
    kc::check_cuda(cudaIpcGetMemHandle(&mine[0], z_buffer_.get()), "cudaIpcGetMemHandle");
    kc::check_cuda(cudaIpcGetMemHandle(&mine[1], y_buffer_.get()), "cudaIpcGetMemHandle");
    std::vector<cudaIpcMemHandle_t> all(2 * static_cast<std::size_t>(ranks_));
    check_mpi(MPI_Allgather(mine.data(), static_cast<int>(sizeof(mine)), MPI_BYTE, all.data(),
                            static_cast<int>(sizeof(mine)), MPI_BYTE, comm),
              "MPI_Allgather");
    peer_z_.assign(static_cast<std::size_t>(ranks_), nullptr);
    peer_y_.assign(static_cast<std::size_t>(ranks_), nullptr);
    for (int r = 0; r < ranks_; ++r) {
      const auto ur = static_cast<std::size_t>(r);
      if (r == rank_) {
        peer_z_[ur] = z_buffer_.as<std::byte>();
        peer_y_[ur] = y_buffer_.as<std::byte>();
        continue;
      }
      for (int b = 0; b < 2; ++b) {
        void* mapped = nullptr;
        kc::check_cuda(cudaIpcOpenMemHandle(&mapped, all[2 * ur + b], cudaIpcMemLazyEnablePeerAccess),
                       "cudaIpcOpenMemHandle");
        mappings_.emplace_back(mapped);
        (b == 0 ? peer_z_ : peer_y_)[ur] = static_cast<std::byte*>(mapped);
      }
    }
  }

  template <class T>
  void run(MPI_Comm comm, const std::complex<T>* in, std::complex<T>* out, bool inverse, double scale,
           const RunControls& controls, unsigned first_step) const {
    const Kernels<T>& kernels = kernels_of<T>();
    agree_on(comm, [&] {
      controls.poll_cancel("the planes");
      on_device([&] { upload_planes(kernels, reinterpret_cast<const std::byte*>(in), inverse); });
    });
    controls.step_done(first_step);
    agree_on(comm, [&] {
      controls.poll_cancel("the z lines");
      on_device([&] { z_lines(kernels, inverse, static_cast<T>(scale)); });
    });
    controls.step_done(first_step + 1);
    agree_on(comm, [&] { on_device([&] { download_planes(reinterpret_cast<std::byte*>(out)); }); });
  }

  std::string describe(unsigned first) const {
    const std::string n = std::to_string(first), m = std::to_string(first + 1);
    return "  " + n + ". xy of z-slab " + to_string(z_slab()) + " resident on CUDA device " + std::to_string(device_) +
           ": up in chunks of " + std::to_string(planes_per_chunk_) + " planes on " + std::to_string(stream_count) +
           " streams, each transformed as it lands (" + format_bytes(double(z_slab().count() * element_)) +
           " up)\n  " + m + ". z-slabs -> y-slabs between the node's devices (CUDA IPC, peer copies: " +
           format_bytes(double(received_from_peers())) + " pulled from peers), z of y-slab " + to_string(y_slab()) +
           " in chunks of " + std::to_string(rows_per_chunk_) +
           " rows, y-slabs -> z-slabs between the devices, the z-slab down (" +
           format_bytes(double(z_slab().count() * element_)) + "); device memory " + format_bytes(double(device_bytes())) +
           " (z-slab, y-slab, " + std::to_string(stream_count) + " workspaces)\n" + kernels_describe();
  }

 private:
  template <class T>
  struct Kernels {
    kc::DeviceBrickPlan<T> planes, z;
  };

  template <class T>
  void build(std::optional<Kernels<T>>& kernels, Shape planes, Shape rows, const Options& local) {
    kc::DeviceBrickPlan<T> xy(planes, AxisSet::xy(), kc::TileKernels::compiled_where_available, nullptr,
                              local.kernel_cache_directory);
    kc::DeviceBrickPlan<T> z(rows, AxisSet::only_z(), kc::TileKernels::compiled_where_available,
                             xy.shared_plan_time(), local.kernel_cache_directory);
    kernels.emplace(Kernels<T>{std::move(xy), std::move(z)});
  }
  template <class T>
  const Kernels<T>& kernels_of() const {
    if constexpr (std::is_same_v<T, float>)
      return *single_;
    else
      return *double_;
  }
  std::size_t workspace_bytes() const {
    return single_ ? std::max(single_->planes.workspace_bytes(), single_->z.workspace_bytes())
                   : std::max(double_->planes.workspace_bytes(), double_->z.workspace_bytes());
  }
  std::string kernels_describe() const {
    const std::string planes = single_ ? single_->planes.describe() : double_->planes.describe();
    const std::string z = single_ ? single_->z.describe() : double_->z.describe();
    return "     planes: " + planes + "\n     z lines: " + z + "\n";
  }

  const Box3& z_slab() const { return z_slabs_[static_cast<std::size_t>(rank_)]; }
  const Box3& y_slab() const { return y_slabs_[static_cast<std::size_t>(rank_)]; }
  std::size_t received_from_peers() const {
    return (y_slab().count() - (z_slab().extent().nz * std::size_t(y_slab().extent().ny) * shape_.nx)) * element_;
  }
  cudaStream_t stream(std::size_t k) const { return streams_[k % stream_count].get(); }
  void* workspace(std::size_t k) const { return workspaces_[k % stream_count].get(); }
  void synchronise() const {
    for (const kc::Stream& s : streams_) s.synchronize();
  }
  // Runs one step's work on the rank's device and waits for its streams.
  // A step that fails part way still waits for what it queued before the
  // error leaves: no copy may touch the caller's arrays, or a peer's
  // buffer, once the ranks have agreed on the failure.
  template <class Step>
  void on_device(const Step& step) const {
    const kc::CurrentDevice current(device_);
    try {
      step();
    } catch (...) {
      for (const kc::Stream& s : streams_)
        if (cudaStreamSynchronize(s.get()) != cudaSuccess) (void)cudaGetLastError();
      throw;
    }
    synchronise();
  }

  // Step 1: chunk k of the planes goes up on stream k and is transformed
  // there, so the next chunk's copy overlaps this one's kernels.
  template <class T>
  void upload_planes(const Kernels<T>& kernels, const std::byte* in, bool inverse) const {
    const std::size_t planes = z_slab().extent().nz;
    const std::size_t plane = std::size_t(shape_.ny) * shape_.nx * element_;
    for (std::size_t k = 0, p = 0; p < planes; ++k, p += planes_per_chunk_) {
      const std::size_t count = std::min(planes_per_chunk_, planes - p);
      std::byte* chunk = z_buffer_.as<std::byte>() + p * plane;
      kc::check_cuda(cudaMemcpyAsync(chunk, in + p * plane, count * plane, cudaMemcpyHostToDevice, stream(k)),
                     "cudaMemcpyAsync (z-slab up)");
      kernels.planes.execute(reinterpret_cast<kernels::Complex<T>*>(chunk),
                             Shape{count, shape_.ny, shape_.nx}, workspace(k), inverse,
                             T(1), stream(k));
    }
  }

  // Steps 2 and 3 up to the z-slab: chunk c of this rank's y-slab (rows
  // [y0 + c R, ...), a brick [nz][rows][nx] at offset nz c R nx) is pulled
  // from every rank's z-slab and transformed on stream c; after a barrier
  // every rank pulls its z-slab back from the chunks (download_planes).
  template <class T>
  void z_lines(const Kernels<T>& kernels, bool inverse, T scale) const {
    const Box3& mine = y_slab();
    const std::size_t rows = mine.extent().ny, x_row = std::size_t(shape_.nx) * element_;
    for (std::size_t c = 0, r = 0; r < rows; ++c, r += rows_per_chunk_) {
      const std::size_t count = std::min(rows_per_chunk_, rows - r);
      std::byte* chunk = y_buffer_.as<std::byte>() + std::size_t(shape_.nz) * r * x_row;
      for (int s = 0; s < ranks_; ++s) {
        const Box3& source = z_slabs_[static_cast<std::size_t>(s)];
        if (source.empty()) continue;
        // Each plane z of the source: its rows y0 + r.. (contiguous) into
        // plane z of the chunk.
        const std::size_t y = std::size_t(mine.low[1]) + r;
        kc::check_cuda(cudaMemcpy2DAsync(chunk + std::size_t(source.low[0]) * count * x_row, count * x_row,
                                         peer_z_[static_cast<std::size_t>(s)] + y * x_row,
                                         std::size_t(shape_.ny) * x_row, count * x_row, source.extent().nz,
                                         cudaMemcpyDefault, stream(c)),
                       "cudaMemcpy2DAsync (z-slabs -> y-slab)");
      }
      kernels.z.execute(reinterpret_cast<kernels::Complex<T>*>(chunk),
                        Shape{shape_.nz, count, shape_.nx}, workspace(c), inverse, scale,
                        stream(c));
    }
  }

  // Steps 3 and 4: every rank's y-slab chunks -> this z-slab's rows, then
  // down in chunks of planes (after all pulls: they write across all
  // planes).
  void download_planes(std::byte* out) const {
    const Box3& mine = z_slab();
    if (mine.empty()) return;
    const std::size_t x_row = std::size_t(shape_.nx) * element_, plane = std::size_t(shape_.ny) * x_row;
    std::size_t k = 0;
    for (int s = 0; s < ranks_; ++s) {
      const Box3& source = y_slabs_[static_cast<std::size_t>(s)];
      const std::size_t rows = source.empty() ? 0 : source.extent().ny;
      for (std::size_t r = 0; r < rows; r += rows_per_chunk_, ++k) {
        const std::size_t count = std::min(rows_per_chunk_, rows - r);
        const std::byte* chunk = peer_y_[static_cast<std::size_t>(s)] + std::size_t(shape_.nz) * r * x_row;
        kc::check_cuda(cudaMemcpy2DAsync(z_buffer_.as<std::byte>() + (std::size_t(source.low[1]) + r) * x_row, plane,
                                         chunk + std::size_t(mine.low[0]) * count * x_row, count * x_row,
                                         count * x_row, mine.extent().nz, cudaMemcpyDefault, stream(k)),
                       "cudaMemcpy2DAsync (y-slabs -> z-slab)");
      }
    }
    synchronise();
    const std::size_t planes = mine.extent().nz;
    for (std::size_t c = 0, p = 0; p < planes; ++c, p += planes_per_chunk_) {
      const std::size_t count = std::min(planes_per_chunk_, planes - p);
      kc::check_cuda(cudaMemcpyAsync(out + p * plane, z_buffer_.as<std::byte>() + p * plane, count * plane,
                                     cudaMemcpyDeviceToHost, stream(c)),
                     "cudaMemcpyAsync (z-slab down)");
    }
  }

 private:
  Shape shape_;
  int rank_, ranks_, device_;
  std::size_t element_;
  std::vector<Box3> z_slabs_, y_slabs_;
  std::size_t planes_per_chunk_ = 1, rows_per_chunk_ = 1;
  std::optional<Kernels<float>> single_;
  std::optional<Kernels<double>> double_;
  kc::DeviceBuffer z_buffer_, y_buffer_;
  std::vector<kc::Stream> streams_;
  std::vector<kc::DeviceBuffer> workspaces_;
  std::vector<std::byte*> peer_z_, peer_y_;  // every rank's buffers as this process sees them
  std::vector<IpcMapping> mappings_;         // declared after the buffers: closed before they are freed
};

std::unique_ptr<NodeDeviceSteps> NodeDeviceSteps::make(MPI_Comm comm, Shape shape, Precision precision,
                                                      const Options& local, std::string& why_not) {
  int rank = 0, ranks = 1;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  std::string reason;
  std::optional<int> device;
  // A condition that fails on a rank, or a runtime call that fails while
  // it is checked, is that rank's reason: the ranks agree on it before the
  // next collective call, so none is left waiting in one.
  const auto checked = [&](const auto& check) {
    try {
      if (reason.empty()) check();
    } catch (const Error& e) {
      reason = e.message();
    }
  };
  // The conditions every rank checks on itself first: one node, one device.
  checked([&] {
    if (ranks < 2) {
      reason = "one rank (the single-node engine's plans serve it)";
    } else if (node_size(comm) != ranks) {
      reason = "the ranks span several nodes";
    } else if (local.backend == Backend::host) {
      reason = "the host backend";
    } else if (shape.nz < std::size_t(ranks) || shape.ny < std::size_t(ranks)) {
      reason = "a rank would hold no planes or no y rows";
    } else {
      device = single_device(local, reason);
      // The transposes are pitched copies whose source or target pitch is
      // a whole plane (cudaMemcpy2DAsync).
      int max_pitch = 0;
      const std::size_t plane = shape.ny * shape.nx * (precision == Precision::single ? 8 : 16);
      if (device && cudaDeviceGetAttribute(&max_pitch, cudaDevAttrMaxPitch, *device) == cudaSuccess &&
          plane > std::size_t(max_pitch))
        reason = "a plane (" + format_bytes(double(plane)) + ") exceeds the largest pitch of a device copy (" +
                 format_bytes(double(max_pitch)) + ")";
    }
  });
  why_not = agreed_reason(comm, rank, reason);
  if (!why_not.empty()) return nullptr;

  // Every pair of devices must reach each other: matched by PCI bus id.
  std::array<char, 32> bus{};
  checked([&] {
    kc::check_cuda(cudaDeviceGetPCIBusId(bus.data(), static_cast<int>(bus.size()), *device),
                   "cudaDeviceGetPCIBusId");
  });
  std::vector<char> buses(bus.size() * static_cast<std::size_t>(ranks));
  check_mpi(MPI_Allgather(bus.data(), static_cast<int>(bus.size()), MPI_CHAR, buses.data(),
                          static_cast<int>(bus.size()), MPI_CHAR, comm),
            "MPI_Allgather");
  for (int r = 0; r < ranks && reason.empty(); ++r) {
    int peer = -1;
    if (cudaDeviceGetByPCIBusId(&peer, buses.data() + bus.size() * static_cast<std::size_t>(r)) != cudaSuccess) {
      (void)cudaGetLastError();
      reason = "rank " + std::to_string(r) + "'s device is not visible to it";
      break;
    }
    int access = 0;
    if (peer != *device && (cudaDeviceCanAccessPeer(&access, *device, peer) != cudaSuccess || access == 0)) {
      (void)cudaGetLastError();
      reason = "its device " + std::to_string(*device) + " cannot access device " + std::to_string(peer) +
               " (rank " + std::to_string(r) + "'s) as a peer";
    }
  }
  why_not = agreed_reason(comm, rank, reason);
  if (!why_not.empty()) return nullptr;

  std::unique_ptr<Impl> impl;
  agree_on(comm, [&] { impl = std::make_unique<Impl>(shape, precision, rank, ranks, *device, local); });
  // The buffers must fit the budget the caller set, and the device.
  checked([&] {
    if (local.device_memory_budget != 0 && impl->device_bytes() > local.device_memory_budget) {
      reason = "its buffers (" + format_bytes(double(impl->device_bytes())) + ") exceed the device budget of " +
               format_bytes(double(local.device_memory_budget));
      return;
    }
    const kc::CurrentDevice current(*device);
    const std::size_t budget = kc::free_device_memory_budget();
    if (impl->device_bytes() > budget)
      reason = "its buffers (" + format_bytes(double(impl->device_bytes())) + ") do not fit the " +
               format_bytes(double(budget)) + " its device has free beside a margin";
    else
      impl->allocate();
  });
  why_not = agreed_reason(comm, rank, reason);
  if (!why_not.empty()) return nullptr;
  agree_on(comm, [&] { impl->map_peers(comm); });
  return std::unique_ptr<NodeDeviceSteps>(new NodeDeviceSteps(std::move(impl)));
}

NodeDeviceSteps::NodeDeviceSteps(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
NodeDeviceSteps::~NodeDeviceSteps() = default;

template <class T>
void NodeDeviceSteps::run(MPI_Comm comm, const std::complex<T>* in, std::complex<T>* out, bool inverse, double scale,
                          const RunControls& controls, unsigned first_step) const {
  impl_->run(comm, in, out, inverse, scale, controls, first_step);
}

std::string NodeDeviceSteps::describe(unsigned first) const { return impl_->describe(first); }

template void NodeDeviceSteps::run(MPI_Comm, const std::complex<float>*, std::complex<float>*, bool, double,
                                   const RunControls&, unsigned) const;
template void NodeDeviceSteps::run(MPI_Comm, const std::complex<double>*, std::complex<double>*, bool, double,
                                   const RunControls&, unsigned) const;

}  // namespace oocfft::distributed
