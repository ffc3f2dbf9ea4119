#pragma once
// HostVolume: a VolumeStore over a C-order array in host memory (the
// caller's own array, transformed near in place, or one the library owns).
// Natural-layout bricks move as contiguous runs (run_copy.hpp); line
// layouts move element by element (line_transpose.hpp).
//
// Direct DMA: offered when the array is page-locked already (the caller
// locked it, or it is library-owned page-locked memory), and under
// HostRegistration::on by page-locking the array in chunks while the run
// goes on (chunked_registration.hpp), each brick waiting for its chunks.
#include "volume/volume_store.hpp"

namespace oocfft::volume {

class HostVolume final : public VolumeStore {
 public:
  HostVolume(std::byte* data, Shape shape, std::size_t element_bytes)
      : data_(data), shape_(shape), element_bytes_(element_bytes) {}

  Shape shape() const override { return shape_; }
  std::size_t element_bytes() const override { return element_bytes_; }
  void read(const Box& box, BrickLayout layout, std::byte* staging) const override;
  void write(const Box& box, BrickLayout layout, const std::byte* staging) override;
  void read_rows(const Box& box, std::byte* staging, std::size_t row_pitch) const override;
  void write_rows(const Box& box, const std::byte* staging, std::size_t row_pitch) override;
  std::unique_ptr<DirectAccess> open_direct_access(HostRegistration policy, const PageLocker& locker) override;

 private:
  std::byte* data_;
  Shape shape_;
  std::size_t element_bytes_;
};

}  // namespace oocfft::volume
