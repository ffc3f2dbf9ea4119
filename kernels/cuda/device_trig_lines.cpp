#include "kernels/cuda/device_trig_lines.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/plan_time_schedules.hpp"
#include "kernels/cuda/trig_lines_kernels.hpp"
#include "kernels/roots_of_unity.hpp"
#include "oocfft/error.hpp"

namespace oocfft::kernels::cuda {

const char* to_string(TrigKind kind) noexcept {
  switch (kind) {
    case TrigKind::dct2: return "dct2";
    case TrigKind::dct3: return "dct3";
    case TrigKind::dst2: return "dst2";
    case TrigKind::dst3: return "dst3";
  }
  return "?";
}

const char* to_string(TrigNorm norm) noexcept {
  switch (norm) {
    case TrigNorm::none: return "backward";
    case TrigNorm::ortho: return "ortho";
  }
  return "?";
}

namespace {

constexpr std::size_t workspace_alignment = 256;
std::size_t aligned(std::size_t bytes) {
  return (bytes + workspace_alignment - 1) / workspace_alignment * workspace_alignment;
}

bool type_two(TrigKind kind) { return kind == TrigKind::dct2 || kind == TrigKind::dst2; }
bool sine(TrigKind kind) { return kind == TrigKind::dst2 || kind == TrigKind::dst3; }

// The lanes are the real lines' fast dimension: pairs go fastest in the
// workspace (the test DeviceLinePlan uses for strided lanes).
bool pairs_fast(const LineBatch& lines) {
  return lines.point_stride != 1 && lines.lanes > 1 && std::abs(lines.lane_distance) <= std::abs(lines.point_stride);
}

TrigLayout layout_of(const LineBatch& lines) {
  TrigLayout L;
  L.n = lines.signed_length();
  L.lanes = lines.lane_count();
  L.groups = lines.group_count();
  L.pairs = (L.lanes + 1) / 2;
  L.point_stride = lines.point_stride;
  L.lane_distance = lines.lane_distance;
  L.group_distance = lines.group_distance;
  L.pairs_fast = pairs_fast(lines);
  return L;
}

}  // namespace

template <class T>
DeviceTrigLines<T>::DeviceTrigLines(std::size_t n, TrigKind kind, TrigNorm norm, const DeviceLimits& limits,
                                    TileKernels kernels)
    : n_(n), kind_(kind), norm_(norm) {
  if (n == 0) throw Error(ErrorKind::invalid_argument, "DeviceTrigLines: length 0");
  if (n > 1) line_.emplace(n, limits, kernels);
  // w_4n^k = exp(-i pi k / (2n)), k < n, exact in long double, cast down.
  std::vector<Complex<T>> w(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::complex<long double> r = unit_root(k, 4 * static_cast<std::uint64_t>(n));
    w[k] = {static_cast<T>(r.real()), static_cast<T>(r.imag())};
  }
  twiddles_ = DeviceBuffer(n * sizeof(Complex<T>), "trigonometric-line twiddles");
  check_cuda(cudaMemcpy(twiddles_.get(), w.data(), twiddles_.bytes(), cudaMemcpyHostToDevice),
             "cudaMemcpy (trigonometric-line twiddles)");
}

template <class T>
LineBatch DeviceTrigLines<T>::complex_lines(const LineBatch& lines) const {
  const std::size_t pairs = (lines.lanes + 1) / 2;
  const auto n = static_cast<std::ptrdiff_t>(n_);
  const auto q = static_cast<std::ptrdiff_t>(pairs);
  if (pairs_fast(lines)) return {n_, q, pairs, 1, lines.groups, n * q};
  return {n_, 1, pairs, n, lines.groups, n * q};
}

template <class T>
std::size_t DeviceTrigLines<T>::workspace_bytes(const LineBatch& lines) const {
  const LineBatch c = complex_lines(lines);
  return aligned(c.lines() * n_ * sizeof(Complex<T>)) + (line_ ? line_->workspace_bytes(c) : 0);
}

template <class T>
std::size_t DeviceTrigLines<T>::table_bytes() const {
  return twiddles_.bytes() + (line_ ? line_->table_bytes() : 0);
}

template <class T>
void DeviceTrigLines<T>::execute(T* data, const LineBatch& lines, void* workspace, T scale,
                                 cudaStream_t stream) const {
  if (lines.length != n_)
    throw Error(ErrorKind::invalid_argument, "DeviceTrigLines: plan of length " + std::to_string(n_) +
                                                 " given lines of length " + std::to_string(lines.length));
  if (lines.lines() == 0) return;
  if (data == nullptr || workspace == nullptr)
    throw Error(ErrorKind::invalid_argument, "DeviceTrigLines: null data or workspace pointer");
  const TrigLayout layout = layout_of(lines);
  const LineBatch c = complex_lines(lines);
  auto* work = static_cast<Complex<T>*>(workspace);
  void* inner = static_cast<char*>(workspace) + aligned(c.lines() * n_ * sizeof(Complex<T>));
  const auto* w = twiddles_.as<const Complex<T>>();
  // scipy's ortho weights (orthogonalize=True): type 2 scales output 0 of
  // the DCT domain by sqrt(1/(4n)) and the rest by sqrt(1/(2n)); type 3,
  // its transpose, input 0 by sqrt(1/n) and the rest by sqrt(1/(2n)).
  const long double nl = static_cast<long double>(n_);
  TrigFactors<T> f;
  f.sine = sine(kind_);
  const bool two = type_two(kind_);
  if (norm_ == TrigNorm::ortho) {
    f.first = static_cast<T>(scale * std::sqrt(1.0L / ((two ? 4.0L : 1.0L) * nl)));
    f.rest = static_cast<T>(scale * std::sqrt(1.0L / (2.0L * nl)));
  } else {
    f.first = f.rest = scale;
  }
  if (two) {
    launch_trig2_pack(data, layout, f.sine, work, stream);
    if (line_) line_->execute(work, c, inner, false, T(1), stream);
    launch_trig2_unpack(work, layout, w, f, data, stream);
  } else {
    launch_trig3_pack(data, layout, w, f, work, stream);
    if (line_) line_->execute(work, c, inner, true, T(1), stream);
    launch_trig3_unpack(work, layout, f.sine, data, stream);
  }
}

template <class T>
std::string DeviceTrigLines<T>::describe() const {
  return std::string(to_string(kind_)) + " " + std::to_string(n_) + " norm " + to_string(norm_) +
         " (Makhoul, two lines per complex line of " + std::to_string(n_) + ": " +
         (line_ ? line_->describe() : std::string("identity")) + ")";
}

template <class T>
std::vector<ScheduleKey> DeviceTrigLines<T>::plan_time_keys(const LineBatch& lines) const {
  if (!line_ || lines.lines() == 0) return {};
  return line_->plan_time_keys(complex_lines(lines));
}

template <class T>
void DeviceTrigLines<T>::use_plan_time(std::shared_ptr<const PlanTimeSchedules> plan_time) {
  if (line_) line_->use_plan_time(std::move(plan_time));
}

template class DeviceTrigLines<float>;
template class DeviceTrigLines<double>;

}  // namespace oocfft::kernels::cuda
