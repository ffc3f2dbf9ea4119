#pragma once
// The element-wise line transposes of the 2023 line-transpose method
// (J. Lee and D. Kim, "Large-scale 3D fast Fourier transform computation on
// a GPU", ETRI Journal 45(6), 2023): the Y (or Z) lines of a chunk are
// gathered element by element into a contiguous [line][point] buffer, so the
// device transforms contiguous lines, and scattered back the same way after.
// Kept faithful, strided element loads and all, as the baseline the run-based
// copies are measured against (docs/ARCHITECTURE.md: 3.3 GB/s for a z-line gather).
// The paper's own equations for chunking and index mapping (its eqs. 3-6)
// were not at hand when this was written; the transposes follow its
// published description (gather each line element by element into a
// contiguous chunk, transform contiguous lines, transpose back) and the
// chunk bound C_d <= DevMem / (k V_d N_stream), k = 3, is applied in
// engine/planning/pass_planner.cpp.
// The chunk is a box; its lines are ordered z-major then x for Y lines
// (BrickLayout::y_lines) and y-major then x for Z lines (z_lines).
#include <cstddef>

#include "core/geometry.hpp"

namespace oocfft::transpose {

void gather_lines(const std::byte* volume, const Shape& volume_shape, std::size_t element_bytes, const Box& box,
                  BrickLayout layout, std::byte* staging);
void scatter_lines(std::byte* volume, const Shape& volume_shape, std::size_t element_bytes, const Box& box,
                   BrickLayout layout, const std::byte* staging);

}  // namespace oocfft::transpose
