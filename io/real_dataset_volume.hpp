#pragma once
// RealDatasetVolume: a VolumeStore over one real (float32/float64) dataset
// seen as real values, not widened to complex: the real side of a real
// transform streamed from or to a file (volume/real_spectrum_store.hpp
// reads its rows in the forward's first pass and writes them in the
// inverse's last). Natural-layout boxes only: the x stage of a real
// transform never runs in a line layout. No direct DMA: every brick stages.
#include "io/box_io.hpp"
#include "volume/volume_store.hpp"

namespace oocfft::io {

class RealDatasetVolume final : public volume::VolumeStore {
 public:
  // `dataset` stays open for the store's life (DatasetTransfer owns it);
  // `shape` is its volume, padded to 3 axes.
  RealDatasetVolume(StoredDataset dataset, oocfft::Shape shape);

  oocfft::Shape shape() const override { return shape_; }
  std::size_t element_bytes() const override { return element_bytes_; }
  // Thread-safe: HDF5 calls take hdf5_library_mutex().
  void read(const oocfft::Box& box, oocfft::BrickLayout layout, std::byte* staging) const override;
  void write(const oocfft::Box& box, oocfft::BrickLayout layout, const std::byte* staging) override;
  // Rows straight between the file and their pitch in the staging (HDF5's
  // strided memory selection): no copy, the bytes between rows untouched.
  void read_rows(const oocfft::Box& box, std::byte* staging, std::size_t row_pitch) const override;
  void write_rows(const oocfft::Box& box, const std::byte* staging, std::size_t row_pitch) override;

 private:
  StoredDataset dataset_;
  oocfft::Shape shape_;
  std::size_t element_bytes_;
};

}  // namespace oocfft::io
