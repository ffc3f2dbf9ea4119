#pragma once
// VolumeStore: where a volume lives, seen by the engine (docs/ARCHITECTURE.md, "The
// algorithm"). It reads a brick (a box, in a given staging layout) into a
// staging buffer and writes one back; the engine never knows whether the
// volume is a host array or an HDF5 dataset, and never sees a pointer to it.
//
// Direct DMA is a capability a store may offer: memory the device can copy
// bricks to and from with no staging copy (an array the caller page-locked,
// one the store page-locks in chunks while the run goes on). A file store
// offers none and every brick stages.
//
// read() and write() may be called concurrently from several stream threads
// for disjoint boxes, and run their copies in the caller's TBB arena.
#include <cstddef>
#include <memory>
#include <vector>

#include "oocfft/options.hpp"
#include "core/geometry.hpp"
#include "volume/page_locker.hpp"

namespace oocfft::volume {


// One DMA between page-locked host memory and a packed device brick: `rows`
// runs of `width` bytes, `host_pitch` apart on the host, adjacent on the
// device from `device_offset` (bytes from the brick's start), or
// `device_pitch` apart where that is set (real rows going into FFTW's
// padded layout on the device: real_spectrum_store.hpp).
struct DmaCopy {
  std::byte* host = nullptr;
  std::size_t device_offset = 0;
  std::size_t width = 0;
  std::size_t rows = 1;
  std::size_t host_pitch = 0;
  std::size_t device_pitch = 0;  // 0: `width`, the rows adjacent
  std::size_t device_row_pitch() const { return device_pitch == 0 ? width : device_pitch; }
};

// Which way a DMA goes: a store may read a pass's bricks from one place and
// write them to another (a real transform's first pass reads real rows and
// writes the half spectrum).
enum class Transfer { upload, download };

// A store's direct-DMA session for one run. Its destructor unlocks whatever
// it page-locked, also after an error or a cancel.
class DirectAccess {
 public:
  virtual ~DirectAccess() = default;
  // The copies that move the natural-layout `box` straight between host
  // memory and a packed device brick, the way `transfer` says, or an empty
  // list when this box must stage (its memory could not be locked). May
  // wait until the box's memory is locked.
  virtual std::vector<DmaCopy> copies(const Box& box, Transfer transfer) = 0;
  // Unlocks what the session locked and returns the seconds spent locking
  // and unlocking. Call once no copy uses the memory any more; later calls
  // return 0.
  virtual double finish() = 0;
};

class VolumeStore {
 public:
  virtual ~VolumeStore() = default;
  virtual Shape shape() const = 0;
  virtual std::size_t element_bytes() const = 0;
  virtual void read(const Box& box, BrickLayout layout, std::byte* staging) const = 0;
  virtual void write(const Box& box, BrickLayout layout, const std::byte* staging) = 0;
  // read() and write() of a natural-layout `box` whose rows lie
  // `row_pitch` bytes apart in the staging (at least a row's bytes); what
  // lies between the rows after a read is unspecified, and a write does
  // not read it: the real rows of a real transform in
  // FFTW's padded layout (real_spectrum_store.hpp). The defaults read in
  // place and spread the rows, and write through a bounded scratch; a
  // store over memory copies the rows where they go.
  virtual void read_rows(const Box& box, std::byte* staging, std::size_t row_pitch) const;
  virtual void write_rows(const Box& box, const std::byte* staging, std::size_t row_pitch);
  // Rows packed in the staging: where read_packed() (write_packed()) of
  // natural-layout `box` lays (takes) its rows tightly, each
  // packed_row_bytes(box, transfer) bytes, fewer than a row of the device
  // brick (the real rows of a real transform, whose device rows are FFTW's
  // padded ones: a forward's upload, an inverse's last download), the host
  // copies one run instead of row by row and the copy between the staging
  // and the device spreads or gathers the rows at the brick's pitch itself
  // (a 2D DMA, as fast as a 1D one). 0 (the default): read() and write()
  // take the device brick's rows.
  virtual std::size_t packed_row_bytes(const Box& box, Transfer transfer) const {
    (void)box, (void)transfer;
    return 0;
  }
  virtual void read_packed(const Box& box, std::byte* staging) const;
  virtual void write_packed(const Box& box, const std::byte* staging);
  // The part of natural-layout `box` that read() fills with anything but
  // zeros, and the part whose write() is kept (a padded field: the field's
  // rows and columns). A device reads and writes only these parts, filling
  // the rest of a brick with zeros where it lies, so known zeros never
  // cross PCIe. An empty part (no elements) reads or writes nothing. The
  // default is the whole box.
  virtual Box read_part(const Box& box) const { return box; }
  virtual Box write_part(const Box& box) const { return box; }
  // Called by the engine before each attempt of a run (a re-plan after a
  // device out-of-memory is a new attempt, maybe of other passes), with its
  // number of passes, before any brick is read.
  virtual void run_starting(unsigned passes) { (void)passes; }
  // Called by the engine once every brick of `pass` is written back and
  // before the next pass reads: a store that reads one dataset and writes
  // another switches its reads to what it wrote.
  virtual void pass_finished(unsigned pass) { (void)pass; }
  // Opens direct DMA for one run under `policy` (options.hpp,
  // HostRegistration), locking memory through `locker`; null when the store
  // offers none for this run, and every brick stages.
  virtual std::unique_ptr<DirectAccess> open_direct_access(HostRegistration policy, const PageLocker& locker) {
    (void)policy;
    (void)locker;
    return nullptr;
  }
};

}  // namespace oocfft::volume
