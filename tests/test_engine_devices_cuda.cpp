// Several CUDA devices: each device its own lanes, kernels and carry-over,
// the resident planes exchanged by peer copies. Every strategy, odd shapes
// whose slabs do not divide evenly, both precisions and directions, staged
// and page-locked host memory, must give the one-device CUDA result bit
// for bit where the same kernels run the same lines (the bricks are sized
// for the same budget), and the host's in-core result within the streamed
// tolerance everywhere; real, trigonometric, centred and angular-spectrum
// programs likewise; a device that cannot allocate, or whose brick fails,
// is named in the error and leaves no page locked. Skips with fewer than
// two CUDA devices.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <oocfft/oocfft.hpp>

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "engine/pipeline/streaming_engine.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "tests/engine_test_support.hpp"
#include "tests/page_locked_probe.hpp"
#include "tests/reference.hpp"
#include "volume/host_volume.hpp"

namespace oocfft::test {
namespace {

constexpr double c_streamed = 6.0;  // as the pipeline suite

int cuda_devices() {
  if (!cuda_available()) return 0;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

#define SKIP_WITHOUT_TWO_CUDA_DEVICES()                                                                  \
  if (cuda_devices() < 2)                                                                                \
  GTEST_SKIP() << "fewer than two CUDA devices (" << cuda_devices()                                      \
               << " seen): the CUDA lanes over several devices are not exercised here"

// The first `n` CUDA devices, at most four (the largest lent node).
Devices first_devices(unsigned n) {
  std::vector<int> ordinals(n);
  std::iota(ordinals.begin(), ordinals.end(), 0);
  return Devices::list(ordinals);
}

unsigned most_devices() { return static_cast<unsigned>(std::min(cuda_devices(), 4)); }

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// The brick of each pass of the plan that `o` gives `shape`.
template <class T>
std::vector<Shape> pass_bricks(const Shape& shape, const Options& o) {
  engine::StreamingEngine engine(shape, precision_of<T>(), o, Backend::cuda);
  std::vector<Shape> bricks;
  for (const auto& pass : engine.plan().passes) bricks.push_back(pass.brick);
  return bricks;
}

const Shape device_shapes[] = {{7, 11, 13}, {16, 12, 10}, {5, 17, 9}, {1, 9, 30}, {12, 1, 5}, {33, 20, 18}};
const Strategy strategies[] = {Strategy::two_pass, Strategy::three_pass, Strategy::line_transpose, Strategy::in_core};

// `registrations`: staged only, or also page-locked by the store (every
// natural brick DMAs straight from the array to its device).
template <class T>
void check_devices(Direction direction, std::initializer_list<HostRegistration> registrations) {
  constexpr std::size_t e = sizeof(std::complex<T>);
  bool exchanged = false, resident_across = false;
  std::size_t compared = 0;
  for (const Shape& shape : device_shapes) {
    const std::size_t n = shape.elements();
    const auto x = to_precision<T>(random_signal(n, 3000 + n));
    const auto ref = widen(in_core_result(x, shape, direction));
    for (Strategy strategy : strategies) {
      for (HostRegistration reg : registrations) {
        for (std::size_t multiple : {1, 3}) {
          if (strategy == Strategy::in_core && multiple != 1) continue;
          const EngineCase c{.shape = shape,
                             .strategy = strategy,
                             .streams = 2,
                             .multiple = multiple,
                             .backend = Backend::cuda,
                             .registration = reg,
                             .device_margin = 1 << 20};
          std::vector<std::complex<T>> one;
          std::vector<Shape> one_bricks;
          for (unsigned devices = 1; devices <= most_devices(); ++devices) {
            Options o = c.options(precision_of<T>());
            o.devices = first_devices(devices);
            const Plan plan(shape, precision_of<T>(), o);
            auto y = x;
            RunReport report;
            plan.execute(y.data(), direction, &report);
            const std::string where = c.name() + " devices " + std::to_string(devices) + " " + to_string(direction);
            EXPECT_LE(relative_l2(y, ref), tolerance<T>(c_streamed, n)) << where << "\n" << plan.describe();
            EXPECT_FALSE(page_locked(y.data())) << where << ": the array was left page-locked";
            EXPECT_EQ(report.devices, devices) << where;
            EXPECT_EQ(report.strategy, strategy) << where;
            EXPECT_EQ(report.bytes_moved, 2 * report.passes * n * e - 2 * report.resident_bytes) << where;
            if (devices == 1) {
              one = y;
              one_bricks = pass_bricks<T>(shape, o);
              continue;
            }
            // A pass's kernels are chosen for its brick (a compiled schedule
            // needs enough lanes): where the devices' plan cuts the same
            // bricks as one device's, the same kernels run the same lines.
            // in_core brick sizes follow each device's free memory, which
            // differs between the devices: to the tolerance above only.
            if (strategy != Strategy::in_core && pass_bricks<T>(shape, o) == one_bricks) {
              EXPECT_TRUE(same_bits(y, one)) << where << "\n" << plan.describe();
              ++compared;
            }
            exchanged |= report.exchanged_bytes > 0;
            resident_across |= strategy == Strategy::in_core && report.resident_bytes == n * e &&
                               report.exchanged_bytes > 0;
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 0u) << "no case cut the same bricks on several devices as on one";
  EXPECT_TRUE(exchanged) << "no case exchanged resident planes between devices";
  EXPECT_TRUE(resident_across) << "no case kept the volume resident across devices";
}

TEST(EngineDevicesCuda, EveryStrategyMatchesOneDeviceSingleForward) {
  SKIP_WITHOUT_TWO_CUDA_DEVICES();
  check_devices<float>(Direction::forward, {HostRegistration::off, HostRegistration::on});
}
TEST(EngineDevicesCuda, EveryStrategyMatchesOneDeviceSingleInverse) {
  SKIP_WITHOUT_TWO_CUDA_DEVICES();
  check_devices<float>(Direction::inverse, {HostRegistration::off});
}
TEST(EngineDevicesCuda, EveryStrategyMatchesOneDeviceDoubleForward) {
  SKIP_WITHOUT_TWO_CUDA_DEVICES();
  check_devices<double>(Direction::forward, {HostRegistration::off, HostRegistration::on});
}
TEST(EngineDevicesCuda, EveryStrategyMatchesOneDeviceDoubleInverse) {
  SKIP_WITHOUT_TWO_CUDA_DEVICES();
  check_devices<double>(Direction::inverse, {HostRegistration::off});
}

// Every brick runs on the device the plan gave it, the exchange moves what
// the plan says (in both orders of the passes), and describe() names the
// route; the caller's current device is left as it was.
TEST(EngineDevicesCuda, BricksRunWhereThePlanPutsThemAndTheExchangeIsThePlans) {
  SKIP_WITHOUT_TWO_CUDA_DEVICES();
  const Shape shape{13, 10, 9};
  const unsigned devices = most_devices();
  for (const std::size_t multiple : {1, 3}) {
    for (const bool inverse : {false, true}) {
      Options o = EngineCase{.shape = shape,
                             .strategy = Strategy::two_pass,
                             .streams = 2,
                             .multiple = multiple,
                             .backend = Backend::cuda,
                             .device_margin = 1 << 20}
                      .options();
      o.devices = first_devices(devices);
      ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
      engine::StreamingEngine engine(shape, Precision::single, o, Backend::cuda);
      const engine::PassPlan plan = engine.plan();
      auto y = to_precision<float>(random_signal(shape.elements(), 5));
      volume::HostVolume store(reinterpret_cast<std::byte*>(y.data()), shape, 8);
      tbb::task_arena arena;
      RunReport report;
      report.record_timeline = true;
      engine.execute(store, inverse, 1.0, arena, &report);
      int current = -1;
      ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
      EXPECT_EQ(current, 0) << "the caller's current device changed";
      const std::string text = engine.describe();
      EXPECT_EQ(report.exchanged_bytes, plan.exchange_bytes) << text;
      if (plan.resident_planes > 0) {
        EXPECT_GT(plan.exchange_bytes, 0u) << text;
        EXPECT_NE(text.find("exchange route: "), std::string::npos) << text;
        EXPECT_TRUE(text.find("peer copies") != std::string::npos || text.find("through the host") != std::string::npos)
            << text;
      }
      ASSERT_EQ(report.timeline.size(), plan.total_bricks());
      std::set<std::pair<unsigned, unsigned>> seen;  // (pass, device)
      for (const BrickTiming& t : report.timeline) {
        EXPECT_EQ(int(t.device), plan.devices[plan.device_of(t.pass, t.brick)].ordinal)
            << "pass " << t.pass << " brick " << t.brick;
        seen.insert({t.pass, t.device});
      }
      EXPECT_EQ(seen.size(), devices * plan.passes.size()) << "every device runs bricks of every pass\n" << text;
    }
  }
}

// Real transforms out of place (the inverse runs the passes in the
// reversed order, the exchange then carrying y-slab planes to their
// keepers), the DCT, centred transforms (centring tables on each device)
// and a propagated stack (the transfer function on each device) against
// one device.
template <class T>
void check_programs() {
  const Shape shape{11, 10, 8};
  const Shape half = half_spectrum_shape(shape);
  const auto x = to_precision<T>(random_signal(shape.elements(), 123));
  std::vector<T> real(shape.elements());
  for (std::size_t i = 0; i < real.size(); ++i) real[i] = x[i].real();
  for (Strategy strategy : {Strategy::two_pass, Strategy::three_pass, Strategy::in_core}) {
    struct Result {
      std::vector<std::complex<T>> spectrum, centred;
      std::vector<T> back, dct;
    };
    Result one;
    for (unsigned devices = 1; devices <= most_devices(); ++devices) {
      const std::string where = std::string(to_string(strategy)) + " devices " + std::to_string(devices);
      Options o = EngineCase{.shape = half,
                             .strategy = strategy,
                             .streams = 2,
                             .multiple = 3,
                             .backend = Backend::cuda,
                             .device_margin = 1 << 20}
                      .options(precision_of<T>());
      o.devices = first_devices(devices);
      Result r;
      r.spectrum.assign(half.elements(), std::complex<T>(NAN, NAN));
      rfft3d(real.data(), r.spectrum.data(), shape, o);
      r.back.assign(shape.elements(), T(NAN));
      irfft3d(r.spectrum.data(), r.back.data(), shape, o);
      for (const auto& v : r.spectrum) ASSERT_FALSE(std::isnan(v.real()) || std::isnan(v.imag())) << where;
      EXPECT_LE(relative_l2(r.back, real), tolerance<T>(2 * c_streamed, shape.elements())) << where;

      Options full = EngineCase{.shape = shape,
                                .strategy = strategy,
                                .streams = 2,
                                .multiple = 3,
                                .backend = Backend::cuda,
                                .device_margin = 1 << 20}
                         .options(precision_of<T>());
      full.devices = o.devices;
      r.dct = real;
      dctn(r.dct.data(), shape, 2, full);
      full.shift = true;
      r.centred = x;
      fft3d(r.centred.data(), shape, Direction::forward, full);
      if (devices == 1) {
        one = r;
        continue;
      }
      const double tol = tolerance<T>(c_streamed, shape.elements());
      EXPECT_LE(relative_l2(r.spectrum, one.spectrum), tol) << where;
      EXPECT_LE(relative_l2(r.back, one.back), tol) << where;
      EXPECT_LE(relative_l2(r.dct, one.dct), tol) << where;
      EXPECT_LE(relative_l2(r.centred, one.centred), tol) << where;
      if (strategy != Strategy::in_core) {
        // x is even: the real rows pair the same way on any device.
        EXPECT_TRUE(same_bits(r.spectrum, one.spectrum)) << where;
        EXPECT_TRUE(same_bits(r.back, one.back)) << where;
        EXPECT_TRUE(same_bits(r.centred, one.centred)) << where;
      }
    }
  }
}

TEST(EngineDevicesCuda, RealTrigAndCentredTransformsMatchOneDeviceSingle) {
  SKIP_WITHOUT_TWO_CUDA_DEVICES();
  check_programs<float>();
}
TEST(EngineDevicesCuda, RealTrigAndCentredTransformsMatchOneDeviceDouble) {
  SKIP_WITHOUT_TWO_CUDA_DEVICES();
  check_programs<double>();
}

TEST(EngineDevicesCuda, PropagatedStackMatchesOneDevice) {
  SKIP_WITHOUT_TWO_CUDA_DEVICES();
  const Shape shape{7, 12, 10};
  const auto x = to_precision<double>(random_signal(shape.elements(), 31));
  const std::vector<double> distances{1e-4, -2e-4, 3e-4, 0, 5e-5, 1e-3, -1e-3};
  for (Strategy strategy : {Strategy::automatic, Strategy::three_pass}) {
    AsmOptions o;
    o.wavelength = 0.633e-6;
    o.pitch_x = 2e-6;
    o.fft.backend = Backend::cuda;
    o.fft.strategy = strategy;
    o.fft.streams = 2;
    o.fft.device_memory_budget = 4 * shape.ny * shape.nx * 16 + (1 << 20);
    auto one = x;
    propagate_stack(one.data(), shape, distances, o);
    for (unsigned devices = 2; devices <= most_devices(); ++devices) {
      o.fft.devices = first_devices(devices);
      auto y = x;
      propagate_stack(y.data(), shape, distances, o);
      EXPECT_TRUE(same_bits(y, one)) << to_string(strategy) << " devices " << devices;
    }
  }
}

// Whether `box` (a brick, or a piece of one staged through the ring)
// overlaps `failing`.
bool in_failing(const Box& box, const Box& failing) {
  auto overlap = [](std::size_t a0, std::size_t an, std::size_t b0, std::size_t bn) {
    return an > 0 && bn > 0 && a0 < b0 + bn && b0 < a0 + an;
  };
  return overlap(box.z0, box.extent.nz, failing.z0, failing.extent.nz) &&
         overlap(box.y0, box.extent.ny, failing.y0, failing.extent.ny) &&
         overlap(box.x0, box.extent.nx, failing.x0, failing.extent.nx);
}

// The inner store's direct DMA, refusing one box as a failing device
// transfer would.
class FailingDirectAccess final : public volume::DirectAccess {
 public:
  FailingDirectAccess(std::unique_ptr<volume::DirectAccess> inner, const Box& failing)
      : inner_(std::move(inner)), failing_(failing) {}
  std::vector<volume::DmaCopy> copies(const Box& box, volume::Transfer transfer) override {
    if (in_failing(box, failing_)) throw Error(ErrorKind::io, "the test store cannot read this box");
    return inner_->copies(box, transfer);
  }
  double finish() override { return inner_->finish(); }

 private:
  std::unique_ptr<volume::DirectAccess> inner_;
  Box failing_;
};

// A store whose read of one box fails, as a file's would, staged or by
// direct DMA (the inner store's, which page-locks the array under `on`).
class FailingStore final : public volume::VolumeStore {
 public:
  FailingStore(volume::VolumeStore& inner, const Box& failing) : inner_(inner), failing_(failing) {}
  Shape shape() const override { return inner_.shape(); }
  std::size_t element_bytes() const override { return inner_.element_bytes(); }
  void read(const Box& box, BrickLayout layout, std::byte* staging) const override {
    if (in_failing(box, failing_)) throw Error(ErrorKind::io, "the test store cannot read this box");
    inner_.read(box, layout, staging);
  }
  void write(const Box& box, BrickLayout layout, const std::byte* staging) override {
    inner_.write(box, layout, staging);
  }
  std::unique_ptr<volume::DirectAccess> open_direct_access(HostRegistration policy,
                                                           const volume::PageLocker& locker) override {
    auto inner = inner_.open_direct_access(policy, locker);
    if (inner == nullptr) return nullptr;
    return std::make_unique<FailingDirectAccess>(std::move(inner), failing_);
  }

 private:
  volume::VolumeStore& inner_;
  Box failing_;
};

// A brick that fails on the second device: the error keeps its kind and
// names the brick and the device, every lane stops, and no page of the
// array stays locked.
TEST(EngineDevicesCuda, ABricksErrorNamesItsDeviceAndUnlocksTheArray) {
  SKIP_WITHOUT_TWO_CUDA_DEVICES();
  const Shape shape{12, 10, 9};
  for (HostRegistration reg : {HostRegistration::off, HostRegistration::on}) {
    // Two passes of natural bricks: under `on` every brick DMAs from the
    // page-locked array.
    Options o = EngineCase{.shape = shape,
                           .strategy = Strategy::two_pass,
                           .streams = 2,
                           .backend = Backend::cuda,
                           .registration = reg,
                           .device_margin = 1 << 20}
                    .options();
    o.devices = Devices::list({0, 1});
    engine::StreamingEngine engine(shape, Precision::single, o, Backend::cuda);
    const engine::PassPlan plan = engine.plan();
    // Pass 1 reads every z-slab whole (pass 2 may find its planes kept on
    // the devices and read nothing): its last brick runs on device 1.
    const std::size_t last = plan.passes[0].bricks - 1;
    ASSERT_EQ(plan.device_of(0, last), 1u);
    auto y = to_precision<float>(random_signal(shape.elements(), 8));
    volume::HostVolume host(reinterpret_cast<std::byte*>(y.data()), shape, 8);
    FailingStore store(host, plan.passes[0].box(shape, last));
    tbb::task_arena arena;
    try {
      engine.execute(store, false, 1.0, arena, nullptr);
      FAIL() << "the failing read went unnoticed";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::io);
      const std::string what = e.what();
      EXPECT_NE(what.find("the test store cannot read this box"), std::string::npos) << what;
      // The plan execute() fits may cut other bricks than plan() did; the
      // volume's last z planes are device 1's in either.
      EXPECT_NE(what.find(" of pass 1, on device 1)"), std::string::npos) << what;
    }
    EXPECT_FALSE(page_locked(y.data())) << "register " << to_string(reg) << ": the array was left page-locked";
  }
}

// A device that cannot hold its lanes' buffers (another allocation holds
// nearly all its memory): Error(out_of_memory) names it, the engine having
// tried smaller plans first, the array is untouched and not page-locked.
TEST(EngineDevicesCuda, ADeviceThatCannotAllocateIsNamed) {
  SKIP_WITHOUT_TWO_CUDA_DEVICES();
  // Planes of 2 MiB: no plan's lanes fit the few MiB left on device 1.
  const Shape shape{16, 512, 512};
  std::vector<kernels::cuda::DeviceBuffer> hog;
  {
    ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
    for (std::size_t chunk : {std::size_t{1} << 30, std::size_t{64} << 20, std::size_t{1} << 20}) {
      for (;;) {
        try {
          hog.emplace_back(chunk, "memory the test holds");
        } catch (const Error&) {
          break;
        }
      }
    }
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  }
  Options o;
  o.backend = Backend::cuda;
  o.strategy = Strategy::two_pass;
  o.streams = 2;
  o.register_host_memory = HostRegistration::on;
  o.device_memory_budget = std::size_t{64} << 20;
  o.devices = Devices::list({0, 1});
  const auto x = to_precision<float>(random_signal(shape.elements(), 9));
  auto y = x;
  try {
    Plan(shape, Precision::single, o).execute(y.data(), Direction::forward);
    ADD_FAILURE() << "device 1 had no memory, yet the plan ran";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::out_of_memory) << e.what();
    EXPECT_NE(std::string(e.what()).find("device 1"), std::string::npos) << e.what();
  }
  ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
  hog.clear();
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  EXPECT_TRUE(same_bits(y, x)) << "the array changed though no plan ran";
  EXPECT_FALSE(page_locked(y.data())) << "the array was left page-locked";
}


}  // namespace
}  // namespace oocfft::test
