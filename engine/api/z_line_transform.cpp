#include "engine/api/z_line_transform.hpp"

#include <tbb/task_arena.h>

#include "engine/api/host_threads.hpp"
#include "kernels/host_executor.hpp"
#include "kernels/line_batch.hpp"
#include "kernels/line_plan.hpp"
#include "kernels/radix_schedule.hpp"

namespace oocfft::engine {

template <class T>
struct ZLineTransform<T>::State {
  std::shared_ptr<const kernels::LinePlan<T>> plan;
  std::shared_ptr<tbb::task_arena> arena;
};

template <class T>
ZLineTransform<T>::ZLineTransform(std::size_t nz, const Options& options)
    : state_(std::make_unique<State>(
          State{kernels::make_line_plan<T>(nz, kernels::host_composite_radices), make_arena(options)})) {}

template <class T>
ZLineTransform<T>::~ZLineTransform() = default;
template <class T>
ZLineTransform<T>::ZLineTransform(ZLineTransform&&) noexcept = default;
template <class T>
ZLineTransform<T>& ZLineTransform<T>::operator=(ZLineTransform&&) noexcept = default;

template <class T>
std::size_t ZLineTransform<T>::length() const {
  return state_->plan->length();
}

template <class T>
void ZLineTransform<T>::execute(std::complex<T>* data, std::size_t columns, bool inverse, double scale) const {
  if (columns == 0) return;
  const std::size_t nz = length();
  const auto stride = static_cast<std::ptrdiff_t>(columns);
  // Neighbouring columns as lanes, so the executor reads rows (line_batch.hpp).
  const kernels::LineBatch z_lines{nz, stride, columns, 1, 1, 0};
  state_->arena->execute([&] {
    kernels::execute_lines_host(*state_->plan, reinterpret_cast<kernels::Complex<T>*>(data), z_lines, inverse,
                                static_cast<T>(scale));
  });
}

template class ZLineTransform<float>;
template class ZLineTransform<double>;

}  // namespace oocfft::engine
