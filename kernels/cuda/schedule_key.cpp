#include "kernels/cuda/schedule_key.hpp"

namespace oocfft::kernels::cuda {

const char* to_string(ScheduleUse use) noexcept {
  switch (use) {
    case ScheduleUse::transform: return "transform";
    case ScheduleUse::four_step_twiddled: return "four-step step A (twiddled)";
    case ScheduleUse::four_step_transposed: return "four-step step B (transposed)";
    case ScheduleUse::bluestein: return "Bluestein convolution";
    case ScheduleUse::real_split: return "real forward (split folded in)";
    case ScheduleUse::real_merge: return "real inverse (merge folded in)";
    case ScheduleUse::real_pairs_forward: return "real forward (row pairs packed and unpacked in)";
    case ScheduleUse::real_pairs_inverse: return "real inverse (row pairs packed and unpacked in)";
  }
  return "?";
}

const char* to_string(ScheduleLayout layout) noexcept {
  return layout == ScheduleLayout::strided ? "strided" : "contiguous";
}

const char* to_string(ElementType type) noexcept {
  return type == ElementType::complex_double ? "complex<double>" : "complex<float>";
}

std::string describe(const ScheduleKey& key) {
  return std::string(to_string(key.type)) + " n=" + std::to_string(key.length) + " " + to_string(key.layout) + " " +
         to_string(key.use);
}

std::string kernel_name_expression(const ScheduleKey& key) {
  const std::string ns = "oocfft::kernels::cuda::";
  const std::string type = key.type == ElementType::complex_double ? "double" : "float";
  const std::string lanes_fast = key.layout == ScheduleLayout::strided ? "true" : "false";
  const std::string args = type + ", " + std::to_string(key.length) + ", " + lanes_fast;
  switch (key.use) {
    case ScheduleUse::transform: return ns + "detail::schedule_kernel<" + args + ", " + ns + "ScheduleStore::plain>";
    case ScheduleUse::four_step_twiddled:
      return ns + "detail::schedule_kernel<" + args + ", " + ns + "ScheduleStore::twiddled>";
    case ScheduleUse::four_step_transposed:
      return ns + "detail::schedule_kernel<" + args + ", " + ns + "ScheduleStore::transposed>";
    case ScheduleUse::bluestein: return ns + "detail::bluestein_schedule_kernel<" + args + ">";
    case ScheduleUse::real_split:
      return ns + "detail::real_schedule_kernel<" + type + ", " + std::to_string(key.length) + ", false>";
    case ScheduleUse::real_merge:
      return ns + "detail::real_schedule_kernel<" + type + ", " + std::to_string(key.length) + ", true>";
    case ScheduleUse::real_pairs_forward:
      return ns + "detail::real_pairs_kernel<" + type + ", " + std::to_string(key.length) + ", false>";
    case ScheduleUse::real_pairs_inverse:
      return ns + "detail::real_pairs_kernel<" + type + ", " + std::to_string(key.length) + ", true>";
  }
  return {};
}

}  // namespace oocfft::kernels::cuda
