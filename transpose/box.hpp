#pragma once
// Moved to core/geometry.hpp; this forwarder goes once its last includers
// are switched.
#include "core/geometry.hpp"

namespace oocfft::transpose {
using BrickShape = oocfft::Shape;
using oocfft::Box;
using oocfft::BrickLayout;
using oocfft::staged_shape;
}  // namespace oocfft::transpose
