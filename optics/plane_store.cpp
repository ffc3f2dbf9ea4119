#include "optics/plane_store.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "oocfft/error.hpp"

namespace oocfft::optics {

template <class T>
PlaneStore<T>::PlaneStore(const PaddedGrid& grid, std::size_t planes, unsigned passes, Source source, Sink sink,
                          std::span<C> scratch)
    : grid_(grid), planes_(planes), passes_(passes), source_(source), sink_(sink), scratch_(scratch) {
  if (passes > 1 && scratch.size() < planes * grid.padded_elements())
    throw std::logic_error("asm: a scratch of " + std::to_string(scratch.size()) + " elements for " +
                           std::to_string(planes) + " padded planes of " +
                           std::to_string(grid.padded_elements()));
}

template <class T>
typename PlaneStore<T>::Row PlaneStore<T>::row_of(C* base, PlaneForm form, std::size_t z, std::size_t y) const {
  if (form == PlaneForm::padded) return {base + (z * grid_.padded_ny() + y) * grid_.padded_nx(), 0, grid_.padded_nx()};
  if (y < grid_.offset_y() || y >= grid_.offset_y() + grid_.ny) return {};
  return {base + (z * grid_.ny + y - grid_.offset_y()) * grid_.nx, grid_.offset_x(), grid_.nx};
}

template <class T>
Box PlaneStore<T>::field_part(const Box& box) const {
  const Shape& e = box.extent;
  const std::size_t y0 = std::clamp(box.y0, grid_.offset_y(), grid_.offset_y() + grid_.ny);
  const std::size_t y1 = std::clamp(box.y0 + e.ny, grid_.offset_y(), grid_.offset_y() + grid_.ny);
  const std::size_t x0 = std::clamp(box.x0, grid_.offset_x(), grid_.offset_x() + grid_.nx);
  const std::size_t x1 = std::clamp(box.x0 + e.nx, grid_.offset_x(), grid_.offset_x() + grid_.nx);
  if (y0 >= y1 || x0 >= x1) return {box.z0, box.y0, box.x0, {0, 0, 0}};
  return {box.z0, y0, x0, {e.nz, y1 - y0, x1 - x0}};
}

template <class T>
Box PlaneStore<T>::read_part(const Box& box) const {
  return pass_ == 0 && source_.form == PlaneForm::field ? field_part(box) : box;
}

template <class T>
Box PlaneStore<T>::write_part(const Box& box) const {
  const bool last = pass_ + 1 == passes_;
  return last && (sink_.store != nullptr || sink_.form == PlaneForm::field) ? field_part(box) : box;
}

template <class T>
void PlaneStore<T>::read(const Box& box, BrickLayout layout, std::byte* staging) const {
  if (layout != BrickLayout::natural) throw std::logic_error("asm: planes are read in natural layout only");
  const bool first = pass_ == 0;
  if (first && source_.store != nullptr) return read_from_store(box, reinterpret_cast<C*>(staging));
  C* base = first ? const_cast<C*>(source_.data) : scratch_.data();
  const PlaneForm form = first ? source_.form : PlaneForm::padded;
  const Shape& e = box.extent;
  C* out = reinterpret_cast<C*>(staging);
  tbb::parallel_for(std::size_t{0}, e.nz * e.ny, [&](std::size_t r) {
    const std::size_t z = box.z0 + r / e.ny, y = box.y0 + r % e.ny;
    const Row row = row_of(base, form, first && source_.repeated ? 0 : z, y);
    C* dst = out + r * e.nx;
    // The brick's columns [x0, x0 + nx) against the row's [row.x0, row.x0 + row.nx).
    const std::size_t lo = std::clamp(row.x0, box.x0, box.x0 + e.nx);
    const std::size_t hi = std::clamp(row.x0 + row.nx, box.x0, box.x0 + e.nx);
    if (row.data == nullptr || lo >= hi) {
      std::fill(dst, dst + e.nx, C{});
      return;
    }
    std::fill(dst, dst + (lo - box.x0), C{});
    std::copy(row.data + (lo - row.x0), row.data + (hi - row.x0), dst + (lo - box.x0));
    std::fill(dst + (hi - box.x0), dst + e.nx, C{});
  });
}

template <class T>
void PlaneStore<T>::write(const Box& box, BrickLayout layout, const std::byte* staging) {
  if (layout != BrickLayout::natural) throw std::logic_error("asm: planes are written in natural layout only");
  const bool last = pass_ + 1 == passes_;
  if (last && sink_.store != nullptr) return write_to_store(box, reinterpret_cast<const C*>(staging));
  C* base = last ? sink_.data : scratch_.data();
  const PlaneForm form = last ? sink_.form : PlaneForm::padded;
  const bool accumulate = last && sink_.write == PlaneWrite::accumulate;
  const Shape& e = box.extent;
  const C* in = reinterpret_cast<const C*>(staging);
  tbb::parallel_for(std::size_t{0}, e.nz * e.ny, [&](std::size_t r) {
    const std::size_t z = box.z0 + r / e.ny, y = box.y0 + r % e.ny;
    const Row row = row_of(base, form, accumulate ? 0 : z, y);
    const std::size_t lo = std::clamp(row.x0, box.x0, box.x0 + e.nx);
    const std::size_t hi = std::clamp(row.x0 + row.nx, box.x0, box.x0 + e.nx);
    if (row.data == nullptr || lo >= hi) return;
    const C* src = in + r * e.nx + (lo - box.x0);
    C* dst = row.data + (lo - row.x0);
    if (accumulate) {
      // Streams add planes into the same rows: one lock per row, held
      // for the additions alone. (A lock held across a parallel_for can
      // deadlock: the waiting thread may run another stream's task that
      // wants the same lock.)
      std::lock_guard<std::mutex> lock(row_locks_[y % row_locks_.size()]);
      for (std::size_t i = 0; i < hi - lo; ++i) dst[i] += src[i];
    } else {
      std::copy(src, src + (hi - lo), dst);
    }
  });
}

template <class T>
void PlaneStore<T>::write_to_store(const Box& box, const C* brick) {
  const Box part = field_part(box);
  if (part.elements() == 0) return;
  const Shape& e = box.extent;
  const Shape& p = part.extent;
  const Box field{sink_.first_plane + part.z0, part.y0 - grid_.offset_y(), part.x0 - grid_.offset_x(), p};
  // The brick itself when it is the part already (a device wrote only it).
  const bool packed_already = p.ny == e.ny && p.nx == e.nx;
  std::vector<C> packed(packed_already ? 0 : part.elements());
  if (!packed_already)
    tbb::parallel_for(std::size_t{0}, p.nz * p.ny, [&](std::size_t r) {
      const std::size_t z = r / p.ny, y = part.y0 + r % p.ny;
      const C* src = brick + (z * e.ny + (y - box.y0)) * e.nx + (part.x0 - box.x0);
      std::copy(src, src + p.nx, packed.data() + r * p.nx);
    });
  sink_.store->write(field, BrickLayout::natural,
                     reinterpret_cast<const std::byte*>(packed_already ? brick : packed.data()));
}

template <class T>
void PlaneStore<T>::read_from_store(const Box& box, C* brick) const {
  const Box part = field_part(box);
  const Shape& e = box.extent;
  const Shape& p = part.extent;
  const Box field{source_.first_plane + part.z0, part.y0 - grid_.offset_y(), part.x0 - grid_.offset_x(), p};
  // The brick itself when it is the part (a device reads only that).
  const bool whole = part.elements() == box.elements();
  if (whole) return source_.store->read(field, BrickLayout::natural, reinterpret_cast<std::byte*>(brick));
  std::fill(brick, brick + box.elements(), C{});
  if (part.elements() == 0) return;
  std::vector<C> packed(part.elements());
  source_.store->read(field, BrickLayout::natural, reinterpret_cast<std::byte*>(packed.data()));
  tbb::parallel_for(std::size_t{0}, p.nz * p.ny, [&](std::size_t r) {
    const std::size_t z = r / p.ny, y = part.y0 + r % p.ny;
    std::copy(packed.data() + r * p.nx, packed.data() + (r + 1) * p.nx,
              brick + (z * e.ny + (y - box.y0)) * e.nx + (part.x0 - box.x0));
  });
}

template class PlaneStore<float>;
template class PlaneStore<double>;

}  // namespace oocfft::optics
