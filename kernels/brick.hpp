#pragma once
// Moved to core/geometry.hpp (a brick's extent is an oocfft::Shape); this
// forwarder goes once its last includers are switched.
#include "core/geometry.hpp"

namespace oocfft::kernels {
using BrickShape = oocfft::Shape;
using oocfft::AxisSet;
}  // namespace oocfft::kernels
