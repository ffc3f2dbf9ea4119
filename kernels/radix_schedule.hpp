#pragma once
// The radix schedule of a Stockham transform of length n: the radices in pass
// order. One constexpr definition serves the host plans (stockham_radices in
// line_factorization.cpp, which builds LinePlan's passes) and the device
// kernels with a compile-time length (compiled_schedule_kernels.cuh), so the passes a
// plan uploads and the passes a compiled kernel runs cannot drift apart.
#if defined(__CUDACC_RTC__)
#include "kernels/cuda/nvrtc_std.hpp"  // NVRTC has no C++ library
#else
#include <cstddef>
#endif

namespace oocfft::kernels {

// More than any length a transform can have needs: 3^40 > 2^63 takes 20.
inline constexpr int max_schedule_passes = 24;

// The composite radices a schedule may merge a lone factor into. The
// butterflies of 14 and 15 hold 14-15 complex values and their internal
// products at once; in complex<double> at the 96-register bound of an
// odd-radix tile that spilled. Without them, more complex<double> lengths
// up to 4096 ran faster than slower (most of the slower won back by the
// crowded-tile rule of stockham_tile.hpp); past 4096 (one-tile lines to
// 10240, four-step lines beyond) the split was more often slower. So
// complex<double> device schedules stop at 10 for lengths up to 4096 and
// keep 14 and 15 beyond. The length is the one radix_schedule is given
// (after stockham_radices has taken out the direct primes; lines with
// those run the general kernel).
//
// The device schedules also pair factors where that was measured faster:
// two 5s as radix 25 (dft_composite, 5 x 5), and in complex64 a 3 and a 5
// as 15 ahead of two 3s as 9. A variant pairing them in every 7-smooth
// length to 16384 was measured against the schedules without; the rules
// keep them where they won:
// - device_complex64: up_to_fifteen, and 25 for 7-smooth lengths
//   4097..11999 and where the fives make three 25 passes (15625 = 25 25 25,
//   one tile). Up to 4096 the variant gained nothing and lost where tiles
//   spilled; from 12000 on most 25-schedules leave no one-tile shape, and
//   lengths 12000..16384 whose tile holds a single radix-25 pass take it
//   (twenty_five_measured in cuda/schedule_choice.hpp). Pairs of a 3 and a
//   5 as 15 ahead of pairs of 3s as 9 where that saves a pass, for lengths
//   2049..15360 outside the 25 range (nothing gained up to 2048; past 15360
//   no one-tile shape remains). In complex128 the same variant was slower.
// - device_complex128: up_to_ten_through_4096, and 25 for 7-smooth lengths
//   up to 8192 whose fives make two radix-25 passes. With one 25 pass the
//   variant's tiles spilled at ptxas's cap of 128 registers; past 8192 no
//   one-tile shape holds two. Lines 4097..10240 whose tile holds 25 values
//   take it for any pair of 5s (twenty_five_measured in
//   cuda/schedule_choice.hpp).
// Measured: bench/RESULTS.md, section Kernel tuning table (sm_90).
enum class CompositeRadices { up_to_fifteen, up_to_ten_through_4096, device_complex64, device_complex128 };

// The set without those pairings: for lines with a direct prime
// (stockham_radices in line_factorization.cpp), which run the general
// kernel, where they were not measured.
constexpr CompositeRadices without_pairings(CompositeRadices composites) {
  if (composites == CompositeRadices::device_complex64) return CompositeRadices::up_to_fifteen;
  if (composites == CompositeRadices::device_complex128) return CompositeRadices::up_to_ten_through_4096;
  return composites;
}

// The longest length that up_to_ten_through_4096 keeps from 14 and 15.
inline constexpr std::size_t narrow_composites_limit = 4096;

// The composites of a device transform of elements of the real type T: one
// rule for the device's line plans (DeviceLinePlan) and its compiled
// schedules, whose passes must match.
template <class T>
constexpr CompositeRadices device_composite_radices() {
  return sizeof(T) == 8 ? CompositeRadices::device_complex128 : CompositeRadices::device_complex64;
}

// The host executor keeps 14 and 15 in both precisions: there the split ran
// slower (complex128 lines on 2 cores, bench/RESULTS.md: 15 14-16 -> 22-24
// ms, 1050 39-42 -> 44-51 ms, 2625 46 -> 51-63 ms).
inline constexpr CompositeRadices host_composite_radices = CompositeRadices::up_to_fifteen;

// Pairings the device admits per length from the tile that would run them
// (device_radix_schedule in cuda/schedule_choice.hpp says why and where):
// a lone 3 left beside pairs of 3s joined to one of the 9s as radix 27
// (dft_composite, 3 x 9), and pairs of 5s as radix 25 beyond where
// `composites` takes them. The host takes neither.
struct TileCheckedPairings {
  bool lone_three_as_27 = false;
  bool fives_as_25 = false;
};

struct RadixSchedule {
  int count = 0;  // 0: n is 1, or has a prime factor above 13
  int radices[max_schedule_passes] = {};

  constexpr int span(int pass) const {
    int s = 1;
    for (int p = 0; p < pass; ++p) s *= radices[p];
    return s;
  }
};

// Powers of two first: as many 16s as possible (as many 8s beside odd
// factors, unless 16s cover the power exactly); a leftover single factor 2
// is merged into 8 x 4 (or 4 x 4), since a radix-2 pass costs a full trip
// through memory for little arithmetic. Then the odd primes 3, 5, 7, 11, 13:
// pairs of 3s as radix 9 (and of 5s as radix 25 where `composites` allows
// it), the rest one pass each. A lone 2 (n = 2 x odd) and a lone 3 join an
// odd neighbour in one composite pass where they can: 2 x 7 = 14, 3 x 5 =
// 15, 2 x 5 = 10, 2 x 3 = 6, in that order (14 and 15 only where
// `composites` allows them), and the 3 that is then still alone beside a 9
// as 27 where `pairings` says so. Empty (count 0) when n == 1 or a prime
// factor above 13 remains.
constexpr RadixSchedule radix_schedule(std::size_t n, CompositeRadices composites,
                                       TileCheckedPairings pairings = {}) {
  const std::size_t length = n;
  RadixSchedule s;
  if (n <= 1) return s;
  int twos = 0;
  while (n % 2 == 0) {
    n /= 2;
    ++twos;
  }
  auto push = [&s](int r) { s.radices[s.count++] = r; };
  auto count_of = [&n](int p) {
    int count = 0;
    while (n % static_cast<std::size_t>(p) == 0) {
      n /= static_cast<std::size_t>(p);
      ++count;
    }
    return count;
  };
  const bool odd_factors = n != 1;
  int threes = count_of(3), fives = count_of(5), sevens = count_of(7);
  const int elevens = count_of(11), thirteens = count_of(13);
  if (n != 1) return RadixSchedule{};
  // Every pass is a trip through shared memory (or global memory) and a
  // barrier; a lone 2 or 3 does little arithmetic per trip. Inside a
  // composite butterfly (dft_composite) it needs no pass of its own:
  // 1470 = 2 3 5 7 7 runs as 15 14 7, 3750 = 2 3 5^4 as 15 10 5 5 (measured
  // faster for a fifth of the complex<float> lengths up to 4096).
  const bool lone_two = twos == 1 && odd_factors;
  const bool narrow =
      composites == CompositeRadices::up_to_ten_through_4096 || composites == CompositeRadices::device_complex128;
  const bool wide = !narrow || length > narrow_composites_limit;
  const bool fourteen = wide && lone_two && sevens > 0;
  const bool fifteen = wide && threes % 2 == 1 && fives > 0;
  const bool ten = lone_two && !fourteen && fives > (fifteen ? 1 : 0);
  const bool six = lone_two && !fourteen && !ten && !fifteen && threes % 2 == 1;
  // Pairs of a 3 and a 5 as radix 15, ahead of pairs of 3s as 9, where
  // that takes fewer passes (3375 = 9 15 5 5 -> 15 15 15): complex64
  // 7-smooth lengths 2049..15360 outside the radix-25 range (CompositeRadices
  // says why), without a lone 2. Up to 15360 = 1024 x 15 a thread holds one
  // radix-15 butterfly; past it two exceed the value budget and no one-tile
  // shape remains (16200 = 8 9 15 15 ran four steps, slower).
  const bool seven_smooth = elevens == 0 && thirteens == 0;
  const bool twenty_five_range = length > 4096 && length < 12000;
  int fifteens = fifteen ? 1 : 0;  // the lone 3's, or the pairs
  if (composites == CompositeRadices::device_complex64 && seven_smooth && length > 2048 && length <= 15360 &&
      !twenty_five_range && !fourteen && !ten && !six) {
    const int pairs = threes < fives ? threes : fives;
    const int passes_now = fifteen ? (threes - 1) / 2 + fives : threes / 2 + threes % 2 + fives;
    const int passes_paired = pairs + (threes - pairs) / 2 + (threes - pairs) % 2 + (fives - pairs);
    if (passes_paired < passes_now) fifteens = pairs;
  }
  threes -= fifteens;
  fives -= fifteens;
  if (fourteen) --sevens;
  if (ten) --fives;
  if (six) --threes;
  if (fourteen || ten || six) twos = 0;
  // Pairs of 5s as radix 25 (CompositeRadices says where): 7-smooth lengths
  // only, the ones measured. In complex64 also where the fives make three
  // 25 passes (15625 = 25 25 25 instead of six radix-5 passes).
  const bool twenty_five =
      seven_smooth && (pairings.fives_as_25 ||
                       (composites == CompositeRadices::device_complex64 && (twenty_five_range || fives >= 6)) ||
                       (composites == CompositeRadices::device_complex128 && length <= 8192 && fives >= 4));
  // Beside odd radices, 8s rather than 16s unless the power of two is a
  // power of 16: a radix-16 pass needs 16 values per thread, and with the
  // odd butterflies' temporaries ptxas spilled 300-700 bytes per thread
  // (1344 = 16 4 3 7 ran several times slower than 8 8 3 7). Where 16s
  // cover the power exactly, splitting them cost a pass and measured slower
  // (432 = 16 9 3 against 4 4 9 3).
  const int log_largest = odd_factors && twos % 4 != 0 ? 3 : 4;  // 8s or 16s
  const int largest = 1 << log_largest;
  const int count = twos / log_largest;
  const int rest = twos % log_largest;
  if (rest == 1 && count > 0) {
    for (int i = 0; i < count - 1; ++i) push(largest);
    push(largest / 2);
    push(4);
  } else {
    for (int i = 0; i < count; ++i) push(largest);
    if (rest != 0) push(1 << rest);
  }
  // 3 x 3 goes in one composite pass (dft_composite): a pass is a trip
  // through memory, and two radix-3 passes do little arithmetic per trip.
  if (pairings.lone_three_as_27 && threes >= 3 && threes % 2 == 1) {
    push(27);
    threes -= 3;
  }
  for (; threes >= 2; threes -= 2) push(9);
  if (six) push(6);
  if (threes == 1) push(3);
  for (int i = 0; i < fifteens; ++i) push(15);
  if (ten) push(10);
  if (twenty_five)
    for (; fives >= 2; fives -= 2) push(25);
  for (; fives > 0; --fives) push(5);
  if (fourteen) push(14);
  for (; sevens > 0; --sevens) push(7);
  for (int i = 0; i < elevens; ++i) push(11);
  for (int i = 0; i < thirteens; ++i) push(13);
  return s;
}

}  // namespace oocfft::kernels
