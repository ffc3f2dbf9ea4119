// DatasetPath: "FILE:/GROUP/DATASET" (include/oocfft/hdf5.hpp).
#include <algorithm>

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
  path = path.normalised();
  if (path.dataset == "/")
    throw Error(ErrorKind::invalid_argument, "\"" + text + "\" names no dataset after \":/\"");
  return path;
}

DatasetPath DatasetPath::normalised() const {
  DatasetPath path{file, ""};
  std::size_t start = 0;
  while (start <= dataset.size()) {
    const std::size_t end = std::min(dataset.find('/', start), dataset.size());
    const std::string component = dataset.substr(start, end - start);
    if (!component.empty() && component != ".") {
      path.dataset += '/';
      path.dataset += component;
    }
    start = end + 1;
  }
  if (path.dataset.empty()) path.dataset.push_back('/');  // the root group
  return path;
}

std::string DatasetPath::to_string() const { return file + ":" + dataset; }

}  // namespace oocfft
