// The tuning table (kernels/cuda/tuning_sm90.hpp), entry by entry: the
// cases are the table's entries, never a copy of them.
//   TuningTable*      each entry gives its line the tile it names, and the
//                     rules alone, evaluated with no table (RulesOnly<T>
//                     below), give it another; no entry is listed twice
//                     (host arithmetic, no GPU);
//   CudaTuningTable*  on a GPU: the line runs a compiled tile (ahead of
//                     time where this build's kernel set has it, else
//                     compiled at plan time), or four steps where the entry
//                     says so, and matches fftwl forward and inverse within
//                     C eps sqrt(log2 N). Skipped, with the reason, where no
//                     GPU is present.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/cuda/cubin_cache.hpp"
#include "kernels/cuda/plan_time_schedules.hpp"
#include "kernels/cuda/schedule_geometry.hpp"
#include "kernels/cuda/tuning.hpp"
#include "tests/cuda_test_support.hpp"

// The rules alone, with no table: the tile shapes read their element type T
// only through sizeof(T), and the table's lookups find a line's entries by
// tuned_type<T>(). RulesOnly<float> and RulesOnly<double> have the sizes of
// float and double, and tuned_type names for them a type no entry has, so
// every rule evaluated with them as T runs as if the table were empty; the
// library's own path (float, double) is untouched. RulesMatchWhereNothingIsListed
// checks that they give what float and double give where no entry applies.
namespace oocfft::test {
template <class T>
struct RulesOnly {
  T value;
};
static_assert(sizeof(RulesOnly<float>) == sizeof(float) && sizeof(RulesOnly<double>) == sizeof(double));
// No entry of any table has this type.
inline constexpr kernels::cuda::TunedType untuned_type = static_cast<kernels::cuda::TunedType>(-1);
}  // namespace oocfft::test

namespace oocfft::kernels::cuda {
template <>
constexpr TunedType tuned_type<test::RulesOnly<float>>() {
  return test::untuned_type;
}
template <>
constexpr TunedType tuned_type<test::RulesOnly<double>>() {
  return test::untuned_type;
}
}  // namespace oocfft::kernels::cuda

namespace oocfft::test {
namespace {

const char* name_of(kc::Tuned what) {
  switch (what) {
    case kc::Tuned::skewed_one_line_tile: return "KeepsSkew";
    case kc::Tuned::ragged_threads: return "RaggedThreads";
    case kc::Tuned::spilled_tile: return "Spilled";
    case kc::Tuned::in_place_schedule: return "InPlaceSchedule";
    case kc::Tuned::two_in_place_blocks: return "TwoInPlaceBlocks";
    case kc::Tuned::cluster_tile: return "ClusterTile";
    case kc::Tuned::four_steps: return "FourSteps";
    case kc::Tuned::stockham_radices: return "StockhamRadices";
  }
  return "Unknown";
}

const char* name_of(kc::TileSearch search) {
  switch (search) {
    case kc::TileSearch::uniform: return "Uniform";
    case kc::TileSearch::first_ragged: return "FirstRagged";
    case kc::TileSearch::second_ragged: return "SecondRagged";
  }
  return "Unknown";
}

// "ClusterTile_c128_9375", "Spilled_c64_10125_Uniform".
std::string entry_name(const ::testing::TestParamInfo<kc::TuningEntry>& info) {
  const kc::TuningEntry& e = info.param;
  std::string name = std::string(name_of(e.what)) + (e.type == kc::TunedType::complex128 ? "_c128_" : "_c64_") +
                     std::to_string(e.length);
  if (e.what == kc::Tuned::spilled_tile) name += std::string("_") + name_of(e.search);
  return name;
}

std::vector<int> pass_radices(const kc::ScheduleShape& g) {
  return std::vector<int>(g.schedule.radices, g.schedule.radices + g.schedule.count);
}

// The tile of the search `search` for complex<T> lines of length n.
template <class T>
kc::UniformTile searched_tile(std::size_t n, kc::TileSearch search) {
  switch (search) {
    case kc::TileSearch::uniform: return kc::uniform_tile<T>(n);
    case kc::TileSearch::first_ragged: return kc::ragged_tile<T>(n);
    case kc::TileSearch::second_ragged: return kc::ragged_tile<T>(n, kc::RaggedOrder::most_threads);
  }
  return {};
}

// That the contiguous lines of the entry run the tile it names, and that
// the rules alone give them another (the entry is not a no-op).
template <class T>
void expect_entry_names_the_tile(const kc::TuningEntry& e) {
  const int n = e.length;
  const auto length = static_cast<std::size_t>(n);
  const kc::ScheduleShape line = kc::schedule_shape<T>(n, false);
  const kc::ScheduleShape stockham = kc::stockham_shape<T>(n, false);
  SCOPED_TRACE(std::string(name_of(e.what)) + " n=" + std::to_string(n) + ": " + e.reason);
  EXPECT_GT(std::string(e.reason).size(), 10u) << "every entry says why";
  switch (e.what) {
    case kc::Tuned::skewed_one_line_tile:
      // The rule leaves one-line tiles of lengths not divided by 4 unskewed.
      ASSERT_TRUE(stockham.valid);
      EXPECT_EQ(stockham.lanes, 1);
      EXPECT_NE(n % 4, 0);
      EXPECT_EQ(stockham.shift, kc::skewed_shift<T>());
      break;
    case kc::Tuned::ragged_threads: {
      const kc::UniformTile tile = kc::settled_device_schedule<T>(length).tile;
      EXPECT_TRUE(tile.ragged);
      EXPECT_EQ(tile.threads, e.threads);
      EXPECT_EQ(stockham.threads, e.threads);
      break;
    }
    case kc::Tuned::spilled_tile: {
      // The search finds a tile, and the line runs another.
      const kc::UniformTile spilled = searched_tile<T>(length, e.search);
      const kc::UniformTile runs = kc::settled_device_schedule<T>(length).tile;
      EXPECT_GT(spilled.threads, 0);
      EXPECT_FALSE(runs.threads == spilled.threads && kc::same_schedule(runs.schedule, spilled.schedule));
      break;
    }
    case kc::Tuned::in_place_schedule: {
      ASSERT_TRUE(line.valid);
      EXPECT_TRUE(line.in_place);
      EXPECT_EQ(line.cluster, e.cluster);
      std::vector<int> listed;  // in pass order: the entry's decimation order reversed
      for (int i = kc::max_tuned_radices - 1; i >= 0; --i)
        if (e.radices.radices[i] > 1) listed.push_back(e.radices.radices[i]);
      EXPECT_EQ(pass_radices(line), listed);
      if (e.threads > 0) EXPECT_EQ(line.threads, e.threads);
      if (e.resident > 0) EXPECT_EQ(line.min_blocks, e.resident);
      EXPECT_TRUE(kc::same_schedule(kc::device_radix_schedule<T>(length), line.schedule));
      break;
    }
    case kc::Tuned::two_in_place_blocks:
      ASSERT_TRUE(line.valid);
      EXPECT_TRUE(line.in_place);
      EXPECT_EQ(line.cluster, 1);
      EXPECT_EQ(line.min_blocks, 2);
      EXPECT_EQ(line.threads, kc::in_place_threads / 2);
      EXPECT_TRUE(stockham.valid) << "a Stockham tile holds the line";
      break;
    case kc::Tuned::cluster_tile:
      ASSERT_TRUE(line.valid);
      EXPECT_TRUE(line.in_place);
      EXPECT_GT(line.cluster, 1);
      EXPECT_TRUE(stockham.valid) << "a Stockham tile holds the line";
      break;
    case kc::Tuned::four_steps:
      EXPECT_FALSE(line.valid);
      EXPECT_FALSE(stockham.valid);
      EXPECT_TRUE(kc::cluster_shape<T>(n).valid) << "the cluster tile would hold the line";
      break;
    case kc::Tuned::stockham_radices: {
      ASSERT_TRUE(stockham.valid);
      std::vector<int> listed;  // in pass order
      for (int i = 0; i < kc::max_tuned_radices && e.radices.radices[i] > 1; ++i) listed.push_back(e.radices.radices[i]);
      EXPECT_EQ(pass_radices(stockham), listed);
      EXPECT_TRUE(kc::same_schedule(kc::device_radix_schedule<T>(length), stockham.schedule));
      break;
    }
  }
}

// Whether two tiles are the same tile: schedule, stages, block and buffer.
bool same_tile(const kc::ScheduleShape& a, const kc::ScheduleShape& b) {
  return a.valid == b.valid && a.in_place == b.in_place && a.cluster == b.cluster && a.threads == b.threads &&
         a.values == b.values && a.min_blocks == b.min_blocks && a.register_target == b.register_target &&
         a.stages == b.stages && a.fused == b.fused && a.shift == b.shift && a.lanes == b.lanes &&
         kc::same_schedule(a.schedule, b.schedule);
}

// The tile the entry changes, as the table gives it and as the rules alone
// give it: the Stockham tile of the settled schedule for the rules that
// choose it (skew, ragged block size, spilled tiles, listed radices), the whole line's tile
// for those that choose between Stockham, in-place, cluster and four steps.
template <class T>
kc::ScheduleShape changed_tile(kc::Tuned what, int n) {
  switch (what) {
    case kc::Tuned::skewed_one_line_tile:
    case kc::Tuned::ragged_threads:
    case kc::Tuned::spilled_tile:
    case kc::Tuned::stockham_radices: return kc::stockham_shape<T>(n, false);
    case kc::Tuned::in_place_schedule:
    case kc::Tuned::two_in_place_blocks:
    case kc::Tuned::cluster_tile:
    case kc::Tuned::four_steps: return kc::schedule_shape<T>(n, false);
  }
  return {};
}

template <class T>
void expect_rules_give_another(const kc::TuningEntry& e) {
  const kc::ScheduleShape tuned = changed_tile<T>(e.what, e.length);
  const kc::ScheduleShape rules = changed_tile<RulesOnly<T>>(e.what, e.length);
  EXPECT_FALSE(same_tile(tuned, rules)) << name_of(e.what) << " n=" << e.length
                                        << ": the rules alone give the line the same tile (the entry changes nothing)";
  switch (e.what) {
    case kc::Tuned::skewed_one_line_tile:
      EXPECT_EQ(rules.shift, 0) << "the rules leave the tile unskewed";
      break;
    case kc::Tuned::ragged_threads:
      EXPECT_NE(rules.threads, e.threads);
      break;
    case kc::Tuned::spilled_tile:
      // Without the table the line runs a tile of a search, the one that spills or one ahead of it.
      EXPECT_GT(kc::settled_device_schedule<RulesOnly<T>>(static_cast<std::size_t>(e.length)).tile.threads, 0);
      break;
    case kc::Tuned::in_place_schedule:
    case kc::Tuned::two_in_place_blocks:
    case kc::Tuned::cluster_tile:
    case kc::Tuned::stockham_radices:
      break;
    case kc::Tuned::four_steps:
      EXPECT_TRUE(rules.valid && rules.in_place && rules.cluster > 1) << "the rules alone run the cluster tile";
      break;
  }
}

class TuningTable : public ::testing::TestWithParam<kc::TuningEntry> {};

TEST_P(TuningTable, RulesAloneGiveTheLineAnotherTile) {
  const kc::TuningEntry& e = GetParam();
  SCOPED_TRACE(e.reason);
  if (e.type == kc::TunedType::complex128) {
    expect_rules_give_another<double>(e);
  } else {
    expect_rules_give_another<float>(e);
  }
}

// No entry is listed twice: one key (the rule, the line, its type; and the
// search for a spilled tile) per entry, since the lookups read only the first.
TEST(TuningTableKeys, NoEntryIsListedTwice) {
  ASSERT_GT(kc::tuning_entry_count, 0);
  std::set<std::tuple<int, int, int, int>> keys;
  for (int i = 0; i < kc::tuning_entry_count; ++i) {
    const kc::TuningEntry& e = kc::tuning_entries[i];
    const int search = e.what == kc::Tuned::spilled_tile ? static_cast<int>(e.search) : -1;
    EXPECT_TRUE(keys.emplace(static_cast<int>(e.what), e.length, static_cast<int>(e.type), search).second)
        << name_of(e.what) << " " << e.length << (e.type == kc::TunedType::complex128 ? " c128" : " c64")
        << " is listed twice";
  }
  EXPECT_EQ(keys.size(), static_cast<std::size_t>(kc::tuning_entry_count));
}

// RulesOnly<T> is the rules: where no entry of the type names a line, the
// rules evaluated with it give what T gives.
template <class T>
void expect_rules_only_matches(int n) {
  EXPECT_TRUE(same_tile(kc::stockham_shape<T>(n, false), kc::stockham_shape<RulesOnly<T>>(n, false))) << n;
  EXPECT_TRUE(same_tile(kc::schedule_shape<T>(n, false), kc::schedule_shape<RulesOnly<T>>(n, false))) << n;
  EXPECT_TRUE(same_tile(kc::schedule_shape<T>(n, true), kc::schedule_shape<RulesOnly<T>>(n, true))) << n;
  EXPECT_TRUE(kc::same_schedule(kc::device_radix_schedule<T>(static_cast<std::size_t>(n)),
                                kc::device_radix_schedule<RulesOnly<T>>(static_cast<std::size_t>(n))))
      << n;
}

bool listed(int n, kc::TunedType type) {
  for (int i = 0; i < kc::tuning_entry_count; ++i)
    if (kc::tuning_entries[i].length == n && kc::tuning_entries[i].type == type) return true;
  return false;
}

TEST(TuningTableKeys, RulesMatchWhereNothingIsListed) {
  // Short and long lines of every kind of tile: Stockham, uniform, ragged,
  // in place, cluster and four steps; and the listed lines of the other type.
  std::vector<int> lines = {64, 243, 1000, 2048, 4096, 5292, 8748, 9000, 10206, 11520, 12500, 14580, 16384, 18000,
                            20480, 21952, 23328, 25088, 28125, 29160};
  for (int i = 0; i < kc::tuning_entry_count; ++i) lines.push_back(kc::tuning_entries[i].length);
  int compared = 0;
  for (int n : lines) {
    if (!listed(n, kc::TunedType::complex64)) {
      expect_rules_only_matches<float>(n);
      ++compared;
    }
    if (!listed(n, kc::TunedType::complex128)) {
      expect_rules_only_matches<double>(n);
      ++compared;
    }
  }
  EXPECT_GT(compared, 100);
}

TEST_P(TuningTable, EntryGivesItsLineTheTileItNames) {
  const kc::TuningEntry& e = GetParam();
  if (e.type == kc::TunedType::complex128) {
    expect_entry_names_the_tile<double>(e);
  } else {
    expect_entry_names_the_tile<float>(e);
  }
}

INSTANTIATE_TEST_SUITE_P(Sm90, TuningTable,
                         ::testing::ValuesIn(kc::tuning_entries, kc::tuning_entries + kc::tuning_entry_count),
                         entry_name);

// ---------------------------------------------------------------- on a GPU

class CudaTuningTable : public ::testing::TestWithParam<kc::TuningEntry> {
 protected:
  // One plan-time cache for the whole table: entries of one length share
  // their kernels.
  static std::shared_ptr<kc::PlanTimeSchedules> plan_time() { return suite_plan_time<CudaTuningTable>(); }
};

// Three x lines of the entry's length: the plan runs a compiled tile (or
// four steps where the entry says so), and matches fftwl.
template <class T>
void check_entry_against_fftwl(const kc::TuningEntry& e, std::shared_ptr<kc::PlanTimeSchedules> plan_time) {
  const auto n = static_cast<std::size_t>(e.length);
  const Shape shape{1, 3, n};
  const kc::DeviceBrickPlan<T> plan(shape, AxisSet{false, false, true}, kc::TileKernels::compiled_where_available,
                                    plan_time);
  if (e.what == kc::Tuned::four_steps) {
    EXPECT_NE(plan.describe().find("four-step"), std::string::npos) << plan.describe();
  } else {
    EXPECT_NE(plan.tile_kernels_used()[0], 'G') << "n=" << n << " runs the general kernel\n" << plan.describe();
  }
  DeviceRunner<T> runner;
  check_lines(runner, n, 3, 7919 * static_cast<std::uint64_t>(n), nullptr, std::move(plan_time));
}

TEST_P(CudaTuningTable, EntryRunsItsTileAgainstFftwLongDouble) {
  SKIP_WITHOUT_CUDA();
  const kc::TuningEntry& e = GetParam();
  if (e.type == kc::TunedType::complex128) {
    check_entry_against_fftwl<double>(e, plan_time());
  } else {
    check_entry_against_fftwl<float>(e, plan_time());
  }
}

INSTANTIATE_TEST_SUITE_P(Sm90, CudaTuningTable,
                         ::testing::ValuesIn(kc::tuning_entries, kc::tuning_entries + kc::tuning_entry_count),
                         entry_name);

}  // namespace
}  // namespace oocfft::test
