#include "kernels/cuda/device_real_rows.hpp"

#include <algorithm>
#include <complex>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/plan_time_schedules.hpp"
#include "kernels/cuda/real_rows_kernels.hpp"
#include "kernels/roots_of_unity.hpp"
#include "oocfft/error.hpp"

namespace oocfft::kernels::cuda {

namespace {

// The packed lines of an odd length start the workspace; the inner plan's
// own workspace follows at this alignment.
constexpr std::size_t workspace_alignment = 256;
std::size_t aligned(std::size_t bytes) {
  return (bytes + workspace_alignment - 1) / workspace_alignment * workspace_alignment;
}

// Rows the direct kernel runs whole (launch_real_rows_direct).
bool direct(std::size_t n) { return n <= static_cast<std::size_t>(real_rows_direct_max); }

// A row length and a direction (the entries of the measured lists below).
struct LengthAndDirection {
  std::size_t n;
  bool inverse;
};

template <std::size_t Count>
bool listed(const LengthAndDirection (&list)[Count], std::size_t n, bool inverse) {
  return std::any_of(std::begin(list), std::end(list),
                     [&](const LengthAndDirection& e) { return e.n == n && e.inverse == inverse; });
}

// A length and direction the fused kernel serves but the tile ran faster,
// by more than 5%, in a build that ran the fused kernel for every length it
// serves, both ways (one H200, bench/RESULTS.md, "Device kernels"). With
// its tile loaded by asynchronous copies (real_rows_staging.cuh) the fused
// kernel was the faster nearly everywhere else, by up to 26%.
constexpr LengthAndDirection tile_faster_float[] = {{45, false}, {49, false},  {98, false}, {108, false},
                                                    {108, true}, {128, false}, {128, true}};
constexpr LengthAndDirection tile_faster_double[] = {{28, true}, {32, false}};

template <class T>
bool tile_faster(std::size_t n, bool inverse) {
  return sizeof(T) == sizeof(float) ? listed(tile_faster_float, n, inverse) : listed(tile_faster_double, n, inverse);
}

// A length and direction the fused kernel serves whose error there was
// above 1.5x cuFFT's, and which runs two rows per complex line of n in the
// tile instead (listed in even_pairs_* too): double 18 inverse, error
// 1.51x cuFFT's fused, 1.39x in pairs, at 0.94x cuFFT's speed against
// 0.96x (one H200, two rounds; bench/RESULTS.md, "Device kernels"). The
// half-length tile with the merge gave 1.50x.
constexpr LengthAndDirection tile_more_accurate_double[] = {{18, true}};

template <class T>
bool tile_more_accurate(std::size_t n, bool inverse) {
  return sizeof(T) == sizeof(double) && listed(tile_more_accurate_double, n, inverse);
}

// Even lengths and directions that run as odd rows do, two rows per complex
// line of n in its tile (TilePost::real_pairs_*), not the half-length tile
// with the split or merge folded in: faster by more than 5% in two rounds
// (one H200, bench/RESULTS.md, "Device kernels"; double 100 also against
// the fused kernel). The pairs ran slower for the float powers of two
// 1024..4096 (by 3-9% both ways), 160 and 1728, and no faster for the
// float forward of 144. Double 18's inverse runs here for its error
// (tile_more_accurate).
constexpr LengthAndDirection even_pairs_float[] = {{144, true}, {200, false}, {200, true}};
constexpr LengthAndDirection even_pairs_double[] = {{18, true}, {100, false}, {100, true}, {144, false}, {144, true}};

template <class T>
bool even_pairs(std::size_t n, bool inverse) {
  return sizeof(T) == sizeof(float) ? listed(even_pairs_float, n, inverse) : listed(even_pairs_double, n, inverse);
}

template <class T>
bool even_pairs_somewhere(std::size_t n) {
  return even_pairs<T>(n, false) || even_pairs<T>(n, true);
}

// Rows the fused kernel runs whole in this direction (launch_real_rows_fused).
template <class T>
bool fused(std::size_t n, bool inverse) {
  if (direct(n) || !real_rows_fused_supported<T>(static_cast<std::int64_t>(n))) return false;
  return !tile_faster<T>(n, inverse) && !tile_more_accurate<T>(n, inverse);
}

// Rows the fused kernel runs in either direction: it takes any row
// alignment, the tile only rows that start on a complex value.
template <class T>
bool fused_somewhere(std::size_t n) {
  return !direct(n) && real_rows_fused_supported<T>(static_cast<std::int64_t>(n));
}

// Rows that run two to a complex line of n in this direction: odd n, and
// the even lengths of even_pairs.
template <class T>
bool row_pairs(std::size_t n, bool inverse) {
  return n % 2 == 1 || even_pairs<T>(n, inverse);
}

// The real ends folded into the FFT's tile (TilePost::real_*), by direction
// and path.
template <class T>
TilePost folded_ends(std::size_t n, bool inverse) {
  if (!row_pairs<T>(n, inverse)) return inverse ? TilePost::real_merge : TilePost::real_split;
  return inverse ? TilePost::real_pairs_inverse : TilePost::real_pairs_forward;
}

// Either: one kernel, a twiddle table of w_n^j for j < n, no inner plan.
template <class T>
bool one_kernel(std::size_t n, bool inverse) {
  return direct(n) || fused<T>(n, inverse);
}

// One kernel both ways: no inner plan and no workspace.
template <class T>
bool one_kernel_both_ways(std::size_t n) {
  return one_kernel<T>(n, false) && one_kernel<T>(n, true);
}

}  // namespace

template <class T>
DeviceRealRows<T>::DeviceRealRows(std::size_t n, const DeviceLimits& limits, TileKernels kernels) : n_(n) {
  if (n == 0) throw Error(ErrorKind::invalid_argument, "DeviceRealRows: length 0");
  const bool even = n % 2 == 0;
  const std::size_t inner = even ? n / 2 : n;
  // The inner plan's passes are those of the Stockham tile that folds the
  // real ends in (LineUse::real_ends); where a whole line of that length
  // runs the in-place tile, a whole-line plan's passes would match no
  // folding tile and the ends would run as separate kernels.
  if (inner > 1 && !one_kernel_both_ways<T>(n)) line_.emplace(inner, limits, kernels, LineUse::real_ends);
  // Even rows run in pairs only where the tile serves the batch; the
  // half-length plan stays for batches it does not (too few rows).
  if (even && even_pairs_somewhere<T>(n)) pairs_line_.emplace(n, limits, kernels, LineUse::real_ends);
  // w_n^k, exact in long double, cast down: k = 0..n/2 for the split,
  // k = 0..n-1 for the one-kernel paths (the split reads the same first
  // entries). The direct kernel takes them as an argument, from the host.
  const bool one_kernel_somewhere = direct(n) || fused_somewhere<T>(n);
  const std::size_t count = one_kernel_somewhere ? n : even ? n / 2 + 1 : 0;
  std::vector<Complex<T>> w(count);
  for (std::size_t k = 0; k < count; ++k) {
    const std::complex<long double> r = unit_root(k, n);
    w[k] = {static_cast<T>(r.real()), static_cast<T>(r.imag())};
  }
  if (direct(n)) {
    direct_roots_ = std::move(w);
  } else if (count != 0) {
    twiddles_ = DeviceBuffer(count * sizeof(Complex<T>), "real-row twiddles");
    check_cuda(cudaMemcpy(twiddles_.get(), w.data(), twiddles_.bytes(), cudaMemcpyHostToDevice),
               "cudaMemcpy (real-row twiddles)");
  }
}

template <class T>
void DeviceRealRows<T>::check_rows(std::size_t row_pitch) const {
  if (row_pitch % 2 != 0 || row_pitch < min_row_pitch())
    throw Error(ErrorKind::invalid_argument, "DeviceRealRows: row pitch " + std::to_string(row_pitch) +
                                                 " for length " + std::to_string(n_) + " (needs an even pitch of at least " +
                                                 std::to_string(min_row_pitch()) + " reals)");
}

template <class T>
LineBatch DeviceRealRows<T>::complex_lines(std::size_t rows, std::size_t row_pitch) const {
  if (n_ % 2 == 0) return {n_ / 2, 1, rows, static_cast<std::ptrdiff_t>(row_pitch / 2), 1, 0};
  // Odd: the packed pairs of rows, contiguous lines of n in the workspace.
  return {n_, 1, (rows + 1) / 2, static_cast<std::ptrdiff_t>(n_), 1, 0};
}

template <class T>
LineBatch DeviceRealRows<T>::folded_lines(std::size_t rows, std::size_t row_pitch, bool inverse) const {
  if (!row_pairs<T>(n_, inverse)) return complex_lines(rows, row_pitch);
  // Row pairs: the rows themselves, two to a lane (a lane's rows
  // row_pitch / 2 complex values apart, so lanes row_pitch complex values
  // apart).
  return {n_, 1, (rows + 1) / 2, static_cast<std::ptrdiff_t>(row_pitch), 1, 0};
}

template <class T>
const DeviceLinePlan<T>* DeviceRealRows<T>::folding_plan(bool inverse) const {
  if (n_ % 2 == 0 && even_pairs<T>(n_, inverse)) return &*pairs_line_;
  return line_ ? &*line_ : nullptr;
}

template <class T>
std::size_t DeviceRealRows<T>::workspace_bytes(std::size_t rows, std::size_t row_pitch) const {
  const LineBatch lines = complex_lines(rows, row_pitch);
  if (one_kernel_both_ways<T>(n_)) return 0;
  const std::size_t inner = line_ ? line_->workspace_bytes(lines) : 0;
  if (n_ % 2 == 0) return inner;
  return aligned(lines.lines() * n_ * sizeof(Complex<T>)) + inner;
}

template <class T>
std::size_t DeviceRealRows<T>::table_bytes() const {
  return twiddles_.bytes() + (line_ ? line_->table_bytes() : 0) + (pairs_line_ ? pairs_line_->table_bytes() : 0);
}

template <class T>
void DeviceRealRows<T>::execute(T* data, std::size_t rows, std::size_t row_pitch, void* workspace, bool inverse,
                                T scale, cudaStream_t stream) const {
  check_rows(row_pitch);
  if (rows == 0) return;
  if (data == nullptr) throw Error(ErrorKind::invalid_argument, "DeviceRealRows: null data pointer");
  const LineBatch lines = complex_lines(rows, row_pitch);
  const auto count = static_cast<std::int64_t>(rows);
  if (direct(n_)) {
    launch_real_rows_direct(data, count, static_cast<std::int64_t>(row_pitch), static_cast<std::int64_t>(n_),
                            direct_roots_.data(), inverse, scale, stream);
    return;
  }
  // The tile kernels move whole complex values: rows that do not start on
  // one take the fused kernel where it serves the length.
  const bool complex_aligned = reinterpret_cast<std::uintptr_t>(data) % (2 * sizeof(T)) == 0;
  if (fused<T>(n_, inverse) || (!complex_aligned && fused_somewhere<T>(n_))) {
    launch_real_rows_fused(data, count, static_cast<std::int64_t>(row_pitch), static_cast<std::int64_t>(n_),
                           twiddles_.as<const Complex<T>>(), inverse, scale, stream);
    return;
  }
  // Past the fused kernel every path moves whole complex values.
  if (!complex_aligned)
    throw Error(ErrorKind::invalid_argument, "DeviceRealRows: rows of length " + std::to_string(n_) +
                                                 " must start on a complex value (" +
                                                 std::to_string(2 * sizeof(T)) + "-byte alignment)");
  // The split or merge (even n), or the packing of row pairs (odd n and
  // the even lengths of even_pairs), folded into the FFT's tile where a
  // plan-time schedule serves this batch: one trip through memory instead
  // of two or three.
  const DeviceLinePlan<T>* folding = folding_plan(inverse);
  const bool pairs = row_pairs<T>(n_, inverse);
  if (folding &&
      folding->execute_real_ends(reinterpret_cast<Complex<T>*>(data), folded_lines(rows, row_pitch, inverse),
                                 folded_ends<T>(n_, inverse),
                                 !pairs && twiddles_.bytes() != 0 ? twiddles_.as<const Complex<T>>() : nullptr, count,
                                 scale, stream))
    return;
  if (n_ % 2 == 0) {
    auto* z = reinterpret_cast<Complex<T>*>(data);
    const auto pitch = static_cast<std::int64_t>(row_pitch / 2);
    const auto m = static_cast<std::int64_t>(n_ / 2);
    const auto* w = twiddles_.as<const Complex<T>>();
    if (!inverse) {
      if (line_) line_->execute(z, lines, workspace, false, T(1), stream);
      launch_real_split(z, count, pitch, m, w, scale, stream);
    } else {
      launch_real_merge(z, count, pitch, m, w, scale, stream);
      if (line_) line_->execute(z, lines, workspace, true, T(1), stream);
    }
    return;
  }
  if (workspace == nullptr) throw Error(ErrorKind::invalid_argument, "DeviceRealRows: odd length needs a workspace");
  auto* packed = static_cast<Complex<T>*>(workspace);
  void* inner = static_cast<char*>(workspace) + aligned(lines.lines() * n_ * sizeof(Complex<T>));
  const auto n = static_cast<std::int64_t>(n_);
  const auto pitch = static_cast<std::int64_t>(row_pitch);
  if (!inverse) {
    launch_real_pack_pairs(data, count, pitch, n, packed, stream);
    if (line_) line_->execute(packed, lines, inner, false, T(1), stream);
    launch_real_unpack_spectra(packed, n, reinterpret_cast<Complex<T>*>(data), count, pitch / 2, scale, stream);
  } else {
    launch_real_pack_spectra(reinterpret_cast<const Complex<T>*>(data), count, pitch / 2, n, packed, stream);
    if (line_) line_->execute(packed, lines, inner, true, T(1), stream);
    launch_real_unpack_pairs(packed, n, data, count, pitch, scale, stream);
  }
}

template <class T>
std::string DeviceRealRows<T>::describe() const {
  std::string d = "real " + std::to_string(n_) + " -> " + std::to_string(spectrum_length());
  if (direct(n_)) return d + " (direct DFT in one kernel, rows staged in shared memory)";
  const std::string fused_text =
      n_ % 2 == 0 ? "fused in one kernel: half-length FFT and split in registers, rows staged in shared memory"
                  : "fused in one kernel: complex FFT in registers, rows staged in shared memory";
  if (one_kernel_both_ways<T>(n_)) return d + " (" + fused_text + ")";
  const std::string inner = line_ ? line_->describe() : std::string("identity");
  const std::string half = "half-length complex " + std::to_string(n_ / 2) + ": " + inner;
  const auto path = [&](bool inverse) -> std::string {
    if (fused<T>(n_, inverse)) return fused_text;
    if (n_ % 2 == 0 && !even_pairs<T>(n_, inverse))
      return half + "; split folded into its tile where a plan-time schedule serves the batch, else split in place";
    const std::string pairs = "two rows per complex line of " + std::to_string(n_) + ": ";
    if (n_ % 2 == 0)
      return pairs + pairs_line_->describe() + "; packed and unpacked in its tile where a plan-time schedule " +
             "serves the batch, else the " + half + " and the split in place";
    return pairs + inner +
           "; packed and unpacked in its tile where a plan-time schedule serves the batch, else in separate kernels";
  };
  const std::string forward = path(false), backward = path(true);
  if (forward == backward) return d + " (" + forward + ")";
  return d + " (forward: " + forward + "; inverse: " + backward + ")";
}

template <class T>
std::vector<ScheduleKey> DeviceRealRows<T>::plan_time_keys(std::size_t rows, std::size_t row_pitch) const {
  if (!line_ || rows == 0) return {};
  std::vector<ScheduleKey> keys = line_->plan_time_keys(complex_lines(rows, row_pitch));
  for (const bool inverse : {false, true}) {
    if (one_kernel<T>(n_, inverse)) continue;
    for (const ScheduleKey& key : folding_plan(inverse)->real_ends_keys(folded_lines(rows, row_pitch, inverse),
                                                                        {folded_ends<T>(n_, inverse)}))
      keys.push_back(key);
  }
  return keys;
}

template <class T>
TileKernel DeviceRealRows<T>::ends_kernel(std::size_t rows, std::size_t row_pitch, bool inverse) const {
  if (!line_ || rows == 0 || one_kernel<T>(n_, inverse)) return TileKernel::general;
  return folding_plan(inverse)->real_ends_kernel(folded_lines(rows, row_pitch, inverse), folded_ends<T>(n_, inverse));
}

template <class T>
bool DeviceRealRows<T>::short_row_kernel(bool inverse) const {
  return one_kernel<T>(n_, inverse);
}

template <class T>
void DeviceRealRows<T>::use_plan_time(std::shared_ptr<const PlanTimeSchedules> plan_time) {
  if (pairs_line_) pairs_line_->use_plan_time(plan_time);
  if (line_) line_->use_plan_time(std::move(plan_time));
}

template class DeviceRealRows<float>;
template class DeviceRealRows<double>;

}  // namespace oocfft::kernels::cuda
