#pragma once
// Transform options: what is computed (normalisation as numpy's `norm=`,
// centring), how (backend, threads, the out-of-core streaming engine's
// budgets, streams and strategy), and the run's progress and cancellation.
#include <cstddef>
#include <filesystem>
#include <functional>

#include "oocfft/devices.hpp"
#include "oocfft/host_threads.hpp"

namespace oocfft {

enum class Direction { forward, inverse };

// numpy's norm modes: backward = forward unscaled, inverse 1/N;
// ortho = 1/sqrt(N) both ways; forward = forward 1/N, inverse unscaled.
enum class Norm { backward, ortho, forward };

// automatic: the CUDA backend when the library was built with it and a GPU is
// present, otherwise the host backend.
enum class Backend { automatic, host, cuda };

enum class Precision { single, double_precision };

// The axes a Plan transforms.
//   all:    z, y and x: numpy's fftn of the volume;
//   planes: y and x of every z plane, a stack of nz 2D transforms: numpy's
//           fft2 of a 3D array, fftn(a, axes=(-2, -1)). Normalised over
//           ny*nx; each plane runs its whole 2D transform in one trip to the
//           device when it fits a stream's share (rows then columns when it
//           does not).
enum class Axes { all, planes };

// How a volume is streamed through the device (docs/ARCHITECTURE.md, "The algorithm").
// automatic = the fewest passes that fit the budgets. in_core: on a device
// the volume stays resident (z-slabs up and transformed along x and y as
// they land, y-slabs transformed along z and down); the host backend
// transforms it where it lies. two_pass keeps on the device, between its
// passes, what the budget holds beyond the streams' bricks.
enum class Strategy { automatic, in_core, two_pass, three_pass, line_transpose };

// Whether the CUDA backend DMAs bricks straight from the caller's array
// instead of copying them through pinned staging buffers.
//   automatic: directly when the caller already page-locked the array
//              (cudaHostRegister once, transform many times: the fastest
//              way), staged otherwise.
//   on:        page-lock the array in chunks while the first pass runs
//              and unlock it before returning; no staging is allocated
//              unless locking fails. Slower than staging through the ring
//              (16 GiB through 4 GiB: 1.7-1.8 s against 1.0-1.1 s), since
//              locking runs at about 25 GiB/s (bench/RESULTS.md); it saves
//              the staging's host memory.
//   off:       always stage.
// If locking fails, the bricks it did not reach are staged. The
// line_transpose strategy always stages. Ignored by the host backend.
enum class HostRegistration { automatic, on, off };

// What the progress callback is told after each brick.
struct Progress {
  std::size_t bricks_done = 0;
  std::size_t bricks_total = 0;  // over all passes
  std::size_t bytes_moved = 0;   // bytes read from plus written to the volume
  unsigned pass = 0;             // 0-based pass of the brick just finished
  unsigned passes = 0;
};

// The options say two different things, marked on each member:
//   WHAT is computed: `norm` and `shift` (with the Direction given to
//     execute()). They change the result.
//   HOW it is computed: `backend`, `threads`, `host_threads`, the budgets,
//     `streams`, `strategy`, `register_host_memory`,
//     `kernel_cache_directory` and `devices`. They change time and memory
//     only: every combination gives the in-core result to rounding (the
//     engine suites hold them to it).
//   and the run's controls: `progress` and `cancel`.
// The members stay in their first order, mixed, and new ones come last, so
// that aggregate and designated initialisers written against earlier
// releases still compile.
struct Options {
  // HOW: which executor runs the plan.
  Backend backend = Backend::automatic;
  // WHAT: which direction is scaled (numpy's norm=).
  Norm norm = Norm::backward;
  // HOW. Host threads for the host backend and for host-side copies; 0 = all cores.
  unsigned threads = 0;
  // HOW. Threads shared with other plans and calls (host_threads.hpp); when set,
  // `threads` must be 0 or its count. For loops of one-shot calls with a
  // thread count.
  HostThreads host_threads;

  // HOW. Device bytes the plan may use on each of its devices (bricks,
  // workspace, tables). 0 = the free device memory minus a safety margin.
  // On the host backend it bounds the per-stream brick buffers and the
  // planes a two-pass plan keeps between its passes the same way (in host
  // memory), so a small budget runs the out-of-core strategies without a
  // GPU.
  std::size_t device_memory_budget = 0;
  // HOW. Host bytes for all streams' staging buffers together (the streams
  // of every device); a brick is no larger than one stream's share. 0 = a
  // ring of 32 MiB per stream on a device (bricks staged in pieces of 8
  // MiB; line_transpose: a brick each), never more than a quarter of the
  // host's available memory (MemAvailable).
  std::size_t host_staging_budget = 0;
  // HOW. Bricks in flight on each device (CUDA streams, each with its own
  // staging and device buffers). 1..64.
  unsigned streams = 4;
  // HOW: passes over the volume (Strategy above).
  Strategy strategy = Strategy::automatic;
  // HOW: DMA from the caller's array or staging (HostRegistration above).
  HostRegistration register_host_memory = HostRegistration::automatic;
  // WHAT. Centred data, as numpy's fftshift(fftn(ifftshift(u))) (and the same
  // with ifftn for the inverse): the zero frequency, and the origin of the
  // input, at index n/2 of every axis. Folded into the transform as phase
  // multiplies of the bricks already on the device, never as passes of
  // their own (the host backend's in-core plan, which has no bricks, adds
  // one sweep before and one after; a DistributedPlan, whose ranks hold
  // parts, multiplies their slabs by the global shape's phases, on copies
  // it makes anyway where it can, else in sweeps). Not for
  // angular-spectrum work, whose result does not depend on where the
  // origin lies.
  bool shift = false;
  // HOW. CUDA backend: where the kernels compiled at plan time (NVRTC, for line
  // lengths the build did not compile ahead of time: OOCFFT_KERNEL_SET) are
  // cached, so that the next plan loads them instead of compiling again.
  // Empty = $XDG_CACHE_HOME/oocfft, else $HOME/.cache/oocfft. A directory
  // that cannot be created or written keeps them in memory for the plan
  // only (describe() says so); the transform goes on.
  std::filesystem::path kernel_cache_directory;
  // Run control. Called after every brick (the host backend's in-core plan, which
  // transforms the array where it lies: after every axis), from the
  // engine's stream threads, one call at a time. May be empty.
  std::function<void(const Progress&)> progress;
  // Run control. Polled before each brick (in-core on the host: before each axis), from
  // the engine's stream threads, one call at
  // a time (never beside another cancel or progress call); when it returns
  // true the engine finishes the bricks in flight, then throws
  // Error(cancelled). An exception thrown by it (or by progress) stops the
  // run the same way and is rethrown to the caller as it was thrown; the
  // array is then in the state described here for a cancel. An in-place array is then
  // left with the passes before the current one complete and the current
  // pass applied to some bricks only: its contents are not a transform of
  // anything and must be restored from a copy. A cancel seen before the first
  // brick leaves the array untouched. May be empty.
  std::function<bool()> cancel;
  // HOW. The devices the plan runs on (devices.hpp). Default: the calling
  // thread's current CUDA device alone (on the host backend, one emulated
  // device). `device_memory_budget` and `streams` apply to each device: n
  // devices run n x streams lanes, each device within its own budget.
  Devices devices;
};

const char* to_string(Direction) noexcept;
const char* to_string(Norm) noexcept;
const char* to_string(Backend) noexcept;
const char* to_string(Precision) noexcept;
const char* to_string(Axes) noexcept;
const char* to_string(Strategy) noexcept;
const char* to_string(HostRegistration) noexcept;

}  // namespace oocfft
