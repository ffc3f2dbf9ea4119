#pragma once
// ScratchRoot: the folder under the test temporary directory that holds one
// test program's scratch files (a folder per test below it). It is removed
// when the program ends, so that repeated runs do not fill the temporary
// directory (a run of the HDF5 suites leaves tens of megabytes); where a
// test failed, it is kept for a look, and its path printed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

namespace oocfft::test {

class ScratchRoot {
 public:
  // TempDir()/<prefix><process id>.
  explicit ScratchRoot(const std::string& prefix)
      : path_(std::filesystem::path(::testing::TempDir()) / (prefix + std::to_string(::getpid()))) {}
  ~ScratchRoot() {
    if (::testing::UnitTest::GetInstance()->failed_test_count() > 0) {
      std::fprintf(stderr, "scratch files of the failed run kept in %s\n", path_.c_str());
      return;
    }
    std::error_code ignored;  // nothing to report to at exit
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchRoot(const ScratchRoot&) = delete;
  ScratchRoot& operator=(const ScratchRoot&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // A fresh, empty folder for the running test: <root>/<suite>.<test>.
  std::filesystem::path for_current_test() const {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::filesystem::path dir = path_ / (std::string(info->test_suite_name()) + "." + info->name());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace oocfft::test
