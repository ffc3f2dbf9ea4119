#include "io/run_lock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "oocfft/error.hpp"

namespace oocfft::io {

namespace {

namespace fs = std::filesystem;

// A lock's contents, parsed. start = 0: not recorded.
struct Owner {
  std::string host;
  long pid = 0;
  unsigned long long start = 0;
};

std::string this_host() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

// The start time of process `pid` (field 22 of /proc/PID/stat, clock ticks
// since boot); 0 when it cannot be read.
unsigned long long process_start(long pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t paren = text.rfind(')');  // the command name may hold spaces and parentheses
  if (paren == std::string::npos) return 0;
  std::istringstream fields(text.substr(paren + 1));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i)
    if (i == 22) return std::strtoull(field.c_str(), nullptr, 10);
  return 0;
}

std::string describe_self() {
  const long pid = ::getpid();
  return "oocfft run lock\nhost " + this_host() + "\npid " + std::to_string(pid) + "\nstart " +
         std::to_string(process_start(pid)) + "\n";
}

bool parse(const std::string& text, Owner& owner) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != "oocfft run lock") return false;
  while (std::getline(in, line)) {
    const std::size_t space = line.find(' ');
    if (space == std::string::npos) continue;
    const std::string key = line.substr(0, space), value = line.substr(space + 1);
    if (key == "host") owner.host = value;
    if (key == "pid") owner.pid = std::strtol(value.c_str(), nullptr, 10);
    if (key == "start") owner.start = std::strtoull(value.c_str(), nullptr, 10);
  }
  return owner.pid > 0 && !owner.host.empty();
}

// The lock's text and inode; false when it is gone.
bool read_lock(const std::string& path, std::string& text, ino_t& inode) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  ::fstat(fd, &st);
  inode = st.st_ino;
  text.clear();
  char buffer[512];
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(n));
  ::close(fd);
  return true;
}

enum class State { gone, live, stale, unknown };

State state_of(const Owner& owner) {
  if (owner.host != this_host()) return State::unknown;
  if (::kill(static_cast<pid_t>(owner.pid), 0) != 0 && errno == ESRCH) return State::stale;
  if (owner.start != 0) {
    const unsigned long long start = process_start(owner.pid);
    if (start != 0 && start != owner.start) return State::stale;  // the pid now names another process
  }
  return State::live;
}

std::string removal_hint(const std::string& path) { return "remove it (rm '" + path + "')"; }

}  // namespace

std::string RunLock::path_for(const std::string& file) {
  std::error_code ec;
  fs::path resolved = fs::weakly_canonical(fs::absolute(file, ec), ec);
  if (ec) resolved = file;
  return resolved.string() + ".oocfft-lock";
}

RunLock::RunLock(const std::string& file, const std::string& purpose)
    : path_(path_for(file)), owner_(describe_self()) {
  const std::string breaker = path_ + ".break";
  // A few rounds: a stale lock taken over, or a lock caught half-written
  // by its creator, is tried again.
  for (int attempt = 0;; ++attempt) {
    const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      const ssize_t written = ::write(fd, owner_.data(), owner_.size());
      const int error = written == static_cast<ssize_t>(owner_.size()) ? 0 : errno;
      ::close(fd);
      if (error != 0) {
        ::unlink(path_.c_str());
        throw Error(ErrorKind::io, purpose + ": writing the lock file " + path_ + ": " + std::strerror(error));
      }
      return;
    }
    if (errno != EEXIST)
      throw Error(ErrorKind::io, purpose + ": creating the lock file " + path_ +
                                     " (oocfft needs to create files beside its output): " + std::strerror(errno));
    std::string text;
    ino_t inode = 0;
    if (!read_lock(path_, text, inode)) continue;  // removed meanwhile: try again
    Owner owner;
    if (!parse(text, owner)) {
      // Its creator may be between open() and write(): give it a moment.
      if (attempt < 20) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        continue;
      }
      throw Error(ErrorKind::io, purpose + ": the lock file " + path_ +
                                     " is not one oocfft wrote; if no oocfft run is writing " + file + ", " +
                                     removal_hint(path_));
    }
    const State state = state_of(owner);
    if (state == State::live)
      throw Error(ErrorKind::io, purpose + ": another oocfft run (pid " + std::to_string(owner.pid) +
                                     ") is writing " + file + " (lock file " + path_ +
                                     "); wait for it to finish. If no oocfft run is writing it, " +
                                     removal_hint(path_));
    if (state == State::unknown)
      throw Error(ErrorKind::io, purpose + ": " + file + " is locked by an oocfft run on host " + owner.host +
                                     " (pid " + std::to_string(owner.pid) + ", lock file " + path_ +
                                     "); if that run is over, " + removal_hint(path_));
    if (attempt >= 20)
      throw Error(ErrorKind::io, purpose + ": could not take over the stale lock file " + path_ + "; " +
                                     removal_hint(path_));
    // Stale: take it over under the breaker, checking that it is still the
    // very lock found stale (another run may have taken it over already).
    const int bfd = ::open(breaker.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (bfd < 0) {
      if (errno != EEXIST)
        throw Error(ErrorKind::io, purpose + ": creating " + breaker + ": " + std::strerror(errno));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // another run is taking it over
      if (attempt == 19)
        throw Error(ErrorKind::io, purpose + ": " + breaker +
                                       " is left from an oocfft run that was killed while taking over a lock; " +
                                       removal_hint(breaker));
      continue;
    }
    ::close(bfd);
    std::string again;
    ino_t again_inode = 0;
    if (read_lock(path_, again, again_inode) && again == text && again_inode == inode) ::unlink(path_.c_str());
    ::unlink(breaker.c_str());
  }
}

RunLock::~RunLock() {
  // Removed only while it is still ours (a user may have removed it and
  // another run taken the name).
  std::string text;
  ino_t inode = 0;
  if (read_lock(path_, text, inode) && text == owner_) ::unlink(path_.c_str());
}

}  // namespace oocfft::io
