#pragma once
// The few names of the C++ standard library that the compiled-schedule
// headers use, for NVRTC, which compiles them at plan time
// (plan_time_compiler.cpp) and ships no C++ library. Included only under
// __CUDACC_RTC__, in place of <cstddef>, <cstdint> and <utility>; nvcc and
// the host compilers take the real headers. The definitions match the
// LP64 targets the CUDA backend builds for (sizes checked below), so a
// TileJob has the same layout on both sides of a plan-time launch.
#if !defined(__CUDACC_RTC__)
#error "nvrtc_std.hpp is for NVRTC only: include the standard headers instead"
#endif

namespace std {

using size_t = decltype(sizeof(0));
using ptrdiff_t = decltype(static_cast<char*>(nullptr) - static_cast<char*>(nullptr));
using int32_t = int;
using uint32_t = unsigned int;
using int64_t = long long;
using uint64_t = unsigned long long;

template <class T, T... I>
struct integer_sequence {
  static constexpr size_t size() noexcept { return sizeof...(I); }
};

namespace nvrtc_detail {
// 0, 1, ..., N-1 by prepending one at a time: the schedules have at most
// max_schedule_passes (24) passes, so the recursion stays shallow. The count
// is a size_t, not a T, so that the partial specialisation's non-type
// argument does not depend on a template parameter.
template <class T, size_t N, T... I>
struct make_sequence {
  using type = typename make_sequence<T, N - 1, static_cast<T>(N - 1), I...>::type;
};
template <class T, T... I>
struct make_sequence<T, 0, I...> {
  using type = integer_sequence<T, I...>;
};
}  // namespace nvrtc_detail

template <class T, T N>
using make_integer_sequence = typename nvrtc_detail::make_sequence<T, static_cast<size_t>(N)>::type;

}  // namespace std

static_assert(sizeof(std::int64_t) == 8 && sizeof(std::uint64_t) == 8 && sizeof(std::uint32_t) == 4 &&
                  sizeof(std::size_t) == 8 && sizeof(void*) == 8,
              "the NVRTC definitions assume an LP64 target");
