// The tuning table (kernels/cuda/tuning_sm90.hpp), entry by entry: the
// cases are the table's entries, never a copy of them.
//   TuningTable*      each entry gives its line the tile it names, where the
//                     rules alone would give another (host arithmetic, no
//                     GPU);
//   CudaTuningTable*  on a GPU: the line runs a compiled tile (ahead of
//                     time where this build's kernel set has it, else
//                     compiled at plan time), or four steps where the entry
//                     says so, and matches fftwl forward and inverse within
//                     C eps sqrt(log2 N). Skipped, with the reason, where no
//                     GPU is present.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "kernels/cuda/cubin_cache.hpp"
#include "kernels/cuda/plan_time_schedules.hpp"
#include "kernels/cuda/schedule_geometry.hpp"
#include "kernels/cuda/tuning.hpp"
#include "tests/cuda_test_support.hpp"

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
      for (int i = kc::max_in_place_stages - 1; i >= 0; --i)
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
  }
}

class TuningTable : public ::testing::TestWithParam<kc::TuningEntry> {};

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
  static std::shared_ptr<kc::PlanTimeSchedules>& plan_time() {
    static std::shared_ptr<kc::PlanTimeSchedules> schedules;
    if (!schedules) schedules = std::make_shared<kc::PlanTimeSchedules>(kc::CubinCache::memory_only());
    return schedules;
  }
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
