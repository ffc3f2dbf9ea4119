#include "kernels/cuda/cubin_cache.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

namespace oocfft::kernels::cuda {

namespace {

constexpr const char* magic = "oocfft-cubin-cache 1";
// No schedule's cubin comes near this; a larger "entry" is not one of ours.
constexpr std::uintmax_t max_entry_bytes = std::uintmax_t{64} << 20;
constexpr const char* other_key = "entry holds another kernel (key differs)";

// FNV-1a, 64 bits: the entry's file name (from the key) and its checksum
// (of the cubin). Not a defence against tampering, which a cache directory
// the user owns does not need; it catches truncated and damaged files.
std::uint64_t fnv1a(const char* data, std::size_t size) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < size; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string hex(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

std::string header_of(const std::string& key, const CompiledCubin& cubin) {
  return std::string(magic) + "\n" + key + "\n" + cubin.kernel_name + "\n" + std::to_string(cubin.image.size()) +
         " " + hex(fnv1a(cubin.image.data(), cubin.image.size())) + "\n";
}

// Parses an entry file's bytes; the reason when it is not a valid entry
// for `key`.
std::optional<std::string> parse_entry(const std::string& bytes, const std::string& key, CompiledCubin& cubin) {
  std::size_t at = 0;
  auto line = [&](std::string& out) {
    const std::size_t end = bytes.find('\n', at);
    if (end == std::string::npos) return false;
    out = bytes.substr(at, end - at);
    at = end + 1;
    return true;
  };
  std::string first, stored_key, name, sizes;
  if (!line(first) || first != magic) return "not a cache entry (bad header)";
  if (!line(stored_key)) return "truncated header";
  if (stored_key != key) return std::string(other_key);
  if (!line(name) || name.empty()) return "truncated header (no kernel name)";
  if (!line(sizes)) return "truncated header (no size)";
  std::istringstream in(sizes);
  std::size_t size = 0;
  std::string checksum;
  if (!(in >> size >> checksum)) return "bad size line";
  if (bytes.size() - at != size)
    return "cubin is " + std::to_string(bytes.size() - at) + " bytes, header says " + std::to_string(size);
  if (hex(fnv1a(bytes.data() + at, size)) != checksum) return "checksum mismatch";
  cubin.kernel_name = name;
  cubin.image.assign(bytes.begin() + static_cast<std::ptrdiff_t>(at), bytes.end());
  return std::nullopt;
}

// Writes all of `data` to fd; false on any error.
bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// The reason `directory` cannot hold entries, or none: it is created when
// missing, and a file is created in it and removed.
std::optional<std::string> unusable(const std::filesystem::path& directory) {
  if (directory.empty()) return "no cache directory (neither XDG_CACHE_HOME nor HOME is set)";
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) return "cannot create " + directory.string() + ": " + ec.message();
  std::string probe = (directory / ".write-test-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) return "cannot write in " + directory.string() + ": " + std::strerror(errno);
  ::close(fd);
  std::filesystem::remove(probe, ec);
  return std::nullopt;
}

}  // namespace

std::filesystem::path default_kernel_cache_directory() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/')
    return std::filesystem::path(xdg) / "oocfft";
  if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0')
    return std::filesystem::path(home) / ".cache" / "oocfft";
  return {};
}

std::string cache_key_text(const ScheduleKey& schedule, const std::string& fingerprint) {
  return "schedule=" + describe(schedule) + ";" + fingerprint;
}

struct CubinCache::State {
  mutable std::mutex mutex;
  CacheStorage storage = CacheStorage::memory_only;
  std::string status;
  mutable std::map<std::string, CompiledCubin> memory;
};

CubinCache::CubinCache(std::filesystem::path directory, CacheStorage storage, std::string status)
    : directory_(std::move(directory)), state_(std::make_unique<State>()) {
  state_->storage = storage;
  state_->status = std::move(status);
}

CubinCache::CubinCache(std::filesystem::path directory) : CubinCache(directory, CacheStorage::disk, "") {
  if (const auto why = unusable(directory_)) {
    state_->storage = CacheStorage::memory_only;
    state_->status = "in memory only: " + *why;
  } else {
    state_->status = "on disk in " + directory_.string();
  }
}

CubinCache CubinCache::memory_only() { return CubinCache({}, CacheStorage::memory_only, "in memory only (requested)"); }

CubinCache::~CubinCache() = default;
CubinCache::CubinCache(CubinCache&&) noexcept = default;
CubinCache& CubinCache::operator=(CubinCache&&) noexcept = default;

CacheStorage CubinCache::storage() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->storage;
}

std::string CubinCache::status() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->status;
}

std::filesystem::path CubinCache::entry_path(const ScheduleKey& schedule, const std::string& fingerprint) const {
  const std::string key = cache_key_text(schedule, fingerprint);
  return directory_ / (hex(fnv1a(key.data(), key.size())) + ".cubin");
}

CacheRead CubinCache::read(const ScheduleKey& schedule, const std::string& fingerprint) const {
  const std::string key = cache_key_text(schedule, fingerprint);
  CacheRead result;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (const auto it = state_->memory.find(key); it != state_->memory.end()) {
      result.outcome = CacheLookup::memory_hit;
      result.cubin = it->second;
      return result;
    }
    if (state_->storage != CacheStorage::disk) return result;
  }
  const std::filesystem::path path = entry_path(schedule, fingerprint);
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return result;  // no entry (or none we can see): a miss
  if (size > max_entry_bytes) {
    result.outcome = CacheLookup::corrupt;
    result.reason = path.string() + ": " + std::to_string(size) + " bytes, larger than any cubin entry";
    return result;
  }
  std::ifstream in(path, std::ios::binary);
  std::string bytes(static_cast<std::size_t>(size), '\0');
  if (!in.read(bytes.data(), static_cast<std::streamsize>(size))) {
    result.outcome = CacheLookup::corrupt;
    result.reason = path.string() + ": unreadable";
    return result;
  }
  if (const auto why = parse_entry(bytes, key, result.cubin)) {
    // Another key under the same file name (a hash collision, or a file
    // copied over it) is an entry of some other kernel, not damage: a miss,
    // compiled and written over as any miss is.
    if (*why == other_key) {
      result.outcome = CacheLookup::miss;
      result.reason = path.string() + ": " + *why;
      result.cubin = {};
      return result;
    }
    result.outcome = CacheLookup::corrupt;
    result.reason = path.string() + ": " + *why;
    result.cubin = {};
    return result;
  }
  result.outcome = CacheLookup::disk_hit;
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->memory[key] = result.cubin;
  return result;
}

void CubinCache::write(const ScheduleKey& schedule, const std::string& fingerprint, const CompiledCubin& cubin) {
  const std::string key = cache_key_text(schedule, fingerprint);
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->memory[key] = cubin;
    if (state_->storage != CacheStorage::disk) return;
  }
  const std::filesystem::path path = entry_path(schedule, fingerprint);
  // A unique temporary file beside the entry (same file system, so the
  // rename is atomic), filled, flushed to disk, then renamed over the entry.
  std::string temporary_name = ".";
  temporary_name += path.filename().string();
  temporary_name += ".XXXXXX";
  std::string temporary = (directory_ / temporary_name).string();
  std::string failure;
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) {
    failure = "cannot create a file in " + directory_.string() + ": " + std::strerror(errno);
  } else {
    const std::string header = header_of(key, cubin);
    const bool written = write_all(fd, header.data(), header.size()) &&
                         write_all(fd, cubin.image.data(), cubin.image.size()) && ::fsync(fd) == 0;
    const int saved = errno;
    ::close(fd);
    if (!written) {
      failure = "cannot write " + temporary + ": " + std::strerror(saved);
    } else if (::rename(temporary.c_str(), path.c_str()) != 0) {
      failure = "cannot rename " + temporary + " to " + path.string() + ": " + std::strerror(errno);
    }
    if (!failure.empty()) ::unlink(temporary.c_str());
  }
  if (failure.empty()) return;
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->storage = CacheStorage::memory_only;
  state_->status = "in memory only: " + failure;
}

}  // namespace oocfft::kernels::cuda
