#pragma once
// What every rank passes to a distributed plan (its shape, its precision,
// its two boxes), gathered on every rank and checked there, so that every
// rank reaches the same verdict on the same arguments and refuses them
// with the same Error before any data moves. The two boxes of a rank may
// live in different index spaces: a complex plan's in and out boxes both
// in the shape's, a real plan's real boxes in the real shape's and its
// spectrum boxes in the half spectrum's.
#include <mpi.h>

#include <vector>

#include "oocfft/distributed.hpp"

namespace oocfft::distributed {

// An index space boxes must tile, and what its boxes are called in errors
// ("in", "out", "real", "spectrum").
struct BoxSpace {
  Shape shape;
  const char* name;
};

// Every rank's two boxes, in rank order.
struct RankBoxes {
  std::vector<Box3> first;
  std::vector<Box3> second;
};

// Collective over `comm`: gathers every rank's `shape`, `precision` and
// boxes, then throws on every rank alike Error(invalid_argument) when
// `shape` has an axis of length 0, when a rank passes another shape or
// precision than rank 0, or when the ranks' first boxes do not tile
// `first_space` or their second boxes `second_space` (box_partition.hpp),
// or when a rank's Options::norm or Options::shift differs from rank 0's
// (one rank's alone would give a volume that is no transform, silently).
RankBoxes gather_checked_boxes(MPI_Comm comm, Shape shape, Precision precision, const Options& options,
                               const Box3& first, const Box3& second, const BoxSpace& first_space,
                               const BoxSpace& second_space);

}  // namespace oocfft::distributed
