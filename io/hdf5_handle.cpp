#include "io/hdf5_handle.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "oocfft/error.hpp"

namespace oocfft::io {

namespace {

// on_exit (glibc) handlers run in the reverse order of registration, with
// the atexit ones: registered after HDF5 has initialised (it registers its
// cleanup then), this one runs first.
void end_now(int status, void*) {
  (void)std::fflush(nullptr);
  ::_exit(status);
}

}  // namespace

void end_process_before_hdf5_cleanup() noexcept {
  static std::atomic<bool> registered{false};
  if (!registered.exchange(true)) (void)::on_exit(end_now, nullptr);
}

herr_t Hid::close() noexcept {
  if (id_ < 0) return 0;
  herr_t status = 0;
  switch (kind_) {
    case HidKind::file: status = H5Fclose(id_); break;
    case HidKind::group: status = H5Gclose(id_); break;
    case HidKind::dataset: status = H5Dclose(id_); break;
    case HidKind::dataspace: status = H5Sclose(id_); break;
    case HidKind::datatype: status = H5Tclose(id_); break;
    case HidKind::property_list: status = H5Pclose(id_); break;
    case HidKind::attribute: status = H5Aclose(id_); break;
    case HidKind::object: status = H5Oclose(id_); break;
  }
  if (status < 0 && (kind_ == HidKind::file || kind_ == HidKind::dataset)) end_process_before_hdf5_cleanup();
  id_ = H5I_INVALID_HID;
  return status;
}

void Hid::reset() noexcept { (void)close(); }

namespace {

// H5Ewalk2 callback, walking upward: the first record is the innermost
// (where the failure was detected, e.g. the system call and its errno).
herr_t take_innermost(unsigned n, const H5E_error2_t* record, void* text) {
  if (n == 0 && record->desc) *static_cast<std::string*>(text) = record->desc;
  return 0;
}

}  // namespace

std::string hdf5_error_text() {
  std::string text;
  (void)H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, take_innermost, &text);
  (void)H5Eclear2(H5E_DEFAULT);
  return text;
}

template <class Status>
Status check(Status status, const std::string& what) {
  if (status < 0) {
    const std::string detail = hdf5_error_text();
    throw Error(ErrorKind::io, detail.empty() ? what : what + ": " + detail);
  }
  return status;
}

template hid_t check<hid_t>(hid_t, const std::string&);
template herr_t check<herr_t>(herr_t, const std::string&);

ErrorStackSilencer::ErrorStackSilencer() {
  saved_ = H5Eget_auto2(H5E_DEFAULT, &previous_, &previous_data_) >= 0;
  (void)H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

ErrorStackSilencer::~ErrorStackSilencer() {
  if (saved_) (void)H5Eset_auto2(H5E_DEFAULT, previous_, previous_data_);
}

}  // namespace oocfft::io
