// An LD_PRELOAD probe for the durability tests (test_cli_file_safety.cpp):
// logs every fsync, fdatasync and rename of the process to the file named
// by OOCFFT_FSYNC_PROBE_LOG, one line each ("fsync PATH", "rename A B"), in
// the order they happen, and then does the call.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void log_line(const char* line) {
  const char* path = getenv("OOCFFT_FSYNC_PROBE_LOG");
  if (path == NULL) return;
  const int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  (void)!write(fd, line, strlen(line));
  close(fd);
}

static void log_fd(const char* call, int fd) {
  char link[64], target[4096], line[4200];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link, target, sizeof target - 1);
  target[n > 0 ? n : 0] = '\0';
  snprintf(line, sizeof line, "%s %s\n", call, target);
  log_line(line);
}

int fsync(int fd) {
  static int (*real)(int) = NULL;
  if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  log_fd("fsync", fd);
  return real(fd);
}

int fdatasync(int fd) {
  static int (*real)(int) = NULL;
  if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  log_fd("fsync", fd);
  return real(fd);
}

int rename(const char* from, const char* to) {
  static int (*real)(const char*, const char*) = NULL;
  if (real == NULL) real = (int (*)(const char*, const char*))dlsym(RTLD_NEXT, "rename");
  char line[8300];
  snprintf(line, sizeof line, "rename %s %s\n", from, to);
  log_line(line);
  return real(from, to);
}
