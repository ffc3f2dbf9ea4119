#pragma once
// RealSpectrumStore: the volume the passes of a real transform see
// (kernels/volume_transform.hpp), the half spectrum (nz, ny, nx/2+1)
// complex, over the places the data lives:
//   real      (nz, ny, nx) real values: the forward's input, the inverse's
//             output;
//   input     the half spectrum an inverse reads in its first pass (the
//             caller's; never written);
//   spectrum  the half spectrum the passes write and read between them:
//             the forward's output; an inverse's intermediate, in host
//             memory the store allocates on the first write that needs it
//             when none is given (a resident device plan never writes it).
// The real pass, the one whose bricks carry the x stage (the first of a
// forward run, the last of an inverse run), reads the real rows into
// FFTW's padded layout, 2*(nx/2+1) reals a row, or writes them from it;
// every other read and write goes to the half spectrum. A store over
// FFTW's padded in-place layout needs none of this: the half spectrum
// itself is the padded real array.
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

#include "volume/host_buffer.hpp"
#include "volume/host_volume.hpp"
#include "volume/volume_store.hpp"

namespace oocfft::volume {

class RealSpectrumStore final : public VolumeStore {
 public:
  // A forward run: `real` is read in pass 0 and `spectrum` written, then
  // read and written by the later passes.
  RealSpectrumStore(VolumeStore& real, VolumeStore& spectrum);
  // An inverse run: pass 0 reads `input` (never written; non-const only so
  // that its memory may be page-locked for DMA), the last pass writes
  // `real`; in between `spectrum`, or, when it is null, host memory
  // allocated on the first write that needs it. Which pass is the last
  // comes with each attempt of the run (run_starting): a re-plan may change
  // the number of passes.
  RealSpectrumStore(VolumeStore& input, VolumeStore& real, VolumeStore* spectrum);

  Shape shape() const override { return spectrum_shape_; }
  std::size_t element_bytes() const override { return complex_bytes_; }
  void read(const Box& box, BrickLayout layout, std::byte* staging) const override;
  void write(const Box& box, BrickLayout layout, const std::byte* staging) override;
  // The real rows (a forward's first pass reads them, an inverse's last
  // writes them), packed at their own width (one run of the real array),
  // not at the padded pitch.
  std::size_t packed_row_bytes(const Box& box, Transfer transfer) const override;
  void read_packed(const Box& box, std::byte* staging) const override;
  void write_packed(const Box& box, const std::byte* staging) override;
  void run_starting(unsigned passes) override;
  void pass_finished(unsigned pass) override { pass_ = pass + 1; }
  std::unique_ptr<DirectAccess> open_direct_access(HostRegistration policy, const PageLocker& locker) override;

  // The real columns of half-spectrum box `box` in the real pass:
  // [2 x0, min(2 (x0 + ex), nx)); nx 0 when the box holds padding only.
  Box real_columns(const Box& box) const;
  // Bytes of host memory the store allocated for an inverse's intermediate.
  std::size_t scratch_bytes() const;

 private:
  class Direct;
  bool real_pass() const { return pass_ == real_pass_; }
  // Whether a copy in `transfer`'s direction moves real rows: a forward's
  // upload or an inverse's download, in the real pass.
  bool real_side(Transfer transfer) const { return real_pass() && (transfer == Transfer::upload) != inverse_; }
  // The half spectrum the current pass reads, or writes (allocating an
  // inverse's intermediate on the first write).
  const VolumeStore& spectrum_to_read() const;
  VolumeStore& spectrum_to_write();

  VolumeStore& real_;
  VolumeStore* input_ = nullptr;  // an inverse's first reads; null for a forward run
  VolumeStore* spectrum_ = nullptr;  // an inverse's may stay null until its first write
  unsigned real_pass_ = 0;
  bool inverse_ = false;
  Shape spectrum_shape_;
  std::size_t complex_bytes_;
  std::atomic<unsigned> pass_{0};  // changes only between passes (pass_finished)
  mutable std::mutex scratch_mutex_;
  std::optional<HostBuffer> scratch_;
  std::optional<HostVolume> scratch_volume_;
};

}  // namespace oocfft::volume
