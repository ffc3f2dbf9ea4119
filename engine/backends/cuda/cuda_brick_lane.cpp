#include "engine/backends/cuda/cuda_brick_lane.hpp"

#include <cuda_runtime.h>  // make_cudaPitchedPtr, make_cudaPos, make_cudaExtent

#include <stdexcept>

#include "engine/planning/pass_program.hpp"
#include "kernels/cuda/cuda_check.hpp"

namespace oocfft::engine {

namespace {

// `n` units in runs of at most `most`, as few runs as that allows and of
// equal length (within one): cut greedily, a plane a little over a slot
// gives a full run and a sliver, a slot's turn and a DMA for a few KiB.
std::size_t balanced_run(std::size_t n, std::size_t most) {
  const std::size_t runs = (n + most - 1) / most;
  return (n + runs - 1) / runs;
}

// Splits a natural-layout box into pieces that are each one contiguous
// range of the device brick and at most `limit` elements: runs of whole
// planes, else of whole rows in one plane, else parts of one row.
std::vector<Box> device_contiguous_pieces(const Box& box, std::size_t limit) {
  const Shape& e = box.extent;
  std::vector<Box> pieces;
  if (e.elements() <= limit) return {box};
  const std::size_t plane = e.ny * e.nx;
  if (plane <= limit) {
    const std::size_t k = balanced_run(e.nz, limit / plane);
    for (std::size_t z = 0; z < e.nz; z += k)
      pieces.push_back({box.z0 + z, box.y0, box.x0, {std::min(k, e.nz - z), e.ny, e.nx}});
  } else if (e.nx <= limit) {
    const std::size_t k = balanced_run(e.ny, limit / e.nx);
    for (std::size_t z = 0; z < e.nz; ++z)
      for (std::size_t y = 0; y < e.ny; y += k)
        pieces.push_back({box.z0 + z, box.y0 + y, box.x0, {1, std::min(k, e.ny - y), e.nx}});
  } else {
    const std::size_t k = balanced_run(e.nx, limit);
    for (std::size_t z = 0; z < e.nz; ++z)
      for (std::size_t y = 0; y < e.ny; ++y)
        for (std::size_t x = 0; x < e.nx; x += k)
          pieces.push_back({box.z0 + z, box.y0 + y, box.x0 + x, {1, 1, std::min(k, e.nx - x)}});
  }
  return pieces;
}

bool same_box(const Box& a, const Box& b) {
  return a.z0 == b.z0 && a.y0 == b.y0 && a.x0 == b.x0 && a.extent.nz == b.extent.nz && a.extent.ny == b.extent.ny &&
         a.extent.nx == b.extent.nx;
}

// Offset of a piece's first element in the device brick of `box`.
std::size_t offset_in(const Box& box, const Box& piece) {
  const Shape& e = box.extent;
  return ((piece.z0 - box.z0) * e.ny + (piece.y0 - box.y0)) * e.nx + (piece.x0 - box.x0);
}

// A box between page-locked host memory and its packed device brick, one
// DMA per copy the store gave: 1D for single runs, 2D for runs at a
// constant stride.
void copy_box_direct(const std::vector<volume::DmaCopy>& copies, std::byte* device, bool to_device,
                     cudaStream_t stream) {
  for (const volume::DmaCopy& c : copies) {
    std::byte* h = c.host;
    std::byte* d = device + c.device_offset;
    cudaError_t status;
    if (c.rows == 1 && c.device_pitch == 0) {
      status = to_device ? cudaMemcpyAsync(d, h, c.width, cudaMemcpyHostToDevice, stream)
                         : cudaMemcpyAsync(h, d, c.width, cudaMemcpyDeviceToHost, stream);
    } else {
      status = to_device
                   ? cudaMemcpy2DAsync(d, c.device_row_pitch(), h, c.host_pitch, c.width, c.rows,
                                       cudaMemcpyHostToDevice, stream)
                   : cudaMemcpy2DAsync(h, c.host_pitch, d, c.device_row_pitch(), c.width, c.rows,
                                       cudaMemcpyDeviceToHost, stream);
    }
    kc::check_cuda(status, c.rows == 1 && c.device_pitch == 0 ? "cudaMemcpyAsync (page-locked host memory)"
                                       : "cudaMemcpy2DAsync (page-locked host memory)");
  }
}

}  // namespace

template <class T>
CudaBrickLane<T>::CudaBrickLane(const LaneContext<T>& context, unsigned index, std::size_t brick_bytes,
                                std::size_t workspace_bytes)
    : c_(on_its_device(context)),
      index_(index),
      e_(context.plan->element_bytes),
      stream_(on_device([] { return kc::Stream(); })),
      h2d_start_(on_device([] { return kc::Event(); })),
      h2d_end_(on_device([] { return kc::Event(); })),
      kernel_end_(on_device([] { return kc::Event(); })),
      d2h_end_(on_device([] { return kc::Event(); })),
      data_(on_device([&] { return kc::DeviceBuffer(brick_bytes, "brick"); })),
      workspace_(on_device([&] { return kc::DeviceBuffer(workspace_bytes, "workspace"); })) {}

template <class T>
CudaBrickLane<T>::~CudaBrickLane() {
  (void)cudaSetDevice(c_.device);
  (void)cudaStreamSynchronize(stream_.get());
}

template <class T>
const LaneContext<T>& CudaBrickLane<T>::on_its_device(const LaneContext<T>& context) {
  kc::check_cuda(cudaSetDevice(context.device), "cudaSetDevice");
  return context;
}

template <class T>
std::byte* CudaBrickLane<T>::resident_slab(const Shape& volume, const Box& box) const {
  const ResidentRegion& region = (*c_.regions)[c_.device_index];
  if (box.z0 < region.z0 || box.z0 + box.extent.nz > region.z1 || region.data == nullptr)
    throw std::logic_error("z-slab at plane " + std::to_string(box.z0) + " given to device " +
                           std::to_string(c_.device) + ", which does not keep it");
  return region.data + (box.z0 - region.z0) * volume.ny * volume.nx * e_;
}

template <class T>
std::size_t CudaBrickLane<T>::process(const BrickJob& job, BrickTiming& t) {
  kc::check_cuda(cudaSetDevice(c_.device), "cudaSetDevice");  // stream threads start on device 0
  const PassSpec& spec = *job.spec;
  const cudaStream_t s = stream_.get();
  const Shape volume = c_.store->shape();
  const bool carry = c_.regions != nullptr;
  // A carry-over plan's resident slabs are transformed where they stay on
  // the device; the y-slab pass copies its resident planes device to
  // device and reads only the rest from the volume, or, in the reversed
  // order, copies them back and writes only the rest (PassPlan::carry_role).
  const CarryRole role = carry ? c_.plan->carry_role(job.pass, job.box) : CarryRole::none;
  const bool in_region = role == CarryRole::keep_slab || role == CarryRole::take_slab;
  std::byte* dev = in_region ? resident_slab(volume, job.box) : static_cast<std::byte*>(data_.get());
  Box from_volume = role == CarryRole::take_slab ? Box{job.box.z0, job.box.y0, job.box.x0, {0, 0, 0}} : job.box;
  std::size_t offset = 0;  // of from_volume in the device brick
  h2d_started_ = false;
  if (role == CarryRole::take_planes) {
    mark_h2d_start();
    from_volume = c_.plan->volume_part(job.box);
    const std::size_t planes = job.box.extent.nz - from_volume.extent.nz;
    copy_resident_planes(volume, job.box, planes, dev, s, true);
    offset = planes * job.box.extent.ny * job.box.extent.nx * e_;
  }
  bool direct = false;
  std::size_t moved = 0;
  // A store of padded planes names the part of the brick that holds
  // data: the brick is zeroed where it lies and only that part goes up
  // (and comes down), so the padding's zeros never cross PCIe.
  const bool parts = !carry && c_.direct == nullptr && spec.layout == BrickLayout::natural;
  const Box read_part = parts ? c_.store->read_part(job.box) : job.box;
  if (!same_box(read_part, job.box)) {
    mark_h2d_start();
    kc::check_cuda(cudaMemsetAsync(dev, 0, job.box.elements() * e_, s), "cudaMemsetAsync (a brick's padding)");
    if (read_part.elements() > 0) moved += upload(read_part, spec.layout, dev, 0, t, direct, &job.box);
  } else if (from_volume.elements() > 0) {
    moved += upload(from_volume, spec.layout, dev, offset, t, direct);
  }
  mark_h2d_start();  // a brick wholly resident: an empty span
  h2d_end_.record(s);
  auto* values = reinterpret_cast<kernels::Complex<T>*>(dev);
  // The kernels were built for the plan's passes in their planned order; a
  // reversed run (a real inverse) takes them from the other end.
  const std::size_t kernel_index = c_.plan->reversed ? c_.plan->passes.size() - 1 - job.pass : job.pass;
  run_stages(
      spec.stages, c_.inverse, job.last_pass, c_.scale,
      [&](bool inverse, double scale) {
        c_.kernels->passes[kernel_index]->execute(values, staged_shape(job.box, spec.layout),
                                              workspace_.get(), inverse, static_cast<T>(scale), s);
      },
      [&] { c_.multiply->multiply_on_device(values, job.box.extent, {job.box.z0, job.box.y0, job.box.x0}, s); },
      [&](bool output) {
        kc::centre_brick(values, staged_shape(job.box, spec.layout), {job.box.z0, job.box.y0, job.box.x0},
                         staged_axes_of(spec.layout), *c_.centring,
                         output ? kernels::CentringSide::output : kernels::CentringSide::input, s);
      });
  kernel_end_.record(s);
  if (role == CarryRole::keep_slab) {
    // The next pass reads the slab from other streams: it must be done.
    kernel_end_.synchronize();
  } else if (role == CarryRole::keep_planes) {
    // The resident planes to their place for the next pass, the rest down.
    const Box rest = c_.plan->volume_part(job.box);
    const std::size_t planes = job.box.extent.nz - rest.extent.nz;
    copy_resident_planes(volume, job.box, planes, dev, s, false);
    if (rest.extent.nz > 0) {
      moved += download(rest, spec.layout, dev + planes * job.box.extent.ny * job.box.extent.nx * e_, t, direct);
    } else {
      d2h_end_.record(s);
      d2h_end_.synchronize();
    }
    t.d2h_start = clock_.at(kernel_end_);
    t.d2h_end = clock_.at(d2h_end_);
  } else {
    const Box write_part = parts ? c_.store->write_part(job.box) : job.box;
    if (same_box(write_part, job.box)) {
      moved += download(job.box, spec.layout, dev, t, direct);
    } else if (write_part.elements() > 0) {
      moved += download(write_part, spec.layout, dev, t, direct, &job.box);
    } else {
      d2h_end_.record(s);  // nothing of the brick is kept
      d2h_end_.synchronize();
    }
    t.d2h_start = clock_.at(kernel_end_);
    t.d2h_end = clock_.at(d2h_end_);
  }
  if (direct) c_.direct_bricks->fetch_add(1);
  t.h2d_start = clock_.at(h2d_start_);
  t.h2d_end = t.kernel_start = clock_.at(h2d_end_);
  t.kernel_end = clock_.at(kernel_end_);
  return moved;
}

template <class T>
std::size_t CudaBrickLane<T>::upload(const Box& box, BrickLayout layout, std::byte* dev, std::size_t offset,
                                     BrickTiming& t, bool& direct, const Box* brick) {
  const cudaStream_t s = stream_.get();
  std::vector<volume::DmaCopy> copies;
  if (c_.direct != nullptr && layout == BrickLayout::natural) copies = c_.direct->copies(box, volume::Transfer::upload);
  if (!copies.empty()) {
    direct = true;
    c_.turns->direct_upload.queue(s, [&] {
      mark_h2d_start();
      copy_box_direct(copies, dev + offset, true, s);
    });
    return box.elements() * e_;
  }
  StagingRing& ring = staging_ring();
  const StagedPieces pieces = staged(box, layout, ring, brick, volume::Transfer::upload);
  const std::lock_guard<std::mutex> turn(c_.turns->upload);
  t.gather_start = seconds_since(c_.start);
  ring.upload(
      pieces.boxes.size(),
      [&](std::size_t k, std::byte* slot) {
        if (pieces.packed_rows[k] != 0)
          c_.store->read_packed(pieces.boxes[k], slot);
        else
          c_.store->read(pieces.boxes[k], layout, slot);
      },
      [&](std::size_t k, std::byte* slot) {
        if (const std::size_t row = pieces.packed_rows[k]; row != 0)
          copy_packed_piece(box, pieces.boxes[k], dev + offset, slot, row, true);
        else
          copy_staged_piece(box, pieces.boxes[k], dev + offset, slot, brick, true);
      },
      [&] { mark_h2d_start(); });  // after the first gather, so the H2D span is the copies alone
  t.gather_end = seconds_since(c_.start);
  return box.elements() * e_;
}

template <class T>
std::size_t CudaBrickLane<T>::download(const Box& box, BrickLayout layout, std::byte* dev, BrickTiming& t,
                                       bool& direct, const Box* brick) {
  const cudaStream_t s = stream_.get();
  std::vector<volume::DmaCopy> copies;
  if (c_.direct != nullptr && layout == BrickLayout::natural) copies = c_.direct->copies(box, volume::Transfer::download);
  if (!copies.empty()) {
    direct = true;
    c_.turns->direct_download.queue(s, [&] { copy_box_direct(copies, dev, false, s); });
    d2h_end_.record(s);
    d2h_end_.synchronize();
    return box.elements() * e_;
  }
  StagingRing& ring = staging_ring();
  const StagedPieces pieces = staged(box, layout, ring, brick, volume::Transfer::download);
  const std::lock_guard<std::mutex> turn(c_.turns->download);
  t.scatter_start = seconds_since(c_.start);
  ring.download(
      pieces.boxes.size(),
      [&](std::size_t k, std::byte* slot) {
        if (const std::size_t row = pieces.packed_rows[k]; row != 0)
          copy_packed_piece(box, pieces.boxes[k], dev, slot, row, false);
        else
          copy_staged_piece(box, pieces.boxes[k], dev, slot, brick, false);
      },
      [&](std::size_t k, const std::byte* slot) {
        if (pieces.packed_rows[k] != 0)
          c_.store->write_packed(pieces.boxes[k], slot);
        else
          c_.store->write(pieces.boxes[k], layout, slot);
      },
      [&] { d2h_end_.record(s); });
  t.scatter_end = seconds_since(c_.start);
  return box.elements() * e_;
}

template <class T>
void CudaBrickLane<T>::mark_h2d_start() {
  if (h2d_started_) return;
  h2d_start_.record(stream_.get());
  h2d_started_ = true;
}

template <class T>
StagingRing& CudaBrickLane<T>::staging_ring() {
  if (!ring_)
    ring_.emplace(c_.staging->buffer(index_), c_.staging_bytes, c_.slot_bytes, e_, stream_.get(), *c_.arena);
  return *ring_;
}

template <class T>
std::vector<Box> CudaBrickLane<T>::staged_pieces(const Box& box, BrickLayout layout, const StagingRing& ring) const {
  if (layout == BrickLayout::natural) return device_contiguous_pieces(box, ring.slot_bytes() / e_);
  if (box.elements() * e_ > ring.slot_bytes())
    throw Error(ErrorKind::invalid_argument, "internal: a line-layout brick larger than its staging slot");
  return {box};
}

template <class T>
void CudaBrickLane<T>::copy_staged_piece(const Box& box, const Box& piece, std::byte* dev, std::byte* slot,
                                         const Box* brick, bool to_device) const {
  if (brick != nullptr) {
    copy_part_piece(*brick, piece, dev, slot, to_device);
    return;
  }
  std::byte* at = dev + offset_in(box, piece) * e_;
  const std::size_t bytes = piece.elements() * e_;
  kc::check_cuda(to_device ? cudaMemcpyAsync(at, slot, bytes, cudaMemcpyHostToDevice, stream_.get())
                           : cudaMemcpyAsync(slot, at, bytes, cudaMemcpyDeviceToHost, stream_.get()),
                 "cudaMemcpyAsync (a staged piece)");
}

template <class T>
typename CudaBrickLane<T>::StagedPieces CudaBrickLane<T>::staged(const Box& box, BrickLayout layout,
                                                                 const StagingRing& ring, const Box* brick,
                                                                 volume::Transfer transfer) const {
  // Where the store packs the brick's rows, a slot takes as many of them as
  // fit packed (a whole plane of real rows where the padded plane is a
  // little over a slot: pieces of half a plane cost a piece's overheads
  // twice), and each such piece is whole rows, which all pack (their
  // padded form may not fit the slot). Pieces cut for the brick's rows fit
  // either way (part of a row may hold only padding: it does not pack).
  const bool packs = layout == BrickLayout::natural && brick == nullptr;
  const std::size_t row = packs ? c_.store->packed_row_bytes(box, transfer) : 0;
  const bool cut_packed = row != 0 && row <= ring.slot_bytes();
  StagedPieces pieces;
  pieces.boxes = cut_packed ? device_contiguous_pieces(box, ring.slot_bytes() / row * box.extent.nx)
                            : staged_pieces(box, layout, ring);
  for (const Box& piece : pieces.boxes) {
    const std::size_t packed = packs ? c_.store->packed_row_bytes(piece, transfer) : 0;
    if (cut_packed && packed == 0)
      throw Error(ErrorKind::invalid_argument, "internal: a piece of packed rows that does not pack");
    pieces.packed_rows.push_back(packed);
  }
  return pieces;
}

template <class T>
void CudaBrickLane<T>::copy_packed_piece(const Box& box, const Box& piece, std::byte* dev, std::byte* slot,
                                         std::size_t row_bytes, bool to_device) const {
  // A piece is whole planes, whole rows of one plane or part of one row
  // (device_contiguous_pieces): its rows follow each other in the brick.
  std::byte* at = dev + offset_in(box, piece) * e_;
  const std::size_t pitch = box.extent.nx * e_, rows = piece.extent.nz * piece.extent.ny;
  kc::check_cuda(to_device ? cudaMemcpy2DAsync(at, pitch, slot, row_bytes, row_bytes, rows, cudaMemcpyHostToDevice,
                                               stream_.get())
                           : cudaMemcpy2DAsync(slot, row_bytes, at, pitch, row_bytes, rows, cudaMemcpyDeviceToHost,
                                               stream_.get()),
                 "cudaMemcpy2DAsync (a staged piece of packed rows)");
}

template <class T>
void CudaBrickLane<T>::copy_part_piece(const Box& brick, const Box& piece, std::byte* dev, std::byte* slot,
                                       bool to_device) const {
  const Shape& e = piece.extent;
  const cudaPitchedPtr host = make_cudaPitchedPtr(slot, e.nx * e_, e.nx * e_, e.ny);
  const cudaPitchedPtr device = make_cudaPitchedPtr(dev, brick.extent.nx * e_, brick.extent.nx * e_, brick.extent.ny);
  const cudaPos at = make_cudaPos((piece.x0 - brick.x0) * e_, piece.y0 - brick.y0, piece.z0 - brick.z0);
  cudaMemcpy3DParms p{};
  if (to_device) {
    p.srcPtr = host;
    p.dstPtr = device;
    p.dstPos = at;
    p.kind = cudaMemcpyHostToDevice;
  } else {
    p.srcPtr = device;
    p.srcPos = at;
    p.dstPtr = host;
    p.kind = cudaMemcpyDeviceToHost;
  }
  p.extent = make_cudaExtent(e.nx * e_, e.ny, e.nz);
  kc::check_cuda(cudaMemcpy3DAsync(&p, stream_.get()), "cudaMemcpy3DAsync (a part of a brick)");
}

template <class T>
void CudaBrickLane<T>::copy_resident_planes(const Shape& volume, const Box& box, std::size_t planes,
                                            std::byte* dev, cudaStream_t s, bool to_brick) const {
  if (planes == 0) return;
  const cudaPitchedPtr brick = make_cudaPitchedPtr(dev, box.extent.nx * e_, box.extent.nx * e_, box.extent.ny);
  for (std::size_t k = 0; k < c_.regions->size(); ++k) {
    const ResidentRegion& keeper = (*c_.regions)[k];
    const std::size_t z0 = std::max(box.z0, keeper.z0), z1 = std::min(box.z0 + planes, keeper.z1);
    if (z0 >= z1) continue;
    const cudaPitchedPtr region = make_cudaPitchedPtr(keeper.data, volume.nx * e_, volume.nx * e_, volume.ny);
    const cudaPos in_region = make_cudaPos(box.x0 * e_, box.y0, z0 - keeper.z0);
    const cudaPos in_brick = make_cudaPos(0, 0, z0 - box.z0);
    const cudaExtent extent = make_cudaExtent(box.extent.nx * e_, box.extent.ny, z1 - z0);
    if (k == c_.device_index) {
      cudaMemcpy3DParms p{};
      p.srcPtr = to_brick ? region : brick;
      p.srcPos = to_brick ? in_region : in_brick;
      p.dstPtr = to_brick ? brick : region;
      p.dstPos = to_brick ? in_brick : in_region;
      p.extent = extent;
      p.kind = cudaMemcpyDeviceToDevice;
      kc::check_cuda(cudaMemcpy3DAsync(&p, s), "cudaMemcpy3DAsync (resident planes, device to device)");
      continue;
    }
    // The exchange: the planes another device keeps (peer_exchange.hpp).
    cudaMemcpy3DPeerParms p{};
    p.srcPtr = to_brick ? region : brick;
    p.srcPos = to_brick ? in_region : in_brick;
    p.srcDevice = to_brick ? keeper.device : c_.device;
    p.dstPtr = to_brick ? brick : region;
    p.dstPos = to_brick ? in_brick : in_region;
    p.dstDevice = to_brick ? c_.device : keeper.device;
    p.extent = extent;
    kc::check_cuda(cudaMemcpy3DPeerAsync(&p, s),
                   ("cudaMemcpy3DPeerAsync (resident planes, between devices " + std::to_string(p.srcDevice) +
                    " and " + std::to_string(p.dstDevice) + ")")
                       .c_str());
    c_.exchanged_bytes->fetch_add((z1 - z0) * box.extent.ny * box.extent.nx * e_);
  }
}

template class CudaBrickLane<float>;
template class CudaBrickLane<double>;

}  // namespace oocfft::engine
