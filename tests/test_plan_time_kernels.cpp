// Plan-time kernels: the compiled schedules NVRTC builds for lengths outside
// the build's OOCFFT_KERNEL_SET, and their cache.
//   PlanTimeCache*    the on-disk cache (no GPU): round trip, a damaged
//                     entry compiled again and replaced (the one NVRTC
//                     compile here, a small one), an unusable directory
//                     kept in memory, and another fingerprint or key a miss;
//   PlanTimeFamily*   which schedules NVRTC is asked for, and what keys them
//                     (no GPU);
//   CudaPlanTime*     on a GPU: plans of lengths no kernel set compiles
//                     (143 = 11 x 13) or that the set in this build lacks
//                     (300, 343, 1000 in pow2) assert that their axes run
//                     the plan-time kernel, then check it against fftwl; a
//                     second plan loads the cubins from the disk cache; a
//                     compile that fails leaves the general kernel, with the
//                     reason in describe(). Skipped, with the reason, where
//                     no GPU is present.
// Every test keeps its cache in a directory of its own, removed at the end.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "kernels/cuda/cubin_cache.hpp"
#include "kernels/cuda/embedded_sources.hpp"
#include "kernels/cuda/plan_time_compiler.hpp"
#include "kernels/cuda/plan_time_schedules.hpp"
#include "kernels/cuda/schedule_registry.hpp"
#include "kernels/line_factorization.hpp"
#include "tests/cuda_test_support.hpp"

namespace oocfft::test {
namespace {

namespace fs = std::filesystem;
using kc::CacheLookup;
using kc::CubinCache;
using kc::ElementType;
using kc::ScheduleKey;
using kc::ScheduleLayout;
using kc::ScheduleUse;

// A directory of its own for one test, removed with everything in it.
class ScratchDirectory {
 public:
  explicit ScratchDirectory(const std::string& name)
      : path_(fs::temp_directory_path() / ("oocfft_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDirectory() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

ScheduleKey key(int n, ScheduleLayout layout = ScheduleLayout::contiguous, ElementType type = ElementType::complex_float,
                ScheduleUse use = ScheduleUse::transform) {
  return ScheduleKey{type, n, layout, use};
}

// Seeded bytes standing in for a cubin: the cache never looks inside one.
kc::CompiledCubin fake_cubin(std::uint64_t seed, std::size_t size) {
  std::mt19937_64 random(seed);
  kc::CompiledCubin c;
  c.image.resize(size);
  for (char& b : c.image) b = static_cast<char>(random() & 0xff);
  c.kernel_name = "_Z6kernel" + std::to_string(seed);
  return c;
}

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

constexpr const char* fingerprint_a = "arch=sm_90;nvrtc=13.0;options=x;sources=aaaa";
constexpr const char* fingerprint_b = "arch=sm_90;nvrtc=13.1;options=x;sources=aaaa";

TEST(PlanTimeCache, RoundTripThroughDiskAndMemory) {
  const ScratchDirectory dir("cache_round_trip");
  const kc::CompiledCubin cubin = fake_cubin(7, 40000);
  {
    CubinCache cache(dir.path());
    ASSERT_EQ(cache.storage(), kc::CacheStorage::disk) << cache.status();
    EXPECT_EQ(cache.read(key(143), fingerprint_a).outcome, CacheLookup::miss);
    cache.write(key(143), fingerprint_a, cubin);
    EXPECT_EQ(cache.storage(), kc::CacheStorage::disk) << cache.status();
    const kc::CacheRead again = cache.read(key(143), fingerprint_a);
    EXPECT_EQ(again.outcome, CacheLookup::memory_hit);
    EXPECT_EQ(again.cubin.image, cubin.image);
  }
  ASSERT_TRUE(fs::exists(CubinCache(dir.path()).entry_path(key(143), fingerprint_a)));
  // A new cache object (another plan, or another process) reads it from disk.
  CubinCache cache(dir.path());
  const kc::CacheRead read = cache.read(key(143), fingerprint_a);
  ASSERT_EQ(read.outcome, CacheLookup::disk_hit) << read.reason;
  EXPECT_EQ(read.cubin.image, cubin.image);
  EXPECT_EQ(read.cubin.kernel_name, cubin.kernel_name);
  EXPECT_EQ(cache.read(key(143), fingerprint_a).outcome, CacheLookup::memory_hit);
  // No temporary file is left beside the entry.
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir.path())) files += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 1);
}

TEST(PlanTimeCache, OtherFingerprintOrKeyIsAMiss) {
  const ScratchDirectory dir("cache_keys");
  CubinCache writer(dir.path());
  writer.write(key(300), fingerprint_a, fake_cubin(1, 1000));
  CubinCache cache(dir.path());
  // Another NVRTC version, another type, layout, length or use: no entry.
  EXPECT_EQ(cache.read(key(300), fingerprint_b).outcome, CacheLookup::miss);
  EXPECT_EQ(cache.read(key(300, ScheduleLayout::contiguous, ElementType::complex_double), fingerprint_a).outcome,
            CacheLookup::miss);
  EXPECT_EQ(cache.read(key(300, ScheduleLayout::strided), fingerprint_a).outcome, CacheLookup::miss);
  EXPECT_EQ(cache.read(key(343), fingerprint_a).outcome, CacheLookup::miss);
  EXPECT_NE(cache.entry_path(key(300), fingerprint_a), cache.entry_path(key(300), fingerprint_b));
  // The file of one key under the name of another (as a hash collision
  // would put it) is a miss too, never that other key's kernel.
  fs::copy_file(cache.entry_path(key(300), fingerprint_a), cache.entry_path(key(300), fingerprint_b));
  const kc::CacheRead read = cache.read(key(300), fingerprint_b);
  EXPECT_EQ(read.outcome, CacheLookup::miss);
  EXPECT_NE(read.reason.find("another kernel"), std::string::npos) << read.reason;
  EXPECT_EQ(cache.read(key(300), fingerprint_a).outcome, CacheLookup::disk_hit);
}

TEST(PlanTimeCache, DamagedEntriesAreReportedNeverLoaded) {
  const ScratchDirectory dir("cache_damage");
  const kc::CompiledCubin cubin = fake_cubin(3, 5000);
  CubinCache writer(dir.path());
  writer.write(key(1000), fingerprint_a, cubin);
  const fs::path entry = writer.entry_path(key(1000), fingerprint_a);
  const std::string good = read_bytes(entry);
  auto damaged_read = [&](const std::string& bytes) {
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes;
    return CubinCache(dir.path()).read(key(1000), fingerprint_a);
  };
  // One flipped byte of the cubin: the checksum differs.
  std::string flipped = good;
  flipped[flipped.size() - 100] ^= 0x40;
  kc::CacheRead r = damaged_read(flipped);
  EXPECT_EQ(r.outcome, CacheLookup::corrupt);
  EXPECT_NE(r.reason.find("checksum"), std::string::npos) << r.reason;
  EXPECT_TRUE(r.cubin.image.empty());
  // Cut short, empty, or not an entry at all.
  r = damaged_read(good.substr(0, good.size() / 2));
  EXPECT_EQ(r.outcome, CacheLookup::corrupt) << r.reason;
  r = damaged_read("");
  EXPECT_EQ(r.outcome, CacheLookup::corrupt) << r.reason;
  r = damaged_read("\x7f" "ELF not a cache entry");
  EXPECT_EQ(r.outcome, CacheLookup::corrupt) << r.reason;
  // Written again, it reads back whole.
  CubinCache(dir.path()).write(key(1000), fingerprint_a, cubin);
  r = CubinCache(dir.path()).read(key(1000), fingerprint_a);
  EXPECT_EQ(r.outcome, CacheLookup::disk_hit) << r.reason;
  EXPECT_EQ(r.cubin.image, cubin.image);
}

TEST(PlanTimeCache, UnusableDirectoryKeepsEntriesInMemory) {
  const ScratchDirectory dir("cache_unusable");
  // Below a regular file: no directory can be made there, not even by root
  // (a read-only directory would not stop root, as CI may run).
  const fs::path file = dir.path() / "a-file";
  std::ofstream(file) << "x";
  CubinCache cache(file / "oocfft");
  EXPECT_EQ(cache.storage(), kc::CacheStorage::memory_only);
  EXPECT_NE(cache.status().find("in memory only: cannot create"), std::string::npos) << cache.status();
  cache.write(key(143), fingerprint_a, fake_cubin(5, 100));
  EXPECT_EQ(cache.read(key(143), fingerprint_a).outcome, CacheLookup::memory_hit);

  // A directory that goes away after the cache opened it: the write fails,
  // the cache says why and keeps the entry in memory; nothing throws.
  const fs::path gone = dir.path() / "gone";
  CubinCache later(gone);
  ASSERT_EQ(later.storage(), kc::CacheStorage::disk) << later.status();
  fs::remove_all(gone);
  later.write(key(143), fingerprint_a, fake_cubin(5, 100));
  EXPECT_EQ(later.storage(), kc::CacheStorage::memory_only);
  EXPECT_NE(later.status().find("cannot create a file"), std::string::npos) << later.status();
  EXPECT_EQ(later.read(key(143), fingerprint_a).outcome, CacheLookup::memory_hit);

  EXPECT_NE(CubinCache({}).status().find("in memory only"), std::string::npos);
  EXPECT_EQ(CubinCache::memory_only().storage(), kc::CacheStorage::memory_only);
}

// Sets an environment variable for one scope (the default cache directory
// is read from XDG_CACHE_HOME and HOME, as the XDG specification says).
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value != nullptr) ::setenv(name, value, 1);
    else ::unsetenv(name);
  }
  ~ScopedEnvironment() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(PlanTimeCache, DefaultDirectoryFollowsXdgCacheHome) {
  {
    const ScopedEnvironment xdg("XDG_CACHE_HOME", "/var/tmp/cache");
    EXPECT_EQ(kc::default_kernel_cache_directory(), fs::path("/var/tmp/cache/oocfft"));
  }
  const ScopedEnvironment home("HOME", "/home/someone");
  {
    // A relative XDG_CACHE_HOME is ignored, as the specification says.
    const ScopedEnvironment xdg("XDG_CACHE_HOME", "relative");
    EXPECT_EQ(kc::default_kernel_cache_directory(), fs::path("/home/someone/.cache/oocfft"));
  }
  const ScopedEnvironment xdg("XDG_CACHE_HOME", nullptr);
  EXPECT_EQ(kc::default_kernel_cache_directory(), fs::path("/home/someone/.cache/oocfft"));
}

TEST(PlanTimeFamily, FingerprintNamesArchitectureCompilerAndSources) {
  const kc::PlanTimeCompiler h100(90), a100(80);
  const std::string f = h100.fingerprint();
  EXPECT_NE(f.find("arch=sm_90"), std::string::npos) << f;
  EXPECT_NE(f.find("nvrtc=" + h100.nvrtc_version()), std::string::npos) << f;
  EXPECT_NE(f.find(kc::schedule_sources().digest), std::string::npos) << f;
  EXPECT_EQ(std::string(kc::schedule_sources().digest).size(), 64u);
  EXPECT_NE(f, a100.fingerprint());
  EXPECT_THROW(kc::PlanTimeCompiler(9), Error);
}

TEST(PlanTimeFamily, NvrtcIsAskedOnlyForTheCompiledFamily) {
  EXPECT_FALSE(kc::outside_plan_time_family(key(143)));
  EXPECT_FALSE(kc::outside_plan_time_family(key(4096)));
  EXPECT_FALSE(kc::outside_plan_time_family(key(1000, ScheduleLayout::strided)));
  EXPECT_FALSE(kc::outside_plan_time_family(key(2048, ScheduleLayout::contiguous, ElementType::complex_float,
                                                ScheduleUse::bluestein)));
  EXPECT_TRUE(kc::outside_plan_time_family(key(6)));
  EXPECT_TRUE(kc::outside_plan_time_family(key(2000, ScheduleLayout::strided)));
  // Whole lines longer than 4096 and Bluestein convolutions of any M: one
  // tile where it fits a block (PlanTimeSchedules::prepare checks the tile).
  EXPECT_FALSE(kc::outside_plan_time_family(key(5000)));
  EXPECT_FALSE(kc::outside_plan_time_family(key(16807)));
  EXPECT_FALSE(kc::outside_plan_time_family(key(2100, ScheduleLayout::contiguous, ElementType::complex_float,
                                                ScheduleUse::bluestein)));
  EXPECT_FALSE(kc::outside_plan_time_family(key(2187, ScheduleLayout::strided, ElementType::complex_double,
                                                ScheduleUse::bluestein)));
  EXPECT_TRUE(kc::outside_plan_time_family(key(6, ScheduleLayout::contiguous, ElementType::complex_float,
                                               ScheduleUse::bluestein)));
  // Four-step steps: powers of two up to 4096, other lengths as transforms.
  EXPECT_FALSE(kc::outside_plan_time_family(key(243, ScheduleLayout::strided, ElementType::complex_float,
                                                ScheduleUse::four_step_twiddled)));
  EXPECT_FALSE(kc::outside_plan_time_family(key(2048, ScheduleLayout::strided, ElementType::complex_float,
                                                ScheduleUse::four_step_twiddled)));
  EXPECT_TRUE(kc::outside_plan_time_family(key(1500, ScheduleLayout::strided, ElementType::complex_float,
                                               ScheduleUse::four_step_twiddled)));
  EXPECT_FALSE(kc::outside_plan_time_family(key(3000, ScheduleLayout::contiguous, ElementType::complex_double,
                                                ScheduleUse::four_step_transposed)));
  EXPECT_TRUE(kc::outside_plan_time_family(key(5000, ScheduleLayout::contiguous, ElementType::complex_double,
                                               ScheduleUse::four_step_transposed)));
  EXPECT_EQ(kc::kernel_name_expression(key(143)),
            "oocfft::kernels::cuda::detail::schedule_kernel<float, 143, false, "
            "oocfft::kernels::cuda::ScheduleStore::plain>");
  // The real transform's ends: contiguous rows only, never ahead of time.
  for (const ScheduleUse use : {ScheduleUse::real_split, ScheduleUse::real_merge, ScheduleUse::real_pairs_forward,
                                ScheduleUse::real_pairs_inverse}) {
    EXPECT_FALSE(kc::outside_plan_time_family(key(512, ScheduleLayout::contiguous, ElementType::complex_float, use)));
    EXPECT_TRUE(kc::outside_plan_time_family(key(512, ScheduleLayout::strided, ElementType::complex_float, use)));
    EXPECT_TRUE(kc::compiled_schedules<float>(use).empty());
    EXPECT_TRUE(kc::compiled_schedules<double>(use).empty());
  }
  EXPECT_EQ(kc::kernel_name_expression(key(500, ScheduleLayout::contiguous, ElementType::complex_double,
                                            ScheduleUse::real_merge)),
            "oocfft::kernels::cuda::detail::real_schedule_kernel<double, 500, true>");
  EXPECT_EQ(kc::kernel_name_expression(key(343, ScheduleLayout::contiguous, ElementType::complex_float,
                                            ScheduleUse::real_pairs_forward)),
            "oocfft::kernels::cuda::detail::real_pairs_kernel<float, 343, false>");
}

// The real transform's ends folded into a tile (real_schedule_kernels.cuh)
// compile for sm_90 without a GPU: both directions and precisions, a power
// of two, a 13-smooth length and the longest half length the tests run;
// and the odd lengths' row pairs. complex<float> 512 and complex<double>
// 2048 merge and split in registers (warp_partners.hpp, which NVRTC must
// find among the embedded headers), 65 through shared memory.
TEST(PlanTimeFamily, NvrtcCompilesTheRealEnds) {
  const kc::PlanTimeCompiler compiler(90);
  for (const ScheduleUse use : {ScheduleUse::real_pairs_forward, ScheduleUse::real_pairs_inverse}) {
    for (const ScheduleKey& k : {key(343, ScheduleLayout::contiguous, ElementType::complex_float, use),
                                 key(4095, ScheduleLayout::contiguous, ElementType::complex_double, use)}) {
      kc::CompiledCubin cubin;
      EXPECT_NO_THROW(cubin = compiler.compile(k)) << kc::describe(k);
      EXPECT_EQ(cubin.kernel_name.rfind("_ZN6oocfft7kernels4cuda6detail17real_pairs_kernelI", 0), 0u)
          << cubin.kernel_name;
    }
  }
  for (const ScheduleUse use : {ScheduleUse::real_split, ScheduleUse::real_merge}) {
    for (const ScheduleKey& k : {key(512, ScheduleLayout::contiguous, ElementType::complex_float, use),
                                 key(65, ScheduleLayout::contiguous, ElementType::complex_float, use),
                                 key(2048, ScheduleLayout::contiguous, ElementType::complex_double, use)}) {
      kc::CompiledCubin cubin;
      EXPECT_NO_THROW(cubin = compiler.compile(k)) << kc::describe(k);
      ASSERT_GT(cubin.image.size(), 4u) << kc::describe(k);
      EXPECT_EQ(std::string(cubin.image.data(), 4), "\x7f" "ELF") << kc::describe(k);
      EXPECT_EQ(cubin.kernel_name.rfind("_ZN6oocfft7kernels4cuda6detail20real_schedule_kernelI", 0), 0u)
          << cubin.kernel_name;
    }
  }
}

// NVRTC folds a long line's tile shape (schedule_shape: the tile searches
// of long_line_tiles.hpp, evaluated as constant expressions when it
// compiles the kernel) within its limit on constant-expression work. The
// ragged-tile search once passed that limit for 27 complex64 lengths with
// many divisors (9000, 10080), and their plans fell back to the general
// kernel; both ragged searches in one evaluation passed it for 8 (7560,
// 13440), and the second search now runs in an evaluation of its own
// (first_schedule_choice). The lines of the most divisors whose first or
// both searches run, 10368 (its uniform and ragged searches in one
// evaluation) and the complex128 ragged tile of 11520 (the second
// search's), compiled for sm_90 without a GPU.
TEST(PlanTimeFamily, NvrtcFoldsTheTileShapesOfLinesWithManyDivisors) {
  const kc::PlanTimeCompiler compiler(90);
  for (const ScheduleKey& k : {key(10080), key(15120), key(7560), key(13440), key(10368),
                               key(11520, ScheduleLayout::contiguous, ElementType::complex_double)}) {
    kc::CompiledCubin cubin;
    EXPECT_NO_THROW(cubin = compiler.compile(k)) << kc::describe(k);
    ASSERT_GT(cubin.image.size(), 4u) << kc::describe(k);
    EXPECT_EQ(std::string(cubin.image.data(), 4), "\x7f" "ELF") << kc::describe(k);
  }
}

// The cluster tile (cluster_shape in in_place_tiles.hpp: distributed
// shared memory, cluster barriers) compiles for sm_90 without a GPU, in
// both precisions and in clusters of two and three blocks.
TEST(PlanTimeFamily, NvrtcCompilesTheClusterTile) {
  const kc::PlanTimeCompiler compiler(90);
  for (const ScheduleKey& k :
       {key(21952), key(26244), key(13500, ScheduleLayout::contiguous, ElementType::complex_double)}) {
    const bool single = k.type == ElementType::complex_float;
    const kc::ScheduleShape g =
        single ? kc::schedule_shape<float>(k.length, false) : kc::schedule_shape<double>(k.length, false);
    ASSERT_GT(g.cluster, 1) << kc::describe(k);
    kc::CompiledCubin cubin;
    EXPECT_NO_THROW(cubin = compiler.compile(k)) << kc::describe(k);
    ASSERT_GT(cubin.image.size(), 4u) << kc::describe(k);
    EXPECT_EQ(std::string(cubin.image.data(), 4), "\x7f" "ELF") << kc::describe(k);
  }
}

// A small NVRTC compile of the CPU tests (well under a second): a damaged
// entry is compiled again and written over, and the result is a cubin for
// the architecture asked for. NVRTC needs no GPU.
TEST(PlanTimeCache, DamagedEntryIsCompiledAgainAndReplaced) {
  const ScratchDirectory dir("cache_replace");
  const kc::PlanTimeCompiler compiler(90);
  const ScheduleKey small = key(12);
  CubinCache cache(dir.path());
  const fs::path entry = cache.entry_path(small, compiler.fingerprint());
  std::ofstream(entry, std::ios::binary) << "oocfft-cubin-cache 1\ntruncated";
  kc::PlanTimeOutcome outcome;
  const kc::CompiledCubin cubin = kc::obtain_cubin(small, compiler, cache, outcome);
  EXPECT_EQ(outcome.source, kc::PlanTimeSource::compiled);
  EXPECT_NE(outcome.note.find("damaged cache entry replaced"), std::string::npos) << outcome.note;
  EXPECT_GT(outcome.compile_seconds, 0.0);
  ASSERT_GT(cubin.image.size(), 4u);
  EXPECT_EQ(std::string(cubin.image.data(), 4), "\x7f" "ELF");
  EXPECT_EQ(cubin.kernel_name.rfind("_ZN6oocfft7kernels4cuda6detail15schedule_kernelIfLi12E", 0), 0u)
      << cubin.kernel_name;
  // The entry on disk is now the compiled one, and a second plan's cache
  // takes it from there without compiling.
  const kc::CacheRead read = CubinCache(dir.path()).read(small, compiler.fingerprint());
  ASSERT_EQ(read.outcome, CacheLookup::disk_hit) << read.reason;
  EXPECT_EQ(read.cubin.image, cubin.image);
  CubinCache second(dir.path());
  kc::PlanTimeOutcome hit;
  EXPECT_EQ(kc::obtain_cubin(small, compiler, second, hit).image, cubin.image);
  EXPECT_EQ(hit.source, kc::PlanTimeSource::disk_cache);
  EXPECT_EQ(hit.compile_seconds, 0.0);
}

// ---------------------------------------------------------------- on a GPU

// A plan for x lines ([1][lines][n]) or z lines ([n][1][lanes]) of length n
// with the plan-time schedules `plan_time`.
template <class T>
kc::DeviceBrickPlan<T> lines_plan(Shape shape, bool z, std::shared_ptr<kc::PlanTimeSchedules> plan_time,
                                  kc::TileKernels kernels = kc::TileKernels::compiled_where_available) {
  return kc::DeviceBrickPlan<T>(shape, z ? AxisSet::only_z() : AxisSet{false, false, true}, kernels,
                                std::move(plan_time));
}

// The tile kernel the plan reports for its one axis.
template <class T>
char axis_kernel(const kc::DeviceBrickPlan<T>& plan, bool z) {
  return plan.tile_kernels_used()[z ? 2 : 0];
}

// Whether this build compiled the schedule of `key` ahead of time (the
// kernel set, OOCFFT_KERNEL_SET, decides): a test asks the registry, never
// assumes a set.
template <class T>
bool compiled_ahead_of_time(const ScheduleKey& key) {
  const auto ahead = kc::compiled_schedules<T>(key.use);
  const bool lanes_fast = key.layout == ScheduleLayout::strided;
  return std::any_of(ahead.begin(), ahead.end(), [&](const kc::CompiledSchedule& s) {
    return s.length == key.length && s.lanes_fast == lanes_fast;
  });
}

// That the x-line plan of length n runs the compiled tile of `key`: the
// build's, where its kernel set has it (and then nothing is asked for at
// plan time), else one it asked for at plan time and had compiled or
// loaded. Fatal where the key was not asked for: callers wrap it in
// ASSERT_NO_FATAL_FAILURE.
template <class T>
void expect_plan_time_tile(const kc::PlanTimeSchedules& plan_time, const ScheduleKey& key,
                           const kc::DeviceBrickPlan<T>& plan, std::size_t n) {
  if (compiled_ahead_of_time<T>(key)) {
    EXPECT_FALSE(plan_time.outcome(key).has_value()) << kc::describe(key) << " is in set " << kc::kernel_set();
    EXPECT_EQ(axis_kernel(plan, false), 'S') << "n=" << n << "\n" << plan.describe();
    return;
  }
  const auto outcome = plan_time.outcome(key);
  ASSERT_TRUE(outcome.has_value()) << kc::describe(key) << " was not asked for\n" << plan.describe();
  EXPECT_NE(outcome->source, kc::PlanTimeSource::failed) << kc::describe(*outcome);
  EXPECT_EQ(axis_kernel(plan, false), 'P') << "n=" << n << "\n" << plan.describe();
}

// Forward and inverse of `shape` along its one axis against fftwl, with
// the N-scaled tolerance of the other CUDA suites.
template <class T>
void check_against_fftwl(DeviceRunner<T>& runner, const kc::DeviceBrickPlan<T>& plan, Shape shape, bool z,
                         std::uint64_t seed, double c = c_stockham) {
  const std::size_t n = z ? shape.nz : shape.nx;
  const std::size_t lanes = z ? shape.nx : shape.ny;
  const auto x = random_signal(shape.elements(), seed);
  std::vector<LongComplex> fwd(x.size()), inv(x.size());
  for (std::size_t l = 0; l < lanes; ++l) {
    std::vector<LongComplex> line(n);
    auto at = [&](std::size_t i) { return z ? i * lanes + l : l * n + i; };
    for (std::size_t i = 0; i < n; ++i) line[i] = x[at(i)];
    const auto f = fftwl_dft(line, {static_cast<int>(n)}, FFTW_FORWARD);
    const auto b = fftwl_dft(line, {static_cast<int>(n)}, FFTW_BACKWARD);
    for (std::size_t i = 0; i < n; ++i) {
      fwd[at(i)] = f[i];
      inv[at(i)] = b[i];
    }
  }
  const auto in = to_precision<T>(x);
  const double tol = tolerance<T>(c, n);
  EXPECT_LE(relative_l2(runner.run(plan, in, shape, false, T(1)), fwd), tol)
      << "forward n=" << n << (z ? " z lines" : " x lines") << " (" << sizeof(T) * 8 << "-bit)";
  EXPECT_LE(relative_l2(runner.run(plan, in, shape, true, T(1) / T(n)), inv, 1.0L / static_cast<long double>(n)),
            tol)
      << "inverse n=" << n << (z ? " z lines" : " x lines") << " (" << sizeof(T) * 8 << "-bit)";
}

// 143 = 11 x 13 is in no kernel set; 300, 343 and 1000 are in ci and full,
// not in pow2; 54 (9 6), 90 (9 10), 98 (14 7) and 300 (4 15 5) cover the
// composite passes (complex<double>: 98 = 2 7 7, 300 = 4 3 5 5, no 14 or 15);
// the tiles of the block-count rules of stockham_tile.hpp (x lines
// only): in complex<double>, 1750 = 10 5 5 7 holds three blocks per SM at
// 80 registers, 2268 = 4 9 9 7 four of 128 threads holding 21 values at
// 128, 2520 = 8 9 5 7 four of 96 holding 32 at 168, and 2100 = 4 3 5 5 7
// four of 160; in complex<float>, 3150 = 9 5 5 14 holds four blocks of 160
// threads holding 28 values at 96 registers; radix 25 in complex<double>:
// 625 = 25 25 (x lines, and z lines in strided tiles of 4 lanes) and 3125 =
// 25 25 5 (three blocks of 160 threads at 136 registers); in complex<float>,
// 3375 = 15 15 15; radix 27: 1728 = 8 8 27 and 3402 = 27 9 14 in
// complex<float>, 945 = 27 5 7 (x lines, and z lines in strided tiles of 4
// lanes) and 3375 = 27 5 5 5 in complex<double>; 4500 = 4 9 25 5 in both
// (in complex<double> two blocks of 192 threads holding 27 values). Each
// axis runs the kernel
// compiled ahead of time where the build has it, the plan-time one
// otherwise: never the general kernel.
template <class T>
void check_plan_time_lengths(const fs::path& cache_dir) {
  auto plan_time = std::make_shared<kc::PlanTimeSchedules>(CubinCache(cache_dir));
  DeviceRunner<T> runner;
  int plan_time_axes = 0;
  for (std::size_t n : {std::size_t{54}, std::size_t{90}, std::size_t{98}, std::size_t{143}, std::size_t{300},
                        std::size_t{343}, std::size_t{625}, std::size_t{1000}, std::size_t{1750}, std::size_t{2100},
                        std::size_t{2268}, std::size_t{2520}, std::size_t{3125}, std::size_t{3150},
                        std::size_t{3375}, std::size_t{945}, std::size_t{1728}, std::size_t{3402},
                        std::size_t{4500}}) {
    for (bool z : {false, true}) {
      if (z && n > 1024) continue;  // strided transform schedules stop at 1024 (the general kernel beyond)
      // Two whole tiles and one lane more, as the schedule suite does.
      const kc::ScheduleShape tile = kc::schedule_shape<T>(static_cast<int>(n), z);
      ASSERT_TRUE(tile.valid) << "n=" << n;
      const std::size_t lanes = 2 * static_cast<std::size_t>(tile.lanes) + 1;
      const Shape shape = z ? Shape{n, 1, lanes} : Shape{1, lanes, n};
      const auto plan = lines_plan<T>(shape, z, plan_time);
      const auto ahead = kc::compiled_schedules<T>();
      const bool built = std::any_of(ahead.begin(), ahead.end(), [&](const kc::CompiledSchedule& s) {
        return s.length == static_cast<int>(n) && s.lanes_fast == z;
      });
      ASSERT_EQ(axis_kernel(plan, z), built ? 'S' : 'P')
          << "n=" << n << (z ? " z" : " x") << " in set " << kc::kernel_set() << "\n"
          << plan.describe();
      if (!built) {
        ++plan_time_axes;
        EXPECT_NE(plan.describe().find("compiled by NVRTC"), std::string::npos) << plan.describe();
      }
      check_against_fftwl(runner, plan, shape, z, 97 * n + (z ? 1 : 0));
    }
  }
  EXPECT_GE(plan_time_axes, 2) << "143 is in no kernel set: its x and z lines must run plan-time kernels";
  std::printf("[ info ] %d axes on plan-time kernels (%zu-bit, set %s); %s\n", plan_time_axes, sizeof(T) * 8,
              kc::kernel_set(), plan_time->summary().c_str());
}

TEST(CudaPlanTime, LengthsOutsideTheSetRunPlanTimeKernelsAgainstFftwLongDouble) {
  SKIP_WITHOUT_CUDA();
  const ScratchDirectory dir("plan_time_lengths");
  check_plan_time_lengths<float>(dir.path());
  check_plan_time_lengths<double>(dir.path());
}

// Lengths past one tile whose four-step split is not into powers of two
// (15625 = 125 x 125, 16807 = 343 x 49, 46656 = 216 x 216): no set builds
// their steps ahead of time, so both steps compile at plan time, for x
// lines and for z lines (step A then runs on strided lanes of the brick).
template <class T>
void check_smooth_four_step() {
  auto plan_time = std::make_shared<kc::PlanTimeSchedules>(CubinCache::memory_only());
  DeviceRunner<T> runner;
  for (std::size_t n : {std::size_t{15625}, std::size_t{16807}, std::size_t{46656}}) {
    for (bool z : {false, true}) {
      const Shape shape = z ? Shape{n, 1, 64} : Shape{1, 3, n};
      const auto plan = lines_plan<T>(shape, z, plan_time);
      ASSERT_NE(plan.describe().find("four-step"), std::string::npos) << plan.describe();
      EXPECT_EQ(axis_kernel(plan, z), 'P') << "n=" << n << (z ? " z" : " x") << "\n" << plan.describe();
      std::printf("[ info ] %zu-bit n=%zu %s:\n%s", sizeof(T) * 8, n, z ? "z" : "x", plan.describe().c_str());
      check_against_fftwl(runner, plan, shape, z, 31 * n + (z ? 1 : 0), c_four_step);
    }
  }
  std::printf("[ info ] smooth four-step (%zu-bit): %s\n", sizeof(T) * 8, plan_time->summary().c_str());
}

TEST(CudaPlanTime, SmoothFourStepSplitsRunPlanTimeSteps) {
  SKIP_WITHOUT_CUDA();
  check_smooth_four_step<float>();
  check_smooth_four_step<double>();
}

// Whole lines longer than 4096, chosen to cover the tile rules of
// stockham_tile.hpp and long_line_tiles.hpp (shapes as ScheduleShape
// gives them today): three,
// two and one resident blocks (4725, 8748, 4900, 9072, 6000), lines past
// the value budget in one block (19683; 14406 and 16807 before their
// uniform tiles), radix 25 (10000, 15000), one tile past 10240 in
// complex<double> (10368, 10800), past the general kernel's two-buffer tile
// and past any compiled tile in complex<double> (16807, 19683, 19208,
// 16875, 18000, 18432: four steps there), uniform tiles in two blocks
// (7776, 10368, 9000, 7203, blocks of whole warps or not) and in one
// (12500, 10800, 19208, 16875), and uniform tiles whose passes run in
// stages (7776 = 9 4 | 9 4 | 6, 7203, 10368, 12500 = 10 5 | 25 | 10, 14406,
// 16807, 18000, 18432 in complex<float>; 5292 = 7 6 | 7 6 | 3, 7776, 12500
// and Bluestein's M = 8232 = 7 6 | 14 | 14 in complex<double>), ragged
// tiles (10206 = 27 | 27 | 14, 9450, 19440 and 19683 = 27 | 27 | 27 in
// complex<float>, and in place of two-block tiles 8748 = 9 6 | 27 | 6,
// 5292, 6804 and 9261 = 7 3 | 7 3 | 7 3, and the second search's 20480 =
// 16 | 16 | 10 | 8, which had no tile, and the tiles that take the place
// of spilled ones (8064, 10935, 10125, 17010); 10206, 9450 and 11520 = 48 |
// 16 | 15 in complex<double>, which had none either), and Bluestein convolutions of
// smooth M (1087: M = 2187 = 9 9 9 3; 4099: M = 8232), in one tile
// compiled at plan time: the plan's outcome for that key says it loaded,
// and the axis runs it, against fftwl. In both precisions, M = 2187 (which
// the general kernel's tile also holds) and M = 8232 (past that tile).
template <class T>
void check_one_tile_plan_time() {
  auto plan_time = std::make_shared<kc::PlanTimeSchedules>(CubinCache::memory_only());
  DeviceRunner<T> runner;
  constexpr bool single = sizeof(T) == 4;
  struct Case {
    std::size_t n;
    int tile_length;  // the line, or Bluestein's M
    ScheduleUse use;
  };
  const ElementType type = single ? ElementType::complex_float : ElementType::complex_double;
  for (const Case& c : {Case{6000, 6000, ScheduleUse::transform},
                        Case{4725, 4725, ScheduleUse::transform},
                        Case{8748, 8748, ScheduleUse::transform},
                        Case{4900, 4900, ScheduleUse::transform},
                        Case{7776, 7776, ScheduleUse::transform},
                        Case{9072, 9072, ScheduleUse::transform},
                        Case{10000, 10000, ScheduleUse::transform},
                        Case{16807, 16807, ScheduleUse::transform},
                        Case{14406, 14406, ScheduleUse::transform},
                        Case{19683, 19683, ScheduleUse::transform},
                        Case{10368, 10368, ScheduleUse::transform},
                        Case{15000, 15000, ScheduleUse::transform},
                        Case{9000, 9000, ScheduleUse::transform},
                        Case{7203, 7203, ScheduleUse::transform},
                        Case{12500, 12500, ScheduleUse::transform},
                        Case{10800, 10800, ScheduleUse::transform},
                        Case{19208, 19208, ScheduleUse::transform},
                        Case{16875, 16875, ScheduleUse::transform},
                        Case{5292, 5292, ScheduleUse::transform},
                        Case{18432, 18432, ScheduleUse::transform},
                        Case{18000, 18000, ScheduleUse::transform},
                        Case{10206, 10206, ScheduleUse::transform},
                        Case{9450, 9450, ScheduleUse::transform},
                        Case{19440, 19440, ScheduleUse::transform},
                        Case{11520, 11520, ScheduleUse::transform},
                        Case{20480, 20480, ScheduleUse::transform},
                        Case{8064, 8064, ScheduleUse::transform},
                        Case{10935, 10935, ScheduleUse::transform},
                        Case{10125, 10125, ScheduleUse::transform},
                        Case{17010, 17010, ScheduleUse::transform},
                        Case{6804, 6804, ScheduleUse::transform},
                        Case{9261, 9261, ScheduleUse::transform},
                        Case{1087, 2187, ScheduleUse::bluestein},
                        Case{4099, 8232, ScheduleUse::bluestein}}) {
    if (!kc::schedule_shape<T>(c.tile_length, false).valid) {
      // Only the complex<double> lines whose buffer (with its skew) passes
      // a block's shared memory have no compiled tile: 14406, 16807, 19683,
      // 15000, 19208, 16875, 18432, 18000, 19440, 20480, 17010.
      const std::size_t buffer = 2 * sizeof(T) * static_cast<std::size_t>(kc::skewed_words(c.tile_length, 4));
      EXPECT_TRUE(!single && buffer > kc::max_schedule_shared_bytes) << "n=" << c.n << " has no compiled tile";
      continue;
    }
    const Shape shape{1, 5, c.n};
    const auto plan = lines_plan<T>(shape, false, plan_time);
    const ScheduleKey one_tile{type, c.tile_length, ScheduleLayout::contiguous, c.use};
    ASSERT_NO_FATAL_FAILURE(expect_plan_time_tile(*plan_time, one_tile, plan, c.n));
    check_against_fftwl(runner, plan, shape, false, 53 * c.n, c_for_line(c.n));
  }
  std::printf("[ info ] one-tile plan-time (%zu-bit): %s\n", sizeof(T) * 8, plan_time->summary().c_str());
}

TEST(CudaPlanTime, LongLinesAndBluesteinConvolutionsRunInOnePlanTimeTile) {
  SKIP_WITHOUT_CUDA();
  check_one_tile_plan_time<float>();
  check_one_tile_plan_time<double>();
}

// The in-place tiles (in_place_shape and cluster_shape in
// in_place_tiles.hpp), forward and inverse against fftwl: the cluster tile
// on lines no Stockham tile holds (radices 25, 27, 4 and 7 among them;
// clusters of two, three and five blocks, 21875 and 28125 complex<double>
// in five) and on lines of the tuning table's cluster_tile entries (18144
// complex<float> in two blocks; 9375 complex<double> in three of radix 15,
// whose first stage's 625 groups split unevenly among them); its
// in_place_schedule entries (complex<double> 14400 in four blocks, 11250 in
// three, 8750 in two of 128 threads; complex<float> 26244 in three blocks
// of 128 threads, 2187 and 5625 in one block per line, four per SM, and
// 10206 in one, two per SM); two in-place blocks of 256 threads on its
// two_in_place_blocks lines. Each line runs its tile compiled ahead of time
// where this build's kernel set has it (2187 in ci and full), else
// compiled at plan time (expect_plan_time_tile asks the registry). Then
// Bluestein's convolution of two lengths M the in-place tiles serve as
// whole lines: one no Stockham tile holds, which runs on the general kernel
// (no plan-time tile asked for), and one of the two-block lines, whose
// convolution runs the Stockham tile of its settled schedule in one
// plan-time kernel.
template <class T>
void check_in_place_tile(std::initializer_list<int> lengths, std::size_t four_step_m_prime,
                         std::size_t listed_m_prime) {
  auto plan_time = std::make_shared<kc::PlanTimeSchedules>(CubinCache::memory_only());
  DeviceRunner<T> runner;
  const ElementType type = kc::element_type_of<T>();
  for (int n : lengths) {
    ASSERT_TRUE(kc::schedule_shape<T>(n, false).in_place) << n;
    const Shape shape{1, 5, static_cast<std::size_t>(n)};
    const auto plan = lines_plan<T>(shape, false, plan_time);
    const ScheduleKey key{type, n, ScheduleLayout::contiguous, ScheduleUse::transform};
    ASSERT_NO_FATAL_FAILURE(expect_plan_time_tile(*plan_time, key, plan, static_cast<std::size_t>(n)));
    check_against_fftwl(runner, plan, shape, false, 59 * static_cast<std::uint64_t>(n), c_for_line(n));
  }
  for (const std::size_t n : {four_step_m_prime, listed_m_prime}) {
    if (n == 0) continue;
    const std::size_t m = kernels::bluestein_length(n);
    ASSERT_TRUE(kc::schedule_shape<T>(static_cast<int>(m), false).in_place) << "M=" << m;
    const bool listed = kc::listed_tile<T>(static_cast<int>(m)) == kc::ListedTile::two_in_place_blocks;
    EXPECT_EQ(kc::convolution_shape<T>(static_cast<int>(m), false).valid, listed) << "M=" << m;
    const Shape shape{1, 3, n};
    const auto plan = lines_plan<T>(shape, false, plan_time);
    const ScheduleKey convolution{type, static_cast<int>(m), ScheduleLayout::contiguous, ScheduleUse::bluestein};
    if (listed) {
      ASSERT_NO_FATAL_FAILURE(expect_plan_time_tile(*plan_time, convolution, plan, n));
    } else {
      EXPECT_FALSE(plan_time->outcome(convolution).has_value()) << plan.describe();
    }
    check_against_fftwl(runner, plan, shape, false, 61 * static_cast<std::uint64_t>(n), c_for_line(n));
  }
  std::printf("[ info ] in-place tiles (%zu-bit): %s\n", sizeof(T) * 8, plan_time->summary().c_str());
}

TEST(CudaPlanTime, InPlaceTileRunsLinesNoStockhamTileHoldsAndListedLines) {
  SKIP_WITHOUT_CUDA();
  // Bluestein: 10949 (M = 21952) and 4999 (M = 10000).
  check_in_place_tile<float>(
      {21875, 25088, 26244, 27648, 28125, 21609, 23040, 18144, 10000, 10935, 9072, 10206, 2187, 5625}, 10949,
      4999);
  // Bluestein: 5851 (M = 11760).
  check_in_place_tile<double>(
      {11664, 11760, 12544, 13500, 12800, 9375, 10125, 16000, 21000, 28125, 14400, 10976, 10240, 11250, 10584, 5400, 6804,
       6174, 8750},
      5851, 0);
}

// Whether a pass of tile g forms some of its twiddles as products
// (factored_twiddles, as the kernels decide it).
template <class T>
bool has_factored_pass(const kc::ScheduleShape& g) {
  for (int p = 0; p < g.schedule.count; ++p) {
    const int span = g.schedule.span(p);
    if (span > 1 && kc::factored_twiddles<T>(g.schedule.radices[p], span, g.in_place)) return true;
  }
  return false;
}

// Lines whose tiles have a pass with factored twiddles (PassTwiddles in
// general_tile_kernels.cuh): each a compiled tile (ahead of time where the build
// has it, else at plan time), forward and inverse against
// fftwl, in Stockham tiles (radix 27: 19683 complex<float> in 729 threads;
// radix 25: 5000 complex<float>, 2500 complex<double>), the in-place tile
// in one block (10000 complex<float>, radix 25) and the cluster tile
// (24500 complex<float>, radix 14 in two blocks; 14580 complex<double>,
// radix 27 in three; 15625 complex<double>, radix 25 in five).
template <class T>
void check_factored_twiddles(std::initializer_list<int> lengths) {
  auto plan_time = std::make_shared<kc::PlanTimeSchedules>(CubinCache::memory_only());
  DeviceRunner<T> runner;
  for (int n : lengths) {
    ASSERT_TRUE(has_factored_pass<T>(kc::schedule_shape<T>(n, false))) << n;
    const Shape shape{1, 3, static_cast<std::size_t>(n)};
    const auto plan = lines_plan<T>(shape, false, plan_time);
    const auto ahead = kc::compiled_schedules<T>();
    const bool built = std::any_of(ahead.begin(), ahead.end(), [&](const kc::CompiledSchedule& s) {
      return s.length == n && !s.lanes_fast;
    });
    EXPECT_EQ(axis_kernel(plan, false), built ? 'S' : 'P') << "n=" << n << "\n" << plan.describe();
    check_against_fftwl(runner, plan, shape, false, 67 * static_cast<std::uint64_t>(n), c_for_line(n));
  }
}

// Bluestein lines whose convolution tile (convolution_shape) has a pass
// with factored twiddles, compiled at plan time, forward and inverse
// against fftwl: complex<float> primes 2459 (M = 5000, radix 25), 4639 (M
// = 9375, radix 25) and 9803 (M = 19683, radix 27); complex<double> 1229
// (M = 2500 = 4 25 25) and 2459 (M = 5000 = 8 25 25).
template <class T>
void check_factored_convolutions(std::initializer_list<std::size_t> primes) {
  auto plan_time = std::make_shared<kc::PlanTimeSchedules>(CubinCache::memory_only());
  DeviceRunner<T> runner;
  for (const std::size_t n : primes) {
    const int m = static_cast<int>(kernels::bluestein_length(n));
    ASSERT_TRUE(has_factored_pass<T>(kc::convolution_shape<T>(m, false))) << "M=" << m;
    const Shape shape{1, 3, n};
    const auto plan = lines_plan<T>(shape, false, plan_time);
    const ScheduleKey convolution{kc::element_type_of<T>(), m, ScheduleLayout::contiguous, ScheduleUse::bluestein};
    ASSERT_NO_FATAL_FAILURE(expect_plan_time_tile(*plan_time, convolution, plan, n));
    check_against_fftwl(runner, plan, shape, false, 71 * static_cast<std::uint64_t>(n), c_for_line(n));
  }
}

TEST(CudaPlanTime, FactoredTwiddlesAgainstFftwLongDouble) {
  SKIP_WITHOUT_CUDA();
  check_factored_twiddles<float>({19683, 5000, 10000, 24500});
  check_factored_twiddles<double>({2500, 14580, 15625});
  check_factored_convolutions<float>({2459, 4639, 9803});
  check_factored_convolutions<double>({1229, 2459});
}

// A four-step split whose factors are as balanced either way puts the one
// whose whole-line tile is the in-place tile in step A: 2187 x 2048 runs
// step B (contiguous, stored transposed) on 2048, which has a Stockham
// tile, where 2187's in-place tile would leave step B to the general kernel.
TEST(CudaPlanTime, FourStepSplitKeepsInPlaceLengthsOutOfStepB) {
  SKIP_WITHOUT_CUDA();
  auto plan_time = std::make_shared<kc::PlanTimeSchedules>(CubinCache::memory_only());
  DeviceRunner<float> runner;
  const std::size_t n = 2187 * 2048;
  ASSERT_TRUE(kc::schedule_shape<float>(2187, false).in_place);
  const Shape shape{1, 1, n};
  const auto plan = lines_plan<float>(shape, false, plan_time);
  EXPECT_NE(plan.describe().find("four-step 2048 x 2187"), std::string::npos) << plan.describe();
  check_against_fftwl(runner, plan, shape, false, 2187, c_four_step);
}

TEST(CudaPlanTime, SecondPlanLoadsTheCubinFromTheDiskCache) {
  SKIP_WITHOUT_CUDA();
  const ScratchDirectory dir("plan_time_second");
  const Shape shape{143, 1, 33};
  const ScheduleKey z143{ElementType::complex_float, 143, ScheduleLayout::strided, ScheduleUse::transform};
  {
    auto first = std::make_shared<kc::PlanTimeSchedules>(CubinCache(dir.path()));
    const auto plan = lines_plan<float>(shape, true, first);
    ASSERT_EQ(first->outcome(z143).value_or(kc::PlanTimeOutcome{}).source, kc::PlanTimeSource::compiled)
        << plan.describe();
  }
  // Another cache object on the same directory: what the next process gets.
  auto second = std::make_shared<kc::PlanTimeSchedules>(CubinCache(dir.path()));
  const auto plan = lines_plan<float>(shape, true, second);
  ASSERT_EQ(axis_kernel(plan, true), 'P') << plan.describe();
  const auto outcome = second->outcome(z143);
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->source, kc::PlanTimeSource::disk_cache) << kc::describe(*outcome);
  EXPECT_EQ(outcome->compile_seconds, 0.0);
  EXPECT_NE(plan.describe().find("cache hit"), std::string::npos) << plan.describe();
  DeviceRunner<float> runner;
  check_against_fftwl(runner, plan, shape, true, 143);
  // The same object again: from memory, and the same kernel.
  const auto again = lines_plan<float>(shape, true, second);
  EXPECT_EQ(axis_kernel(again, true), 'P');
}

TEST(CudaPlanTime, FailedCompileLeavesTheGeneralKernelWithTheReason) {
  SKIP_WITHOUT_CUDA();
  // sm_11 is no architecture NVRTC 13 compiles for: every compile fails.
  auto broken = std::make_shared<kc::PlanTimeSchedules>(CubinCache::memory_only(), kc::PlanTimeCompiler(11));
  const Shape shape{1, 65, 143};
  const auto plan = lines_plan<float>(shape, false, broken);
  EXPECT_EQ(axis_kernel(plan, false), 'G') << plan.describe();
  const std::string d = plan.describe();
  EXPECT_NE(d.find("not available, general kernel instead"), std::string::npos) << d;
  EXPECT_NE(d.find("NVRTC could not compile"), std::string::npos) << d;
  DeviceRunner<float> runner;
  check_against_fftwl(runner, plan, shape, false, 11);
}

TEST(CudaPlanTime, AheadOfTimeOnlyNeverCompiles) {
  SKIP_WITHOUT_CUDA();
  const Shape shape{1, 65, 143};
  const auto plan = lines_plan<float>(shape, false, nullptr, kc::TileKernels::ahead_of_time_only);
  EXPECT_EQ(axis_kernel(plan, false), 'G') << plan.describe();
  EXPECT_EQ(plan.plan_time(), nullptr);
  // A plan the build serves alone makes no plan-time schedules (and no
  // cache directory).
  const auto pow2 = lines_plan<float>(Shape{1, 64, 1024}, false, nullptr);
  EXPECT_EQ(axis_kernel(pow2, false), 'S');
  EXPECT_EQ(pow2.plan_time(), nullptr);
}

}  // namespace
}  // namespace oocfft::test
