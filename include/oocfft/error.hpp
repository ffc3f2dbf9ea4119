#pragma once
// oocfft::Error: the one exception type of the library. Its kind says what
// class of failure happened; its message names the input that caused it.
#include <stdexcept>
#include <string>

namespace oocfft {

enum class ErrorKind { invalid_argument, out_of_memory, io, cuda, unsupported, cancelled };

const char* to_string(ErrorKind kind) noexcept;

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message);
  ErrorKind kind() const noexcept { return kind_; }
  // The message as given: what() without its "oocfft: <kind>: " prefix
  // (for an Error made again from this one, as the ranks of a distributed
  // job and a cancelled commit do).
  std::string message() const;

 private:
  ErrorKind kind_;
};

}  // namespace oocfft
