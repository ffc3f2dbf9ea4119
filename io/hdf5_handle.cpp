#include "io/hdf5_handle.hpp"

#include "oocfft/error.hpp"

namespace oocfft::io {

void Hid::reset() noexcept {
  if (id_ < 0) return;
  switch (kind_) {
    case HidKind::file: (void)H5Fclose(id_); break;
    case HidKind::group: (void)H5Gclose(id_); break;
    case HidKind::dataset: (void)H5Dclose(id_); break;
    case HidKind::dataspace: (void)H5Sclose(id_); break;
    case HidKind::datatype: (void)H5Tclose(id_); break;
    case HidKind::property_list: (void)H5Pclose(id_); break;
    case HidKind::attribute: (void)H5Aclose(id_); break;
    case HidKind::object: (void)H5Oclose(id_); break;
  }
  id_ = H5I_INVALID_HID;
}

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
