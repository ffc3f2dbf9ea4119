#pragma once
// Real-to-complex and complex-to-real transforms of real rows on the host,
// in FFTW's padded in-place layout (numpy's rfft/irfft along a row): the x
// stage of a real volume (volume_transform.hpp). Both ways reuse the complex
// line plan and the host executor:
//   even n  the row, read as n/2 complex values z[j] = x[2j] + i x[2j+1],
//           takes a complex transform of length n/2; a split with the
//           twiddles w_n^k turns it into the half spectrum (and a merge
//           undoes it before the inverse).
//   odd n   two rows become one complex line z = a + i b of length n, and
//           the two half spectra are read off Z's Hermitian and
//           anti-Hermitian parts ("two for one").
// The plan is built once and immutable; the executor runs in the caller's
// TBB arena, as execute_lines_host does.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "kernels/complex.hpp"
#include "kernels/line_plan.hpp"

namespace oocfft::kernels {

template <class T>
class RealLinePlan {
 public:
  // Real length n >= 1; throws Error(invalid_argument) for 0.
  explicit RealLinePlan(std::size_t n);

  std::size_t length() const { return n_; }
  // n/2 + 1 complex values of the half spectrum.
  std::size_t half_length() const { return n_ / 2 + 1; }
  // Which path and the complex plan it runs, e.g.
  // "real 1000: half-length complex 500 (4x5x5x5) + split twiddle".
  std::string summary() const;

  // Whether n is even (the half-length path).
  bool half_length_path() const { return n_ % 2 == 0; }
  // The complex plan: length n/2 for even n, n for odd n.
  const LinePlan<T>& complex_plan() const { return *complex_; }
  // Even n: w_n^k = exp(-2 pi i k / n), k = 0..n/2, exact (roots_of_unity);
  // empty for odd n.
  const std::vector<Complex<T>>& split_twiddles() const { return split_; }

 private:
  std::size_t n_;
  std::shared_ptr<const LinePlan<T>> complex_;
  std::vector<Complex<T>> split_;
};

// Rows of real values in FFTW's padded in-place layout: row r starts at
// data + r * row_pitch (units of T), row_pitch >= 2 * (n/2 + 1) and even.
// forward: reads the n reals of each row and writes the n/2 + 1 complex
// values (interleaved re, im) over the same row, times `scale`.
// inverse: reads the n/2 + 1 complex values, ignores Im X[0] and, for even
// n, Im X[n/2] (as numpy's irfft does), and writes the n reals of the
// Hermitian inverse (sign +, no 1/n: `scale` carries the normalisation).
// Reals of a row past n may be overwritten; nothing past 2 * (n/2 + 1) is.
// Throws Error(invalid_argument) for a row_pitch that is odd or too small.
template <class T>
void execute_real_rows_host(const RealLinePlan<T>& plan, T* data, std::size_t rows, std::size_t row_pitch, bool inverse,
                            T scale);

extern template class RealLinePlan<float>;
extern template class RealLinePlan<double>;
extern template void execute_real_rows_host<float>(const RealLinePlan<float>&, float*, std::size_t, std::size_t, bool,
                                                   float);
extern template void execute_real_rows_host<double>(const RealLinePlan<double>&, double*, std::size_t, std::size_t,
                                                    bool, double);

}  // namespace oocfft::kernels
