// Several devices on the host backend, which emulates them (each its own
// budget, lanes and carry-over, with an explicit exchange): every strategy
// on 1 to 4 devices, odd shapes whose slabs do not divide evenly, both
// precisions and directions, must give the one-device result bit for bit
// (the same host kernels run the same lines); the bricks run where the plan
// put them, the exchange moves what the plan says, and progress, cancel and
// bad device lists behave as on one device.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <oocfft/oocfft.hpp>

#include <cmath>
#include <cstring>
#include <mutex>
#include <numeric>
#include <set>

#include "engine/pipeline/streaming_engine.hpp"
#include "tests/engine_test_support.hpp"
#include "tests/reference.hpp"
#include "volume/host_volume.hpp"

namespace oocfft::test {
namespace {

constexpr double c_streamed = 6.0;  // as the pipeline suite

const Shape device_shapes[] = {{7, 11, 13}, {16, 12, 10}, {5, 17, 9}, {1, 9, 30}, {12, 1, 5}, {9, 6, 1}};
const Strategy strategies[] = {Strategy::two_pass, Strategy::three_pass, Strategy::line_transpose, Strategy::in_core};

Devices first_devices(unsigned n) {
  std::vector<int> ordinals(n);
  std::iota(ordinals.begin(), ordinals.end(), 0);
  return Devices::list(ordinals);
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// The case's options on `devices` devices; in_core gets a budget that one
// device could not hold the volume in (the host's one device transforms in
// place whatever the budget), so that several keep it resident across them.
Options device_options(const EngineCase& c, Precision precision, unsigned devices) {
  Options o = c.options(precision);
  if (devices > 1) o.devices = first_devices(devices);
  return o;
}

template <class T>
void check_devices(Direction direction) {
  constexpr std::size_t e = sizeof(std::complex<T>);
  bool exchanged = false, resident_across = false;
  for (const Shape& shape : device_shapes) {
    const std::size_t n = shape.elements();
    const auto x = to_precision<T>(random_signal(n, 2000 + n));
    const auto ref = widen(in_core_result(x, shape, direction));
    for (Strategy strategy : strategies) {
      for (unsigned streams : {1u, 3u}) {
        for (std::size_t multiple : {1, 3, 40}) {
          if (strategy == Strategy::in_core && multiple != 1) continue;
          const EngineCase c{.shape = shape, .strategy = strategy, .streams = streams, .multiple = multiple};
          std::vector<std::complex<T>> one;
          for (unsigned devices = 1; devices <= 4; ++devices) {
            const Options o = device_options(c, precision_of<T>(), devices);
            const Plan plan(shape, precision_of<T>(), o);
            auto y = x;
            RunReport report;
            plan.execute(y.data(), direction, &report);
            const std::string where = c.name() + " devices " + std::to_string(devices) + " " + to_string(direction);
            EXPECT_LE(relative_l2(y, ref), tolerance<T>(c_streamed, n)) << where << "\n" << plan.describe();
            if (devices == 1) {
              one = y;
              continue;
            }
            // The two-pass structure of a resident plan runs other lines
            // together than the host's in-place transform does, so the
            // in_core case compares by tolerance above only.
            if (strategy != Strategy::in_core) EXPECT_TRUE(same_bits(y, one)) << where << "\n" << plan.describe();
            EXPECT_EQ(report.devices, devices) << where;
            EXPECT_EQ(report.strategy, strategy) << where;
            EXPECT_EQ(report.bytes_moved, 2 * report.passes * n * e - 2 * report.resident_bytes) << where;
            exchanged |= report.exchanged_bytes > 0;
            resident_across |= strategy == Strategy::in_core && report.resident_bytes == n * e;
          }
        }
      }
    }
  }
  EXPECT_TRUE(exchanged) << "no case exchanged resident planes between devices";
  EXPECT_TRUE(resident_across) << "no case kept the volume resident across devices";
}

TEST(EngineDevices, EveryStrategyMatchesOneDeviceSingleForward) { check_devices<float>(Direction::forward); }
TEST(EngineDevices, EveryStrategyMatchesOneDeviceSingleInverse) { check_devices<float>(Direction::inverse); }
TEST(EngineDevices, EveryStrategyMatchesOneDeviceDoubleForward) { check_devices<double>(Direction::forward); }
TEST(EngineDevices, EveryStrategyMatchesOneDeviceDoubleInverse) { check_devices<double>(Direction::inverse); }

// A volume one device's budget cannot keep stays resident across three;
// the result is the one device's two-pass result bit for bit (the same
// slabs and y-slabs, the same lines).
TEST(EngineDevices, ResidentAcrossDevicesWhereOneIsTooSmall) {
  const Shape shape{15, 12, 10};  // 15 planes over 3 devices: 5 each
  const std::size_t volume = shape.elements() * 8;
  Options o;
  o.backend = Backend::host;
  o.streams = 2;
  o.device_memory_budget = volume / 2;
  const auto x = to_precision<float>(random_signal(shape.elements(), 77));
  auto one = x;
  RunReport one_report;
  Plan(shape, Precision::single, o).execute(one.data(), Direction::forward, &one_report);
  EXPECT_EQ(one_report.strategy, Strategy::two_pass);
  EXPECT_LT(one_report.resident_bytes, volume);
  o.devices = Devices::list({0, 1, 2});
  const Plan plan(shape, Precision::single, o);
  auto y = x;
  RunReport report;
  plan.execute(y.data(), Direction::forward, &report);
  EXPECT_EQ(report.strategy, Strategy::in_core) << plan.describe();
  EXPECT_EQ(report.resident_bytes, volume);
  EXPECT_EQ(report.bytes_moved, 2 * volume);  // one trip up and one down
  EXPECT_GT(report.exchanged_bytes, 0u);
  EXPECT_TRUE(same_bits(y, one)) << plan.describe();
  const std::string text = plan.describe();
  EXPECT_NE(text.find("keeps z planes 0..4"), std::string::npos) << text;
  EXPECT_NE(text.find("keeps z planes 10..14"), std::string::npos) << text;
  EXPECT_NE(text.find("exchange route: copies between the emulated devices' memories"), std::string::npos) << text;
}

// The exchange moves what the plan says, and every brick runs on the
// device the plan gave it, in both orders of the passes.
TEST(EngineDevices, BricksRunWhereThePlanPutsThemAndTheExchangeIsThePlans) {
  const Shape shape{13, 10, 9};
  for (const std::size_t multiple : {1, 3, 40}) {
    for (const bool inverse : {false, true}) {
      Options o = EngineCase{.shape = shape, .strategy = Strategy::two_pass, .streams = 2, .multiple = multiple}
                      .options();
      o.devices = Devices::list({4, 2, 9});
      engine::StreamingEngine engine(shape, Precision::single, o, Backend::host);
      const engine::PassPlan plan = engine.plan();
      auto y = to_precision<float>(random_signal(shape.elements(), 5));
      volume::HostVolume store(reinterpret_cast<std::byte*>(y.data()), shape, 8);
      tbb::task_arena arena;
      RunReport report;
      report.record_timeline = true;
      engine.execute(store, inverse, 1.0, arena, &report);
      EXPECT_EQ(report.exchanged_bytes, plan.exchange_bytes) << engine.describe();
      EXPECT_EQ(plan.exchange_bytes > 0, plan.resident_planes > 0) << engine.describe();
      ASSERT_EQ(report.timeline.size(), plan.total_bricks());
      std::set<std::pair<unsigned, unsigned>> seen;  // (pass, device)
      for (const BrickTiming& t : report.timeline) {
        EXPECT_EQ(int(t.device), plan.devices[plan.device_of(t.pass, t.brick)].ordinal)
            << "pass " << t.pass << " brick " << t.brick;
        EXPECT_LT(t.stream, plan.streams);
        seen.insert({t.pass, t.device});
      }
      EXPECT_EQ(seen.size(), 3 * plan.passes.size()) << "every device runs bricks of every pass";
    }
  }
}

// Real transforms out of place, into poisoned outputs: the forward and the
// inverse (whose passes run in the reverse order, the exchange then
// carrying y-slab planes to the devices that keep them) on 1 to 3 devices.
// Bit for bit where x is even; an odd x pairs two real rows in one complex
// line, and which rows pair depends on the bricks, so there the result
// matches to rounding only.
template <class T>
void check_real_devices(const Shape& shape) {
  const bool bitwise = shape.nx % 2 == 0;
  const Shape half = half_spectrum_shape(shape);
  const auto x = to_precision<T>(random_signal(shape.elements(), 99));
  std::vector<T> real(shape.elements());
  for (std::size_t i = 0; i < real.size(); ++i) real[i] = x[i].real();
  for (Strategy strategy : {Strategy::two_pass, Strategy::three_pass, Strategy::in_core}) {
    for (std::size_t multiple : {1, 3, 40}) {
      std::vector<std::complex<T>> one_spectrum;
      std::vector<T> one_back;
      for (unsigned devices = 1; devices <= 3; ++devices) {
        Options o = EngineCase{.shape = half, .strategy = strategy, .streams = 2, .multiple = multiple}.options(
            precision_of<T>());
        if (devices > 1) o.devices = first_devices(devices);
        std::vector<std::complex<T>> spectrum(half.elements(), std::complex<T>(NAN, NAN));
        rfft3d(real.data(), spectrum.data(), shape, o);
        std::vector<T> back(shape.elements(), T(NAN));
        irfft3d(spectrum.data(), back.data(), shape, o);
        const std::string where = std::string(to_string(strategy)) + " x" + std::to_string(multiple) + " devices " +
                                  std::to_string(devices);
        // Every element written (relative_l2 is infinite where a NaN is left).
        for (const auto& v : spectrum) ASSERT_FALSE(std::isnan(v.real()) || std::isnan(v.imag())) << where;
        EXPECT_LE(relative_l2(back, real), tolerance<T>(2 * c_streamed, shape.elements())) << where;
        if (devices == 1) {
          one_spectrum = spectrum;
          one_back = back;
        } else if (strategy != Strategy::in_core && bitwise) {
          EXPECT_TRUE(same_bits(spectrum, one_spectrum)) << where;
          EXPECT_TRUE(same_bits(back, one_back)) << where;
        }
      }
    }
  }
}

TEST(EngineDevices, RealTransformsMatchOneDeviceSingle) {
  check_real_devices<float>({9, 10, 8});
  check_real_devices<float>({9, 10, 7});
}
TEST(EngineDevices, RealTransformsMatchOneDeviceDouble) {
  check_real_devices<double>({9, 10, 8});
  check_real_devices<double>({11, 5, 7});
}

// The DCT/DST (real elements, every axis a real line) and centred
// transforms (phase stages in the first and last passes) on several
// devices. Centred: the one device's result bit for bit. The DCT runs two
// real lines in one complex line, and which lines pair depends on the
// bricks: to rounding.
TEST(EngineDevices, TrigAndCentredTransformsMatchOneDevice) {
  const Shape shape{11, 9, 8};
  const auto x = to_precision<double>(random_signal(shape.elements(), 41));
  std::vector<double> real(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) real[i] = x[i].real();
  for (Strategy strategy : {Strategy::two_pass, Strategy::three_pass, Strategy::in_core}) {
    for (std::size_t multiple : {1, 3}) {
      Options o = EngineCase{.shape = shape, .strategy = strategy, .streams = 2, .multiple = multiple}.options(
          Precision::double_precision);
      if (strategy == Strategy::in_core) o.device_memory_budget = shape.elements() * 16;
      auto dct_one = real;
      dctn(dct_one.data(), shape, 2, o);
      Options centred = o;
      centred.shift = true;
      auto shifted_one = x;
      fft3d(shifted_one.data(), shape, Direction::forward, centred);
      for (unsigned devices = 2; devices <= 3; ++devices) {
        const std::string where = std::string(to_string(strategy)) + " x" + std::to_string(multiple) +
                                  " devices " + std::to_string(devices);
        o.devices = centred.devices = first_devices(devices);
        auto dct = real;
        dctn(dct.data(), shape, 2, o);
        auto shifted = x;
        fft3d(shifted.data(), shape, Direction::forward, centred);
        EXPECT_LE(relative_l2(dct, dct_one), tolerance<double>(c_streamed, shape.elements())) << where;
        if (strategy == Strategy::in_core)  // in place on one device, resident on several
          EXPECT_LE(relative_l2(shifted, shifted_one), tolerance<double>(c_streamed, shape.elements())) << where;
        else
          EXPECT_TRUE(same_bits(shifted, shifted_one)) << where;
      }
    }
  }
}

// A plane program (angular-spectrum propagation of a stack) spreads its
// planes over the devices.
TEST(EngineDevices, PropagatedStackMatchesOneDevice) {
  const Shape shape{7, 12, 10};
  const auto x = to_precision<double>(random_signal(shape.elements(), 31));
  const std::vector<double> distances{1e-4, -2e-4, 3e-4, 0, 5e-5, 1e-3, -1e-3};
  for (Strategy strategy : {Strategy::automatic, Strategy::three_pass}) {
    AsmOptions o;
    o.wavelength = 0.633e-6;
    o.pitch_x = 2e-6;
    o.fft.backend = Backend::host;
    o.fft.strategy = strategy;
    o.fft.streams = 2;
    o.fft.device_memory_budget = 4 * shape.ny * shape.nx * 16;
    auto one = x;
    propagate_stack(one.data(), shape, distances, o);
    for (unsigned devices = 2; devices <= 4; ++devices) {
      o.fft.devices = first_devices(devices);
      auto y = x;
      propagate_stack(y.data(), shape, distances, o);
      EXPECT_TRUE(same_bits(y, one)) << to_string(strategy) << " devices " << devices;
    }
  }
}

TEST(EngineDevices, ProgressCountsEveryBrickOfEveryDeviceOnce) {
  const Shape shape{18, 16, 14};
  for (Strategy strategy : {Strategy::two_pass, Strategy::three_pass, Strategy::in_core}) {
    Options o = device_options(EngineCase{.shape = shape, .strategy = strategy, .streams = 2}, Precision::single, 3);
    std::mutex m;
    std::vector<Progress> seen;
    o.progress = [&](const Progress& p) {
      std::lock_guard<std::mutex> lock(m);
      seen.push_back(p);
    };
    auto y = to_precision<float>(random_signal(shape.elements(), 3));
    RunReport report;
    Plan(shape, Precision::single, o).execute(y.data(), Direction::forward, &report);
    ASSERT_EQ(seen.size(), report.bricks) << to_string(strategy);
    for (std::size_t i = 0; i < seen.size(); ++i) {
      EXPECT_EQ(seen[i].bricks_done, i + 1);
      EXPECT_EQ(seen[i].bricks_total, report.bricks);
      if (i > 0) EXPECT_GE(seen[i].pass, seen[i - 1].pass);
    }
    EXPECT_EQ(seen.back().bytes_moved, report.bytes_moved);
  }
}

TEST(EngineDevices, CancelStopsEveryDevicesLanes) {
  const Shape shape{18, 16, 14};
  for (Strategy strategy : {Strategy::two_pass, Strategy::in_core}) {
    Options o = device_options(EngineCase{.shape = shape, .strategy = strategy, .streams = 2}, Precision::single, 3);
    std::size_t polls = 0, done = 0;
    o.cancel = [&] { return ++polls > 10; };
    o.progress = [&](const Progress& p) { done = p.bricks_done; };
    auto y = to_precision<float>(random_signal(shape.elements(), 4));
    try {
      Plan(shape, Precision::single, o).execute(y.data(), Direction::forward);
      FAIL() << "not cancelled";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::cancelled) << e.what();
      EXPECT_NE(std::string(e.what()).find("after " + std::to_string(done) + " of"), std::string::npos) << e.what();
    }
    EXPECT_GE(done, 1u);
    EXPECT_LE(done, 10u);
  }
}

// A store whose read of one box fails, as a file's would.
class FailingStore final : public volume::VolumeStore {
 public:
  FailingStore(volume::VolumeStore& inner, const Box& failing) : inner_(inner), failing_(failing) {}
  Shape shape() const override { return inner_.shape(); }
  std::size_t element_bytes() const override { return inner_.element_bytes(); }
  void read(const Box& box, BrickLayout layout, std::byte* staging) const override {
    if (box.z0 == failing_.z0 && box.y0 == failing_.y0 && box.x0 == failing_.x0 && box.extent == failing_.extent)
      throw Error(ErrorKind::io, "the test store cannot read this box");
    inner_.read(box, layout, staging);
  }
  void write(const Box& box, BrickLayout layout, const std::byte* staging) override {
    inner_.write(box, layout, staging);
  }

 private:
  volume::VolumeStore& inner_;
  Box failing_;
};

// An error in a brick names the device that ran it, and keeps its kind.
TEST(EngineDevices, ABricksErrorNamesItsDevice) {
  const Shape shape{12, 10, 9};
  Options o = EngineCase{.shape = shape, .strategy = Strategy::three_pass, .streams = 2}.options();
  o.devices = Devices::list({6, 3});
  engine::StreamingEngine engine(shape, Precision::single, o, Backend::host);
  const engine::PassPlan plan = engine.plan();
  const std::size_t last = plan.passes[1].bricks - 1;
  ASSERT_EQ(plan.device_of(1, last), 1u);
  auto y = to_precision<float>(random_signal(shape.elements(), 8));
  volume::HostVolume host(reinterpret_cast<std::byte*>(y.data()), shape, 8);
  FailingStore store(host, plan.passes[1].box(shape, last));
  tbb::task_arena arena;
  try {
    engine.execute(store, false, 1.0, arena, nullptr);
    FAIL() << "the failing read went unnoticed";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::io);
    const std::string what = e.what();
    EXPECT_NE(what.find("the test store cannot read this box"), std::string::npos) << what;
    EXPECT_NE(what.find("brick " + std::to_string(last) + " of pass 2, on device 3"), std::string::npos) << what;
  }
}

TEST(EngineDevices, RefusesBadDeviceListsNamingTheDevice) {
  auto message = [](auto&& make) -> std::string {
    try {
      make();
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(message([] { Devices::list({}); }).find("empty"), std::string::npos);
  EXPECT_NE(message([] { Devices::list({0, -1}); }).find("device -1"), std::string::npos);
  EXPECT_NE(message([] { Devices::list({0, 3, 3}); }).find("device 3 twice"), std::string::npos);
  std::vector<int> many(Devices::max_listed + 1);
  std::iota(many.begin(), many.end(), 0);
  EXPECT_NE(message([&] { Devices::list(many); }).find("more than"), std::string::npos);
}

TEST(EngineDevices, DescribeShowsTheDevicesAndTheDefault) {
  Options o;
  o.backend = Backend::host;
  const std::string one = Plan({8, 8, 8}, Precision::single, o).describe();
  EXPECT_NE(one.find("devices: 0 (options.devices current, the default; 1 emulated device"), std::string::npos) << one;
  o.devices = Devices::list({1, 0});
  o.device_memory_budget = 8 * 8 * 8 * 8;
  const std::string two = Plan({8, 8, 8}, Precision::single, o).describe();
  EXPECT_NE(two.find("devices: 1,0 (options.devices 1,0; 2 emulated devices"), std::string::npos) << two;
  EXPECT_NE(two.find("for 2 links together"), std::string::npos) << two;
  // all is the host's one emulated device.
  o.devices = Devices::all();
  EXPECT_NE(Plan({8, 8, 8}, Precision::single, o).describe().find("devices: 0 (options.devices all;"),
            std::string::npos);
}

}  // namespace
}  // namespace oocfft::test
