#include "engine/backends/host/axis_plans.hpp"

namespace oocfft::engine {

template <class T>
AxisPlans<T>::AxisPlans(const Shape& shape, const kernels::VolumeTransform& transform) {
  constexpr auto composites = kernels::host_composite_radices;
  if (transform.kind == kernels::TransformKind::real)
    real_x = std::make_shared<const kernels::RealLinePlan<T>>(transform.real_length);
  if (transform.kind == kernels::TransformKind::trig) {
    const kernels::TrigKind back = kernels::inverse_kind(transform.trig);
    for (const std::size_t n : {shape.nz, shape.ny, shape.nx}) {
      trig_forward.push_back(std::make_shared<const kernels::TrigLinePlan<T>>(n, transform.trig, transform.trig_norm));
      trig_inverse.push_back(std::make_shared<const kernels::TrigLinePlan<T>>(n, back, transform.trig_norm));
    }
  }
  x = kernels::make_line_plan<T>(shape.nx, composites);
  y = shape.ny == shape.nx ? x : kernels::make_line_plan<T>(shape.ny, composites);
  z = shape.nz == shape.nx ? x : shape.nz == shape.ny ? y : kernels::make_line_plan<T>(shape.nz, composites);
}

template <class T>
std::string AxisPlans<T>::describe() const {
  std::string s;
  const char* names[] = {"z", "y", "x"};
  const kernels::LinePlan<T>* plans[] = {z.get(), y.get(), x.get()};
  for (int a = 0; a < 3; ++a) {
    if (!trig_forward.empty()) {
      s += std::string("  axis ") + names[a] + ": " + trig_forward[a]->summary() + "; inverse " +
           trig_inverse[a]->summary() + "\n";
      continue;
    }
    if (a == 2 && real_x) {
      s += "  axis x: real n=" + std::to_string(real_x->length()) + " -> " + std::to_string(real_x->half_length()) +
           " complex: " + real_x->summary() + "\n";
      continue;
    }
    s += std::string("  axis ") + names[a] + ": n=" + std::to_string(plans[a]->length()) + " " +
         plans[a]->summary() + " [" + plans[a]->factorization.reason + "]\n";
  }
  return s;
}

template struct AxisPlans<float>;
template struct AxisPlans<double>;

}  // namespace oocfft::engine
