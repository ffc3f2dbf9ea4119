#include "volume/host_volume.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <cstdint>
#include <optional>

#include "transpose/line_transpose.hpp"
#include "transpose/run_copy.hpp"
#include "volume/chunked_registration.hpp"
#include "volume/host_chunks.hpp"

namespace oocfft::volume {

namespace {

// Chunks of about this size are page-locked one at a time: about 10 ms of
// cudaHostRegister each (0.04 s/GiB), fine enough that the locking keeps
// just ahead of the first pass's bricks.
constexpr std::size_t registration_chunk_bytes = std::size_t{256} << 20;

// Direct DMA from the array: whole (already locked), or chunk by chunk as a
// ChunkedRegistration locks it.
class HostDirectAccess final : public DirectAccess {
 public:
  HostDirectAccess(std::byte* data, Shape shape, std::size_t element_bytes, HostChunks chunks)
      : data_(data), shape_(shape), element_bytes_(element_bytes), chunks_(std::move(chunks)) {}
  HostDirectAccess(std::byte* data, Shape shape, std::size_t element_bytes, HostChunks chunks,
                   const PageLocker& locker)
      : data_(data), shape_(shape), element_bytes_(element_bytes) {
    registration_.emplace(data, std::move(chunks), locker);
  }
  ~HostDirectAccess() override { (void)finish(); }

  // The same memory both ways.
  std::vector<DmaCopy> copies(const Box& box, Transfer) override {
    const HostChunks& chunks = registration_ ? registration_->chunks() : *chunks_;
    const std::vector<ChunkCopy> pieces = chunk_copies(shape_, element_bytes_, box, chunks);
    if (registration_ && !registration_->wait_ready(last_chunk(pieces))) return {};
    std::vector<DmaCopy> out;
    out.reserve(pieces.size());
    for (const ChunkCopy& c : pieces)
      out.push_back({data_ + c.host_offset, c.device_offset, c.width, c.rows, c.host_pitch});
    return out;
  }

  double finish() override {
    if (!registration_ || finished_) return 0;
    finished_ = true;
    const double unlock_seconds = registration_->unlock();  // joins the locking thread first
    return unlock_seconds + registration_->lock_seconds();
  }

 private:
  std::byte* data_;
  Shape shape_;
  std::size_t element_bytes_;
  std::optional<HostChunks> chunks_;
  std::optional<ChunkedRegistration> registration_;
  bool finished_ = false;
};

}  // namespace

void HostVolume::read(const Box& box, BrickLayout layout, std::byte* staging) const {
  if (layout == BrickLayout::natural) {
    transpose::gather_runs(data_, shape_, element_bytes_, box, staging);
  } else {
    transpose::gather_lines(data_, shape_, element_bytes_, box, layout, staging);
  }
}

void HostVolume::write(const Box& box, BrickLayout layout, const std::byte* staging) {
  if (layout == BrickLayout::natural) {
    transpose::scatter_runs(data_, shape_, element_bytes_, box, staging);
  } else {
    transpose::scatter_lines(data_, shape_, element_bytes_, box, layout, staging);
  }
}

namespace {
// Row r of natural `box` in C order: its plane and its row in that plane.
template <class Copy>
void for_rows(const Box& box, Copy&& copy) {
  const std::size_t rows = box.extent.nz * box.extent.ny;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows, 64), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) copy(i, box.z0 + i / box.extent.ny, box.y0 + i % box.extent.ny);
  });
}
}  // namespace

void HostVolume::read_rows(const Box& box, std::byte* staging, std::size_t row_pitch) const {
  const std::size_t width = box.extent.nx * element_bytes_;
  for_rows(box, [&](std::size_t i, std::size_t z, std::size_t y) {
    std::memcpy(staging + i * row_pitch, data_ + ((z * shape_.ny + y) * shape_.nx + box.x0) * element_bytes_, width);
  });
}

void HostVolume::write_rows(const Box& box, const std::byte* staging, std::size_t row_pitch) {
  const std::size_t width = box.extent.nx * element_bytes_;
  for_rows(box, [&](std::size_t i, std::size_t z, std::size_t y) {
    std::memcpy(data_ + ((z * shape_.ny + y) * shape_.nx + box.x0) * element_bytes_, staging + i * row_pitch, width);
  });
}

std::unique_ptr<DirectAccess> HostVolume::open_direct_access(HostRegistration policy, const PageLocker& locker) {
  if (policy == HostRegistration::off) return nullptr;
  const std::size_t bytes = shape_.elements() * element_bytes_;
  if (locker.is_locked(data_, bytes))
    return std::make_unique<HostDirectAccess>(data_, shape_, element_bytes_, HostChunks(bytes));
  if (policy != HostRegistration::on) return nullptr;
  const std::size_t plane_bytes = shape_.ny * shape_.nx * element_bytes_;
  HostChunks chunks(reinterpret_cast<std::uintptr_t>(data_), shape_, element_bytes_,
                    std::max<std::size_t>(1, registration_chunk_bytes / plane_bytes));
  return std::make_unique<HostDirectAccess>(data_, shape_, element_bytes_, std::move(chunks), locker);
}

}  // namespace oocfft::volume
