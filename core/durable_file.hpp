#pragma once
// Files that reach the disk before anyone is told they exist: fsync of a
// file and of the directory that names it, and the temporary-then-rename
// publication every output of oocfft goes through (an HDF5 output file, a
// JSON report). A rename is atomic on POSIX file systems, so a reader, or a
// crash, sees the old file or the whole new one, never a half-written one;
// the directory's fsync makes the new name itself survive a crash.
//
// Every function throws Error(io) naming the path and the system's reason.
#include <string>

namespace oocfft {

// Flushes the file at `path` (its data and its size) to the disk.
void fsync_path(const std::string& path);
// Flushes the directory that holds `path`, so that a name created, renamed
// or removed in it survives a crash.
void fsync_directory_of(const std::string& path);
// Renames `temporary` to `destination` (replacing a file there) and fsyncs
// their directory; both must be in the same directory. `temporary` must
// have been fsynced by the caller.
void publish_file(const std::string& temporary, const std::string& destination);

// A temporary name beside `path` in its directory, recognisably oocfft's:
// "PATH.oocfft-partial" (with `unique`, ".PID" added so that two processes
// never share it).
std::string temporary_sibling(const std::string& path, bool unique);

// Writes `text` to `path` as a whole or not at all: into a temporary
// sibling (unique), fsynced, then published over `path`. On failure the
// temporary is removed and `path` is as it was.
void write_file_atomically(const std::string& path, const std::string& text);

// Throws Error(io) unless a file could be created at `path` later: its
// directory exists and is writable, and `path` is not a directory. Creates
// and opens nothing. `what` starts the message ("the JSON report").
void check_writable_destination(const std::string& path, const std::string& what);

}  // namespace oocfft
