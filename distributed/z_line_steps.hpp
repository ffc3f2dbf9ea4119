#pragma once
// ZLineSteps: the global z lines of a distributed transform, the steps
// after each rank's planes: between every rank's z-slab (its planes
// transformed) and the caller's boxes, over a complex volume (the complex
// plan's shape, the real plan's half spectrum).
//   to_boxes    z-slabs -> y-slabs (the global transpose), the z lines of
//               each y-slab (engine::ZLineTransform), y-slabs -> boxes;
//   from_boxes  the same backwards: boxes -> y-slabs, the z lines,
//               y-slabs -> z-slabs (a real inverse, whose planes come
//               last).
// Where every rank's box is its z-slab, the transpose and the z lines are
// rounds of pencils in the z-slab itself (pencil_rounds.hpp) and there is
// no y-slab: the exchange with the boxes is then a copy at most.
// Both plans (distributed_plan.cpp, distributed_real_plan.cpp) run these
// steps; each reports its own progress around them.
//
// Between ranks of a node the y-slabs and the pencils lie in its shared
// memory where it has room (node_window.hpp): a rank copies its points
// straight into its peers' y-slabs or pencils and reads them straight
// back, one copy each way; the y-slabs are allocated by each run, the
// pencils once (place_buffers).
#include <mpi.h>

#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "distributed/box_exchange.hpp"
#include "distributed/centring_phases.hpp"
#include "distributed/in_precision.hpp"
#include "distributed/node_window.hpp"
#include "distributed/pencil_rounds.hpp"
#include "distributed/run_controls.hpp"
#include "distributed/uninitialised_buffer.hpp"
#include "engine/api/z_line_transform.hpp"
#include "oocfft/distributed.hpp"

namespace oocfft::distributed {

class ZLineSteps {
 public:
  // `shape`: the complex volume; `boxes`: every rank's box on the far side
  // of the z lines, in rank order (tiling `shape`); this `rank` of
  // `ranks`; `local`: the options of the rank's z pass (its device,
  // budgets, threads, cancel).
  // `page_locked`: the pencils' buffers page-locked for the rank's GPU.
  ZLineSteps(Shape shape, const std::vector<Box3>& boxes, int rank, int ranks, Precision precision,
             const Options& local, bool page_locked);

  // Collective over `comm`, once, before a run: the pencils' buffers
  // (PencilRounds::place_buffers); nothing without rounds.
  void place_buffers(MPI_Comm comm);
  // The segment a NodeWindow needs for these steps' exchanges (those that
  // do not copy straight between shared arrays); the same on every rank.
  std::size_t round_bound_bytes() const;
  // Bytes this rank sends in one run to the ranks r with `chosen[r]`.
  std::size_t bytes_to(const std::vector<bool>& chosen) const;

  // True when every box is its z-slab: pencil rounds, no y-slab.
  bool in_rounds() const { return pencils_.has_value(); }

  // Collective over `comm`. `z_slab`: this rank's z-slab (C order over
  // it), read, and in rounds transformed where it lies; `out`: its box
  // (may be `z_slab` itself in rounds: nothing then moves). The z lines
  // are multiplied by `scale`. `controls` is polled for a cancel before the
  // z lines and reports step `z_lines_step` after them.
  // `node`: the node's segments for the exchanges, or null. `centring`:
  // the output's phases of a centred transform (Options::shift), applied
  // to the y-slab (in rounds: the z-slab) before the last exchange, or
  // carried by its copy where this rank's box is that slab; null: none.
  template <class T>
  void to_boxes(MPI_Comm comm, std::complex<T>* z_slab, std::complex<T>* out, bool inverse, double scale,
                const RunControls& controls, unsigned z_lines_step, const NodeWindow* node = nullptr,
                const CentringPhases* centring = nullptr) const;
  // Collective over `comm`: `in`, this rank's box (never written), to its
  // z-slab `z_slab` with the z lines transformed, as above.
  template <class T>
  void from_boxes(MPI_Comm comm, const std::complex<T>* in, std::complex<T>* z_slab, bool inverse, double scale,
                  const RunControls& controls, unsigned z_lines_step, const NodeWindow* node = nullptr) const;

  // The steps in forward order, numbered from `first` ("3"), the boxes
  // called `boxes` ("out", "spectrum").
  std::string describe(unsigned first, const std::string& boxes) const;
  // The backwards order of from_boxes, in one line.
  std::string describe_backwards(const std::string& boxes) const;

 private:
  template <class T>
  void z_lines_of(MPI_Comm comm, std::complex<T>* y_slab, bool inverse, double scale,
                  const RunControls& controls) const;
  // The last exchange of to_boxes, from `last` (this rank's `slab`) to its
  // box `out`, with the output's phases when centred.
  template <class T>
  void into_boxes(MPI_Comm comm, const BoxExchange& exchange, std::complex<T>* last, const Box3& slab,
                  std::complex<T>* out, bool inverse, const NodeWindow* node, std::optional<PeerArrays> peers,
                  const CentringPhases* centring) const;

  // This run's y-slabs: every rank's in the node's shared memory, or this
  // rank's own; agreed on every rank.
  template <class T>
  struct YSlabs {
    std::optional<NodeWindow> shared;
    std::optional<UninitialisedBuffer<std::complex<T>>> own;
    std::complex<T>* data = nullptr;
    std::optional<PeerArrays> peers(PeerArrays::Side side) const {
      if (!shared) return std::nullopt;
      return PeerArrays{&*shared, 0, side};
    }
  };
  template <class T>
  void allocate(MPI_Comm comm, YSlabs<T>& slabs) const;

  Box3 y_slab_;
  int rank_ = 0;
  int ranks_ = 1;
  std::size_t largest_y_slab_ = 0;  // points of the largest rank's y-slab: the stride of shared y-slabs
  std::optional<PencilRounds> pencils_;
  InPrecision<engine::ZLineTransform> z_lines_;
  // Forward order: z-slabs -> y-slabs -> boxes, or z-slabs -> boxes in
  // rounds; backwards: boxes -> y-slabs -> z-slabs, or boxes -> z-slabs.
  std::optional<BoxExchange> z_slabs_to_y_slabs_, y_slabs_to_boxes_, boxes_to_y_slabs_, y_slabs_to_z_slabs_;
  std::optional<BoxExchange> z_slabs_to_boxes_, boxes_to_z_slabs_;
};

extern template void ZLineSteps::to_boxes(MPI_Comm, std::complex<float>*, std::complex<float>*, bool, double,
                                          const RunControls&, unsigned, const NodeWindow*,
                                          const CentringPhases*) const;
extern template void ZLineSteps::to_boxes(MPI_Comm, std::complex<double>*, std::complex<double>*, bool, double,
                                          const RunControls&, unsigned, const NodeWindow*,
                                          const CentringPhases*) const;
extern template void ZLineSteps::from_boxes(MPI_Comm, const std::complex<float>*, std::complex<float>*, bool, double,
                                            const RunControls&, unsigned, const NodeWindow*) const;
extern template void ZLineSteps::from_boxes(MPI_Comm, const std::complex<double>*, std::complex<double>*, bool,
                                            double, const RunControls&, unsigned, const NodeWindow*) const;

}  // namespace oocfft::distributed
