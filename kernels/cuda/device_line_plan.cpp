#include "kernels/cuda/device_line_plan.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <optional>
#include <utility>

#include "kernels/cuda/schedule_registry.hpp"
#include "kernels/direct_prime.hpp"
#include "kernels/roots_of_unity.hpp"

namespace oocfft::kernels::cuda {

const char* to_string(LineKernel k) noexcept {
  switch (k) {
    case LineKernel::shared_memory: return "shared-memory";
    case LineKernel::four_step: return "four-step";
    case LineKernel::bluestein_shared_memory: return "bluestein shared-memory";
    case LineKernel::bluestein_four_step: return "bluestein four-step";
  }
  return "?";
}

namespace {

// Tile sizes aimed at: about 4096 complex<float> or 2048 complex<double>
// (32 KB of shared memory) per block, so that several blocks share an SM.
template <class T>
constexpr int target_tile_points() {
  return sizeof(T) == 4 ? 4096 : 2048;
}
// Lanes that make one 128-byte row segment when lanes are contiguous.
template <class T>
constexpr int coalescing_lanes() {
  return static_cast<int>(128 / (2 * sizeof(T)));
}

// Scratch for the four-step kernel and Bluestein's long convolution is
// allocated in chunks of lines of at most this many bytes.
constexpr std::size_t chunk_budget_bytes = std::size_t{256} << 20;

// Points per thread the block is sized for. A direct prime pass has one work
// item per few output pairs (direct_prime_items in general_tile_kernels.cuh) and
// loops over them whatever the block size; its blocks are sized for four
// points per thread (the size measured), not for the other radices' values.
// An in-register prime butterfly, and radices 25 and 27, take their R values
// in one thread (more than values_per_thread).
template <class T>
int capacity_of(const std::vector<int>& radices) {
  int capacity = values_per_thread;
  for (int r : radices) {
    const bool whole_butterfly = in_register_prime<T>(r) || r > values_per_thread;
    const int values = whole_butterfly ? r : is_direct_prime(r) ? 4 : r * (values_per_thread / r);
    capacity = std::min(capacity, values);
  }
  return capacity;
}

template <class T>
int round_threads(std::int64_t needed) {
  const std::int64_t t = std::max<std::int64_t>(32, (needed + 31) / 32 * 32);
  return static_cast<int>(std::min<std::int64_t>(t, max_tile_threads<T>));
}

template <class T>
bool tile_fits(std::size_t n, const std::vector<int>& radices, std::int64_t lanes, const DeviceLimits& limits) {
  (void)radices;
  const std::int64_t points = static_cast<std::int64_t>(n) * lanes;
  if (points > (std::int64_t{1} << 24)) return false;
  return tile_shared_bytes<T>(static_cast<std::size_t>(points)) <= limits.shared_per_block_optin;
}

template <class T>
DeviceBuffer upload(const std::vector<Complex<T>>& values, const char* what) {
  DeviceBuffer buffer(values.size() * sizeof(Complex<T>), what);
  if (!values.empty()) {
    check_cuda(cudaMemcpy(buffer.get(), values.data(), buffer.bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
    // A copy from pageable memory may return before its DMA lands, and the
    // kernels run on the caller's (non-blocking) stream, which does not wait
    // for the legacy default stream: wait here, once per plan.
    check_cuda(cudaStreamSynchronize(cudaStreamLegacy), "cudaStreamSynchronize");
  }
  return buffer;
}

// Whether a tile compiled at plan time takes a whole line of length n in
// place of four steps. Over the non-power-of-two 7-smooth lengths
// 4097..16384, one tile ran faster than four steps for most lengths and
// every complex<float> one; most complex<double> lines it slowed were past
// 10240, where a thread of the one block per SM holds 21-24 values at 96
// registers. So complex<double> lines past 10240 keep four steps, but where
// their tile is the one-block tile at ptxas's cap (the one-block rule of
// shape_of_schedule: more than 96 registers), and where it is a one-block
// uniform tile (uniform_tile in long_line_tiles.hpp). A Bluestein
// convolution has no such limit: against its four general steps it ran
// faster in one tile. Measured: bench/RESULTS.md, section Kernel tuning
// table (sm_90).
template <class T>
bool plan_time_line_in_one_tile(std::size_t n) {
  if (sizeof(T) != sizeof(double) || n <= 10240) return true;
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) return false;
  const ScheduleShape g = schedule_shape<T>(static_cast<int>(n), false);
  return g.in_place || g.register_target > 96;
}

// Whether a compiled schedule could hold a whole line, or a Bluestein
// convolution, of length n in one tile (either layout): one too long for
// the general kernel's tile (which keeps two buffers) may still fit the one
// buffer of a compiled tile. The build's schedules serve any length they
// have; plan-time ones, for whole lines, only where
// plan_time_line_in_one_tile admits the length.
enum class TileUse { whole_line, bluestein_convolution };

template <class T>
bool compiled_tile_holds(std::size_t n, TileKernels kernels, TileUse use) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) return false;
  const int length = static_cast<int>(n);
  if (kernels == TileKernels::general_only) return false;
  if (has_compiled_schedule<T>(length)) return true;
  const bool admitted = use != TileUse::whole_line || plan_time_line_in_one_tile<T>(n);
  // Bluestein's convolution runs the Stockham tile of its settled schedule
  // (convolution_shape), a whole line its own tile, in-place or Stockham.
  const bool whole = use == TileUse::whole_line;
  const bool contiguous = whole ? schedule_shape<T>(length, false).valid : convolution_shape<T>(length, false).valid;
  const bool strided = whole ? schedule_shape<T>(length, true).valid : convolution_shape<T>(length, true).valid;
  return kernels == TileKernels::compiled_where_available && admitted && (contiguous || strided);
}

// The plan's twiddles as the tile kernels read them: each pass's block with
// entry (k, r) at r - 1 rows of `span` past its start, where the host plan
// keeps the R - 1 twiddles of butterfly k together (LinePlan). The threads of
// a warp take consecutive k, so each of their loads is one coalesced run
// instead of 32 reads R - 1 entries apart: the strided loads kept L1 near
// its throughput limit (ncu), the kernel's limit.
// A direct prime pass's constants after its twiddles stay as they are.
template <class T>
std::vector<Complex<T>> by_radix_digit(const LinePlan<T>& plan) {
  std::vector<Complex<T>> table = plan.twiddles;
  for (const StockhamPass& p : plan.passes) {
    const std::size_t rows = static_cast<std::size_t>(p.radix) - 1;
    for (std::size_t k = 0; k < p.span; ++k)
      for (std::size_t r = 0; r < rows; ++r)
        table[p.twiddle_offset + r * p.span + k] = plan.twiddles[p.twiddle_offset + k * rows + r];
  }
  return table;
}

int log2_exact(std::int64_t v) {
  int l = 0;
  while ((std::int64_t{1} << l) < v) ++l;
  return l;
}

}  // namespace

// ---------------------------------------------------------------- TileStockham

template <class T>
TileStockham<T>::TileStockham(std::shared_ptr<const LinePlan<T>> plan, const DeviceLimits& limits,
                              TileKernels kernels)
    : plan_(std::move(plan)),
      limits_(limits),
      kernels_(kernels),
      n_(static_cast<int>(plan_->length())),
      shapes_(schedule_shapes<T>(n_)) {
  capacity_ = capacity_of<T>(plan_->factorization.radices);
  if (plan_->passes.size() > static_cast<std::size_t>(max_tile_passes))
    throw Error(ErrorKind::unsupported, "line length " + std::to_string(n_) + " needs too many radix passes");
  for (const StockhamPass& p : plan_->passes) {
    TilePass t;
    t.radix = p.radix;
    t.span = static_cast<int>(p.span);
    t.twiddle_offset = static_cast<int>(p.twiddle_offset);
    t.span_divisor = FastDivisor(static_cast<std::uint32_t>(p.span));
    t.quarter_divisor = FastDivisor(static_cast<std::uint32_t>(n_ / p.radix));
    passes_.push_back(t);
  }
  twiddles_ = upload(by_radix_digit(*plan_), "twiddle table");
}

template <class T>
int TileStockham<T>::threads_for(int lanes) const {
  const std::int64_t points = static_cast<std::int64_t>(n_) * lanes;
  return round_threads<T>((points + capacity_ - 1) / capacity_);
}

template <class T>
bool TileStockham<T>::fits(int lanes) const {
  return tile_fits<T>(static_cast<std::size_t>(n_), plan_->factorization.radices, lanes, limits_);
}

template <class T>
int TileStockham<T>::choose_log_lanes(std::int64_t lane_count, bool lanes_fast) const {
  std::int64_t useful = 1;
  while (useful < lane_count && useful < (1 << 16)) useful *= 2;
  int lanes = 1;
  while (static_cast<std::int64_t>(lanes) * 2 * n_ <= target_tile_points<T>() && lanes * 2 <= useful) lanes *= 2;
  // Lanes contiguous in memory: take at least a 128-byte row per point, the
  // FftShMemCol arrangement (SC08 IV-B), even past the target tile size.
  if (lanes_fast)
    while (lanes < coalescing_lanes<T>() && lanes * 2 <= useful) lanes *= 2;
  while (lanes > 1 && !fits(lanes)) lanes /= 2;
  return fits(lanes) ? log2_exact(lanes) : -1;
}

template <class T>
void TileStockham<T>::fill(TileJob<T>& job, int log_lanes) const {
  job.n = n_;
  job.n_divisor = FastDivisor(static_cast<std::uint32_t>(n_));
  job.log_lanes = log_lanes;
  job.threads = threads_for(1 << log_lanes);
  job.kernels = kernels_;
  job.pass_count = static_cast<int>(passes_.size());
  std::copy(passes_.begin(), passes_.end(), job.passes);
  job.twiddles = twiddles_.template as<const Complex<T>>();
  job.plan_time = plan_time_;
  job.shapes = &shapes_;
}

// ---------------------------------------------------------------- four-step

namespace {

// n = n1 * n2. Step A: n2-point transforms over points n1 apart, times
// w_n^(n1 k2); step B: n1-point transforms, stored transposed so that X[k2 +
// n2 k1] lands in natural order (Bailey, "FFTs in external or hierarchical
// memory", 1990; SC08 section IV-C).
template <class T>
struct FourStep {
  std::size_t n = 0, n1 = 0, n2 = 0;
  std::optional<TileStockham<T>> a, b;
  DeviceBuffer low, high;
  int log_block = 0;
};

// Whether the contiguous whole-line tile of n is the in-place tile, which
// serves whole lines only (plan_time_schedules.cpp): as step B of a
// four-step split such a factor would run the general kernel.
template <class T>
bool whole_line_tile_in_place(std::size_t n) {
  return n <= static_cast<std::size_t>(max_schedule_points) && schedule_shape<T>(static_cast<int>(n), false).in_place;
}

// Chooses the most balanced split whose two factors are Stockham lengths that
// fit one tile, so each step's tiles can hold several lanes; of those, one
// whose step B factor has a Stockham tile where there is one.
template <class T>
FourStep<T> make_four_step(std::size_t n, const DeviceLimits& limits, TileKernels kernels) {
  constexpr CompositeRadices composites = device_composite_radices<T>();
  std::size_t best1 = 0, best2 = 0;
  bool best_in_place = false;
  for (std::size_t d = 2; d * d <= n; ++d) {
    if (n % d != 0) continue;
    for (const auto& [n1, n2] : {std::pair{n / d, d}, std::pair{d, n / d}}) {
      const LineFactorization f1 = choose_line_algorithm(n1, composites), f2 = choose_line_algorithm(n2, composites);
      if (f1.algorithm != LineAlgorithm::stockham || f2.algorithm != LineAlgorithm::stockham) continue;
      if (!tile_fits<T>(n1, f1.radices, 1, limits) || !tile_fits<T>(n2, f2.radices, 1, limits)) continue;
      // Ranked by the longer factor, then by step B's tile.
      const std::size_t longer = std::max(n1, n2), best_longer = std::max(best1, best2);
      if (best1 != 0 && (longer > best_longer || (longer == best_longer && !best_in_place))) continue;
      const bool in_place = whole_line_tile_in_place<T>(n1);
      if (best1 != 0 && longer == best_longer && in_place) continue;
      best1 = n1;
      best2 = n2;
      best_in_place = in_place;
    }
  }
  if (best1 == 0)
    throw Error(ErrorKind::unsupported, "line length " + std::to_string(n) +
                                            " has no split into two factors that fit the device's shared memory");
  FourStep<T> f;
  f.n = n;
  f.n1 = best1;
  f.n2 = best2;
  f.b.emplace(make_line_plan<T>(best1, composites), limits, kernels);
  f.a.emplace(make_line_plan<T>(best2, composites), limits, kernels);
  // w_n^e = low[e mod B] * high[e div B] with B = 2^k >= sqrt(n): two tables
  // of exact long-double roots, one rounding each, one product in T.
  f.log_block = 0;
  while ((std::size_t{1} << (2 * f.log_block)) < n) ++f.log_block;
  const std::size_t block = std::size_t{1} << f.log_block;
  const RootsOfUnity roots(n);
  std::vector<Complex<T>> low(block), high((n + block - 1) / block);
  for (std::size_t e = 0; e < low.size(); ++e) {
    const auto w = roots(e);
    low[e] = {static_cast<T>(w.real()), static_cast<T>(w.imag())};
  }
  for (std::size_t e = 0; e < high.size(); ++e) {
    const auto w = roots(e * block);
    high[e] = {static_cast<T>(w.real()), static_cast<T>(w.imag())};
  }
  f.low = upload(low, "four-step twiddle table");
  f.high = upload(high, "four-step twiddle table");
  return f;
}

template <class T>
std::int64_t chunk_lines(std::size_t n, std::int64_t lines) {
  const std::int64_t per_line = static_cast<std::int64_t>(n * sizeof(Complex<T>));
  const std::int64_t budget = std::max<std::int64_t>(1, static_cast<std::int64_t>(chunk_budget_bytes) / per_line);
  return std::clamp<std::int64_t>(budget, 1, std::max<std::int64_t>(lines, 1));
}

// The two launches of the four-step transform of lanes [l0, l0 + c) of group
// g: step A (n2-point transforms times the twiddle, into `work`) and step B
// (n1-point transforms stored transposed, back into place). `spectrum`, when
// given, multiplies the forward result (Bluestein's kernel spectrum, fused
// into step B's stores).
template <class T>
std::pair<TileJob<T>, TileJob<T>> four_step_jobs(const FourStep<T>& f, Complex<T>* data, const LineBatch& lines,
                                                 Complex<T>* work, std::int64_t g, std::int64_t l0, std::int64_t c,
                                                 T scale, const Complex<T>* spectrum) {
  const std::int64_t n = static_cast<std::int64_t>(f.n), n1 = static_cast<std::int64_t>(f.n1),
                     n2 = static_cast<std::int64_t>(f.n2);
  const bool contiguous = lines.point_stride == 1;
  const std::int64_t ps = lines.point_stride, sl = lines.lane_distance;
  Complex<T>* base = data + g * lines.group_distance + l0 * sl;
  TileJob<T> a, b;
  a.in = base;
  a.out = work;
  b.in = work;
  b.out = base;
  a.post_low = f.low.template as<const Complex<T>>();
  a.post_high = f.high.template as<const Complex<T>>();
  a.post_log_block = f.log_block;
  b.scale = scale;
  if (contiguous) {
    // A: lanes = n1 (contiguous), points n2 (stride n1), groups = lines.
    a.point_in = a.point_out = n1;
    a.lane = {n1, 1, 1};
    a.group = {c, sl, n};
    a.lanes_fast_in = a.lanes_fast_out = true;
    a.post = TilePost::twiddle_by_lane;
    f.a->fill(a, f.a->choose_log_lanes(n1, true));
    // B: points n1 (contiguous in work), stored n2 apart; lanes = k2.
    b.point_in = 1;
    b.point_out = n2;
    b.lane = {n2, n1, 1};
    b.group = {c, n, sl};
    b.lanes_fast_in = false;
    b.lanes_fast_out = true;
    if (spectrum != nullptr) {
      b.post = TilePost::table;
      b.post_table = spectrum;
      b.table_point = n2;
      b.table_lane = 1;
    }
    f.b->fill(b, f.b->choose_log_lanes(n2, true));
  } else {
    // Strided lines: lanes stay the contiguous x positions; work is
    // [point][lane] for the chunk of c lanes.
    const bool lanes_fast = std::abs(sl) <= std::abs(ps);
    a.point_in = n1 * ps;
    a.point_out = n1 * c;
    a.lane = {c, sl, 1};
    a.group = {n1, ps, c};
    a.lanes_fast_in = lanes_fast;
    a.lanes_fast_out = true;
    a.post = TilePost::twiddle_by_group;
    f.a->fill(a, f.a->choose_log_lanes(c, true));
    b.point_in = c;
    b.point_out = n2 * ps;
    b.lane = {c, 1, sl};
    b.group = {n2, n1 * c, ps};
    b.lanes_fast_in = true;
    b.lanes_fast_out = lanes_fast;
    if (spectrum != nullptr)
      throw Error(ErrorKind::invalid_argument, "four-step: spectrum multiply needs contiguous lines");
    f.b->fill(b, f.b->choose_log_lanes(c, true));
  }
  return {a, b};
}

// Transforms `lines` of `data` in place through `work` (chunk_lines * n
// values).
template <class T>
void run_four_step(const FourStep<T>& f, Complex<T>* data, const LineBatch& lines, Complex<T>* work,
                   bool inverse, T scale, const Complex<T>* spectrum, cudaStream_t stream) {
  const std::int64_t chunk = chunk_lines<T>(f.n, lines.line_count());
  for (std::int64_t g = 0; g < lines.group_count(); ++g) {
    for (std::int64_t l0 = 0; l0 < lines.lane_count(); l0 += chunk) {
      const std::int64_t c = std::min(chunk, lines.lane_count() - l0);
      const auto [a, b] = four_step_jobs(f, data, lines, work, g, l0, c, scale, spectrum);
      launch_stockham_tiles(a, inverse, stream);
      launch_stockham_tiles(b, inverse, stream);
    }
  }
}

}  // namespace

// ---------------------------------------------------------------- DeviceLinePlan

template <class T>
struct DeviceLinePlan<T>::State {
  std::size_t n = 1;
  LineKernel kernel = LineKernel::shared_memory;
  std::shared_ptr<const LinePlan<T>> host;
  std::optional<TileStockham<T>> tile;  // the line, or Bluestein's M, in one tile
  std::optional<FourStep<T>> four;      // the line, or Bluestein's M, in four steps
  DeviceBuffer chirp, spectrum;
  std::size_t m = 0;  // Bluestein convolution length
  std::shared_ptr<const PlanTimeSchedules> plan_time;
};

template <class T>
DeviceLinePlan<T>::DeviceLinePlan(std::size_t n, const DeviceLimits& limits, TileKernels kernels, LineUse use)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.n = n;
  s.host = make_line_plan<T>(n, device_composite_radices<T>(), use);
  const LineFactorization& f = s.host->factorization;
  if (f.algorithm == LineAlgorithm::stockham) {
    if (tile_fits<T>(n, f.radices, 1, limits)) {
      s.kernel = LineKernel::shared_memory;
      s.tile.emplace(s.host, limits, kernels);
    } else {
      s.kernel = LineKernel::four_step;
      s.four.emplace(make_four_step<T>(n, limits, kernels));
      // A compiled schedule holds a longer line in one tile than the general
      // kernel (one shared buffer instead of two: 16384 complex<float>, 8192
      // complex<double>); where it serves a batch, execute() takes it.
      if (compiled_tile_holds<T>(n, kernels, TileUse::whole_line)) s.tile.emplace(s.host, limits, kernels);
    }
    return;
  }
  s.m = f.convolution_length;
  s.chirp = upload(s.host->chirp, "Bluestein chirp");
  s.spectrum = upload(s.host->kernel_spectrum, "Bluestein kernel spectrum");
  const LinePlan<T>& conv = *s.host->convolution;
  if (tile_fits<T>(s.m, conv.factorization.radices, 1, limits)) {
    s.kernel = LineKernel::bluestein_shared_memory;
    // In both precisions a compiled schedule (plan-time where the build has
    // none) takes the convolution where one serves: with the chirp and
    // spectrum products in its passes it beat the general kernel on all
    // 101 complex<double> M of the primes 97..4127 that it newly served,
    // 1.03-2.38x (bench/RESULTS.md, "Bluestein: one prime per convolution
    // length"; before, the general kernel was faster on 63 of 115 and served complex<double> alone).
    s.tile.emplace(s.host->convolution, limits, kernels);
  } else {
    s.kernel = LineKernel::bluestein_four_step;
    s.four.emplace(make_four_step<T>(s.m, limits, kernels));
    // The whole convolution in one compiled tile where one serves a batch,
    // as for a long line (in both precisions: against four general steps,
    // M = 8232 and 8400 complex<double> ran 1.2-1.4x faster).
    if (compiled_tile_holds<T>(s.m, kernels, TileUse::bluestein_convolution))
      s.tile.emplace(s.host->convolution, limits, kernels);
  }
}

template <class T>
DeviceLinePlan<T>::~DeviceLinePlan() = default;
template <class T>
DeviceLinePlan<T>::DeviceLinePlan(DeviceLinePlan&&) noexcept = default;
template <class T>
DeviceLinePlan<T>& DeviceLinePlan<T>::operator=(DeviceLinePlan&&) noexcept = default;

template <class T>
std::size_t DeviceLinePlan<T>::length() const {
  return state_->n;
}
template <class T>
LineKernel DeviceLinePlan<T>::kernel() const {
  return state_->kernel;
}

template <class T>
std::size_t DeviceLinePlan<T>::workspace_bytes(const LineBatch& lines) const {
  const State& s = *state_;
  switch (s.kernel) {
    case LineKernel::shared_memory:
    case LineKernel::bluestein_shared_memory: return 0;
    case LineKernel::four_step:
      // None where the whole line fits one compiled tile.
      if (s.tile && choose_tile_kernel(one_tile_job(nullptr, lines, T(1), false)) != TileKernel::general) return 0;
      return static_cast<std::size_t>(chunk_lines<T>(s.n, lines.line_count())) * s.n * sizeof(Complex<T>);
    case LineKernel::bluestein_four_step:
      // None where the whole convolution fits one compiled tile; else the
      // padded rows, and the four-step scratch beside them.
      if (s.tile && choose_tile_kernel(one_tile_job(nullptr, lines, T(1), false)) != TileKernel::general) return 0;
      return 2 * static_cast<std::size_t>(chunk_lines<T>(s.m, lines.line_count())) * s.m * sizeof(Complex<T>);
  }
  return 0;
}

template <class T>
std::size_t DeviceLinePlan<T>::table_bytes() const {
  const State& s = *state_;
  std::size_t bytes = s.chirp.bytes() + s.spectrum.bytes();
  if (s.tile) bytes += s.tile->table_bytes();
  if (s.four) bytes += s.four->a->table_bytes() + s.four->b->table_bytes() + s.four->low.bytes() + s.four->high.bytes();
  return bytes;
}

// The job of a line that fits one tile (the line, or Bluestein's M), in
// place: lanes are the contiguous dimension unless the points are.
template <class T>
TileJob<T> DeviceLinePlan<T>::one_tile_job(Complex<T>* data, const LineBatch& lines, T scale, bool inverse) const {
  const State& s = *state_;
  const bool lanes_fast = lines.point_stride != 1 && std::abs(lines.lane_distance) <= std::abs(lines.point_stride);
  // A line too long for the general kernel's tile (one_tile_job of a
  // four-step plan) is one lane per tile in the compiled schedule.
  const int log_lanes = std::max(0, s.tile->choose_log_lanes(lines.lane_count(), lanes_fast));
  TileJob<T> job;
  job.in = data;
  job.out = data;
  job.point_in = job.point_out = lines.point_stride;
  job.lane = {lines.lane_count(), lines.lane_distance, lines.lane_distance};
  job.group = {lines.group_count(), lines.group_distance, lines.group_distance};
  job.lanes_fast_in = job.lanes_fast_out = lanes_fast;
  job.scale = scale;
  s.tile->fill(job, log_lanes);
  if (s.m != 0) {  // Bluestein: the convolution's tile
    job.valid = static_cast<int>(s.n);
    job.chirp = s.chirp.template as<const Complex<T>>();
    job.spectrum = s.spectrum.template as<const Complex<T>>();
    job.conjugate = inverse;
  }
  return job;
}

namespace {

// Both four-step steps: compiled when both are, ahead of time when both
// are that.
TileKernel both_steps(TileKernel a, TileKernel b) {
  if (a == TileKernel::general || b == TileKernel::general) return TileKernel::general;
  return a == TileKernel::ahead_of_time && b == TileKernel::ahead_of_time ? TileKernel::ahead_of_time
                                                                          : TileKernel::plan_time;
}

}  // namespace

template <class T>
std::pair<TileJob<T>, TileJob<T>> DeviceLinePlan<T>::first_four_step_jobs(const LineBatch& lines) const {
  // The chunks after the first differ only in their lane count, never
  // below the first chunk's.
  const State& s = *state_;
  const std::int64_t c = std::min(chunk_lines<T>(s.n, lines.line_count()), lines.lane_count());
  return four_step_jobs(*s.four, static_cast<Complex<T>*>(nullptr), lines, static_cast<Complex<T>*>(nullptr), 0, 0, c,
                        T(1), static_cast<const Complex<T>*>(nullptr));
}

template <class T>
TileKernel DeviceLinePlan<T>::tile_kernel(const LineBatch& lines) const {
  // A four-step plan (Bluestein's included) with a compiled schedule of its
  // whole length runs that where it serves; otherwise its two steps run
  // compiled schedules where the build or the plan has them, the general
  // kernel for Bluestein's fused spectrum.
  const State& s = *state_;
  if (s.tile) {
    const TileKernel one_tile = choose_tile_kernel(one_tile_job(nullptr, lines, T(1), false));
    if (one_tile != TileKernel::general || !s.four) return one_tile;
  }
  if (s.kernel != LineKernel::four_step) return TileKernel::general;
  const auto [a, b] = first_four_step_jobs(lines);
  return both_steps(choose_tile_kernel(a), choose_tile_kernel(b));
}

template <class T>
std::vector<ScheduleKey> DeviceLinePlan<T>::plan_time_keys(const LineBatch& lines) const {
  const State& s = *state_;
  std::vector<ScheduleKey> keys;
  auto add = [&keys](TileJob<T> job) {
    job.plan_time = nullptr;  // what the build alone runs
    if (choose_tile_kernel(job) == TileKernel::ahead_of_time) return;
    if (job.kernels != TileKernels::compiled_where_available) return;  // would not take one
    if (const std::optional<ScheduleKey> key = schedule_key_for(job)) keys.push_back(*key);
  };
  if (s.tile) add(one_tile_job(nullptr, lines, T(1), false));
  if (s.kernel == LineKernel::four_step) {
    const auto [a, b] = first_four_step_jobs(lines);
    add(a);
    add(b);
  }
  return keys;
}

template <class T>
void DeviceLinePlan<T>::use_plan_time(std::shared_ptr<const PlanTimeSchedules> plan_time) {
  State& s = *state_;
  s.plan_time = std::move(plan_time);
  for (TileStockham<T>* t : {s.tile ? &*s.tile : nullptr, s.four ? &*s.four->a : nullptr,
                             s.four ? &*s.four->b : nullptr})
    if (t != nullptr) t->use_plan_time(s.plan_time.get());
}

namespace {

bool inverse_end(TilePost ends) { return ends == TilePost::real_merge || ends == TilePost::real_pairs_inverse; }

}  // namespace

template <class T>
std::optional<TileJob<T>> DeviceLinePlan<T>::real_ends_job(Complex<T>* data, const LineBatch& lines, TilePost ends,
                                                           const Complex<T>* roots, std::int64_t real_rows,
                                                           T scale) const {
  const State& s = *state_;
  if (!s.tile || s.m != 0 || lines.length != s.n) return std::nullopt;
  TileJob<T> job = one_tile_job(data, lines, scale, inverse_end(ends));
  job.post = ends;
  job.post_table = roots;
  job.real_rows = real_rows;
  return job;
}

template <class T>
bool DeviceLinePlan<T>::execute_real_ends(Complex<T>* data, const LineBatch& lines, TilePost ends,
                                          const Complex<T>* roots, std::int64_t real_rows, T scale,
                                          cudaStream_t stream) const {
  // Only plan-time schedules fold the real ends: without them, no job to build on every call.
  if (lines.lines() == 0 || !state_->plan_time) return false;
  const std::optional<TileJob<T>> job = real_ends_job(data, lines, ends, roots, real_rows, scale);
  return job && launch_compiled_schedule(*job, inverse_end(ends), stream);
}

template <class T>
TileKernel DeviceLinePlan<T>::real_ends_kernel(const LineBatch& lines, TilePost ends) const {
  const std::optional<TileJob<T>> job = real_ends_job(nullptr, lines, ends, nullptr, 0, T(1));
  return job ? choose_tile_kernel(*job) : TileKernel::general;
}

template <class T>
std::vector<ScheduleKey> DeviceLinePlan<T>::real_ends_keys(const LineBatch& lines,
                                                           const std::vector<TilePost>& ends) const {
  std::vector<ScheduleKey> keys;
  for (const TilePost end : ends) {
    const std::optional<TileJob<T>> job = real_ends_job(nullptr, lines, end, nullptr, 0, T(1));
    if (!job || job->kernels != TileKernels::compiled_where_available) continue;
    if (const std::optional<ScheduleKey> key = schedule_key_for(*job)) keys.push_back(*key);
  }
  return keys;
}

template <class T>
void DeviceLinePlan<T>::execute(Complex<T>* data, const LineBatch& lines, void* workspace, bool inverse, T scale,
                                cudaStream_t stream) const {
  const State& s = *state_;
  if (lines.length != s.n)
    throw Error(ErrorKind::invalid_argument, "device line plan of length " + std::to_string(s.n) +
                                                 " given lines of length " + std::to_string(lines.length));
  if (lines.lines() == 0) return;
  auto* work = static_cast<Complex<T>*>(workspace);
  switch (s.kernel) {
    case LineKernel::shared_memory:
      launch_stockham_tiles(one_tile_job(data, lines, scale, inverse), inverse, stream);
      return;
    case LineKernel::bluestein_shared_memory:
      launch_bluestein_tiles(one_tile_job(data, lines, scale, inverse), stream);
      return;
    case LineKernel::four_step:
      // The whole line in one compiled tile where one serves the batch.
      if (s.tile && launch_compiled_schedule(one_tile_job(data, lines, scale, inverse), inverse, stream)) return;
      if (work == nullptr) throw Error(ErrorKind::invalid_argument, "four-step transform needs a workspace");
      run_four_step(*s.four, data, lines, work, inverse, scale, static_cast<const Complex<T>*>(nullptr), stream);
      return;
    case LineKernel::bluestein_four_step: {
      // The whole convolution in one compiled tile where one serves the batch.
      if (s.tile && launch_compiled_schedule(one_tile_job(data, lines, scale, inverse), inverse, stream)) return;
      if (work == nullptr) throw Error(ErrorKind::invalid_argument, "Bluestein transform needs a workspace");
      const std::int64_t m = static_cast<std::int64_t>(s.m);
      const std::int64_t total = lines.line_count();
      const std::int64_t chunk = chunk_lines<T>(s.m, total);
      Complex<T>* rows = work;
      Complex<T>* scratch = work + chunk * m;
      const auto* chirp = s.chirp.template as<const Complex<T>>();
      for (std::int64_t first = 0; first < total; first += chunk) {
        const std::int64_t count = std::min(chunk, total - first);
        launch_chirp_pad(data, lines, first, count, chirp, inverse, rows, m, stream);
        const LineBatch padded{s.m, 1, static_cast<std::size_t>(count), m, 1, 0};
        run_four_step(*s.four, rows, padded, scratch, false, T(1), s.spectrum.template as<const Complex<T>>(), stream);
        run_four_step(*s.four, rows, padded, scratch, true, T(1), static_cast<const Complex<T>*>(nullptr), stream);
        launch_chirp_unpad(rows, m, chirp, inverse, scale, data, lines, first, count, stream);
      }
      return;
    }
  }
}

template <class T>
std::string DeviceLinePlan<T>::describe() const {
  const State& s = *state_;
  std::string d = std::string(to_string(s.kernel)) + " n=" + std::to_string(s.n) + " (" + s.host->summary() + ")";
  if (s.four) d += ", four-step " + std::to_string(s.four->n1) + " x " + std::to_string(s.four->n2);
  if (s.four && s.tile) d += " (one tile where its compiled schedule serves)";
  return d;
}

template class TileStockham<float>;
template class TileStockham<double>;
template class DeviceLinePlan<float>;
template class DeviceLinePlan<double>;

}  // namespace oocfft::kernels::cuda
