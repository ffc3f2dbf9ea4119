// Angular-spectrum benchmark: oocfft::propagate (one plane) and
// oocfft::propagate_stack (one distance per plane) on complex<float> fields,
// against the same work done as separate calls through the public API in
// the same run:
//   the field copied, centred, into a zero-padded plane (offset (n pad - n)/2,
//   as the library places it), an FFT2 with an oocfft::Plan of shape
//   {1, n pad, n pad} (norm backward), the spectrum multiplied on the host by
//   H (written here from the formulas, not taken from optics/), the inverse
//   FFT2, the plane cropped back into the field.
// The separate calls are timed twice: one-shot (plan built and padded plane
// allocated inside the timing, as every propagate() call must do), and warm
// (plan and plane made once, outside the timing, as a caller who holds them
// across calls would; the plane is a HostArray under --pinned).
//
// One line per case (--json: one JSON object per line): min and median over
// --repeats of each, GB/s = (field bytes read + written once) / time, the
// ratios separate/fused, the steps of the fastest one-shot separate run, the
// relative L2 difference ||fused - separate|| / ||separate|| (above 1e-4 the
// case reads MISMATCH and the exit status is 1), the separate result's
// relative L2 change from the input (below 1e-3: UNCHANGED, exit status 1),
// host memory needed (printed to stderr before each case) and MemAvailable.
// A case that does not fit MemAvailable is refused with its figures (exit
// status 3); a library error ends its case (exit status 2) and the run goes
// on. bench/asm_numpy_peer.py times numpy on the same propagation
// and, on the files of --save, checks both results against numpy.
//
//   oocfft_asm_bench [--case quick|all|NAME[,NAME...]] [--backend host|cuda|automatic]
//                    [--repeats 3] [--pinned] [--json] [--save DIR]
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <CLI/CLI.hpp>
#include <oocfft/asm.hpp>
#include <oocfft/error.hpp>
#include <oocfft/host_array.hpp>
#include <oocfft/plan.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <new>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bench/process_memory.hpp"
#include "apps/parallel_l2.hpp"
#include "core/enum_names.hpp"

namespace {

using c64 = std::complex<float>;
using Clock = std::chrono::steady_clock;
using oocfft::bench::mem_available;
using oocfft::bench::peak_rss;
using oocfft::checks::parallel_l2_sums;
using oocfft::checks::parallel_relative_l2;

constexpr std::uint64_t field_seed = 0x5eed2026;
constexpr double wavelength = 532e-9;  // metres
// Above this ||fused - separate|| / ||separate|| the results disagree: each
// path is 2.6e-7 from numpy in double on the 1k cases (asm_numpy_peer.py
// --check), a wrong H or a misplaced plane gives O(1).
constexpr double mismatch_threshold = 1e-4;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
double gib(double bytes) { return bytes / double(1ull << 30); }

// ---------------------------------------------------------------------------
// Cases

struct Case {
  std::string name;
  std::size_t planes = 1;  // 1: propagate; more: propagate_stack
  std::size_t n = 0;       // each plane is n x n
  unsigned pad = 1;
  bool quick = false;      // in the "quick" group, else in "all"
  double pitch = 8e-6;     // metres, both axes
  double distance = 0.05;  // metres, plane 0
  // Plane j goes to distance + j * distance_step (stacks: one distance per plane).
  double distance_step = 0;

  std::size_t field_elements() const { return planes * n * n; }
  std::size_t field_bytes() const { return field_elements() * sizeof(c64); }
  std::size_t padded_side() const { return n * pad; }
  std::size_t padded_bytes() const { return padded_side() * padded_side() * sizeof(c64); }
  std::vector<double> distances() const {
    std::vector<double> z(planes);
    for (std::size_t j = 0; j < planes; ++j) z[j] = distance + double(j) * distance_step;
    return z;
  }
};

std::vector<Case> case_table() {
  std::vector<Case> t;
  for (unsigned pad : {1u, 2u}) t.push_back({"1k-pad" + std::to_string(pad), 1, 1024, pad, true});
  // At 1 m the band limit keeps about a quarter of each axis (edge 15.4e3
  // of 62.5e3 cycles/m); at the default distance it keeps everything.
  t.push_back({"1k-pad2-bandlimit", 1, 1024, 2, true, 8e-6, 1.0});
  // A pitch under lambda / sqrt(2) puts the grid's corners, and at
  // 0.25 um its axes' ends, past 1 / lambda: the evanescent decay and the
  // band edge (then just under 1 / lambda) both act.
  t.push_back({"1k-pad1-evanescent", 1, 1024, 1, true, 0.25e-6, 2e-6});
  t.push_back({"stack8-1k-pad1", 8, 1024, 1, true, 8e-6, 0.05, 1e-3});
  for (std::size_t n : {8192, 16384, 32768})
    for (unsigned pad : {1u, 2u}) t.push_back({std::to_string(n / 1024) + "k-pad" + std::to_string(pad), 1, n, pad});
  for (unsigned pad : {1u, 2u})
    t.push_back({"stack64-4k-pad" + std::to_string(pad), 64, 4096, pad, false, 8e-6, 0.05, 1e-3});
  return t;
}

// ---------------------------------------------------------------------------
// Memory

// Plans' tables and, on the CUDA backend, their staging rings (4 streams x
// 64 MiB by default, options.hpp), with room for the process itself.
constexpr std::size_t plan_margin_bytes = std::size_t{1} << 30;

// Padded planes held at once: the separate run holds one; the fused run
// holds its own scratch, one padded plane per plane of the stack at most (a
// multi-pass program keeps them all between its passes). Counted at that
// upper bound.
std::size_t padded_scratch_bytes(const Case& c) { return c.planes * c.padded_bytes(); }

// Two fields (the fused run's and the separate run's, both in place; the
// input is regenerated from the seed before each run), the padded scratch
// of whichever run is going, and the plans.
std::size_t host_bytes_needed(const Case& c) {
  return 2 * c.field_bytes() + padded_scratch_bytes(c) + plan_margin_bytes;
}

// A field or plane as a caller holds it: an oocfft::HostArray (huge pages,
// page-locked where a GPU is usable) under --pinned, else a std::vector
// (pageable). Not the library's owned memory (volume::HostBuffer): the
// caller's array that the API is handed.
class CallerField {
 public:
  CallerField(std::size_t elements, bool pinned) {
    if (pinned)
      pinned_ = oocfft::HostArray<c64>(elements);
    else
      pageable_.resize(elements);
  }
  c64* data() noexcept { return pinned_.size() > 0 ? pinned_.data() : pageable_.data(); }
  const c64* data() const noexcept { return pinned_.size() > 0 ? pinned_.data() : pageable_.data(); }
  std::size_t size() const noexcept { return pinned_.size() > 0 ? pinned_.size() : pageable_.size(); }
  std::string kind() const {
    if (pinned_.size() == 0) return "pageable";
    return pinned_.page_locked() ? "page-locked" : "HostArray, not page-locked (" + pinned_.lock_failure() + ")";
  }

 private:
  oocfft::HostArray<c64> pinned_;
  std::vector<c64> pageable_;
};

// ---------------------------------------------------------------------------
// Field, comparison

// Both parts uniform in [-1, 1): one std::mt19937_64 per chunk of 2^20
// samples, seeded with field_seed + chunk, so the values do not depend on
// the thread count.
void fill_seeded(c64* v, std::size_t n) {
  constexpr std::size_t chunk = std::size_t{1} << 20;
  tbb::parallel_for(std::size_t{0}, (n + chunk - 1) / chunk, [&](std::size_t c) {
    std::mt19937_64 engine(field_seed + c);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) {
      const float re = uniform(engine);
      v[i] = {re, uniform(engine)};
    }
  });
}

// ||a - input|| / ||input||, the input regenerated chunk by chunk as
// fill_seeded makes it (no third field in memory): shows that the
// propagation changed the field, so that a relative L2 of 0 between two
// paths cannot come from both leaving it as it was.
double change_from_input(const c64* a, std::size_t n) {
  constexpr std::size_t chunk = std::size_t{1} << 20;
  // The core's measure, summed per chunk (core/relative_l2.hpp): a NaN in
  // `a` gives infinity, not a comparison that is false.
  return parallel_l2_sums((n + chunk - 1) / chunk, 1, [&](std::size_t first, std::size_t last, oocfft::L2Sums& acc) {
           for (std::size_t c = first; c != last; ++c) {
             std::mt19937_64 engine(field_seed + c);
             std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
             for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) {
               const float re = uniform(engine);
               acc.add(a[i], c64(re, uniform(engine)));
             }
           }
         }).relative();
}

// ---------------------------------------------------------------------------
// The separate calls

// H(fx, fy; z) = exp(i 2 pi z sqrt(k^2 - fx^2 - fy^2)), k = 1 / lambda, on
// numpy's fftfreq grid of the padded plane; band-limited after Matsushima &
// Shimobaba, Opt. Express 17, 19662 (2009), eq. (13)-(15): kept where
// |fx| < k / sqrt((2 dfx z)^2 + 1), dfx = 1 / (N_padded pitch), and the same
// along y; where fx^2 + fy^2 > k^2, exp(-2 pi |z| sqrt(fx^2 + fy^2 - k^2)).
// All in double: 2 pi z k is 5.9e5 radians at 5 cm.
class TransferFunction {
 public:
  TransferFunction(std::size_t side, double pitch, double z)
      : k_(1.0 / wavelength), z_(z), f_(side), edge_(k_ / std::hypot(2.0 * z / (double(side) * pitch), 1.0)) {
    for (std::size_t i = 0; i < side; ++i) {  // numpy.fft.fftfreq(side, pitch)
      const double j = i <= (side - 1) / 2 ? double(i) : double(i) - double(side);
      f_[i] = j / (double(side) * pitch);
    }
  }

  // spectrum (side x side, fftfreq order) *= H, rows in parallel.
  void multiply(c64* spectrum) const {
    const std::size_t side = f_.size();
    tbb::parallel_for(std::size_t{0}, side, [&](std::size_t y) {
      c64* row = spectrum + y * side;
      const double fy = f_[y];
      if (std::abs(fy) >= edge_) {
        std::fill(row, row + side, c64{});
        return;
      }
      for (std::size_t x = 0; x < side; ++x)
        row[x] = c64(std::complex<double>(row[x]) * at(f_[x], fy));
    });
  }

 private:
  std::complex<double> at(double fx, double fy) const {
    if (std::abs(fx) >= edge_) return 0;
    constexpr double two_pi = 2 * std::numbers::pi;
    const double w = k_ * k_ - fx * fx - fy * fy;
    if (w >= 0) return std::polar(1.0, two_pi * z_ * std::sqrt(w));
    return std::exp(-two_pi * std::abs(z_) * std::sqrt(-w));
  }

  double k_, z_;
  std::vector<double> f_;
  double edge_;
};

struct SeparateSteps {
  double plan = 0, allocate = 0, pad = 0, forward = 0, multiply = 0, inverse = 0, crop = 0;
  double total() const { return plan + allocate + pad + forward + multiply + inverse + crop; }
};

// propagate() as a caller writes it from the public API: one Plan for the
// padded plane, the steps timed one by one.
class SeparateCalls {
 public:
  SeparateCalls(const Case& c, oocfft::Backend backend)
      : c_(c), plan_(oocfft::Shape{1, c.padded_side(), c.padded_side()}, oocfft::Precision::single, options(backend)) {}

  oocfft::Backend backend() const { return plan_.backend(); }

  // `field` (n x n) propagated by z in place, through `plane` (padded).
  void propagate(c64* field, double z, c64* plane, SeparateSteps& steps) const {
    const std::size_t n = c_.n, side = c_.padded_side(), offset = (side - n) / 2;
    auto t = Clock::now();
    tbb::parallel_for(std::size_t{0}, side, [&](std::size_t y) {
      c64* row = plane + y * side;
      if (y < offset || y >= offset + n) {
        std::fill(row, row + side, c64{});
        return;
      }
      std::fill(row, row + offset, c64{});
      std::copy(field + (y - offset) * n, field + (y - offset + 1) * n, row + offset);
      std::fill(row + offset + n, row + side, c64{});
    });
    steps.pad += lap(t);
    plan_.execute(plane, oocfft::Direction::forward);
    steps.forward += lap(t);
    TransferFunction(side, c_.pitch, z).multiply(plane);
    steps.multiply += lap(t);
    plan_.execute(plane, oocfft::Direction::inverse);  // norm backward: scaled by 1 / side^2
    steps.inverse += lap(t);
    tbb::parallel_for(std::size_t{0}, n, [&](std::size_t y) {
      const c64* row = plane + (y + offset) * side + offset;
      std::copy(row, row + n, field + y * n);
    });
    steps.crop += lap(t);
  }

 private:
  static oocfft::Options options(oocfft::Backend backend) {
    oocfft::Options o;
    o.backend = backend;
    o.norm = oocfft::Norm::backward;
    return o;
  }
  // Seconds since t; t moves to now.
  static double lap(Clock::time_point& t) {
    const auto now = Clock::now();
    const double s = std::chrono::duration<double>(now - t).count();
    t = now;
    return s;
  }

  Case c_;
  oocfft::Plan plan_;
};

// ---------------------------------------------------------------------------
// Running a case

struct Args {
  std::vector<std::string> cases{"quick"};
  oocfft::Backend backend = oocfft::Backend::automatic;
  unsigned repeats = 3;
  bool pinned = false;
  bool json = false;
  std::string save_dir;
};

oocfft::AsmOptions asm_options(const Case& c, oocfft::Backend backend) {
  oocfft::AsmOptions o;
  o.wavelength = wavelength;
  o.pitch_x = c.pitch;
  o.pad = c.pad;
  o.band_limit = true;
  o.evanescent = oocfft::Evanescent::decay;
  o.fft.backend = backend;
  return o;
}

struct Timings {
  std::vector<double> seconds;
  double min() const { return *std::min_element(seconds.begin(), seconds.end()); }
  double median() const {
    std::vector<double> s = seconds;
    std::sort(s.begin(), s.end());
    const std::size_t m = s.size() / 2;
    return s.size() % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
  }
};

struct Result {
  Timings fused, one_shot, warm;
  SeparateSteps fastest_one_shot;
  double rel_l2 = -1;
  double change = -1;  // ||separate - input|| / ||input||
  oocfft::Backend resolved = oocfft::Backend::automatic;
  std::string field_kind, warm_plane_kind;
};

// Every plane of `field` through the separate calls, one after another.
void separate_run(const SeparateCalls& calls, const Case& c, c64* field, c64* plane, SeparateSteps& steps) {
  const std::vector<double> z = c.distances();
  for (std::size_t j = 0; j < c.planes; ++j) calls.propagate(field + j * c.n * c.n, z[j], plane, steps);
}

void write_raw(const std::string& path, const c64* v, std::size_t n) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(v), std::streamsize(n * sizeof(c64)));
  if (!f) throw oocfft::Error(oocfft::ErrorKind::io, "cannot write " + path);
}

// oocfft::propagate (one plane) or propagate_stack on the seeded field.
double time_fused(const Case& c, oocfft::Backend backend, CallerField& field) {
  fill_seeded(field.data(), field.size());
  const oocfft::AsmOptions options = asm_options(c, backend);
  const std::vector<double> distances = c.distances();
  const auto t = Clock::now();
  if (c.planes == 1)
    oocfft::propagate(field.data(), c.n, c.n, distances[0], options);
  else
    oocfft::propagate_stack(field.data(), oocfft::Shape{c.planes, c.n, c.n}, distances, options);
  return seconds_since(t);
}

// The separate calls as one propagate() call must make them: plan and a
// fresh padded plane inside the timing.
SeparateSteps time_one_shot(const Case& c, oocfft::Backend backend, CallerField& field, oocfft::Backend& resolved) {
  fill_seeded(field.data(), field.size());
  SeparateSteps steps;
  auto t = Clock::now();
  const SeparateCalls calls(c, backend);
  steps.plan = seconds_since(t);
  t = Clock::now();
  std::vector<c64> plane(c.padded_side() * c.padded_side());
  steps.allocate = seconds_since(t);
  separate_run(calls, c, field.data(), plane.data(), steps);
  resolved = calls.backend();
  return steps;
}

// The separate calls with plan and plane held across calls, made outside
// the timing.
Timings time_warm(const Case& c, const Args& a, CallerField& field, std::string& plane_kind) {
  const SeparateCalls calls(c, a.backend);
  CallerField plane(c.padded_side() * c.padded_side(), a.pinned);
  plane_kind = plane.kind();
  Timings warm;
  for (unsigned rep = 0; rep < a.repeats; ++rep) {
    fill_seeded(field.data(), field.size());
    SeparateSteps steps;
    separate_run(calls, c, field.data(), plane.data(), steps);
    warm.seconds.push_back(steps.total());
  }
  return warm;
}

// DIR/CASE.{input,fused,separate}.c64 (raw complex64, C order) and
// DIR/CASE.json (the case's parameters), for asm_numpy_peer.py --check.
// `separate` holds the input afterwards (regenerated from the seed).
void save_fields(const std::string& dir, const Case& c, const std::string& json, const CallerField& fused,
                 CallerField& separate) {
  const std::string base = dir + "/" + c.name;
  write_raw(base + ".fused.c64", fused.data(), fused.size());
  write_raw(base + ".separate.c64", separate.data(), separate.size());
  fill_seeded(separate.data(), separate.size());
  write_raw(base + ".input.c64", separate.data(), separate.size());
  std::ofstream meta(base + ".json");
  meta << json << "\n";
  if (!meta) throw oocfft::Error(oocfft::ErrorKind::io, "cannot write " + base + ".json");
}

Result run_case(const Case& c, const Args& a, const std::string& case_json) {
  Result r;
  CallerField fused_field(c.field_elements(), a.pinned), separate_field(c.field_elements(), a.pinned);
  r.field_kind = fused_field.kind();
  // Fused and one-shot separate runs alternate, so drift on the machine
  // reaches both alike.
  for (unsigned rep = 0; rep < a.repeats; ++rep) {
    r.fused.seconds.push_back(time_fused(c, a.backend, fused_field));
    const SeparateSteps steps = time_one_shot(c, a.backend, separate_field, r.resolved);
    r.one_shot.seconds.push_back(steps.total());
    if (rep == 0 || steps.total() < r.fastest_one_shot.total()) r.fastest_one_shot = steps;
  }
  r.warm = time_warm(c, a, separate_field, r.warm_plane_kind);
  // Both fields now hold their path's result for the same input.
  r.rel_l2 = parallel_relative_l2(fused_field.data(), separate_field.data(), separate_field.size());
  r.change = change_from_input(separate_field.data(), separate_field.size());
  if (!a.save_dir.empty()) save_fields(a.save_dir, c, case_json, fused_field, separate_field);
  return r;
}

// ---------------------------------------------------------------------------
// Reporting

// "ok", "MISMATCH" (the two paths disagree) or "UNCHANGED" (the result is
// the input: every case here moves the field by far more than 1e-3).
const char* verdict(const Result& r) {
  if (!(r.rel_l2 >= 0 && r.rel_l2 <= mismatch_threshold)) return "MISMATCH";
  if (!(r.change > 1e-3)) return "UNCHANGED";
  return "ok";
}

// One flat JSON object, keys in the order added.
class JsonLine {
 public:
  JsonLine& add(const std::string& key, const std::string& value) { return raw(key, quote(value)); }
  JsonLine& add(const std::string& key, const char* value) { return raw(key, quote(value)); }
  JsonLine& add(const std::string& key, bool value) { return raw(key, value ? "true" : "false"); }
  JsonLine& add(const std::string& key, std::size_t value) { return raw(key, std::to_string(value)); }
  JsonLine& add(const std::string& key, unsigned value) { return raw(key, std::to_string(value)); }
  JsonLine& add(const std::string& key, double value) {
    char s[32];
    std::snprintf(s, sizeof s, "%.6g", value);
    return raw(key, std::isfinite(value) ? s : "null");
  }
  // Without the closing brace, so that more keys can follow.
  std::string open() const { return "{" + body_; }
  std::string str() const { return open() + "}"; }

 private:
  JsonLine& raw(const std::string& key, const std::string& value) {
    body_ += (body_.empty() ? "" : ", ") + quote(key) + ": " + value;
    return *this;
  }
  static std::string quote(const std::string& s) {
    std::string q = "\"";
    for (char ch : s) {
      if (ch == '"' || ch == '\\') q += '\\';
      q += ch;
    }
    return q + "\"";
  }
  std::string body_;
};

JsonLine describe_case(const Case& c, const Args& a) {
  JsonLine j;
  j.add("case", c.name)
      .add("requested_backend", oocfft::to_string(a.backend))
      .add("planes", c.planes)
      .add("n", c.n)
      .add("pad", c.pad)
      .add("padded", c.padded_side())
      .add("wavelength", wavelength)
      .add("pitch", c.pitch)
      .add("distance", c.distance)
      .add("distance_step", c.distance_step)
      .add("pinned", a.pinned)
      .add("field_bytes", c.field_bytes())
      .add("padded_plane_bytes", c.padded_bytes())
      .add("padded_scratch_bytes", padded_scratch_bytes(c))
      .add("host_bytes_needed", host_bytes_needed(c))
      .add("mem_available", mem_available());
  return j;
}

void report(const Case& c, const Args& a, JsonLine j, const Result& r) {
  const double bytes = 2.0 * double(c.field_bytes());  // the field read and written once
  const SeparateSteps& s = r.fastest_one_shot;
  if (a.json) {
    j.add("backend", oocfft::to_string(r.resolved))
        .add("field_memory", r.field_kind)
        .add("warm_plane_memory", r.warm_plane_kind)
        .add("repeats", a.repeats)
        .add("fused_min_s", r.fused.min())
        .add("fused_median_s", r.fused.median())
        .add("fused_GBps", bytes / r.fused.min() / 1e9)
        .add("separate_min_s", r.one_shot.min())
        .add("separate_median_s", r.one_shot.median())
        .add("separate_GBps", bytes / r.one_shot.min() / 1e9)
        .add("separate_warm_min_s", r.warm.min())
        .add("separate_warm_median_s", r.warm.median())
        .add("separate_warm_GBps", bytes / r.warm.min() / 1e9)
        .add("ratio_separate_over_fused", r.one_shot.median() / r.fused.median())
        .add("ratio_separate_warm_over_fused", r.warm.median() / r.fused.median())
        .add("separate_plan_s", s.plan)
        .add("separate_allocate_s", s.allocate)
        .add("separate_pad_s", s.pad)
        .add("separate_forward_s", s.forward)
        .add("separate_multiply_s", s.multiply)
        .add("separate_inverse_s", s.inverse)
        .add("separate_crop_s", s.crop)
        .add("rel_l2_fused_vs_separate", r.rel_l2)
        .add("rel_change_from_input", r.change)
        .add("check", verdict(r))
        .add("peak_rss_bytes", peak_rss());
    std::printf("%s\n", j.str().c_str());
  } else {
    std::printf(
        "%-20s %2zux%5zu^2 pad %u  %-4s %-8s  fused %8.4f s (median %8.4f) %6.2f GB/s | separate %8.4f s (median "
        "%8.4f) sep/fused %.2f | warm %8.4f s (median %8.4f) warm/fused %.2f | rel L2 %.2e %s\n",
        c.name.c_str(), c.planes, c.n, c.pad, oocfft::to_string(r.resolved), r.field_kind.c_str(), r.fused.min(),
        r.fused.median(), bytes / r.fused.min() / 1e9, r.one_shot.min(), r.one_shot.median(),
        r.one_shot.median() / r.fused.median(), r.warm.min(), r.warm.median(), r.warm.median() / r.fused.median(),
        r.rel_l2, verdict(r));
    std::printf(
        "%-20s separate steps (fastest one-shot): plan %.4f  allocate %.4f  pad %.4f  forward %.4f  multiply %.4f  "
        "inverse %.4f  crop %.4f s; result vs input rel L2 %.3f; host %.2f GiB needed, peak RSS %.2f GiB\n",
        "", s.plan, s.allocate, s.pad, s.forward, s.multiply, s.inverse, s.crop, r.change, gib(double(host_bytes_needed(c))),
        gib(double(peak_rss())));
  }
  std::fflush(stdout);
}

// Runs a tiny propagate and plan first, so that no case times the CUDA
// context's creation or the first allocations of the thread pool.
void warm_up(oocfft::Backend backend) {
  Case tiny{"warm-up", 1, 64, 2};
  std::vector<c64> field(64 * 64, c64{1, 0});
  oocfft::propagate(field.data(), 64, 64, tiny.distance, asm_options(tiny, backend));
  const SeparateCalls calls(tiny, backend);
  std::vector<c64> plane(tiny.padded_side() * tiny.padded_side());
  SeparateSteps steps;
  calls.propagate(field.data(), tiny.distance, plane.data(), steps);
}

std::vector<Case> selected_cases(const std::vector<Case>& table, const std::vector<std::string>& names) {
  std::vector<Case> out;
  for (const Case& c : table) {
    const bool wanted = std::any_of(names.begin(), names.end(), [&](const std::string& name) {
      return name == c.name || (name == "quick" && c.quick) || (name == "all" && !c.quick);
    });
    if (wanted) out.push_back(c);
  }
  return out;
}

// Exit statuses, the worst case's.
enum class Outcome { ok = 0, refused = 3, error = 2, failed = 1 };  // in rising severity
int rank(Outcome o) { return o == Outcome::ok ? 0 : o == Outcome::refused ? 1 : o == Outcome::error ? 2 : 3; }

// One case: refused when it does not fit MemAvailable, else run and
// reported; a library error ends the case, not the run.
Outcome run_and_report(const Case& c, const Args& a) {
  const JsonLine j = describe_case(c, a);
  const std::size_t needed = host_bytes_needed(c), available = mem_available();
  const bool fits = available == 0 || needed <= available;
  std::fprintf(stderr,
               "%s: %s: needs %.2f GiB of host memory (2 fields of %.2f GiB, padded scratch of %.2f GiB, "
               "%.2f GiB for plans and staging), MemAvailable is %.2f GiB\n",
               c.name.c_str(), fits ? "running" : "refused", gib(double(needed)), gib(double(c.field_bytes())),
               gib(double(padded_scratch_bytes(c))), gib(double(plan_margin_bytes)), gib(double(available)));
  std::string problem = fits ? "" : "refused: not enough host memory";
  if (fits) {
    try {
      const Result r = run_case(c, a, j.str());
      report(c, a, j, r);
      return std::string(verdict(r)) == "ok" ? Outcome::ok : Outcome::failed;
    } catch (const oocfft::Error& e) {
      problem = std::string("error: ") + e.what();
    } catch (const std::bad_alloc&) {
      problem = "error: out of host memory";
    }
    std::fprintf(stderr, "%s: %s\n", c.name.c_str(), problem.c_str());
  }
  if (a.json) std::printf("%s\n", JsonLine(j).add("check", problem).str().c_str());
  std::fflush(stdout);
  return fits ? Outcome::error : Outcome::refused;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<Case> table = case_table();
  std::vector<std::string> names{"quick", "all"};
  std::string case_help = "cases to run, comma-separated: quick (the 1k cases), all (the large ones), or names:";
  for (const Case& c : table) {
    names.push_back(c.name);
    case_help += " " + c.name;
  }

  Args a;
  CLI::App app{"oocfft::propagate / propagate_stack against the same steps as separate calls"};
  app.add_option("--case", a.cases, case_help)->delimiter(',')->check(CLI::IsMember(names))->capture_default_str();
  std::string backend = "automatic";
  std::vector<std::string> backends;
  for (const auto& row : oocfft::EnumTable<oocfft::Backend>::rows) backends.emplace_back(row.name);
  app.add_option("--backend", backend, "FFT backend of both paths")
      ->check(CLI::IsMember(backends))
      ->capture_default_str();
  app.add_option("--repeats", a.repeats, "timed runs of each path; min and median are reported")
      ->check(CLI::Range(1u, 1000u))
      ->capture_default_str();
  app.add_flag("--pinned", a.pinned, "fields (and the warm run's plane) in oocfft::HostArray, else std::vector");
  app.add_flag("--json", a.json, "one JSON object per case on stdout");
  app.add_option("--save", a.save_dir,
                 "write each case's input, fused and separate results (raw complex64) and its JSON to this "
                 "existing folder, for asm_numpy_peer.py --check")
      ->check(CLI::ExistingDirectory);
  CLI11_PARSE(app, argc, argv);
  a.backend = *oocfft::enum_from_name<oocfft::Backend>(backend);

  try {
    warm_up(a.backend);
  } catch (const oocfft::Error& e) {
    std::fprintf(stderr, "oocfft_asm_bench: %s\n", e.what());
    return 2;
  }
  Outcome worst = Outcome::ok;
  for (const Case& c : selected_cases(table, a.cases)) {
    const Outcome o = run_and_report(c, a);
    if (rank(o) > rank(worst)) worst = o;
  }
  return static_cast<int>(worst);
}
