#pragma once
// DCT and DST of types 2 and 3 of real lines on the host, as scipy.fft's
// dct/dst (norm "backward" or "ortho"), by Makhoul's mapping onto a complex
// FFT of the same length (J. Makhoul, "A fast cosine transform in one and
// two dimensions", IEEE TASSP 28(1), 1980): the even points in order, then
// the odd ones reversed, one complex transform, and a quarter-wave twiddle
// w_4N^k. Two real lines share one complex line (z = a + i b), so a batch
// of L lines takes L/2 complex transforms. The sine transforms are the
// cosine ones with the signs of alternate points flipped and the line
// reversed. The plan is built once and immutable; the executor runs in the
// caller's TBB arena, as execute_lines_host does.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "kernels/complex.hpp"
#include "kernels/line_batch.hpp"
#include "kernels/line_plan.hpp"
#include "kernels/volume_transform.hpp"

namespace oocfft::kernels {

// "dct2", "dct3", "dst2", "dst3", for plan reports.
const char* to_string(TrigKind kind) noexcept;

template <class T>
class TrigLinePlan {
 public:
  // Length n >= 1; throws Error(invalid_argument) for 0.
  TrigLinePlan(std::size_t n, TrigKind kind, TrigNorm norm);

  std::size_t length() const { return n_; }
  TrigKind kind() const { return kind_; }
  TrigNorm norm() const { return norm_; }
  // e.g. "dct2 1000 (norm backward): complex 1000 (8x5x5x5), two lines per
  // complex line + quarter-wave twiddle"
  std::string summary() const;

  const LinePlan<T>& complex_plan() const { return *complex_; }
  // w_4N^k = exp(-pi i k / (2N)), k < N, exact (roots_of_unity).
  const std::vector<Complex<T>>& quarter_wave_twiddles() const { return twiddles_; }

 private:
  std::size_t n_;
  TrigKind kind_;
  TrigNorm norm_;
  std::shared_ptr<const LinePlan<T>> complex_;
  std::vector<Complex<T>> twiddles_;
};

// Every line of `batch` (a LineBatch in units of T over real data) is
// transformed in place as scipy.fft.dct/dst(x, type=2|3, norm=...) with
// norm "backward" for TrigNorm::none and "ortho" (orthogonalize=True) for
// TrigNorm::ortho, then multiplied by `scale` (the caller's uniform factor,
// e.g. 1/(2N) for norm "forward"). plan.length() must equal batch.length.
template <class T>
void execute_trig_lines_host(const TrigLinePlan<T>& plan, T* data, const LineBatch& batch, T scale);

extern template class TrigLinePlan<float>;
extern template class TrigLinePlan<double>;
extern template void execute_trig_lines_host<float>(const TrigLinePlan<float>&, float*, const LineBatch&, float);
extern template void execute_trig_lines_host<double>(const TrigLinePlan<double>&, double*, const LineBatch&, double);

}  // namespace oocfft::kernels
