#pragma once
// InPrecision<Transform>: a rank's local engine transform (a template on
// float or double: engine::ZLineTransform, engine::RealPlaneTransform) in
// the precision the plan was made for, chosen at run time, and reached by
// the element type of the arrays a run is called with; none on a rank
// whose part is empty.
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "oocfft/options.hpp"

namespace oocfft::distributed {

template <template <class> class Transform>
class InPrecision {
 public:
  // Builds the transform of `precision` from `args`.
  template <class... Args>
  void emplace(Precision precision, Args&&... args) {
    if (precision == Precision::single)
      single_.emplace(std::forward<Args>(args)...);
    else
      double_.emplace(std::forward<Args>(args)...);
  }

  // The transform for arrays of T; null when none was built for T.
  template <class T>
  const Transform<T>* get() const {
    if constexpr (std::is_same_v<T, float>)
      return single_ ? &*single_ : nullptr;
    else
      return double_ ? &*double_ : nullptr;
  }

  // The built transform's describe(), or empty.
  std::string describe() const {
    return single_ ? single_->describe() : double_ ? double_->describe() : std::string();
  }

 private:
  std::optional<Transform<float>> single_;
  std::optional<Transform<double>> double_;
};

}  // namespace oocfft::distributed
