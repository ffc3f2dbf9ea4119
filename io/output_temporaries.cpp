#include "io/output_temporaries.hpp"

#include <unistd.h>

#include <filesystem>

#include "io/dataset_attributes.hpp"
#include "io/hdf5_handle.hpp"
#include "io/hdf5_library.hpp"
#include "oocfft/error.hpp"

namespace oocfft::io {

namespace {

// Python with h5py is how users of HDF5 files most often edit them; the
// HDF5 tools have no command that deletes or renames a link.
std::string python_quoted(const std::string& text) {
  std::string q = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

std::string h5py_delete(const std::string& file, const std::string& name) {
  return "python3 -c 'import h5py; del h5py.File(" + python_quoted(file) + ", \"a\")[" + python_quoted(name) + "]'";
}

std::string h5py_move(const std::string& file, const std::string& from, const std::string& to) {
  return "python3 -c 'import h5py; h5py.File(" + python_quoted(file) + ", \"a\").move(" + python_quoted(from) +
         ", " + python_quoted(to) + ")'";
}

// The mark's text, or "" when `name` carries none.
std::string mark_of(hid_t file, const std::string& name) {
  if (H5Aexists_by_name(file, name.c_str(), temporary_attribute, H5P_DEFAULT) <= 0) {
    (void)hdf5_error_text();
    return "";
  }
  const hid_t attribute = H5Aopen_by_name(file, name.c_str(), temporary_attribute, H5P_DEFAULT, H5P_DEFAULT);
  if (attribute < 0) {
    (void)hdf5_error_text();
    return "";
  }
  Hid owned(attribute, HidKind::attribute);
  Hid type = checked_id(H5Tcopy(H5T_C_S1), HidKind::datatype, "reading " + name);
  check(H5Tset_size(type.get(), H5T_VARIABLE), "reading " + name);
  char* text = nullptr;
  if (H5Aread(owned.get(), type.get(), &text) < 0 || text == nullptr) {
    (void)hdf5_error_text();
    return "oocfft temporary";
  }
  std::string value = text;
  H5free_memory(text);
  return value.empty() ? "oocfft temporary" : value;
}

}  // namespace

std::string temporary_sibling_dataset(const std::string& dataset, const char* prefix) {
  const std::size_t slash = dataset.rfind('/');
  return dataset.substr(0, slash + 1) + prefix + dataset.substr(slash + 1);
}

void mark_temporary(hid_t object, const std::string& role, const std::string& where, long owner_pid) {
  write_string_attribute(object, temporary_attribute,
                         role + ", written by oocfft (pid " + std::to_string(owner_pid) + ")", where);
}

void unmark_temporary(hid_t object, const std::string& where) {
  check(H5Adelete(object, temporary_attribute), std::string("removing attribute ") + temporary_attribute + " of " + where);
}

void require_free_temporary_name(hid_t file, const std::string& file_name, const std::string& name,
                                 const std::string& needed_for) {
  if (!link_exists(file, name)) return;
  const std::string where = file_name + ":" + name;
  const std::string mark = mark_of(file, name);
  if (!mark.empty())
    throw Error(ErrorKind::io, where + " is left by an oocfft run that did not finish (" + mark +
                                   "); oocfft needs the name for " + needed_for + " and does not remove what it " +
                                   "did not create in this run. If no oocfft run is writing " + file_name +
                                   ", remove it: " + h5py_delete(file_name, name));
  if (std::filesystem::path(name).filename().string().rfind(replaced_prefix, 0) == 0)
    throw Error(ErrorKind::io, where + " exists: the input an in-place run of oocfft moved aside, left by a run " +
                                   "killed while committing, or a dataset of yours. oocfft needs the name for " +
                                   needed_for + ". Look at it, then remove it (" + h5py_delete(file_name, name) +
                                   ") or rename it");
  throw Error(ErrorKind::io, where + " exists and is not an oocfft temporary; oocfft needs that name for " +
                                 needed_for + " and does not touch datasets it did not create. Rename " + name +
                                 ", or write the output under another name");
}

void require_free_temporary_file(const std::string& temporary, const std::string& output_file) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(temporary, ec)))
    return;
  throw Error(ErrorKind::io, temporary + " exists: the partly written " + output_file +
                                 " of an oocfft run that did not finish, or a file of yours. oocfft writes a new "
                                 "output file under that name and does not remove what it did not create; if it is "
                                 "not yours, remove it (rm '" + temporary + "')");
}

void explain_missing_input(hid_t file, const DatasetPath& input) {
  if (link_exists(file, input.dataset)) return;
  const std::string replaced = temporary_sibling_dataset(input.dataset, replaced_prefix);
  if (!link_exists(file, replaced)) return;
  throw Error(ErrorKind::io, input.to_string() + ": no such dataset, but " + input.file + ":" + replaced +
                                 " is there: the input of an in-place oocfft run that was killed while committing. " +
                                 "Put it back: " + h5py_move(input.file, replaced, input.dataset));
}

}  // namespace oocfft::io
