#pragma once
// RunLock: at most one oocfft run writes a file at a time, whatever HDF5's
// own file locks do. Those are off with HDF5_USE_FILE_LOCKING=FALSE (the
// usual setting on network file systems, whose locks are often broken),
// and two writers of one file then both commit, each over the other's
// metadata. The lock is a file of its own beside the output,
// "FILE.oocfft-lock", created with O_CREAT | O_EXCL (atomic on local file
// systems and on NFS v3 and later), holding its owner: host, pid and the
// process's start time (so that a pid reused by another process is not
// taken for the owner). The destructor removes it.
//
// A lock whose owner is gone (this host, and no process with that pid and
// start time) is left by a run that was killed: it is taken over. Taking
// over goes through a second O_EXCL file ("FILE.oocfft-lock.break"), and the
// lock is read again under it, so two runs that find the same stale lock
// cannot both take it.
#include <string>

namespace oocfft::io {

class RunLock {
 public:
  // Locks the file at `file` (which need not exist yet). Throws Error(io)
  // naming the lock file, its owner and how to remove it when a live run
  // holds it, or its owner cannot be checked (another host, an unreadable
  // lock); Error(io) with the system's reason when it cannot be created.
  // `purpose` starts every message (the dataset being written).
  RunLock(const std::string& file, const std::string& purpose);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

  const std::string& path() const { return path_; }

  // The lock file of `file`: beside the file the name resolves to (a
  // symbolic link's target), so every spelling of one file shares a lock.
  static std::string path_for(const std::string& file);

 private:
  std::string path_;
  std::string owner_;  // what this process wrote into it
};

}  // namespace oocfft::io
