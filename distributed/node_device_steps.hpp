#pragma once
// NodeDeviceSteps: steps 2-4 of a distributed complex transform (each
// rank's planes, the global transpose, the z lines and the transpose
// back) resident on the GPUs, where every rank of the plan is on one node,
// each on one CUDA device, and each device holds its rank's z-slab and
// y-slab at once.
//
// Why: the host path (pencil_rounds.hpp) sends every rank's share through
// host memory twice more for the z lines, so it is bound by the node's
// memory copies; here a share crosses its rank's link once up and once
// down, as the single-process engine's resident plan across devices does,
// and the transpose moves between the devices (NVLink where they have it).
//
//   1. the rank's z-slab goes up in chunks of planes, each transformed along
//      x and y (DeviceBrickPlan) as it lands, on four streams;
//   2. after every rank's planes (a barrier), each rank pulls its y-slab,
//      in chunks of y rows, from every rank's z-slab on its device; a
//      chunk is a brick [nz][rows][nx], transformed along z as its pulls
//      land;
//   3. after every rank's z lines (a barrier), each rank pulls its z-slab
//      back from every rank's y-slab chunks into its z-slab buffer, and
//   4. downloads it in chunks of planes.
// The peers' buffers are mapped by CUDA IPC (their cudaIpcMemHandle_t
// gathered over MPI at plan time); MPI carries only the handles and the
// barriers: no CUDA-aware MPI is assumed. Devices are matched across
// processes by PCI bus id, so each rank may see its own set of devices.
//
// Compiled only with CUDA (distributed/CMakeLists.txt).
#include <mpi.h>

#include <complex>
#include <cstddef>
#include <memory>
#include <string>

#include "distributed/run_controls.hpp"
#include "oocfft/distributed.hpp"
#include "oocfft/options.hpp"

namespace oocfft::distributed {

class NodeDeviceSteps {
 public:
  // Collective over `comm`: the steps for `shape` on this `rank` of `ranks`,
  // with the options of the rank's local transforms `local`, where every
  // rank can run them (the conditions above; an explicit
  // Options::device_memory_budget must hold the buffers too); else null,
  // on every rank, and `why_not` says which condition failed first (the
  // same text on every rank). Errors other than a condition (a CUDA
  // failure building the kernels) are agreed and thrown on every rank.
  static std::unique_ptr<NodeDeviceSteps> make(MPI_Comm comm, Shape shape, Precision precision,
                                               const Options& local, std::string& why_not);
  ~NodeDeviceSteps();
  NodeDeviceSteps(const NodeDeviceSteps&) = delete;
  NodeDeviceSteps& operator=(const NodeDeviceSteps&) = delete;

  // Collective over `comm`: `in`, this rank's z-slab (C order), through
  // steps 1-4 to `out`, its z-slab again (may be `in`), the z lines
  // multiplied by `scale`. Host arrays page-locked for CUDA move by DMA,
  // others through the driver's staging. A failure or cancel on any rank
  // becomes the same Error on every rank, between steps; `controls`
  // reports steps `first_step` (the planes) and `first_step + 1` (the z
  // lines).
  template <class T>
  void run(MPI_Comm comm, const std::complex<T>* in, std::complex<T>* out, bool inverse, double scale,
           const RunControls& controls, unsigned first_step) const;

  // The steps, numbered from `first`, for describe().
  std::string describe(unsigned first) const;

  class Impl;

 private:
  explicit NodeDeviceSteps(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

extern template void NodeDeviceSteps::run(MPI_Comm, const std::complex<float>*, std::complex<float>*, bool, double,
                                          const RunControls&, unsigned) const;
extern template void NodeDeviceSteps::run(MPI_Comm, const std::complex<double>*, std::complex<double>*, bool,
                                          double, const RunControls&, unsigned) const;

}  // namespace oocfft::distributed
