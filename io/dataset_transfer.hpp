#pragma once
// DatasetTransfer: one transform's input and output datasets. It opens the
// input read-only (read-write only when the output replaces it), checks
// everything that can be checked before a byte is written, and creates the
// output dataset under a temporary name next to the output's name (in a
// new output file, itself under a temporary name). commit() links the
// result under its name (replacing the input when in place); without
// commit() the destructor removes the temporary dataset (and a scratch
// dataset, scratch_store), so an error or a cancel leaves the input as it
// was and no half-written dataset under the output name. Its temporaries
// are marked as oocfft's and only those it created are removed
// (io/output_temporaries.hpp); one output file has one writer at a time
// (io/run_lock.hpp).
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/output_dataset.hpp"
#include "oocfft/error.hpp"
#include "oocfft/hdf5.hpp"
#include "oocfft/options.hpp"
#include "volume/volume_store.hpp"

namespace oocfft::io {

// A cancel (Error(cancelled)) that reached a transform before commit(),
// reworded for the files: what the engine said of its progress ("after 5
// of 40 bricks"; its words about an array's contents do not apply), and
// what holds: nothing was committed, the input is as it was, nothing is
// under the output's name.
Error cancelled_before_commit(const Error& cancel, const DatasetPath& input, const DatasetPath& output);

// Runs a dataset operation from `input` to `output`, its cancel reworded
// by cancelled_before_commit: what every public dataset entry point does.
template <class F>
auto nothing_committed_on_cancel(const DatasetPath& input, const DatasetPath& output, F&& operation) {
  try {
    return operation();
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::cancelled) throw cancelled_before_commit(e, input, output);
    throw;
  }
}

class DatasetTransfer {
 public:
  // Throws Error(invalid_argument) when output == input without in_place,
  // or in_place with output != input, other dims, or a real result for a
  // complex input; Error(io) when a file or
  // dataset is missing or a location is not writable; Error(unsupported) for
  // a type or rank oocfft cannot read. Nothing is written when it throws.
  DatasetTransfer(const DatasetPath& input, const DatasetPath& output, bool in_place, const OutputRecord& record);
  ~DatasetTransfer();
  DatasetTransfer(const DatasetTransfer&) = delete;
  DatasetTransfer& operator=(const DatasetTransfer&) = delete;

  const DatasetInfo& input() const;
  Shape output_shape() const;         // the output's volume (complex, or real: OutputRecord::element)
  std::size_t element_bytes() const;  // 8 for complex64, 16 for complex128
  std::size_t output_element_bytes() const;  // element_bytes(), or 4 / 8 for a real output

  // Called before each slab of read_input and write_output (about 256 MiB
  // each); may throw to stop (a cancel: nothing is linked until commit()).
  using SlabHook = std::function<void()>;
  // The hook that polls `options.cancel` before each slab and throws
  // Error(cancelled) (nothing is linked yet: the input is untouched).
  static SlabHook polling_cancel(const Options& options);
  // The whole input as complex values (C order) into `volume`
  // (input().complex_bytes() bytes).
  void read_input(std::byte* volume, const SlabHook& before_slab = {}) const;
  // The whole real input as stored (float or double, C order) into
  // `values` (input().shape elements); Error(invalid_argument) for an input
  // that is not real.
  void read_input_real(std::byte* values, const SlabHook& before_slab = {}) const;
  // The whole result (output_shape() values of the output's element) from
  // `volume` into the output dataset.
  void write_output(const std::byte* volume, const SlabHook& before_slab = {});

  // A VolumeStore whose reads come from the input until pass_finished(0),
  // then from the output; writes go to the output. The chunk caches are
  // sized for bricks of up to `brick_bytes`. Owned by this object. The
  // output must have the input's dims. Its elements are complex, or real
  // values when the output is real (OutputRecord::element), which needs a
  // real input: a real-to-real transform (the DCT and DST).
  volume::VolumeStore& streamed_store(std::size_t brick_bytes);
  // A VolumeStore that reads the input dataset (its complex volume), for
  // inputs streamed in whole while the result is held elsewhere (a layer
  // sum's layers). Not for writing. Owned by this object, replacing a store
  // made before.
  volume::VolumeStore& input_store(std::size_t brick_bytes);
  // A VolumeStore of the output dataset alone (output_shape(), any dims):
  // writes go to it and reads read it back, for results streamed out
  // whole (a refocused stack larger than host memory). Owned by this
  // object, replacing a store made before.
  volume::VolumeStore& output_store(std::size_t brick_bytes);

  // The real dataset of a real transform, the input's or the output's
  // (whichever is real), as real values (io/real_dataset_volume.hpp). Kept
  // beside the store of input_store or output_store, which read the other
  // dataset, so that one run holds both. Owned by this object.
  volume::VolumeStore& real_store(std::size_t brick_bytes);
  // A temporary complex dataset of `shape` in the output's file, read and
  // written as a volume: a streamed real inverse's half spectrum between
  // its passes. Named ".oocfft-scratch-" and the output's name, and removed
  // by commit() and by the destructor. Owned by this object; one at most.
  volume::VolumeStore& scratch_store(Shape shape, std::size_t brick_bytes);

  // Makes the result durable and visible, in an order that is safe to
  // crash in: the output's values are flushed and fsynced, then linked
  // under its name (in place: the input moved aside first, and deleted
  // only once the result under its name is on disk); the files are closed
  // and fsynced, and a new output file is renamed from its temporary name
  // to its own. Throws Error(io) on failure (the destructor then removes
  // what was not committed).
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace oocfft::io
