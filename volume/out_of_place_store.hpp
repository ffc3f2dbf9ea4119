#pragma once
// OutOfPlaceStore: the volume an out-of-place transform's passes see. The
// first pass reads the caller's input (never written); every pass writes
// the output, and the later passes read what the earlier ones wrote there.
// So an out-of-place run moves the same bytes as one in place: the input
// is read once, by the bricks that need it, with no copy of the volume
// beforehand (a copy into the output first would be one more read and
// write of the whole volume in host memory).
//
// Direct DMA: the input's session serves the first pass's uploads, the
// output's every download and the later uploads; either may be absent (not
// page-locked), and its bricks then stage.
#include <atomic>
#include <memory>

#include "volume/volume_store.hpp"

namespace oocfft::volume {

class OutOfPlaceStore final : public VolumeStore {
 public:
  // `input` is read in the first pass only (non-const so that its memory
  // may be page-locked for DMA); `output` has its shape and element size.
  OutOfPlaceStore(VolumeStore& input, VolumeStore& output);

  Shape shape() const override { return output_.shape(); }
  std::size_t element_bytes() const override { return output_.element_bytes(); }
  void read(const Box& box, BrickLayout layout, std::byte* staging) const override;
  void write(const Box& box, BrickLayout layout, const std::byte* staging) override;
  void read_rows(const Box& box, std::byte* staging, std::size_t row_pitch) const override;
  void write_rows(const Box& box, const std::byte* staging, std::size_t row_pitch) override;
  void run_starting(unsigned passes) override;
  void pass_finished(unsigned pass) override { pass_ = pass + 1; }
  std::unique_ptr<DirectAccess> open_direct_access(HostRegistration policy, const PageLocker& locker) override;

 private:
  class Direct;
  const VolumeStore& to_read() const { return pass_ == 0 ? input_ : output_; }

  VolumeStore& input_;
  VolumeStore& output_;
  std::atomic<unsigned> pass_{0};  // changes only between passes (pass_finished)
};

}  // namespace oocfft::volume
