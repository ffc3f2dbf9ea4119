#include "io/stored_type.hpp"

#include <array>
#include <memory>
#include <utility>

#include "oocfft/error.hpp"

namespace oocfft::io {
namespace {

// The complex compound member names oocfft accepts, in h5py's order first.
constexpr std::array<std::pair<const char*, const char*>, 3> complex_member_names{
    {{"r", "i"}, {"real", "imag"}, {"Real", "Imaginary"}}};

std::string member_name(hid_t compound, unsigned index) {
  // H5Tget_member_name allocates with HDF5's allocator: free it with H5free_memory.
  std::unique_ptr<char, herr_t (*)(void*)> name(H5Tget_member_name(compound, index), H5free_memory);
  return name ? std::string(name.get()) : std::string();
}

// 4 or 8 for an IEEE binary32 or binary64 float (either byte order), 0
// otherwise. The whole format is compared, not only the size: a float type
// with a corrupt bit layout (a damaged file) crashed HDF5's conversion in
// the fuzzer (tests/fuzz/README.md).
std::size_t float_bytes(hid_t type) {
  if (H5Tget_class(type) != H5T_FLOAT) return 0;
  for (hid_t ieee : {H5T_IEEE_F32LE, H5T_IEEE_F32BE, H5T_IEEE_F64LE, H5T_IEEE_F64BE})
    if (H5Tequal(type, ieee) > 0) return H5Tget_size(ieee);
  return 0;
}

Precision precision_of(std::size_t bytes) { return bytes == 4 ? Precision::single : Precision::double_precision; }

// Fills `type` when `file_type` is an accepted complex compound.
bool classify_compound(hid_t file_type, StoredType& type) {
  if (H5Tget_nmembers(file_type) != 2) return false;
  const std::string first = member_name(file_type, 0), second = member_name(file_type, 1);
  Hid m0(H5Tget_member_type(file_type, 0), HidKind::datatype), m1(H5Tget_member_type(file_type, 1), HidKind::datatype);
  if (!m0 || !m1) return false;
  const std::size_t bytes = float_bytes(m0.get());
  if (bytes == 0 || float_bytes(m1.get()) != bytes) return false;
  // Two members that lie inside the compound and do not overlap; a damaged
  // file can claim anything here, and HDF5's struct conversion trusts it.
  const std::size_t size = H5Tget_size(file_type);
  const std::size_t off0 = H5Tget_member_offset(file_type, 0), off1 = H5Tget_member_offset(file_type, 1);
  if (size < 2 * bytes || off0 > size - bytes || off1 > size - bytes ||
      (off0 < off1 ? off1 - off0 : off0 - off1) < bytes)
    return false;
  for (const auto& [re, im] : complex_member_names) {
    // Either member order is read correctly: the memory type matches by name.
    if ((first == re && second == im) || (first == im && second == re)) {
      type.element = StoredElement::complex_compound;
      type.precision = precision_of(bytes);
      type.dtype = bytes == 4 ? "complex64" : "complex128";
      type.real_name = re;
      type.imag_name = im;
      return true;
    }
  }
  return false;
}

Hid complex_compound(Precision precision, const std::string& re, const std::string& im, hid_t member) {
  const std::size_t bytes = real_bytes(precision);
  Hid compound = checked_id(H5Tcreate(H5T_COMPOUND, 2 * bytes), HidKind::datatype, "creating a complex type");
  check(H5Tinsert(compound.get(), re.c_str(), 0, member), "creating a complex type");
  check(H5Tinsert(compound.get(), im.c_str(), bytes, member), "creating a complex type");
  return compound;
}

// allocated_bytes, fully_allocated, filters and unavailable_filters.
void describe_storage(hid_t dataset, hid_t create, const std::string& where, DatasetInfo& info) {
  info.allocated_bytes = H5Dget_storage_size(dataset);
  if (info.chunks.empty()) {
    // H5Dget_space_status compares bytes, which a filtered chunked dataset
    // never fills; a contiguous one is allocated whole or not at all.
    H5D_space_status_t status = H5D_SPACE_STATUS_ERROR;
    check(H5Dget_space_status(dataset, &status), "reading the storage of " + where);
    info.fully_allocated = status == H5D_SPACE_STATUS_ALLOCATED;
  } else {
    hsize_t written = 0;
    Hid all = checked_id(H5Dget_space(dataset), HidKind::dataspace, "counting the chunks of " + where);
    check(H5Dget_num_chunks(dataset, all.get(), &written), "counting the chunks of " + where);
    std::size_t total = 1;
    for (std::size_t a = 0; a < info.dims.size(); ++a) total *= (info.dims[a] + info.chunks[a] - 1) / info.chunks[a];
    info.chunks_written = written;
    info.chunks_in_all = total;
    info.fully_allocated = written >= total;
  }
  const int filters = H5Pget_nfilters(create);
  for (int f = 0; f < filters; ++f) {
    unsigned flags = 0, config = 0;
    std::size_t values = 0;
    char name[256] = {};
    const H5Z_filter_t id = H5Pget_filter2(create, static_cast<unsigned>(f), &flags, &values, nullptr,
                                           sizeof name, name, &config);
    if (id < 0) {
      (void)hdf5_error_text();
      info.filters.push_back("unknown");
      info.unavailable_filters.push_back("unknown");
      continue;
    }
    // The predefined filters' names as HDF5 spells them; others with their
    // registered id, which is what a plugin is found by.
    std::string text = name[0] != '\0' ? name : "filter";
    if (id >= H5Z_FILTER_RESERVED) text += " (" + std::to_string(id) + ")";
    info.filters.push_back(text);
    const htri_t available = H5Zfilter_avail(id);
    if (available < 0) (void)hdf5_error_text();
    // An optional filter that cannot run was skipped when the chunks were
    // written, and is skipped again when they are read.
    if (available <= 0 && !(flags & H5Z_FLAG_OPTIONAL)) info.unavailable_filters.push_back(text);
  }
}

}  // namespace

std::string describe_type(hid_t type) {
  const std::size_t bits = 8 * H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_INTEGER:
      return std::string(H5Tget_sign(type) == H5T_SGN_NONE ? "uint" : "int") + std::to_string(bits);
    case H5T_FLOAT: return "float" + std::to_string(bits);
    case H5T_STRING: return "string";
    case H5T_BITFIELD: return "bitfield";
    case H5T_OPAQUE: return "opaque";
    case H5T_REFERENCE: return "reference";
    case H5T_ENUM: return "enum";
    case H5T_VLEN: return "variable-length sequence";
    case H5T_ARRAY: return "array";
    case H5T_TIME: return "time";
    case H5T_COMPOUND: {
      std::string text = "compound {";
      const int members = H5Tget_nmembers(type);
      for (int m = 0; m < members; ++m) {
        Hid member(H5Tget_member_type(type, static_cast<unsigned>(m)), HidKind::datatype);
        text += (m ? ", " : "") + member_name(type, static_cast<unsigned>(m)) + ": " +
                (member ? describe_type(member.get()) : "?");
      }
      return text + "}";
    }
    default: return "unknown type";
  }
}

OpenedDataset describe_dataset(hid_t dataset, const DatasetPath& path) {
  const std::string where = path.to_string();
  OpenedDataset opened;
  DatasetInfo& info = opened.info;
  info.path = path;

  Hid space = checked_id(H5Dget_space(dataset), HidKind::dataspace, "reading the dataspace of " + where);
  Hid file_type = checked_id(H5Dget_type(dataset), HidKind::datatype, "reading the type of " + where);
  const int rank = check(H5Sget_simple_extent_ndims(space.get()), "reading the rank of " + where);
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0) check(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr), "reading the shape of " + where);
  info.dims.assign(dims.begin(), dims.end());
  const std::string type_text = describe_type(file_type.get());

  StoredType& type = opened.type;
  std::size_t complex_rank = info.dims.size();
  if (H5Tget_class(file_type.get()) == H5T_COMPOUND) {
    if (!classify_compound(file_type.get(), type))
      throw Error(ErrorKind::unsupported, where + ": type " + type_text +
                                              " is not a complex compound {r, i} (or real/imag, Real/Imaginary) "
                                              "of float32 or float64");
  } else if (const std::size_t bytes = float_bytes(file_type.get()); bytes != 0) {
    type.precision = precision_of(bytes);
    type.dtype = bytes == 4 ? "float32" : "float64";
    // A trailing axis of two on a float dataset of 2..4 axes is read as
    // (re, im) pairs; a 1D dataset of length 2 stays two real values.
    if (info.dims.size() >= 2 && info.dims.back() == 2) {
      type.element = StoredElement::complex_pairs;
      complex_rank -= 1;
    } else {
      type.element = StoredElement::real;
    }
  } else {
    throw Error(ErrorKind::unsupported, where + ": type " + type_text +
                                            " cannot be transformed (complex compound, float32 or float64 only)");
  }
  if (complex_rank < 1 || complex_rank > 3)
    throw Error(ErrorKind::unsupported, where + ": " + std::to_string(info.dims.size()) + " axes of type " +
                                            type_text + "; oocfft transforms volumes of 1, 2 or 3 axes");
  for (std::size_t d : info.dims)
    if (d == 0) throw Error(ErrorKind::invalid_argument, where + ": an axis of length 0 (nothing to transform)");

  std::size_t padded[3] = {1, 1, 1};
  for (std::size_t a = 0; a < complex_rank; ++a) padded[3 - complex_rank + a] = info.dims[a];
  info.shape = Shape{padded[0], padded[1], padded[2]};
  info.precision = type.precision;
  info.element = type.element;
  info.dtype = type.dtype;
  opened.complex_rank = complex_rank;

  Hid create = checked_id(H5Dget_create_plist(dataset), HidKind::property_list, "reading the layout of " + where);
  if (H5Pget_layout(create.get()) == H5D_CHUNKED) {
    std::vector<hsize_t> chunks(info.dims.size());
    check(H5Pget_chunk(create.get(), rank, chunks.data()), "reading the chunks of " + where);
    info.chunks.assign(chunks.begin(), chunks.end());
  }
  describe_storage(dataset, create.get(), where, info);
  return opened;
}

void check_transformable(const DatasetInfo& info) {
  const std::string where = info.path.to_string();
  if (!info.unavailable_filters.empty()) {
    std::string names;
    for (const std::string& f : info.unavailable_filters) names += (names.empty() ? "" : ", ") + f;
    throw Error(ErrorKind::unsupported,
                where + ": stored with the filter " + names + ", which this HDF5 library cannot apply: no plugin "
                "for it is installed (install one, e.g. Python's hdf5plugin, and point HDF5_PLUGIN_PATH at its "
                "directory)");
  }
  const bool chunked = !info.chunks.empty();
  const bool unwritten = chunked ? info.chunks_written == 0 || info.chunks_written < info.chunks_in_all / 1024
                                 : !info.fully_allocated;
  if (unwritten)
    throw Error(ErrorKind::invalid_argument,
                where + ": (almost) none of its values were ever written: " +
                    (chunked ? std::to_string(info.chunks_written) + " of its " + std::to_string(info.chunks_in_all) +
                                   " chunks are in the file"
                             : std::string("the file holds no storage for it")) +
                    " (" + std::to_string(info.allocated_bytes) + " bytes; the rest reads as the fill value, a "
                    "constant), so it is refused rather than streamed; write the dataset first");
}

Hid memory_type(const StoredType& type) {
  const hid_t member = type.precision == Precision::single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
  if (type.element == StoredElement::complex_compound)
    return complex_compound(type.precision, type.real_name, type.imag_name, member);
  return checked_id(H5Tcopy(member), HidKind::datatype, "copying a float type");
}

Hid h5py_complex_file_type(Precision precision) {
  return complex_compound(precision, "r", "i", precision == Precision::single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE);
}

}  // namespace oocfft::io
