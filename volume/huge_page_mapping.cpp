#include "volume/huge_page_mapping.hpp"

#include <sys/mman.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/format_bytes.hpp"
#include "oocfft/error.hpp"

namespace oocfft::volume {

namespace {
constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;
std::size_t rounded(std::size_t bytes) { return (bytes + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes; }
}  // namespace

HugePageMapping map_huge_page_advised(std::size_t bytes, const char* what) {
  HugePageMapping m;
  if (bytes > SIZE_MAX - huge_page_bytes)
    throw Error(ErrorKind::out_of_memory, std::string("cannot map ") + std::to_string(bytes) + " bytes for " + what);
  m.mapped = rounded(bytes);
  void* p = ::mmap(nullptr, m.mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw Error(ErrorKind::out_of_memory, std::string("could not map ") + format_bytes(double(bytes)) + " for " +
                                              what + ": " + std::strerror(errno));
  // Advice only: where transparent huge pages are off, 4 KiB pages serve.
  m.huge_pages_advised = ::madvise(p, m.mapped, MADV_HUGEPAGE) == 0;
  m.data = static_cast<std::byte*>(p);
  return m;
}

void unmap_huge_page_advised(std::byte* data, std::size_t bytes) noexcept {
  if (data != nullptr) ::munmap(data, rounded(bytes));
}

void first_touch(std::byte* data, std::size_t bytes) {
  const std::size_t pages = (bytes + huge_page_bytes - 1) / huge_page_bytes;
  tbb::parallel_for(std::size_t{0}, pages, [&](std::size_t page) {
    const std::size_t begin = page * huge_page_bytes;
    std::memset(data + begin, 0, std::min(huge_page_bytes, bytes - begin));
  });
}

}  // namespace oocfft::volume
