#pragma once
// Helpers for the streaming-engine suites: budgets that force a strategy
// with a chosen brick size, one engine case (EngineCase: the options a
// suite sweeps, and a run of them), and the in-core result to compare with.
#include <oocfft/oocfft.hpp>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "tests/reference.hpp"

namespace oocfft::test {

// Device budget for `streams` streams whose bricks hold `multiple` times the
// smallest brick `strategy` needs (multiple 1 = the most bricks). Mirrors
// the planner's rule: a stream's share holds a brick (the kernels of these
// lengths need no workspace); the line-transpose chunk is
// DevMem / (3 V_d N_stream).
inline std::size_t budget_for(Strategy strategy, const Shape& s, std::size_t element_bytes, unsigned streams,
                              std::size_t multiple) {
  const std::size_t longest = std::max({s.nz, s.ny, s.nx});
  std::size_t brick = 0;
  switch (strategy) {
    case Strategy::two_pass: brick = std::max(s.ny * s.nx, s.nz); break;
    case Strategy::three_pass: brick = longest; break;
    case Strategy::line_transpose: return 3 * element_bytes * streams * longest * multiple;
    default: brick = s.elements(); break;
  }
  return streams * brick * multiple * element_bytes;
}

// The host backend on two threads and two streams within `budget` bytes
// of "device" memory (0: none given, in core where the volume lies): the
// internal transforms' suites stream through it.
inline Options host_budget(std::size_t budget) {
  Options o;
  o.backend = Backend::host;
  o.threads = 2;
  o.streams = 2;
  o.device_memory_budget = budget;
  return o;
}

template <class T>
constexpr Precision precision_of() {
  return sizeof(T) == sizeof(float) ? Precision::single : Precision::double_precision;
}

// One case of the streaming engine as the engine suites sweep them: `shape`
// through `strategy` on `streams` streams, with bricks `multiple` times the
// smallest the strategy needs (budget_for), on `backend`. Written with
// designated initialisers: EngineCase{.shape = s, .strategy = Strategy::three_pass}.
struct EngineCase {
  Shape shape;
  Strategy strategy = Strategy::two_pass;
  unsigned streams = 4;
  std::size_t multiple = 1;
  Backend backend = Backend::host;
  HostRegistration registration = HostRegistration::automatic;
  // Added to the budget: room for what a backend keeps beside the bricks
  // (the CUDA kernels' tables).
  std::size_t device_margin = 0;

  // in_core keeps the default budget (what the device has): the volume
  // must fit, which is the point of asking for it.
  Options options(Precision precision = Precision::single) const {
    const std::size_t element_bytes = precision == Precision::single ? 8 : 16;
    Options o;
    o.backend = backend;
    o.strategy = strategy;
    o.streams = streams;
    o.register_host_memory = registration;
    o.device_memory_budget = strategy == Strategy::in_core
                                 ? 0
                                 : budget_for(strategy, shape, element_bytes, streams, multiple) + device_margin;
    return o;
  }

  // For failure messages.
  std::string name() const {
    return shape.to_string() + " " + to_string(strategy) + " streams " + std::to_string(streams) + " x" +
           std::to_string(multiple) + " " + to_string(backend) + " register " + to_string(registration);
  }
};

// The plan a case ran, described only when streamed into a failure message
// (gtest streams a message only when its assertion fails): describe() may
// ask for the PCIe floor, and a suite of hundreds of passing cases has no
// reader for the text.
struct PlanDescription {
  std::shared_ptr<const Plan> plan;
  friend std::ostream& operator<<(std::ostream& os, const PlanDescription& d) { return os << d.plan->describe(); }
};

// A case run on a copy of `x`: the result, the run's report and the plan,
// to describe on failure.
template <class T>
struct EngineRun {
  std::vector<std::complex<T>> y;
  RunReport report;
  PlanDescription plan;
};

template <class T>
EngineRun<T> run_case(const EngineCase& c, const std::vector<std::complex<T>>& x, Direction direction) {
  auto plan = std::make_shared<const Plan>(c.shape, precision_of<T>(), c.options(precision_of<T>()));
  EngineRun<T> r{x, {}, {plan}};
  plan->execute(r.y.data(), direction, &r.report);
  return r;
}

template <class T>
std::vector<std::complex<T>> in_core_result(const std::vector<std::complex<T>>& x, const Shape& shape,
                                            Direction direction, Norm norm = Norm::backward) {
  std::vector<std::complex<T>> y = x;
  Options o;
  o.backend = Backend::host;
  o.norm = norm;
  fft3d(y.data(), shape, direction, o);
  return y;
}

template <class T>
std::vector<LongComplex> widen(const std::vector<std::complex<T>>& y) {
  std::vector<LongComplex> w(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) w[i] = {y[i].real(), y[i].imag()};
  return w;
}

}  // namespace oocfft::test
