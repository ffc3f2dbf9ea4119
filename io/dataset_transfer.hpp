#pragma once
// DatasetTransfer: one transform's input and output datasets. It opens the
// input read-only (read-write only when the output replaces it), checks
// everything that can be checked before a byte is written, and creates the
// output dataset under a temporary name next to the output's name. commit()
// links the result under its name (replacing the input when in place);
// without commit() the destructor removes the temporary dataset, so an
// error or a cancel leaves the input as it was and no half-written dataset
// under the output name.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "oocfft/hdf5.hpp"
#include "oocfft/options.hpp"
#include "volume/volume_store.hpp"

namespace oocfft::io {

// What the output dataset is besides its values: its dims, when they are
// not the input's (a refocused stack from one field), and the attributes
// that record how it was made, written as UTF-8 strings. source,
// original_dtype and oocfft_version are always written as well.
struct OutputRecord {
  std::vector<std::size_t> dims;  // empty: the input's complex dims
  std::vector<std::pair<std::string, std::string>> attributes;
};

// An FFT's record: direction, norm and shift.
OutputRecord transform_record(Direction direction, Norm norm, bool shifted);

class DatasetTransfer {
 public:
  // Throws Error(invalid_argument) when output == input without in_place,
  // or in_place with output != input or other dims; Error(io) when a file or
  // dataset is missing or a location is not writable; Error(unsupported) for
  // a type or rank oocfft cannot read. Nothing is written when it throws.
  DatasetTransfer(const DatasetPath& input, const DatasetPath& output, bool in_place, const OutputRecord& record);
  ~DatasetTransfer();
  DatasetTransfer(const DatasetTransfer&) = delete;
  DatasetTransfer& operator=(const DatasetTransfer&) = delete;

  const DatasetInfo& input() const;
  Shape output_shape() const;         // the output's complex volume
  std::size_t element_bytes() const;  // 8 for complex64, 16 for complex128

  // Called before each slab of read_input and write_output (about 256 MiB
  // each); may throw to stop (a cancel: nothing is linked until commit()).
  using SlabHook = std::function<void()>;
  // The hook that polls `options.cancel` before each slab and throws
  // Error(cancelled) (nothing is linked yet: the input is untouched).
  static SlabHook polling_cancel(const Options& options);
  // The whole input as complex values (C order) into `volume`
  // (input().complex_bytes() bytes).
  void read_input(std::byte* volume, const SlabHook& before_slab = {}) const;
  // The whole result (output_shape()) from `volume` into the output dataset.
  void write_output(const std::byte* volume, const SlabHook& before_slab = {});

  // A VolumeStore whose reads come from the input until pass_finished(0),
  // then from the output; writes go to the output. The chunk caches are
  // sized for bricks of up to `brick_bytes`. Owned by this object. The
  // output must have the input's dims.
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

  // Flushes the output and links it under its name; with in_place, the input
  // dataset is unlinked first. Throws Error(io) on failure.
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace oocfft::io
