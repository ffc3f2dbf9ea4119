#pragma once
// The --json report's path, checked before the transform (an unwritable
// place fails in a second, not after an hour of work) but not opened: the
// report is written under a temporary name beside it and renamed over it
// at the end (core/durable_file.hpp), so a run that fails or is refused
// leaves a file already there as it was. A report path that is the input's
// or the output's HDF5 file is refused: the report would replace it.
// Shared by the dataset commands and, under MPI, by rank 0 of `fft`.
#include <string>

#include <oocfft/hdf5.hpp>

namespace oocfft::apps {

struct JsonReport {
  std::string path;  // empty: no report
};

// Checks `path` (empty: no report) against the input and output files and
// the file system; Error(invalid_argument) or Error(io) naming it.
JsonReport open_json(const std::string& path, const DatasetPath& input, const DatasetPath& output);

// Writes the report (report_json) when one was asked for.
void finish_json(const JsonReport& json, const DatasetTransformReport& report);

}  // namespace oocfft::apps
