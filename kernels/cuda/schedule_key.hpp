#pragma once
// ScheduleKey: which compiled schedule (compiled_schedule_kernels.cuh) a tile job
// needs: element type, line length, layout and use. The registry of the
// schedules compiled ahead of time answers it for the lengths of
// OOCFFT_KERNEL_SET, the plan-time compiler (NVRTC) for the others, and the
// on-disk cache of that compiler's cubins files its entries under it.
// Host-visible (no device code).
#include <string>

namespace oocfft::kernels::cuda {

// What a compiled schedule computes: a transform of its length; one of the
// four-step steps (A: strided lanes times the twiddle; B: contiguous lines
// stored with the lanes contiguous); Bluestein's whole convolution of that
// length M (chirp, forward, kernel spectrum, inverse, chirp) in one kernel;
// or the forward (split) or inverse (merge) real transform of rows of twice
// that length, or of pairs of rows of that (odd) length, the real ends
// folded into the tile (real_schedule_kernels.cuh).
enum class ScheduleUse {
  transform,
  four_step_twiddled,
  four_step_transposed,
  bluestein,
  real_split,
  real_merge,
  real_pairs_forward,
  real_pairs_inverse
};

// Which dimension of a tile is contiguous in memory: the points (x lines,
// batched 1D) or the lanes (y and z lines of a volume).
enum class ScheduleLayout { contiguous, strided };

enum class ElementType { complex_float, complex_double };

template <class T>
constexpr ElementType element_type_of() {
  return sizeof(T) == 4 ? ElementType::complex_float : ElementType::complex_double;
}

struct ScheduleKey {
  ElementType type = ElementType::complex_float;
  int length = 0;
  ScheduleLayout layout = ScheduleLayout::contiguous;
  ScheduleUse use = ScheduleUse::transform;

  friend bool operator==(const ScheduleKey& a, const ScheduleKey& b) {
    return a.type == b.type && a.length == b.length && a.layout == b.layout && a.use == b.use;
  }
  friend bool operator<(const ScheduleKey& a, const ScheduleKey& b) {
    if (a.type != b.type) return a.type < b.type;
    if (a.length != b.length) return a.length < b.length;
    if (a.layout != b.layout) return a.layout < b.layout;
    return a.use < b.use;
  }
};

const char* to_string(ScheduleUse use) noexcept;
const char* to_string(ScheduleLayout layout) noexcept;
const char* to_string(ElementType type) noexcept;

// "complex<float> n=143 contiguous transform": for plan reports and errors.
std::string describe(const ScheduleKey& key);

// The C++ name of the kernel that serves `key`, as NVRTC is asked to
// instantiate it: "oocfft::kernels::cuda::detail::schedule_kernel<float, 143,
// false, oocfft::kernels::cuda::ScheduleStore::plain>".
std::string kernel_name_expression(const ScheduleKey& key);

}  // namespace oocfft::kernels::cuda
