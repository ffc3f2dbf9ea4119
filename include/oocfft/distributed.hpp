#pragma once
// oocfft::DistributedPlan: a 3D FFT of a volume spread over the ranks of an
// MPI communicator, each rank holding a box of the global index space on
// input and another (or the same) on output, as heFFTe's box3d describes
// them. The real transform (numpy's rfftn / irfftn over ranks) is
// DistributedRealPlan, in distributed_real.hpp.
//
// This header and its library (the CMake target oocfft::distributed) exist
// only in a build with MPI (OOCFFT_MPI); it includes <mpi.h>. The library
// never calls MPI_Init or MPI_Finalize: the caller owns MPI, and every call
// here is collective over the plan's communicator (every rank calls it, in
// the same order). Executions of one plan must not run concurrently: their
// collectives would interleave on its communicator.
//
// Errors never hang: the arguments of every rank are gathered and checked
// on every rank, and a failure on any rank (a bad box, a null array, an
// error of the local transform) becomes the same oocfft::Error on every
// rank, the first failing rank's, agreed before any data moves on.
//
// Devices: each rank transforms the planes of its z-slab and the z lines
// of its y-slab with the single-node engine and the plan's Options, with
// one exception. When Options::devices is left at its default (the
// current device) and the backend resolves to CUDA, rank k of a node (its
// rank among the ranks sharing the node's memory, MPI_COMM_TYPE_SHARED)
// runs on CUDA device k modulo the devices the process sees
// (cuda_device_count()): mpirun -np 4 on a four-GPU node puts one rank on
// each GPU, where the default would put all four on device 0 (a launcher
// that gives each rank one GPU through CUDA_VISIBLE_DEVICES still works:
// each rank then sees one device and takes it). A named
// Devices list is used as given (each rank may pass its own), and the host
// backend is unchanged. describe() says which device the rank uses.
//
// On one node, resident on its GPUs: where every rank of the plan is on
// one node with one CUDA device of its own (or shared), the devices reach
// each other as peers, and each holds its rank's z-slab and y-slab (within
// an explicit device_memory_budget), the planes, the global transpose
// and the z lines run on the devices, the transpose as copies between them
// (CUDA IPC; no CUDA-aware MPI): a rank's share crosses its link once up
// and once down. Each rank then holds two slabs' worth of device memory for
// the plan's life. describe() says whether the plan runs so, or why not;
// the real plan, and plans over several nodes, use the host exchanges
// below.
//
// Exchanges and memory: ranks of one node exchange through its shared
// memory (MPI_Win_allocate_shared, which OpenMPI maps in /dev/shm; where
// that has too little room the plan uses MPI alone), ranks of other nodes
// through MPI_Alltoallv. A plan holds, beside the caller's arrays, one
// exchange round's shared segment (at most about 1 GiB a rank) and, where
// every out box is its z-slab, two rounds' pencils (at most 2 GiB each a
// rank, page-locked for the rank's GPU), for its life. Those rounds
// overlap a round's z lines with the exchanges of the rounds beside it
// when the caller initialised MPI with MPI_THREAD_FUNNELED (calling from
// the main thread) or MPI_THREAD_SERIALIZED and up; with MPI_Init's
// single level they run one after another. Destroying a plan is
// collective too (it frees the plan's communicator and shared windows):
// every rank destroys its plan, as every rank made it.
//
// Centred data (Options::shift): numpy's fftshift(fftn(ifftshift(u)))
// (fftshift(ifftn(ifftshift(U))) for the inverse) over the global shape,
// odd lengths included, as one process computes it. The shifts are phase
// multiplies by the shift theorem, on the points a rank holds anyway: on
// its z-slab before its planes and on its y-slab (or z-slab) after the z
// lines, no data moved for them. Where a rank's in box is its z-slab, or
// its out box that slab of the result, the copy the plan makes of it
// carries them (out of place); elsewhere each is a host sweep over the
// slab. describe() says which, with the bytes each sweep reads and writes.
#include <mpi.h>

#include <array>
#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "oocfft/error.hpp"
#include "oocfft/options.hpp"
#include "oocfft/shape.hpp"

namespace oocfft {

// A box of the global index space: the points with low[a] <= i[a] <=
// high[a] on each axis a, both ends inclusive (heFFTe's convention), the
// axes in Shape's order (z, y, x). A box with high[a] < low[a] on some
// axis is empty: a rank may hold nothing. A rank's array for its box is
// in C order over the box's extents (x fastest), as the whole volume is.
struct Box3 {
  std::array<std::int64_t, 3> low{0, 0, 0};
  std::array<std::int64_t, 3> high{-1, -1, -1};

  bool empty() const { return high[0] < low[0] || high[1] < low[1] || high[2] < low[2]; }
  // Points in the box (0 when empty).
  std::size_t count() const;
  // Its extents as a Shape ({0, 0, 0} when empty).
  Shape extent() const;
  bool operator==(const Box3&) const = default;
};

// Collective over `comm`: runs `step` on this rank, then throws on every
// rank the Error of the lowest rank whose step threw (std::bad_alloc as
// Error(out_of_memory)), or returns on every rank. The library runs each of
// its own steps so; a caller runs its own checks so before a collective
// job, so that a refusal on one rank is every rank's and none waits for it.
void agree_on_step(MPI_Comm comm, const std::function<void()>& step);

// The whole of `shape` as one box.
Box3 whole_box(Shape shape);
// Rank `rank` of `ranks`' share of `shape` split along `axis` (0 = z,
// 1 = y, 2 = x) into contiguous slabs that differ by at most one plane, the first
// ranks taking the larger ones; empty when the axis is shorter than the
// ranks.
Box3 slab_box(Shape shape, int axis, int rank, int ranks);

class DistributedPlan {
 public:
  // Collective over `comm` (duplicated: the plan's messages never mix with
  // the caller's). `shape`, `precision`, Options::norm and Options::shift
  // must be the same on every rank; the ranks' in boxes must tile the
  // shape exactly (inside it, no two overlapping, no point left out), and
  // so must the out boxes. Throws, on every rank alike,
  // Error(invalid_argument) for arguments that break this. Boxes of any
  // size: the exchanges move them in rounds whose counts fit MPI's ints.
  DistributedPlan(MPI_Comm comm, Shape shape, Box3 in_box, Box3 out_box, Precision precision,
                  const Options& options = {});
  ~DistributedPlan();
  DistributedPlan(DistributedPlan&&) noexcept;
  DistributedPlan& operator=(DistributedPlan&&) noexcept;
  DistributedPlan(const DistributedPlan&) = delete;
  DistributedPlan& operator=(const DistributedPlan&) = delete;

  // Collective. `in`: this rank's in box of the global volume (never
  // written); `out`: its out box of the global transform, with numpy's
  // norm over the global shape (Options::norm), centred when
  // Options::shift. A rank with an empty box
  // may pass null for it. `out` may be `in` when the boxes are the same
  // (in place): every rank's input is read before any output is written.
  // The element type must match the plan's precision.
  //
  // Options::progress is called on rank 0 only, for the whole job, after
  // each of three steps: the z-slabs' planes (with the exchange before
  // them), the y-slabs' z lines (with the transpose before them), the
  // exchange to the out boxes. Progress counts steps (bricks_done of
  // bricks_total, pass of passes); bytes_moved stays 0. Options::cancel is
  // polled on each rank, as the single-node engine polls it, and before
  // the z lines; a cancel on one rank ends the run on every rank.
  void forward(const std::complex<float>* in, std::complex<float>* out) const;
  void forward(const std::complex<double>* in, std::complex<double>* out) const;
  void inverse(const std::complex<float>* in, std::complex<float>* out) const;
  void inverse(const std::complex<double>* in, std::complex<double>* out) const;

  Shape shape() const;
  Precision precision() const;
  Box3 in_box() const;
  Box3 out_box() const;
  // The steps of a run on this rank and the bytes each exchange moves.
  std::string describe() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace oocfft
