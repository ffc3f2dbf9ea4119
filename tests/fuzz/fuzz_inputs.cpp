// oocfft_fuzz: a seeded random-mutation fuzzer for what oocfft reads from
// outside: the command line's numbers, sizes and shapes, dataset paths, and
// HDF5 files (a small valid file with bytes flipped, cut or overwritten).
// Each input must be taken or refused with the documented exception
// (std::invalid_argument from the value parsers, oocfft::Error from the
// library); anything else, or a crash, is a finding. Prints the seed and the
// iteration of a finding so it can be replayed.
//
//   oocfft_fuzz [--seconds N] [--seed S] [--dir DIR]
#include <cmath>
#include <hdf5.h>

#include <oocfft/oocfft.hpp>

#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/value_parsers.hpp"

namespace {

namespace fs = std::filesystem;
using Rng = std::mt19937_64;

const char* const text_corpus[] = {"4",        "4x4x4",     "512MiB",   "4GiB",     "1024x1024x2048",
                                   "18446744073709551615", "0",  "1x2",      "volume.h5:/data", "a:/b/c",
                                   "x.h5:/g/nested/d", "17KiB",   "65536x65536", "3x5x7",
                                   "532e-9", "8e-6,6e-6", "-2e-3:6e-3:64", "1e-3 2e-3\n3e-3", "1e308:-1e308:3"};

std::string mutate(std::string s, Rng& rng) {
  std::uniform_int_distribution<int> op(0, 3), byte(0, 255);
  const int edits = 1 + int(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = s.empty() ? 0 : rng() % (s.size() + 1);
    switch (op(rng)) {
      case 0: s.insert(s.begin() + at, char(byte(rng))); break;
      case 1: if (!s.empty() && at < s.size()) s.erase(at, 1); break;
      case 2: if (at < s.size()) s[at] = char(byte(rng)); break;
      default: s.insert(at, s.substr(0, rng() % (s.size() + 1))); break;  // repeat a prefix
    }
  }
  return s;
}

// One text through every parser; a finding is returned as text.
std::string try_text(const std::string& text) {
  try { (void)oocfft::apps::parse_decimal(text); } catch (const std::invalid_argument&) {}
  try { (void)oocfft::apps::parse_size(text); } catch (const std::invalid_argument&) {}
  try {
    const oocfft::Shape s = oocfft::apps::parse_shape(text);
    if (s.nz == 0 || s.ny == 0 || s.nx == 0) return "parse_shape accepted a zero axis";
    (void)s.elements();  // must not overflow: the parser refuses that
  } catch (const std::invalid_argument&) {
  }
  try {
    if (!std::isfinite(oocfft::apps::parse_real(text))) return "parse_real accepted a non-finite " + text;
  } catch (const std::invalid_argument&) {
  }
  try {
    const auto [x, y] = oocfft::apps::parse_pitch(text);
    if (!(x > 0) || !(y > 0)) return "parse_pitch accepted a pitch that is not positive: " + text;
  } catch (const std::invalid_argument&) {
  }
  try {
    for (double v : oocfft::apps::parse_range(text))
      if (!std::isfinite(v)) return "parse_range gave a non-finite distance for " + text;
  } catch (const std::invalid_argument&) {
  }
  try {
    if (oocfft::apps::parse_real_list(text).empty()) return "parse_real_list gave no number for " + text;
  } catch (const std::invalid_argument&) {
  }
  try {
    const oocfft::DatasetPath p = oocfft::DatasetPath::parse(text);
    if (p.file.empty() || p.dataset.empty() || p.dataset[0] != '/') return "DatasetPath::parse accepted " + text;
  } catch (const oocfft::Error& e) {
    if (e.kind() != oocfft::ErrorKind::invalid_argument) return std::string("DatasetPath::parse threw ") + e.what();
  }
  return "";
}

// A small valid file: a chunked complex64 dataset as h5py writes it, a
// real float64 one and an attribute.
void write_seed_file(const fs::path& path) {
  const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hid_t t = H5Tcreate(H5T_COMPOUND, 8);
  H5Tinsert(t, "r", 0, H5T_NATIVE_FLOAT);
  H5Tinsert(t, "i", 4, H5T_NATIVE_FLOAT);
  const hsize_t dims[3] = {4, 6, 8}, chunk[3] = {2, 3, 8};
  const hid_t space = H5Screate_simple(3, dims, nullptr);
  const hid_t create = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(create, 3, chunk);
  std::vector<std::complex<float>> v(4 * 6 * 8);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = {float(i % 7) - 3.0f, float(i % 5) * 0.5f};
  const hid_t d = H5Dcreate2(f, "/volume", t, space, H5P_DEFAULT, create, H5P_DEFAULT);
  H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  const hid_t attr_space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(d, "note", H5T_NATIVE_INT, attr_space, H5P_DEFAULT, H5P_DEFAULT);
  const int one = 1;
  H5Awrite(a, H5T_NATIVE_INT, &one);
  std::vector<double> r(5 * 7);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = double(i) / 3;
  const hsize_t rdims[2] = {5, 7};
  const hid_t rspace = H5Screate_simple(2, rdims, nullptr);
  const hid_t rd = H5Dcreate2(f, "/real", H5T_NATIVE_DOUBLE, rspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(rd, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, r.data());
  H5Dclose(rd); H5Sclose(rspace); H5Aclose(a); H5Sclose(attr_space); H5Dclose(d);
  H5Pclose(create); H5Sclose(space); H5Tclose(t); H5Fclose(f);
}

std::vector<char> read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// One mutated file through inspect_dataset and, where it is accepted, a
// transform on the host backend into a new file.
std::string try_file(const std::vector<char>& seed, Rng& rng, const fs::path& dir) {
  std::vector<char> bytes = seed;
  const int kind = int(rng() % 3);
  if (kind == 0) {
    for (int e = 0, n = 1 + int(rng() % 16); e < n; ++e) bytes[rng() % bytes.size()] = char(rng() & 0xFF);
  } else if (kind == 1) {
    bytes.resize(rng() % bytes.size());
  } else {
    const std::size_t at = rng() % bytes.size(), n = std::min<std::size_t>(1 + rng() % 64, bytes.size() - at);
    for (std::size_t i = 0; i < n; ++i) bytes[at + i] = char(rng() & 0xFF);
  }
  const fs::path in = dir / "fuzz_in.h5", out = dir / "fuzz_out.h5";
  { std::ofstream(in, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size())); }
  fs::remove(out);
  for (const char* name : {"/volume", "/real"}) {
    try {
      const oocfft::DatasetInfo info = oocfft::inspect_dataset({in.string(), name});
      oocfft::Options o;
      o.backend = oocfft::Backend::host;
      oocfft::transform_dataset(info.path, {out.string(), "/s"}, oocfft::Direction::forward, o);
      fs::remove(out);
    } catch (const oocfft::Error&) {
    } catch (const std::exception& e) {
      return std::string("a file threw something other than oocfft::Error: ") + e.what();
    }
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 10;
  std::uint64_t seed = 1;
  fs::path dir = fs::temp_directory_path() / ("oocfft_fuzz_" + std::to_string(::getpid()));
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--seconds") seconds = std::stod(argv[i + 1]);
    else if (flag == "--seed") seed = std::stoull(argv[i + 1]);
    else if (flag == "--dir") dir = argv[i + 1];
    else { std::fprintf(stderr, "usage: %s [--seconds N] [--seed S] [--dir DIR]\n", argv[0]); return 2; }
  }
  fs::create_directories(dir);
  const fs::path seed_file = dir / "seed.h5";
  write_seed_file(seed_file);
  const std::vector<char> file_seed = read_all(seed_file);
  Rng rng(seed);
  const auto start = std::chrono::steady_clock::now();
  std::size_t texts = 0, files = 0;
  for (std::size_t iteration = 0;; ++iteration) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) break;
    std::string finding;
    if (iteration % 8 == 7) {
      finding = try_file(file_seed, rng, dir);
      ++files;
    } else {
      const std::string text = mutate(text_corpus[rng() % std::size(text_corpus)], rng);
      try {
        finding = try_text(text);
      } catch (const std::exception& e) {
        finding = "text '" + text + "' threw " + e.what();
      }
      ++texts;
    }
    if (!finding.empty()) {
      std::fprintf(stderr, "finding at seed %llu, iteration %zu: %s\n", (unsigned long long)seed, iteration,
                   finding.c_str());
      return 1;
    }
  }
  fs::remove_all(dir);
  std::printf("oocfft_fuzz: seed %llu, %.0f s: %zu texts, %zu mutated HDF5 files, no findings\n",
              (unsigned long long)seed, seconds, texts, files);
  return 0;
}
