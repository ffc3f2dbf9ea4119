#pragma once
// Hdf5Volume: a VolumeStore over HDF5 datasets (docs/ARCHITECTURE.md, "The
// algorithm"). Bricks are hyperslabs read straight into (written straight
// from) the staging buffer; reads come from the input dataset until the
// engine reports pass 0 finished, then from the output, which holds pass
// 0's result; writes always go to the output. A file store offers no
// direct DMA: every brick stages.
//
// Its elements are complex (a real input widened on the way in), or real
// values read and written as stored (Values::real: a real-to-real
// transform, the DCT and DST, whose input and output datasets are both
// real float32/float64).
//
// The line layouts of the line-transpose method (y_lines, z_lines) are read
// as a natural box into a scratch buffer and transposed with the element-wise
// line transposes (transpose/line_transpose.hpp); that method is kept as a
// baseline, so a scratch allocation per brick is of no concern.
#include <atomic>

#include "io/box_io.hpp"
#include "volume/volume_store.hpp"

namespace oocfft::io {

class Hdf5Volume final : public volume::VolumeStore {
 public:
  enum class Values { complex, real };
  // `input` and `output` stay open for the store's life (DatasetTransfer
  // owns them). The shape is the volume's, padded to 3 axes. Values::real
  // needs both datasets real (read_real_box refuses others).
  Hdf5Volume(StoredDataset input, StoredDataset output, oocfft::Shape shape, Values values = Values::complex);

  oocfft::Shape shape() const override { return shape_; }
  std::size_t element_bytes() const override { return element_bytes_; }
  // Thread-safe: HDF5 calls take hdf5_library_mutex(); the line transposes
  // run outside it.
  void read(const oocfft::Box& box, oocfft::BrickLayout layout, std::byte* staging) const override;
  void write(const oocfft::Box& box, oocfft::BrickLayout layout, const std::byte* staging) override;
  void pass_finished(unsigned pass) override;
  bool reading_output() const { return reading_output_.load(); }

 private:
  void read_natural(const oocfft::Box& box, std::byte* natural) const;
  void write_natural(const oocfft::Box& box, const std::byte* natural);

  StoredDataset input_;
  StoredDataset output_;
  oocfft::Shape shape_;
  Values values_;
  std::size_t element_bytes_;
  std::atomic<bool> reading_output_{false};
};

}  // namespace oocfft::io
