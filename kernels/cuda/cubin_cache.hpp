#pragma once
// CubinCache: the kernels the plan-time compiler (NVRTC) built, kept in
// memory and in a directory on disk so that the next plan, in this process
// or another, loads a cubin instead of compiling it again (cold compiles
// cost seconds; bench/RESULTS.md).
//
// An entry is keyed by the schedule (type, length, layout, use) and the
// compiler's fingerprint (GPU architecture, NVRTC version, options, digest
// of the embedded sources); the file name is a hash of both, and the key is
// stored in the entry and checked on every read, so another fingerprint,
// or a file of another key under the same name, is a miss.
//
// Safety:
//   - writes go to a temporary file in the same directory, then rename()
//     over the entry: a reader, or a second process writing the same entry,
//     sees the old entry or the new one, never a torn one;
//   - an entry is a header (magic, key, kernel name, size, FNV-1a checksum)
//     and the cubin; one that does not parse or whose checksum differs is
//     reported corrupt and compiled again (then overwritten);
//   - a directory that cannot be created or written makes the cache keep
//     entries in memory only: status() says so and why; the transform
//     goes on.
// The cache is an object the plan owns (no global state); it is safe to
// use from several threads.
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "kernels/cuda/plan_time_compiler.hpp"

namespace oocfft::kernels::cuda {

// $XDG_CACHE_HOME/oocfft when XDG_CACHE_HOME is set (the XDG base directory
// specification), else $HOME/.cache/oocfft; empty when neither is set.
std::filesystem::path default_kernel_cache_directory();

enum class CacheStorage { disk, memory_only };

// A read's outcome: found in memory, found on disk, no entry (or one of
// another key), or an entry that is damaged (the caller compiles again and
// overwrites it).
enum class CacheLookup { memory_hit, disk_hit, miss, corrupt };

struct CacheRead {
  CacheLookup outcome = CacheLookup::miss;
  CompiledCubin cubin;  // for a hit
  std::string reason;   // for a corrupt entry, or a file of another key: what was wrong with it
};

class CubinCache {
 public:
  // Entries on disk under `directory` (created when missing). An empty path,
  // or one that cannot be created or written, keeps them in memory only.
  explicit CubinCache(std::filesystem::path directory);
  // Entries in memory only, by request.
  static CubinCache memory_only();

  CacheStorage storage() const;
  const std::filesystem::path& directory() const { return directory_; }
  // "on disk in <dir>", "in memory only (requested)" or "in memory only:
  // <why the directory could not be used>".
  std::string status() const;

  // The entry of `schedule` compiled with `fingerprint`: memory first, then
  // disk (a disk hit is kept in memory).
  CacheRead read(const ScheduleKey& schedule, const std::string& fingerprint) const;
  // Keeps the entry in memory and writes it to disk atomically. A failed
  // write degrades the cache to memory only (status() says why); never
  // throws for I/O.
  void write(const ScheduleKey& schedule, const std::string& fingerprint, const CompiledCubin& cubin);

  // The file of an entry (whether or not it exists): for tests and reports.
  std::filesystem::path entry_path(const ScheduleKey& schedule, const std::string& fingerprint) const;

 private:
  struct State;
  CubinCache(std::filesystem::path directory, CacheStorage storage, std::string status);
  std::filesystem::path directory_;
  std::unique_ptr<State> state_;

 public:
  ~CubinCache();
  CubinCache(CubinCache&&) noexcept;
  CubinCache& operator=(CubinCache&&) noexcept;
};

// The full text an entry is keyed by.
std::string cache_key_text(const ScheduleKey& schedule, const std::string& fingerprint);

}  // namespace oocfft::kernels::cuda
