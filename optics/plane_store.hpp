#pragma once
// PlaneStore: the padded planes of one angular-spectrum run as the engine's
// volume (nz, ny_padded, nx_padded). Padding and cropping happen in its
// gather and scatter, so no padded copy of a field or a stack is ever made
// in host memory: a field plane (ny, nx) sits centred in its padded plane
// with zeros around it, and only that centre is written back.
//
// A multi-pass program (rows, columns, rows) keeps its intermediate planes
// in a padded scratch the caller gives; the first pass reads the source and
// the last writes the sink.
#include <array>
#include <complex>
#include <cstddef>
#include <mutex>
#include <span>
#include <vector>

#include "volume/volume_store.hpp"

namespace oocfft::optics {

using oocfft::Shape;
using oocfft::Box;
using oocfft::BrickLayout;

// What a plane of the run holds on the host.
enum class PlaneForm {
  field,   // (ny, nx): padded with zeros on the way in, cropped on the way out
  padded,  // (ny pad, nx pad) as the engine sees it (a spectrum)
};

// The padded grid of a field: (ny, nx) centred in (ny pad, nx pad).
struct PaddedGrid {
  std::size_t ny = 0, nx = 0, pad = 1;
  std::size_t padded_ny() const { return ny * pad; }
  std::size_t padded_nx() const { return nx * pad; }
  std::size_t offset_y() const { return (padded_ny() - ny) / 2; }
  std::size_t offset_x() const { return (padded_nx() - nx) / 2; }
  std::size_t field_elements() const { return ny * nx; }
  std::size_t padded_elements() const { return padded_ny() * padded_nx(); }
  // The elements of one plane held in `form`.
  std::size_t plane_elements(PlaneForm form) const {
    return form == PlaneForm::field ? field_elements() : padded_elements();
  }
};

// How the last pass writes.
enum class PlaneWrite {
  assign,      // plane j of the sink
  accumulate,  // added into the sink's one plane (the layer sum's spectra)
};

template <class T>
class PlaneStore final : public volume::VolumeStore {
 public:
  using C = std::complex<T>;
  struct Source {
    const C* data = nullptr;
    PlaneForm form = PlaneForm::field;
    bool repeated = false;  // every plane reads the same one (the refocus spectrum)
    // Set instead of `data`: field planes read from this store (an HDF5
    // dataset of (planes, ny, nx)), plane j from its plane first_plane + j.
    volume::VolumeStore* store = nullptr;
    std::size_t first_plane = 0;
    // The source of plane j alone (a run of one plane).
    Source at_plane(std::size_t j, const PaddedGrid& grid) const {
      Source s = *this;
      if (store != nullptr) {
        s.first_plane += j;
      } else if (!repeated) {
        s.data += j * grid.plane_elements(form);
      }
      return s;
    }
  };
  struct Sink {
    C* data = nullptr;
    PlaneForm form = PlaneForm::field;
    PlaneWrite write = PlaneWrite::assign;
    // Set instead of `data`: the cropped field planes go to this store (an
    // HDF5 dataset of (planes, ny, nx)), plane j as its plane first_plane + j.
    volume::VolumeStore* store = nullptr;
    std::size_t first_plane = 0;
    // The sink of plane j alone (a run of one plane).
    Sink at_plane(std::size_t j, const PaddedGrid& grid) const {
      Sink k = *this;
      if (store != nullptr) {
        k.first_plane += j;
      } else if (write == PlaneWrite::assign) {
        k.data += j * grid.plane_elements(form);
      }
      return k;
    }
  };
  // `planes` z planes through `passes` passes; `scratch` holds planes x
  // padded_elements() when passes > 1.
  PlaneStore(const PaddedGrid& grid, std::size_t planes, unsigned passes, Source source, Sink sink,
             std::span<C> scratch);

  Shape shape() const override { return {planes_, grid_.padded_ny(), grid_.padded_nx()}; }
  std::size_t element_bytes() const override { return sizeof(C); }
  void read(const Box& box, BrickLayout layout, std::byte* staging) const override;
  void write(const Box& box, BrickLayout layout, const std::byte* staging) override;
  void pass_finished(unsigned pass) override { pass_ = pass + 1; }
  // The field's rows and columns of `box` where the first pass reads a
  // field and the last writes one; else the whole box.
  Box read_part(const Box& box) const override;
  Box write_part(const Box& box) const override;

 private:
  // Row y of plane z of the padded volume as `form` stores it in `base`:
  // the whole padded row, or for a field the part of the field in it (null
  // outside the field's rows), with its first padded column.
  struct Row {
    C* data = nullptr;
    std::size_t x0 = 0, nx = 0;
  };
  Row row_of(C* base, PlaneForm form, std::size_t z, std::size_t y) const;
  // `box` cut to the field's rows and columns of each padded plane.
  Box field_part(const Box& box) const;
  // The field part of padded box `box`, cropped and packed, to the sink's store.
  void write_to_store(const Box& box, const C* brick);
  // Padded box `box` from the source's store: its field part read, the rest zeros.
  void read_from_store(const Box& box, C* brick) const;

  PaddedGrid grid_;
  std::size_t planes_;
  unsigned passes_;
  Source source_;
  Sink sink_;
  std::span<C> scratch_;
  unsigned pass_ = 0;
  std::array<std::mutex, 64> row_locks_;  // streams add their planes into one, row by row
};

extern template class PlaneStore<float>;
extern template class PlaneStore<double>;

}  // namespace oocfft::optics
