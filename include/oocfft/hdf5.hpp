#pragma once
// Transforms of volumes stored in HDF5 datasets, including datasets larger
// than the GPU's memory and larger than host RAM.
//
// A dataset is named "FILE:/GROUP/DATASET". Complex data is read as h5py
// writes it (a compound {r, i} of float32 or float64; member names
// real/imag and Real/Imaginary are accepted too) or as a trailing axis of
// length 2; real float32/float64 data is transformed as complex. Datasets
// of 1, 2 or 3 axes are volumes with leading axes of length 1 added.
//
// The result always goes to a new dataset (h5py's compound {r, i}, in the
// input's precision), written under a temporary name and linked under its
// own name only when complete: a failed or interrupted run leaves the input
// as it was and no half-written dataset under the output name.
#include <cstddef>
#include <string>
#include <vector>

#include "oocfft/options.hpp"
#include "oocfft/run_report.hpp"
#include "oocfft/shape.hpp"

namespace oocfft {

struct DatasetPath {
  std::string file;
  std::string dataset;  // absolute: starts with '/'

  // "volume.h5:/group/data". The file name is everything before the last
  // ":/". Throws Error(invalid_argument) when there is no ":/" or either
  // part is empty. The dataset name comes back normalised().
  static DatasetPath parse(const std::string& text);
  // The same dataset with its name as HDF5 resolves it: empty and "."
  // components dropped ("/g//./d" is "/g/d"), so that two spellings of one
  // dataset compare equal. ".." is an ordinary link name in HDF5 and stays.
  // The transforms normalise the names they are given.
  DatasetPath normalised() const;
  std::string to_string() const;  // "volume.h5:/group/data"
  friend bool operator==(const DatasetPath&, const DatasetPath&) = default;
};

// How the stored values become complex.
enum class StoredElement {
  complex_compound,  // compound {r, i} (or real/imag, Real/Imaginary)
  complex_pairs,     // a trailing axis of length 2: (re, im)
  real               // float32 / float64, imaginary parts zero
};

struct DatasetInfo {
  DatasetPath path;
  std::vector<std::size_t> dims;    // as stored
  Shape shape;                      // the complex volume transformed
  Precision precision = Precision::single;
  StoredElement element = StoredElement::complex_compound;
  std::string dtype;                // numpy's name of the stored type: "complex64", "float64", ...
  std::vector<std::size_t> chunks;  // empty for a contiguous dataset
  // What the file holds of it: the bytes allocated for its values
  // (H5Dget_storage_size, compressed where filtered); of a chunked one, the
  // chunks ever written of all its chunks (the others read as the fill
  // value); whether all of it was written.
  std::size_t allocated_bytes = 0;
  std::size_t chunks_written = 0;
  std::size_t chunks_in_all = 0;
  bool fully_allocated = true;
  // Its filter pipeline by name ("deflate", "shuffle", "lz4 (32004)"), and
  // those this HDF5 library cannot apply (no plugin for them).
  std::vector<std::string> filters;
  std::vector<std::string> unavailable_filters;
  std::size_t complex_bytes() const;  // the transformed volume's bytes
};

// Opens the dataset read-only and describes it. Throws Error(io) for a
// missing or unreadable file or dataset, Error(unsupported) for a type or
// rank oocfft cannot transform, each naming the file and dataset. A
// dataset whose values cannot be read (a filter without its plugin) or
// were never written is described, not refused: the transforms refuse it.
DatasetInfo inspect_dataset(const DatasetPath& path);

// The transforms and propagate_dataset refuse, before anything is
// written, a dataset stored with a filter this HDF5 cannot apply
// (Error(unsupported), naming the filter), and one whose values were never
// written: no storage allocated, or fewer than 1/1024 of its chunks
// written (Error(invalid_argument)). Such a dataset reads as the fill
// value (h5py would give a constant), and its claimed size need not be
// real: a 1.4 KB file claiming 8 TiB once streamed until the disk filled.

struct DatasetTransformOptions {
  // Replace the input dataset by the result (output == input); the input is
  // unlinked only after the result is complete.
  bool in_place = false;
  // Host bytes the transform may hold. A volume that fits is read into
  // page-locked memory the library owns and streamed from there (the
  // direct-DMA path); a larger one streams file -> device -> file through
  // staging buffers within this budget. 0 = derived from the host's
  // available memory (MemAvailable).
  std::size_t host_memory_budget = 0;
};

// Where a real inverse (transform_real_dataset) kept the half spectrum
// between its passes.
enum class IntermediateSpectrum {
  none,         // a forward, or a plan that kept the volume on the device
  host_memory,  // in host memory (the in-memory path, or a streamed one where it fits)
  output_file   // a temporary dataset in the output's file, removed at the end
};

struct DatasetTransformReport {
  DatasetInfo input;
  DatasetPath output;
  Shape output_shape;           // the output's volume (complex, or real after a real inverse or a DCT/DST)
  IntermediateSpectrum intermediate = IntermediateSpectrum::none;
  bool in_memory = false;       // the volume was read into host memory whole
  std::size_t host_memory_budget = 0;  // resolved
  double read_seconds = 0;      // whole-volume read (in-memory path only)
  double transform_seconds = 0; // the engine's run (streamed: includes the file I/O)
  double write_seconds = 0;     // whole-volume write (in-memory path only)
  double seconds = 0;           // everything, file opened to file closed
  RunReport run;
};

// Transforms the dataset `input` into the new dataset `output` (in the same
// file or another). `options` are the plan's (backend, norm, budgets,
// streams, progress, cancel). Throws oocfft::Error naming the file and
// dataset for bad input; the input file is never modified unless in_place,
// and then only once the result is complete.
DatasetTransformReport transform_dataset(const DatasetPath& input, const DatasetPath& output, Direction direction,
                                         const Options& options, const DatasetTransformOptions& file_options = {});

// What transform_dataset would do: the dataset, the memory path, the plan.
std::string describe_dataset_transform(const DatasetPath& input, const Options& options,
                                       const DatasetTransformOptions& file_options = {});

// Real-data transforms of datasets, numpy's rfftn and irfftn over all axes
// (include/oocfft/real.hpp), with the same file safety as transform_dataset:
//   forward  a real float32/float64 dataset (..., nx) -> its half spectrum
//            (..., nx/2+1), h5py's complex {r, i} of the same precision,
//            with the attributes oocfft_real_shape (the input's dims, int64)
//            and transform = "rfftn", direction, norm;
//   inverse  a half spectrum (any complex the library reads) -> a real
//            dataset (..., nx) of its precision. nx is `real_nx` when given
//            (numpy's s[-1]), else the input's oocfft_real_shape; either
//            way nx/2+1 must be the stored last axis.
// A complex input to the forward, a real input to the inverse, a real
// length that does not fit the stored last axis, in_place, or
// Options::shift is refused (Error(invalid_argument) or unsupported,
// naming the dataset and what was expected) before anything is written.
// In host memory when the real volume and the half spectrum (an inverse:
// two half spectra) fit the host budget; else streamed: bricks of real rows
// from or to the real dataset, the half spectrum from or to the complex
// one, and an inverse's half spectrum between its passes in host memory
// when it fits half the budget, else in a temporary dataset in the output's
// file (DatasetTransformReport::intermediate says which).
DatasetTransformReport transform_real_dataset(const DatasetPath& input, const DatasetPath& output,
                                              Direction direction, const Options& options,
                                              const DatasetTransformOptions& file_options = {},
                                              std::size_t real_nx = 0);

// What transform_real_dataset would do: the dataset, the real and half
// spectrum shapes, the memory path, where an inverse's intermediate lies,
// the plan. Refuses what transform_real_dataset refuses.
std::string describe_real_dataset_transform(const DatasetPath& input, Direction direction, const Options& options,
                                            const DatasetTransformOptions& file_options = {},
                                            std::size_t real_nx = 0);

// scipy.fft's dctn / dstn (forward) or idctn / idstn (inverse) of type 2
// or 3 over all axes of a dataset, with Options::norm as scipy's norm=
// (include/oocfft/trig.hpp, which defines TrigTransform; declared opaque
// here so that this header names no entry point): a real float32/float64
// dataset -> a real dataset of the same dtype and dims, with the
// attributes transform ("dctn", "idctn", "dstn" or "idstn"), type ("2" or
// "3", scipy's type= of the call), norm, and source, original_dtype and
// oocfft_version as every output. The file safety of transform_dataset
// (the output under a temporary name, linked when complete), in_place
// included. A complex input, a missing dataset, a transform that is not
// one of the four, or Options::shift is refused before anything is
// written. In host memory when the real volume fits the host budget (read
// whole, TrigPlan in place, written whole); else streamed: the passes
// read bricks of real values from the input, write them to the output,
// and the later passes read and write the output. Progress and cancel
// per brick, as the plan's.
enum class TrigTransform;
DatasetTransformReport transform_trig_dataset(const DatasetPath& input, const DatasetPath& output,
                                              TrigTransform transform, Direction direction, const Options& options,
                                              const DatasetTransformOptions& file_options = {});

}  // namespace oocfft
