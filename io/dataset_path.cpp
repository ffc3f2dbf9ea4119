// DatasetPath: "FILE:/GROUP/DATASET" (include/oocfft/hdf5.hpp).
#include "oocfft/error.hpp"
#include "oocfft/hdf5.hpp"

namespace oocfft {

DatasetPath DatasetPath::parse(const std::string& text) {
  // The last ":/" splits: a file name may itself hold ":/" ("C:/data/v.h5"),
  // an HDF5 path name may hold ':' but never starts a component with ":/".
  const std::size_t split = text.rfind(":/");
  if (split == std::string::npos)
    throw Error(ErrorKind::invalid_argument, "\"" + text + "\" is not FILE:/DATASET (no \":/\")");
  DatasetPath path{text.substr(0, split), text.substr(split + 1)};
  if (path.file.empty()) throw Error(ErrorKind::invalid_argument, "\"" + text + "\" names no file before \":/\"");
  if (path.dataset.find_first_not_of('/') == std::string::npos)
    throw Error(ErrorKind::invalid_argument, "\"" + text + "\" names no dataset after \":/\"");
  return path;
}

std::string DatasetPath::to_string() const { return file + ":" + dataset; }

}  // namespace oocfft
