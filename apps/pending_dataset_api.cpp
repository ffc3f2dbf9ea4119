// TEMPORARY: the HDF5 dataset API (include/oocfft/hdf5.hpp) is being
// implemented in io/ and the engine; until it lands, these definitions let
// the command line build and refuse the dataset commands at run time.
#include <oocfft/hdf5.hpp>

#include <oocfft/error.hpp>

namespace oocfft {

namespace {
[[noreturn]] void not_yet(const char* what) {
  throw Error(ErrorKind::unsupported, std::string(what) + ": HDF5 datasets are not in this build yet");
}
}  // namespace

DatasetPath DatasetPath::parse(const std::string&) { not_yet("DatasetPath::parse"); }
std::string DatasetPath::to_string() const { not_yet("DatasetPath::to_string"); }
std::size_t DatasetInfo::complex_bytes() const { not_yet("DatasetInfo::complex_bytes"); }
DatasetInfo inspect_dataset(const DatasetPath&) { not_yet("inspect_dataset"); }
DatasetTransformReport transform_dataset(const DatasetPath&, const DatasetPath&, Direction, const Options&,
                                         const DatasetTransformOptions&) {
  not_yet("transform_dataset");
}
std::string describe_dataset_transform(const DatasetPath&, const Options&, const DatasetTransformOptions&) {
  not_yet("describe_dataset_transform");
}

}  // namespace oocfft
