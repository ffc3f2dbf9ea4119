#pragma once
// ZLineTransform: the transform along z alone of a host volume laid out
// [z][columns] (a y-slab (nz, ny_local, nx) in C order has ny_local * nx
// columns), in place, on the host executor.
//
// Internal entry point for the distributed plan (include/oocfft/distributed.hpp):
// after the global transpose each rank holds y-slabs whose x and y are
// already transformed, and the public API has no z-only transform (Axes::all
// would transform x and y again; Axes::planes transforms the last two axes).
// It runs the host executor's z lines, as the host backend's in-core plan
// does, not the streaming engine's y-slab pass: a rank's y-slab is held in
// host memory here. Streaming it through a device (the engine's "z on
// y-slabs" pass on its own) is the step that puts a GPU under each rank.
#include <complex>
#include <cstddef>
#include <memory>

#include "oocfft/options.hpp"

namespace oocfft::engine {

template <class T>
class ZLineTransform {
 public:
  // The lines run in the arena a Plan with `options` would use
  // (Options::threads and host_threads, engine/api/host_threads.hpp).
  ZLineTransform(std::size_t nz, const Options& options);
  ~ZLineTransform();
  ZLineTransform(ZLineTransform&&) noexcept;
  ZLineTransform& operator=(ZLineTransform&&) noexcept;

  std::size_t length() const;
  // Transforms the nz-point lines data[c + z * columns], z in [0, nz), of
  // every column c in [0, columns), and multiplies them by `scale`.
  void execute(std::complex<T>* data, std::size_t columns, bool inverse, double scale) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

extern template class ZLineTransform<float>;
extern template class ZLineTransform<double>;

}  // namespace oocfft::engine
