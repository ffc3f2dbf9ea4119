#pragma once
// HostVolume: a VolumeStore over a C-order array in host memory, the
// caller's own array, transformed near in place. Natural-layout bricks move
// as contiguous runs (run_copy.hpp); line layouts move element by element
// (line_transpose.hpp).
#include "transpose/volume_store.hpp"

namespace oocfft::transpose {

class HostVolume final : public VolumeStore {
 public:
  HostVolume(std::byte* data, BrickShape shape, std::size_t element_bytes)
      : data_(data), shape_(shape), element_bytes_(element_bytes) {}

  BrickShape shape() const override { return shape_; }
  std::size_t element_bytes() const override { return element_bytes_; }
  void read(const Box& box, BrickLayout layout, std::byte* staging) const override;
  void write(const Box& box, BrickLayout layout, const std::byte* staging) override;
  std::byte* host_array() const override { return data_; }

 private:
  std::byte* data_;
  BrickShape shape_;
  std::size_t element_bytes_;
};

}  // namespace oocfft::transpose
