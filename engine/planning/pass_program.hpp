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

#include "kernels/centring.hpp"
#include "core/geometry.hpp"

namespace oocfft::engine {

enum class Stage {
  transform,      // the pass's axes, in the direction of the run
  forward,        // the pass's axes, forward
  multiply,       // pointwise, by the run's spectrum filter (RunContext::filter)
  inverse,        // the pass's axes, inverse
  centre_input,   // pointwise: ifftshift of the input, as phases (kernels/centring.hpp)
  centre_output,  // pointwise: fftshift of the output, as phases
};

const char* to_string(Stage stage) noexcept;

// The volume axes of a staged brick's dimensions in `layout`
// (core/geometry.hpp), for the centring phases.
constexpr kernels::StagedAxes staged_axes_of(oocfft::BrickLayout layout) {
  switch (layout) {
    case oocfft::BrickLayout::natural: return {{0, 1, 2}};
    case oocfft::BrickLayout::y_lines: return {{0, 2, 1}};  // [z][x][y]
    case oocfft::BrickLayout::z_lines: return {{1, 2, 0}};  // [y][x][z]
  }
  return {};
}
// "forward, multiply, inverse".
std::string describe_stages(const std::vector<Stage>& stages);

// Runs `stages` on one brick through the backend's three primitives:
// transform(inverse, scale) along the pass's axes, multiply(), and
// centre(output). The run's scale goes to the last transform of the last
// pass.
template <class Transform, class Multiply, class Centre>
void run_stages(const std::vector<Stage>& stages, bool run_inverse, bool last_pass, double scale,
                Transform&& transform, Multiply&& multiply, Centre&& centre) {
  std::size_t last_transform = stages.size();
  for (std::size_t i = 0; i < stages.size(); ++i)
    if (stages[i] == Stage::transform || stages[i] == Stage::forward || stages[i] == Stage::inverse)
      last_transform = i;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const double s = last_pass && i == last_transform ? scale : 1.0;
    switch (stages[i]) {
      case Stage::transform: transform(run_inverse, s); break;
      case Stage::forward: transform(false, s); break;
      case Stage::inverse: transform(true, s); break;
      case Stage::multiply: multiply(); break;
      case Stage::centre_input: centre(false); break;
      case Stage::centre_output: centre(true); break;
    }
  }
}

}  // namespace oocfft::engine
