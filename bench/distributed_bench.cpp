// Distributed benchmark: oocfft::DistributedPlan against FFTW's MPI
// transform (fftwf_mpi_plan_dft_3d) in the same run, on the same seeded
// complex64 volume, each rank holding a z-slab of it.
//
//   mpirun -np R oocfft_distributed_bench --shape=NZxNYxNX [--threads=16] [--no-fftw] [--repeat=N]
//                                         [--backend=host|cuda] [--precision=single] [--host-array]
//                                         [--devices=all]
//
// --host-array: each rank's z-slab is an oocfft::HostArray (page-locked
// for its GPU, as the single-process benchmarks' "HostArray" rows), not
// ordinary pageable memory. --devices=all: each rank streams through every
// GPU it sees (Options::devices = Devices::all(); give each rank its own
// with CUDA_VISIBLE_DEVICES), instead of one GPU a rank.
//
// Each rank fills its own z-slab (slab_box) from one global seed, so the
// volume is the same for any R. Each engine runs one warm-up transform,
// then --repeat timed ones (the input refilled before each, untimed), with
// MPI_Barrier before and after; a run's time is the slowest rank's. Rank 0
// prints one line per engine (time, GB/s of volume, GFLOP/s as 5 N log2 N / t,
// peak host RSS per rank and over all ranks), the ratio FFTW / oocfft, and
// every rank's describe().
//
// Checks that can fail (exit status 1): the marginal self-test of oocfft's
// result (the DFT of the input's sums over two axes equals the transform's
// line through the origin, for each axis; apps/marginal_check.hpp), and the
// relative L2 difference from FFTW's result on the points where both
// engines' z-slabs agree (FFTW's own local_size decomposition differs from
// slab_box when R does not divide nz), sampled to at most 2^24 points per
// rank. FFTW's output is in its input layout: FFTW_MPI_TRANSPOSED_OUT is
// not asked for.
//
// Memory: the engines run one after the other, and oocfft's volume is
// freed (its sample kept) before FFTW allocates its own, so the peak is
// the larger of the two, not their sum. Peak RSS is reset between them
// (/proc/self/clear_refs), so each line shows its own engine's peak.
#include <fftw3-mpi.h>
#include <mpi.h>
#include <tbb/global_control.h>

#include <oocfft/distributed.hpp>
#include <oocfft/oocfft.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/marginal_check.hpp"
#include "apps/seeded_volume.hpp"
#include "bench/process_memory.hpp"
#include "core/relative_l2.hpp"
#include "distributed/failure_agreement.hpp"

namespace {

using c64 = std::complex<float>;
using oocfft::Box3;
using oocfft::Shape;
using oocfft::distributed::agree_on;

constexpr std::uint64_t seed = 45;
// Points of each rank's share compared with FFTW: enough to catch a wrong
// plane, row or column, small beside a 24 GiB slab.
constexpr std::size_t max_compared_points = std::size_t{1} << 24;

// ---------------------------------------------------------------- MPI and FFTW handles

// MPI_Init_thread / MPI_Finalize. FFTW's threads need MPI_THREAD_FUNNELED:
// only the main thread calls MPI (FFTW's manual, "Combining MPI and Threads").
class MpiSession {
 public:
  MpiSession(int* argc, char*** argv) {
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    funnelled_ = provided >= MPI_THREAD_FUNNELED;
  }
  ~MpiSession() { MPI_Finalize(); }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  bool funnelled() const { return funnelled_; }

 private:
  bool funnelled_ = false;
};

// fftwf_init_threads + fftwf_mpi_init, and their cleanup before MPI_Finalize.
class FftwMpiSession {
 public:
  explicit FftwMpiSession(int threads) {
    fftwf_init_threads();
    fftwf_mpi_init();
    fftwf_plan_with_nthreads(threads);
  }
  ~FftwMpiSession() {
    fftwf_mpi_cleanup();
    fftwf_cleanup_threads();
  }
  FftwMpiSession(const FftwMpiSession&) = delete;
  FftwMpiSession& operator=(const FftwMpiSession&) = delete;
};

struct FftwFree {
  void operator()(fftwf_complex* p) const noexcept { fftwf_free(p); }
};
using FftwArray = std::unique_ptr<fftwf_complex[], FftwFree>;

class FftwPlan {
 public:
  explicit FftwPlan(fftwf_plan plan) : plan_(plan) {}
  ~FftwPlan() {
    if (plan_ != nullptr) fftwf_destroy_plan(plan_);
  }
  FftwPlan(const FftwPlan&) = delete;
  FftwPlan& operator=(const FftwPlan&) = delete;
  fftwf_plan get() const { return plan_; }

 private:
  fftwf_plan plan_;
};

// ---------------------------------------------------------------- arguments

struct Args {
  Shape shape{64, 64, 64};
  int threads = 16;
  bool fftw = true;
  int repeat = 1;
  oocfft::Backend backend = oocfft::Backend::automatic;
  bool host_array = false;
  bool all_devices = false;
};

// "NZxNYxNX" as a Shape; throws std::invalid_argument otherwise.
Shape parse_shape(const std::string& text) {
  std::size_t n[3];
  std::size_t p = 0;
  for (int k = 0; k < 3; ++k) {
    std::size_t used = 0;
    n[k] = std::stoull(text.substr(p), &used);
    p += used;
    if (k < 2 && (p >= text.size() || text[p] != 'x')) throw std::invalid_argument(text);
    if (k < 2) ++p;
  }
  if (p != text.size() || n[0] == 0 || n[1] == 0 || n[2] == 0) throw std::invalid_argument(text);
  return Shape{n[0], n[1], n[2]};
}

// Why the arguments are refused, or none; the same on every rank.
std::optional<std::string> parse(int argc, char** argv, Args& a) {
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string s = argv[i];
      auto value = [&](const char* key) { return s.substr(std::strlen(key)); };
      if (s.rfind("--shape=", 0) == 0)
        a.shape = parse_shape(value("--shape="));
      else if (s.rfind("--threads=", 0) == 0)
        a.threads = std::stoi(value("--threads="));
      else if (s == "--no-fftw")
        a.fftw = false;
      else if (s.rfind("--repeat=", 0) == 0)
        a.repeat = std::stoi(value("--repeat="));
      else if (s == "--backend=host")
        a.backend = oocfft::Backend::host;
      else if (s == "--backend=cuda")
        a.backend = oocfft::Backend::cuda;
      else if (s == "--host-array")
        a.host_array = true;
      else if (s == "--devices=all")
        a.all_devices = true;
      else if (s == "--precision=single")
        ;  // the only one: FFTW's peer here is fftwf
      else
        return "unknown or unsupported argument " + s;
    }
  } catch (const std::exception&) {
    return "bad value in the arguments (--shape=NZxNYxNX, --threads=N, --repeat=N)";
  }
  if (a.threads < 1 || a.repeat < 1) return "--threads and --repeat must be at least 1";
  return std::nullopt;
}

// ---------------------------------------------------------------- the volume

double gib(double bytes) { return bytes / double(1ull << 30); }

// Global element g of the seeded volume is seeded_value(g, seed), and
// seeded_value(i, seed + offset) == seeded_value(i + offset, seed) (the
// hash is of i + seed), so a rank fills its slab starting at global element
// `offset` with the one-array fill.
void fill_slab(c64* slab, std::size_t count, std::size_t offset) {
  oocfft::checks::fill_seeded(slab, count, seed + offset);
}

// z range [begin, end) of a rank's slab in either layout.
struct ZRange {
  std::size_t begin = 0, end = 0;
  std::size_t planes() const { return end > begin ? end - begin : 0; }
};

// The points both engines hold on this rank: global element indices
// first + k * stride, k < count. An odd stride that 3 does not divide is
// coprime with the 2^a 3^b lengths benchmarked, so the sample walks over
// every x, y and z instead of one column.
struct Sample {
  std::size_t first = 0, stride = 1, count = 0;
};

Sample sample_of(ZRange ours, ZRange fftw, std::size_t plane) {
  Sample s;
  const std::size_t begin = std::max(ours.begin, fftw.begin), end = std::min(ours.end, fftw.end);
  if (end <= begin) return s;
  const std::size_t points = (end - begin) * plane;
  s.first = begin * plane;
  s.stride = (points + max_compared_points - 1) / max_compared_points;
  if (s.stride > 1) {
    s.stride |= 1;
    if (s.stride % 3 == 0) s.stride += 2;
  }
  s.count = (points + s.stride - 1) / s.stride;
  return s;
}

// ---------------------------------------------------------------- the marginal self-test over ranks

// The input's sums over two axes for the whole volume: each rank's slab
// gives its planes' z sums and partial y and x sums, added over the ranks.
oocfft::checks::Marginals global_marginals(const c64* slab, ZRange z, Shape shape, MPI_Comm comm) {
  oocfft::checks::Marginals m{std::vector<std::complex<double>>(shape.nz), std::vector<std::complex<double>>(shape.ny),
                              std::vector<std::complex<double>>(shape.nx)};
  if (z.planes() > 0) {
    const oocfft::checks::Marginals local = oocfft::checks::marginals(slab, Shape{z.planes(), shape.ny, shape.nx});
    std::copy(local.z.begin(), local.z.end(), m.z.begin() + static_cast<std::ptrdiff_t>(z.begin));
    m.y = local.y;
    m.x = local.x;
  }
  for (auto* line : {&m.z, &m.y, &m.x})
    MPI_Allreduce(MPI_IN_PLACE, line->data(), static_cast<int>(line->size()), MPI_C_DOUBLE_COMPLEX, MPI_SUM, comm);
  return m;
}

// The transform's three lines through the origin, gathered from the ranks
// that hold them, against the DFTs of the marginals. The same on every rank.
double global_marginal_error(const c64* slab, ZRange z, Shape shape, const oocfft::checks::Marginals& m,
                             MPI_Comm comm) {
  std::vector<std::complex<double>> along_z(shape.nz), along_y(shape.ny), along_x(shape.nx);
  for (std::size_t k = 0; k < z.planes(); ++k) along_z[z.begin + k] = slab[k * shape.ny * shape.nx];
  if (z.begin == 0 && z.planes() > 0) {
    for (std::size_t k = 0; k < shape.ny; ++k) along_y[k] = slab[k * shape.nx];
    for (std::size_t k = 0; k < shape.nx; ++k) along_x[k] = slab[k];
  }
  for (auto* line : {&along_z, &along_y, &along_x})
    MPI_Allreduce(MPI_IN_PLACE, line->data(), static_cast<int>(line->size()), MPI_C_DOUBLE_COMPLEX, MPI_SUM, comm);
  oocfft::L2Sums sums;
  const auto fz = oocfft::checks::dft(m.z), fy = oocfft::checks::dft(m.y), fx = oocfft::checks::dft(m.x);
  for (std::size_t k = 0; k < shape.nz; ++k) sums.add(along_z[k], fz[k]);
  for (std::size_t k = 0; k < shape.ny; ++k) sums.add(along_y[k], fy[k]);
  for (std::size_t k = 0; k < shape.nx; ++k) sums.add(along_x[k], fx[k]);
  return sums.relative();
}

// ---------------------------------------------------------------- timing and reporting

// Barrier, run, barrier: the slowest rank's time, on every rank.
template <class Run>
double timed(MPI_Comm comm, Run&& run) {
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  run();
  double seconds = MPI_Wtime() - start;
  MPI_Barrier(comm);
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  return seconds;
}

// Peak RSS from here on: writing 5 to clear_refs resets VmHWM (Linux 4.0+),
// so each engine's line shows its own peak, not the earlier engine's.
void reset_peak_rss() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
}

struct RssOverRanks {
  double max_gib = 0, sum_gib = 0;
};

RssOverRanks rss_over_ranks(MPI_Comm comm) {
  const double mine = gib(double(oocfft::bench::peak_rss()));
  RssOverRanks r;
  MPI_Allreduce(&mine, &r.max_gib, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(&mine, &r.sum_gib, 1, MPI_DOUBLE, MPI_SUM, comm);
  return r;
}

struct EngineResult {
  std::vector<double> seconds;  // the timed runs, slowest rank each
  RssOverRanks rss;
  double best() const { return *std::min_element(seconds.begin(), seconds.end()); }
};

void print_line(int rank, const char* engine, const Args& a, int ranks, const EngineResult& r) {
  if (rank != 0) return;
  const double n = double(a.shape.elements());
  const double bytes = double(a.shape.bytes(sizeof(c64)));
  std::string runs;
  for (double s : r.seconds) runs += (runs.empty() ? "" : ", ") + std::to_string(s);
  std::printf("%-22s %s c64 %6.1f GiB  %d ranks x %d threads  %9.4f s  %7.1f GB/s  %7.1f GFLOP/s  "
              "RSS %.1f GiB per rank (max), %.1f GiB in all  runs [%s]\n",
              engine, a.shape.to_string().c_str(), gib(bytes), ranks, a.threads, r.best(), bytes / r.best() / 1e9,
              5.0 * n * std::log2(n) / r.best() / 1e9, r.rss.max_gib, r.rss.sum_gib, runs.c_str());
  std::fflush(stdout);
}

// Every rank's text, printed by rank 0 in rank order.
void print_from_every_rank(const std::string& text, MPI_Comm comm) {
  int rank = 0, ranks = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const int length = static_cast<int>(text.size());
  std::vector<int> lengths(static_cast<std::size_t>(ranks)), offsets(static_cast<std::size_t>(ranks));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  std::string all;
  if (rank == 0) {
    int total = 0;
    for (int r = 0; r < ranks; ++r) {
      offsets[static_cast<std::size_t>(r)] = total;
      total += lengths[static_cast<std::size_t>(r)];
    }
    all.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, comm);
  if (rank == 0) {
    std::fwrite(all.data(), 1, all.size(), stdout);
    std::fflush(stdout);
  }
}

// FFTW's accuracy method (DESIGN.md, "Tests"): C eps sqrt(log2 N), with C
// room for two single-precision transforms compared with each other.
double tolerance(Shape shape) {
  return 20.0 * std::numeric_limits<float>::epsilon() * std::sqrt(std::log2(double(shape.elements())));
}

// ---------------------------------------------------------------- the run

int run(const Args& a, MPI_Comm comm) {
  int rank = 0, ranks = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const Shape shape = a.shape;
  const std::size_t plane = shape.ny * shape.nx;
  const double limit = tolerance(shape);
  bool passed = true;

  std::optional<FftwMpiSession> fftw_session;
  ZRange fftw_z;
  std::ptrdiff_t fftw_alloc = 0;
  if (a.fftw) {
    fftw_session.emplace(a.threads);
    ptrdiff_t local_n0 = 0, local_0_start = 0;
    fftw_alloc = fftwf_mpi_local_size_3d(static_cast<ptrdiff_t>(shape.nz), static_cast<ptrdiff_t>(shape.ny),
                                         static_cast<ptrdiff_t>(shape.nx), comm, &local_n0, &local_0_start);
    fftw_z = {static_cast<std::size_t>(local_0_start), static_cast<std::size_t>(local_0_start + local_n0)};
  }

  if (rank == 0)
    std::printf("distributed 3D FFT %s c64 (%.1f GiB) over %d ranks x %d threads, seed %llu, tolerance %.2e\n",
                shape.to_string().c_str(), gib(double(shape.bytes(sizeof(c64)))), ranks, a.threads,
                static_cast<unsigned long long>(seed), limit);

  // oocfft: each rank's z-slab, in place.
  const Box3 box = oocfft::slab_box(shape, 0, rank, ranks);
  const ZRange our_z = box.empty() ? ZRange{} : ZRange{std::size_t(box.low[0]), std::size_t(box.high[0]) + 1};
  const Sample sample = sample_of(our_z, fftw_z, plane);
  std::vector<c64> our_sample;
  EngineResult ours;
  double marginal_error = 0;
  {
    reset_peak_rss();
    std::optional<oocfft::checks::VolumeBuffer<float>> slab;
    std::optional<oocfft::HostArray<c64>> locked_slab;
    agree_on(comm, [&] {
      if (a.host_array)
        locked_slab.emplace(box.count());
      else
        slab.emplace(box.count());
    });
    c64* data = box.empty() ? nullptr : a.host_array ? locked_slab->data() : slab->data();
    if (rank == 0 && a.host_array)
      std::printf("z-slabs in HostArrays: rank 0's %s\n",
                  locked_slab->page_locked() ? "page-locked" : ("pageable: " + locked_slab->lock_failure()).c_str());
    fill_slab(data, box.count(), our_z.begin * plane);
    const oocfft::checks::Marginals m = global_marginals(data, our_z, shape, comm);

    // Where the time goes: rank 0 hears of each of the plan's steps as the
    // whole job finishes it (Options::progress), and notes the time.
    std::vector<double> step_ends;
    auto started = std::chrono::steady_clock::now();
    oocfft::Options options;
    options.backend = a.backend;
    options.threads = static_cast<unsigned>(a.threads);
    if (a.all_devices) options.devices = oocfft::Devices::all();
    options.progress = [&](const oocfft::Progress&) {
      step_ends.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    };
    const oocfft::DistributedPlan plan(comm, shape, box, box, oocfft::Precision::single, options);
    print_from_every_rank(plan.describe(), comm);

    plan.forward(data, data);  // warm-up: page-locking, kernels, first touch of the exchange buffers
    for (int r = 0; r < a.repeat; ++r) {
      fill_slab(data, box.count(), our_z.begin * plane);
      step_ends.clear();
      ours.seconds.push_back(timed(comm, [&] {
        started = std::chrono::steady_clock::now();
        plan.forward(data, data);
      }));
      if (rank == 0 && step_ends.size() == 3)
        std::printf("  run %d steps (rank 0's view): planes with their exchange %.3f s, z lines with theirs %.3f s, "
                    "exchange to the out boxes %.3f s\n",
                    r + 1, step_ends[0], step_ends[1] - step_ends[0], step_ends[2] - step_ends[1]);
    }
    ours.rss = rss_over_ranks(comm);
    print_line(rank, "oocfft distributed", a, ranks, ours);

    marginal_error = global_marginal_error(data, our_z, shape, m, comm);
    if (rank == 0)
      std::printf("oocfft marginal self-test (lines through the origin vs DFT of sums): error %.2e %s\n",
                  marginal_error, marginal_error <= limit ? "ok" : "FAILED");
    passed = passed && marginal_error <= limit;

    our_sample.resize(sample.count);
    for (std::size_t k = 0; k < sample.count; ++k)
      our_sample[k] = data[sample.first + k * sample.stride - our_z.begin * plane];
  }  // the slab and the plan's memory go back before FFTW allocates

  if (!a.fftw) return passed ? 0 : 1;

  reset_peak_rss();
  EngineResult fftw;
  FftwArray fftw_data;
  agree_on(comm, [&] {
    fftw_data.reset(fftwf_alloc_complex(static_cast<std::size_t>(std::max<std::ptrdiff_t>(fftw_alloc, 1))));
    if (!fftw_data) throw std::bad_alloc();
  });
  auto* fftw_slab = reinterpret_cast<c64*>(fftw_data.get());
  const FftwPlan fftw_plan(fftwf_mpi_plan_dft_3d(static_cast<ptrdiff_t>(shape.nz), static_cast<ptrdiff_t>(shape.ny),
                                                 static_cast<ptrdiff_t>(shape.nx), fftw_data.get(), fftw_data.get(),
                                                 comm, FFTW_FORWARD, FFTW_ESTIMATE));
  agree_on(comm, [&] {
    if (fftw_plan.get() == nullptr) throw std::runtime_error("fftwf_mpi_plan_dft_3d returned no plan");
  });
  fill_slab(fftw_slab, fftw_z.planes() * plane, fftw_z.begin * plane);
  fftwf_execute(fftw_plan.get());  // warm-up, as for oocfft
  for (int r = 0; r < a.repeat; ++r) {
    fill_slab(fftw_slab, fftw_z.planes() * plane, fftw_z.begin * plane);
    fftw.seconds.push_back(timed(comm, [&] { fftwf_execute(fftw_plan.get()); }));
  }
  fftw.rss = rss_over_ranks(comm);
  const std::string fftw_name = "FFTW3f MPI " + std::to_string(a.threads) + " thr";
  print_line(rank, fftw_name.c_str(), a, ranks, fftw);

  oocfft::L2Sums sums;
  for (std::size_t k = 0; k < sample.count; ++k)
    sums.add(our_sample[k], fftw_slab[sample.first + k * sample.stride - fftw_z.begin * plane]);
  double both[2] = {static_cast<double>(sums.difference), static_cast<double>(sums.reference)};
  std::size_t compared = sample.count;
  MPI_Allreduce(MPI_IN_PLACE, both, 2, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &compared, 1, MPI_UINT64_T, MPI_SUM, comm);
  const oocfft::L2Sums all{both[0], both[1]};
  const double difference = all.relative();
  if (rank == 0) {
    std::printf("oocfft vs FFTW MPI: relative L2 difference %.2e over %zu points where both z-slabs agree %s\n",
                difference, compared, difference <= limit && compared > 0 ? "ok" : "FAILED");
    std::printf("FFTW / oocfft time ratio %.2f (target >= 20 at 96 GiB on 4 H100s)\n", fftw.best() / ours.best());
  }
  passed = passed && difference <= limit && compared > 0;
  return passed ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MpiSession mpi(&argc, &argv);
  const MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  Args a;
  if (const auto refusal = parse(argc, argv, a)) {
    if (rank == 0) std::fprintf(stderr, "oocfft_distributed_bench: %s\n", refusal->c_str());
    return 2;
  }
  if (!mpi.funnelled()) {
    if (rank == 0) std::fprintf(stderr, "oocfft_distributed_bench: MPI does not provide MPI_THREAD_FUNNELED\n");
    return 2;
  }
  // The fills, sums and host copies of this process share the threads the
  // plan and FFTW get: R ranks x --threads on the node, no more.
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(a.threads));
  try {
    const int status = run(a, comm);
    if (status != 0 && rank == 0) std::fprintf(stderr, "oocfft_distributed_bench: a check FAILED\n");
    return status;
  } catch (const std::exception& e) {
    // oocfft's errors and the agreed allocation failures reach every rank alike.
    if (rank == 0) std::fprintf(stderr, "oocfft_distributed_bench: %s\n", e.what());
    return 1;
  }
}
