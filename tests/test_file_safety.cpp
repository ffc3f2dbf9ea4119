// The io layer's file safety (issue 46, part A) below the command: the run
// lock (live, stale and foreign owners), leftovers of killed runs named
// with how to remove them (never removed), and the words of a cancel.
// The command's own cases (kills, signals, --json, fsync order) are in
// test_cli_file_safety.cpp.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>

#include "io/output_temporaries.hpp"
#include "io/run_lock.hpp"
#include "tests/h5py_fixtures.hpp"

namespace oocfft {
namespace {

namespace fs = std::filesystem;
using namespace test_h5;

// A pid that names no process: a child that has exited and been reaped.
pid_t dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

void write_lock(const std::string& path, const std::string& host, long pid) {
  std::ofstream(path) << "oocfft run lock\nhost " << host << "\npid " << pid << "\nstart 0\n";
}

std::string hostname() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

TEST(RunLock, LiveOwnerIsRefusedStaleOneTakenOverForeignOneNamed) {
  const fs::path dir = scratch_directory();
  const std::string file = (dir / "out.h5").string();
  const std::string lock_path = io::RunLock::path_for(file);
  {
    const io::RunLock held(file, "test");
    EXPECT_EQ(held.path(), lock_path);
    EXPECT_TRUE(fs::exists(lock_path));
    // Another spelling of the same file shares the lock.
    expect_error([&] { io::RunLock second((dir / "." / "out.h5").string(), "test"); }, ErrorKind::io,
                 {"another oocfft run", std::to_string(::getpid()), lock_path, "rm '"});
  }
  EXPECT_FALSE(fs::exists(lock_path)) << "removed at the end";

  write_lock(lock_path, hostname(), dead_pid());
  {
    const io::RunLock taken(file, "test");
    std::ifstream in(lock_path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("pid " + std::to_string(::getpid())), std::string::npos) << text;
  }
  EXPECT_FALSE(fs::exists(lock_path));
  EXPECT_FALSE(fs::exists(lock_path + ".break"));

  write_lock(lock_path, "another-host.example", 4242);
  expect_error([&] { io::RunLock foreign(file, "test"); }, ErrorKind::io, {"another-host.example", "rm '"});
  EXPECT_TRUE(fs::exists(lock_path)) << "a lock that cannot be checked is left alone";
}

// A run killed after it created its temporary dataset: the next run names
// the marked leftover and how to remove it, and removes nothing; an
// in-place run killed between its two relinks: the input's new name is
// given with how to put it back.
TEST(FileSafety, LeftoversAreNamedWithHowToRemoveThemNeverRemoved) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  const fs::path file = copy_fixtures_to(dir);
  const DatasetPath in{file.string(), "/c64_3d"}, out{file.string(), "/spectrum"};
  const pid_t child = ::fork();
  if (child == 0) {
    io::DatasetTransfer transfer(in, out, false, {});
    ::_exit(0);  // as killed: no destructor, no close
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  const std::vector<std::string> before = links(file, "/");
  ASSERT_NE(std::find(before.begin(), before.end(), ".oocfft-partial-spectrum"), before.end());
  expect_error([&] { transform_dataset(in, out, Direction::forward, [] {
                       Options o;
                       o.backend = Backend::host;
                       return o;
                     }()); },
               ErrorKind::io, {file.string() + ":/.oocfft-partial-spectrum", "did not finish", "del h5py.File"});
  EXPECT_EQ(links(file, "/"), before) << "nothing removed, nothing added";
  // Every other dataset of the file reads as before.
  EXPECT_NO_THROW(inspect_dataset({file.string(), "/c128_3d"}));

  // The input moved aside by a commit that did not finish.
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(H5Lmove(f, "/c128_3d", f, "/.oocfft-replaced-c128_3d", H5P_DEFAULT, H5P_DEFAULT), 0);
  H5Fclose(f);
  expect_error([&] { io::DatasetTransfer t({file.string(), "/c128_3d"}, {file.string(), "/c128_3d"}, true, {}); },
               ErrorKind::io, {"/.oocfft-replaced-c128_3d", "killed while committing", ".move("});
}

// A cancel of a dataset transform says what holds for the files.
TEST(FileSafety, CancelSaysNothingWasCommitted) {
  REQUIRE_FIXTURES();
  const fs::path dir = scratch_directory();
  Options o;
  o.backend = Backend::host;
  std::atomic<int> bricks{0};
  o.progress = [&](const Progress&) { ++bricks; };
  o.cancel = [&] { return bricks.load() >= 3; };
  DatasetTransformOptions fo;
  fo.host_memory_budget = 64 << 10;
  const DatasetPath out{(dir / "o.h5").string(), "/s"};
  try {
    transform_dataset(fixture("/c128_cube"), out, Direction::forward, o, fo);
    ADD_FAILURE() << "not cancelled";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::cancelled);
    EXPECT_EQ(message.find("partly transformed"), std::string::npos) << message;
    EXPECT_NE(message.find("bricks; nothing was committed"), std::string::npos) << message;
    EXPECT_NE(message.find("nothing was written under " + out.to_string()), std::string::npos) << message;
  }
  EXPECT_FALSE(fs::exists(dir / "o.h5"));
}

}  // namespace
}  // namespace oocfft
