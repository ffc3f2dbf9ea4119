#pragma once
// ZLineTransform: the transform along z alone of a host volume (a y-slab
// (nz, ny_local, nx) in C order), in place, streamed through the devices of
// its options by the engine (a lone "z on y-slabs" pass, PlannerInput::
// z_lines_only), on the CUDA or the host backend.
//
// Internal entry point for the distributed plan (include/oocfft/distributed.hpp):
// after the global transpose each rank holds a y-slab whose x and y are
// already transformed, and the public API has no z-only transform (Axes::all
// would transform x and y again; Axes::planes transforms the last two axes).
#include <complex>
#include <cstddef>
#include <memory>
#include <string>

#include "oocfft/options.hpp"
#include "oocfft/shape.hpp"

namespace oocfft {
struct RunReport;
}

namespace oocfft::engine {

template <class T>
class ZLineTransform {
 public:
  // Plans the z lines of a volume of `shape` with `options` (its backend,
  // devices, budgets, streams, threads, progress and cancel).
  ZLineTransform(Shape shape, const Options& options);
  ~ZLineTransform();
  ZLineTransform(ZLineTransform&&) noexcept;
  ZLineTransform& operator=(ZLineTransform&&) noexcept;

  Shape shape() const;
  // Transforms the nz-point lines data[c + z * ny * nx], z in [0, nz), of
  // every column c, and multiplies them by `scale`.
  void execute(std::complex<T>* data, bool inverse, double scale, RunReport* report = nullptr) const;
  std::string describe() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

extern template class ZLineTransform<float>;
extern template class ZLineTransform<double>;

}  // namespace oocfft::engine
