#pragma once
// The HDF5 library as oocfft uses it: one lock for every HDF5 call, and
// opening files and datasets with messages that name them.
//
// Why a lock: the HDF5 that Linux distributions ship (Debian's libhdf5
// 1.10 "serial") is built without --enable-threadsafe, and
// H5is_library_threadsafe() says so; its caches, id tables and error stack
// are process-wide and unguarded, so two threads inside HDF5 at once
// corrupt them. Even a thread-safe build serialises every call behind its
// own global lock, so ours costs nothing there, and it also keeps our
// silence-call-walk-the-error-stack sequence in one piece. The lock must be
// process-wide, not per transfer, because the state it guards is: two
// transfers (or a transfer and inspect_dataset) on two threads share the
// one library. Code outside oocfft that calls HDF5 on another thread at the
// same time is not covered and needs a thread-safe HDF5.
#include <mutex>
#include <string>

#include "io/hdf5_handle.hpp"
#include "oocfft/hdf5.hpp"

namespace oocfft::io {

std::mutex& hdf5_library_mutex();

// Error(io) for a missing, unreadable, truncated or non-HDF5 file; the
// message starts with `purpose` ("FILE:/DATASET" of the dataset wanted).
// `access`: the file access list (the distributed file path's MPI-IO
// driver; the default is HDF5's POSIX driver).
Hid open_file_read_only(const std::string& file, const std::string& purpose, hid_t access = H5P_DEFAULT);
Hid open_file(const std::string& file, unsigned flags, const std::string& purpose, hid_t access = H5P_DEFAULT);

// Whether every component of the absolute `name` exists as a link in `file`
// (H5Lexists alone fails when an intermediate group is missing).
bool link_exists(hid_t file, const std::string& name);

// Writes HDF5's buffers of the open `file` and fsyncs it, so that what it
// holds now survives a crash; Error(io) naming `what` on failure. (HDF5's
// own flush and close stop at the operating system's page cache.)
void flush_to_disk(hid_t file, const std::string& what);

// Closes `file` (every object in it closed before), checked: its last
// metadata is written by the close. Error(io) naming `what` on failure.
void close_file(Hid& file, const std::string& what);

// Opens `path.dataset` in `file`: Error(io) naming the file and dataset when
// it is missing or is not a dataset (a group, a named type).
Hid open_dataset(hid_t file, const DatasetPath& path, hid_t access = H5P_DEFAULT);

}  // namespace oocfft::io
