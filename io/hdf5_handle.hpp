#pragma once
// RAII for HDF5 ids and checked HDF5 calls.
//
// Hid owns one hid_t and closes it with the closer of its kind (H5Fclose,
// H5Dclose, ...); it is move-only, so an id is closed exactly once, also
// when an exception unwinds. check() turns a failed call into
// Error(ErrorKind::io) whose message names what was being done (the caller
// puts the file and dataset in `what`) and HDF5's own innermost description
// of the failure. ErrorStackSilencer keeps HDF5 from printing its error
// stack to stderr while the library works: scoped to one entry point and
// restored after, so a program that uses HDF5 itself keeps its own setting.
#include <hdf5.h>

#include <string>
#include <utility>

namespace oocfft::io {

// `object` is any object opened with H5Oopen (closed with H5Oclose).
enum class HidKind { file, group, dataset, dataspace, datatype, property_list, attribute, object };

class Hid {
 public:
  Hid() = default;
  Hid(hid_t id, HidKind kind) : id_(id), kind_(kind) {}
  ~Hid() { reset(); }
  Hid(Hid&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)), kind_(other.kind_) {}
  Hid& operator=(Hid&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
      kind_ = other.kind_;
    }
    return *this;
  }
  Hid(const Hid&) = delete;
  Hid& operator=(const Hid&) = delete;

  hid_t get() const { return id_; }
  explicit operator bool() const { return id_ >= 0; }
  // Closes the id now. Never throws: a close that fails in a destructor or
  // an unwind has nobody to report to (commit() flushes, checked, before).
  void reset() noexcept;
  // Closes the id now and returns the closer's status (negative: failed);
  // the id is given up either way.
  herr_t close() noexcept;

 private:
  hid_t id_ = H5I_INVALID_HID;
  HidKind kind_ = HidKind::datatype;
};

// A file or dataset whose close failed (its buffers could not be written:
// a full disk, a file-size limit) stays in HDF5's id table pointing at
// memory HDF5 has already freed (1.10 frees the object and keeps the id),
// and HDF5's own end-of-process cleanup (H5_term_library, run by exit())
// then crashes on it: exit status 139 after the error was reported. After
// such a close, a handler that runs before HDF5's ends the process with
// the status it was exiting with (stdio flushed), skipping HDF5's cleanup.
// Called by Hid::close; registered once.
void end_process_before_hdf5_cleanup() noexcept;

// HDF5's innermost error description on the current error stack ("unable
// to open file: name = ..., errno = 2, ..."), or "" when the stack is empty.
std::string hdf5_error_text();

// Throws Error(io, what + ": " + HDF5's description) when `status` < 0, and
// returns it otherwise. Used for hid_t and herr_t and htri_t results.
template <class Status>
Status check(Status status, const std::string& what);

// Takes ownership of a freshly created id, checked.
inline Hid checked_id(hid_t id, HidKind kind, const std::string& what) { return Hid(check(id, what), kind); }

// Turns off HDF5's automatic error printing for its lifetime and restores
// the previous handler after. Construct one at each library entry point,
// inside the HDF5 lock.
class ErrorStackSilencer {
 public:
  ErrorStackSilencer();
  ~ErrorStackSilencer();
  ErrorStackSilencer(const ErrorStackSilencer&) = delete;
  ErrorStackSilencer& operator=(const ErrorStackSilencer&) = delete;

 private:
  H5E_auto2_t previous_ = nullptr;
  void* previous_data_ = nullptr;
  bool saved_ = false;
};

}  // namespace oocfft::io
