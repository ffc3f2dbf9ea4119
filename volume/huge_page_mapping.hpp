#pragma once
// Anonymous host memory in whole 2 MiB pages with transparent huge pages
// advised, the memory behind HostBuffer and the public HostArray:
// page-locking huge-page memory measured 0.025-0.027 s/GiB against
// 0.045-0.049 s/GiB on 4 KiB pages (docs/ARCHITECTURE.md, "Measured ceilings").
#include <cstddef>

namespace oocfft::volume {

struct HugePageMapping {
  std::byte* data = nullptr;
  std::size_t mapped = 0;           // bytes mapped: the request rounded up to 2 MiB
  bool huge_pages_advised = false;  // madvise(MADV_HUGEPAGE) accepted
};

// Maps `bytes` (> 0). Throws Error(out_of_memory) naming `what`.
HugePageMapping map_huge_page_advised(std::size_t bytes, const char* what);
// Unmaps what map_huge_page_advised(bytes) returned.
void unmap_huge_page_advised(std::byte* data, std::size_t bytes) noexcept;
// Writes every page once from all cores, so the pages exist (and are huge
// where the kernel could make them so) before cudaHostRegister walks them
// on one thread.
void first_touch(std::byte* data, std::size_t bytes);

}  // namespace oocfft::volume
