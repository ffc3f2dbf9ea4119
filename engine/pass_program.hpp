#pragma once
// What a pass does to each brick while it is on the device, in order: its
// stages. A 3D transform's pass has one, `transform` (the run's direction).
// A pass program for angular-spectrum propagation (optics/) holds the
// spectrum on the device between a forward transform, the pointwise
// multiply by the transfer function and the inverse transform, so the
// field does not cross PCIe in between: ASM is a program of the one
// engine, not a second engine.
#include <string>
#include <vector>

namespace oocfft::engine {

enum class Stage {
  transform,  // the pass's axes, in the direction of the run
  forward,    // the pass's axes, forward
  multiply,   // pointwise, by the run's spectrum filter (RunContext::filter)
  inverse,    // the pass's axes, inverse
};

const char* to_string(Stage stage) noexcept;
// "forward, multiply, inverse".
std::string describe_stages(const std::vector<Stage>& stages);

// Runs `stages` on one brick through the backend's two primitives:
// transform(inverse, scale) along the pass's axes, and multiply(). The
// run's scale goes to the last transform of the last pass.
template <class Transform, class Multiply>
void run_stages(const std::vector<Stage>& stages, bool run_inverse, bool last_pass, double scale,
                Transform&& transform, Multiply&& multiply) {
  std::size_t last_transform = stages.size();
  for (std::size_t i = 0; i < stages.size(); ++i)
    if (stages[i] != Stage::multiply) last_transform = i;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const double s = last_pass && i == last_transform ? scale : 1.0;
    switch (stages[i]) {
      case Stage::transform: transform(run_inverse, s); break;
      case Stage::forward: transform(false, s); break;
      case Stage::inverse: transform(true, s); break;
      case Stage::multiply: multiply(); break;
    }
  }
}

}  // namespace oocfft::engine
