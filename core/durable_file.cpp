#include "core/durable_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "oocfft/error.hpp"

namespace oocfft {

namespace {

namespace fs = std::filesystem;

Error system_error(const std::string& what, int error) {
  return Error(ErrorKind::io, what + ": " + std::strerror(error));
}

std::string directory_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

// Opens, fsyncs and closes `path` (a file or a directory); EINTR retried.
void fsync_opened(const std::string& path, int flags, const std::string& what) {
  int fd;
  do fd = ::open(path.c_str(), flags | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) throw system_error(what + ": opening " + path, errno);
  int status;
  do status = ::fsync(fd);
  while (status != 0 && errno == EINTR);
  const int error = errno;
  ::close(fd);
  // Some file systems cannot fsync a directory (EINVAL): nothing more can
  // be done there, and the rename itself has happened.
  if (status != 0 && !(error == EINVAL && (flags & O_DIRECTORY)))
    throw system_error(what + ": fsync of " + path, error);
}

}  // namespace

void fsync_path(const std::string& path) { fsync_opened(path, O_RDONLY, "flushing " + path + " to disk"); }

void fsync_directory_of(const std::string& path) {
  fsync_opened(directory_of(path), O_RDONLY | O_DIRECTORY, "flushing the directory of " + path + " to disk");
}

void publish_file(const std::string& temporary, const std::string& destination) {
  if (::rename(temporary.c_str(), destination.c_str()) != 0)
    throw system_error("renaming " + temporary + " to " + destination, errno);
  fsync_directory_of(destination);
}

std::string temporary_sibling(const std::string& path, bool unique) {
  std::string name = path + ".oocfft-partial";
  if (unique) name += "." + std::to_string(::getpid());
  return name;
}

void write_file_atomically(const std::string& named, const std::string& text) {
  // A symbolic link keeps pointing where it did: the file it names is replaced.
  std::error_code ec;
  const std::string path = fs::is_symlink(named, ec) ? fs::weakly_canonical(named, ec).string() : named;
  const std::string temporary = temporary_sibling(path, true);
  const std::string what = "writing " + named;
  int fd;
  do fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) throw system_error(what + ": creating " + temporary, errno);
  int error = 0;
  // A file replaced keeps its permissions.
  struct stat old {};
  if (::stat(path.c_str(), &old) == 0 && ::fchmod(fd, old.st_mode & 07777) != 0) error = errno;
  for (std::size_t done = 0; done < text.size() && error == 0;) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno != EINTR) error = errno;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    ::unlink(temporary.c_str());
    throw system_error(what + " (through " + temporary + ")", error);
  }
  try {
    publish_file(temporary, path);
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
}

void check_writable_destination(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw Error(ErrorKind::io, what + " " + path + " is a directory");
  const std::string directory = directory_of(path);
  if (!fs::is_directory(directory, ec))
    throw Error(ErrorKind::io, what + " " + path + ": directory " + directory + " does not exist");
  if (::access(directory.c_str(), W_OK | X_OK) != 0)
    throw system_error(what + " " + path + ": cannot create files in " + directory, errno);
}

}  // namespace oocfft
