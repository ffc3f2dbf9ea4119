#pragma once
// The tuning table of sm_90: the lines whose tile differs from the rules'
// because it ran faster so on an sm_90 device (the table that tuning.hpp
// reads). One line per entry: the rule it overrides, the line, its type,
// what it runs instead, and why. The sweeps that found them, with their
// timings, are in bench/RESULTS.md, section Kernel tuning table (sm_90).
// An entry changes a plan only where its line is asked for; a line not
// listed runs what the rules give it.
#include "kernels/cuda/tuning_entry.hpp"

namespace oocfft::kernels::cuda::sm90 {

// Short names for the entries below.
inline constexpr TunedType c64 = TunedType::complex64;
inline constexpr TunedType c128 = TunedType::complex128;
inline constexpr Tuned keeps_skew = Tuned::skewed_one_line_tile;
inline constexpr Tuned two_blocks = Tuned::two_in_place_blocks;
inline constexpr Tuned cluster = Tuned::cluster_tile;
inline constexpr Tuned four_steps = Tuned::four_steps;

// One entry a line, however long: clang-format would split them.
// clang-format off
inline constexpr TuningEntry tuning_table[] = {
    // One-line tiles of lengths not divided by 4 run unskewed (tile_skew_shift) but these, slower unskewed.
    tuned_line(keeps_skew, 18225, c64, "9 5 | 9 5 | 9 in 405 threads: slower unskewed"),
    tuned_line(keeps_skew, 19845, c64, "7 7 | 9 5 | 9 in 441 threads: slower unskewed"),
    tuned_line(keeps_skew, 8575, c128, "7 | 7 5 | 7 5 in 245 threads: slower unskewed"),

    // Schedules whose Stockham tile ran faster than the rules' (radix_schedule, paired_radix_schedule); radices in pass order.
    stockham_radices(864, c64, {16, 6, 9}, "the rule's 8 4 9 3 (four passes, 224 threads of 18 values at 96 registers) ran at 0.70 of a device copy, 16 6 9 at 0.88"),
    stockham_radices(81, c64, {27, 3}, "the rule's 9 9 (288 threads of 9 values) left the float row-pairs inverse of 81 waiting on its copy-in; 96 threads of 27 values ran it, complex 81 and the inverse of 162 faster"),

    // The ragged search's block size (ragged_tile), fixed where another ran faster without spilling.
    ragged_threads(19683, c64, 729, "27 27 27 in 729 threads at 80 registers, no spill: faster than the search's tile and the cluster tile"),

    // Tiles ptxas spills, which the register model cannot foresee: the next choice runs (tile_spills).
    spilled_tile(5760, c64, TileSearch::second_ragged, "spills 508 bytes: the paired schedule ran faster"),
    spilled_tile(8064, c64, TileSearch::first_ragged, "14 4 | 9 2 | 8 in 150 threads spills 340 bytes: the second search's tile ran faster"),
    spilled_tile(10125, c64, TileSearch::uniform, "225 threads of 45 values spill 112 bytes: the second search's 254 threads ran faster"),
    spilled_tile(10125, c64, TileSearch::first_ragged, "the uniform tile's shape, spilling 112 bytes: the second search's tile ran faster"),
    spilled_tile(10935, c64, TileSearch::uniform, "15 9 9 9 in 243 threads spills 172 bytes: the first ragged tile ran faster"),
    spilled_tile(17010, c64, TileSearch::first_ragged, "spills 400 bytes: the second search's tile ran faster"),

    // In-place tiles whose blocks, radices or block sizes differ from the rules' (measured_in_place_shape);
    // radices in decimation order, the first stage's first; then resident blocks per SM and threads (0: the rules').
    in_place_schedule(11664, c128, 2, {16, 9, 9, 9}, 0, 0, "the rule's 16 27 27 spills 36 bytes and ran slower"),
    in_place_schedule(10976, c128, 2, {14, 14, 8, 7}, 0, 0, "faster than the rule's 16 14 7 7 and 16 7 7 14"),
    in_place_schedule(14400, c128, 4, {16, 10, 10, 9}, 0, 0, "four blocks faster than four steps"),
    in_place_schedule(10240, c128, 4, {16, 16, 10, 4}, 0, 0, "four blocks faster than its Stockham tile"),
    in_place_schedule(11250, c128, 3, {15, 10, 15, 5}, 0, 0, "three blocks faster than the rule's cluster"),
    in_place_schedule(10584, c128, 2, {14, 6, 9, 14}, 0, 0, "faster than the rule's radices"),
    in_place_schedule(5400, c128, 2, {10, 10, 6, 9}, 0, 0, "two blocks faster than its Stockham tile"),
    in_place_schedule(26244, c64, 3, {27, 27, 9, 4}, 0, 128, "three blocks faster than the rule's 4 27 27 9 in two; 128 threads idle fewer radix-27 groups"),
    in_place_schedule(2187, c64, 1, {9, 9, 9, 3}, 4, 256, "one block per line, four per SM: faster than its Stockham tile"),
    in_place_schedule(5625, c64, 1, {15, 15, 25}, 4, 128, "one block per line, four per SM: faster than its Stockham tile 9 25 25"),
    in_place_schedule(10206, c64, 1, {14, 27, 27}, 2, 256, "one block per line, two per SM: faster than the cluster tile and 384 threads"),
    in_place_schedule(8750, c128, 2, {14, 25, 25}, 0, 128, "two blocks of 128 threads, three per SM: faster than its Stockham tile and 160 threads"),

    // Lines a Stockham tile holds that run two in-place blocks of 256 threads per SM (contiguous_shape):
    // faster by more than 5% in both rounds of a sweep of every line 4097..16384 whose buffer fits twice.
    tuned_line(two_blocks, 9072, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 9375, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 10000, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 10080, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 10800, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 10935, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 10976, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 11200, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 11340, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 11664, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 11760, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 11907, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 12250, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 13125, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 13608, c64, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 6174, c128, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 6300, c128, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 6615, c128, "two in-place blocks faster than its Stockham tile"),
    tuned_line(two_blocks, 6804, c128, "two in-place blocks faster than its Stockham tile"),

    // Lines a Stockham tile holds that run the cluster tile (contiguous_shape): faster by more than 5% in
    // both rounds of a sweep of every line 4097..28125 whose tile held one block per SM, or run one
    // in-place block before and no slower in the cluster.
    tuned_line(cluster, 14336, c64, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 15120, c64, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 15360, c64, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 15876, c64, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 17640, c64, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 17920, c64, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 18144, c64, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 20160, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 20480, c64, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 20580, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 20736, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 21000, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 21504, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 21600, c64, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 21609, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 22050, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 22400, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 22680, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 23040, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 23520, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 24000, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 24010, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 24192, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 24500, c64, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 24576, c64, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 4900, c128, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 5250, c128, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 6000, c128, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 7000, c128, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 7500, c128, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 8400, c128, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 8820, c128, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 8960, c128, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 9375, c128, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 10080, c128, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 10125, c128, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 10935, c128, "the cluster tile faster than its Stockham tile"),
    tuned_line(cluster, 10976, c128, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 11025, c128, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 11200, c128, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 11340, c128, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 11907, c128, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 12000, c128, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 12096, c128, "one in-place block before; no slower in the cluster"),
    tuned_line(cluster, 12800, c128, "the cluster tile faster than its Stockham tile"),

    // Lines no Stockham tile holds that keep four steps where the cluster tile ran slower (contiguous_shape).
    tuned_line(four_steps, 21875, c128, "the cluster tile slower than four steps"),
    tuned_line(four_steps, 23040, c128, "the cluster tile slower than four steps"),
    tuned_line(four_steps, 25515, c128, "the cluster tile slower than four steps in three rounds"),
    tuned_line(four_steps, 27648, c128, "the cluster tile slower than four steps"),
    tuned_line(four_steps, 28672, c128, "the cluster tile slower than four steps"),
};
// clang-format on

}  // namespace oocfft::kernels::cuda::sm90
